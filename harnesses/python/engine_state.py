"""The template engine's state (one DVM's nodes, jobs, allocations, who is
calling) and Attrs, a request's pmix_info_t array as this PMIx understands
it. Replace these with your runtime's own view when you adapt the template."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

from errors import Rejected
from pmix_names import DEFAULT_SESSION, PMIX_ERR_BAD_PARAM


@dataclass
class Node:
    name: str
    slots: int
    startup: bool  # True: in the DVM since start; False: the scheduler's node
    in_dvm: bool
    available_to: str = DEFAULT_SESSION  # '' = default session, else an allocation id
    allocation: Optional[str] = None  # the allocation holding it (reserved or shared)
    in_use: int = 0  # slots occupied by running processes


@dataclass
class Proc:
    rank: int
    node: str
    running: bool = True
    counts: bool = True  # False for a tool app's process: it takes no slot


@dataclass
class Job:
    nspace: str
    procs: list[Proc]
    parent: Optional[str]  # the spawning job's namespace (None: a tool or the scheduler spawned it)
    primary: str  # its primary session: an allocation id, or '' for the default session
    state: str = "RUNNING"


@dataclass
class Allocation:
    alloc_id: str
    session_id: int
    owner: str  # the owning namespace: its end applies the disposition
    owners: set[str]  # the authorisation set: who may spawn into / extend / release it
    shared: bool  # PMIX_ALLOC_SHARE=true: its nodes are in the default session
    req_id: Optional[str] = None
    # (requester namespace, PMIX_ALLOC_REQ_ID): a request id is the requester's own (IP-REQ-ID-SCOPE)
    req_key: Optional[tuple[str, str]] = None
    nodes: list[str] = field(default_factory=list)


@dataclass
class Caller:
    """Who makes a PMIx call: 'scheduler', 'tool' or 'app' (a process of a job)."""

    kind: str
    nspace: str
    rank: int


class Attrs:
    """A request's pmix_info_t array, as this PMIx understands it.

    A key the PMIx under test does not define (start's withoutKeys, with
    emulate-missing-keys) is simply not understood: it is dropped here, so the
    rest of the engine sees the request exactly as if the attribute were
    absent (interpretation point IP-MISSING-KEY-IGNORED).
    """

    def __init__(self, info: list[dict], unknown_keys: set[str]):
        self._values: dict[str, Any] = {}
        self._required: set[str] = set()
        for item in info:
            key = item["key"]
            if key in unknown_keys or key in self._values:
                continue  # not understood, or a repeat: the first occurrence wins
            self._values[key] = item["value"]
            if item.get("required"):
                self._required.add(key)

    def has(self, key: str) -> bool:
        return key in self._values

    def required(self, key: str) -> bool:
        return key in self._required

    def get(self, key: str) -> Any:
        return self._values.get(key)

    def string(self, key: str) -> Optional[str]:
        value = self._values.get(key)
        if value is not None and not isinstance(value, str):
            raise Rejected(PMIX_ERR_BAD_PARAM, f"{key} must be a string, not {value!r}")
        return value

    def integer(self, key: str) -> Optional[int]:
        value = self._values.get(key)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise Rejected(PMIX_ERR_BAD_PARAM, f"{key} must be an integer, not {value!r}")
        return value

    def boolean(self, key: str) -> Optional[bool]:
        value = self._values.get(key)
        if value is not None and not isinstance(value, bool):
            raise Rejected(PMIX_ERR_BAD_PARAM, f"{key} must be a bool, not {value!r}")
        return value

    def strings(self, key: str) -> Optional[list[str]]:
        """A key that takes one string or an array of strings (PMIX_SPAWN_TARGET)."""
        value = self._values.get(key)
        if value is None:
            return None
        values = value if isinstance(value, list) else [value]
        if not all(isinstance(v, str) for v in values):
            raise Rejected(PMIX_ERR_BAD_PARAM, f"{key} must be a string or an array of strings")
        return values

    def node_names(self, key: str) -> Optional[list[str]]:
        """PMIX_ALLOC_NODE_LIST: a comma-separated string (or, leniently, an array)."""
        value = self.strings(key)
        if value is None:
            return None
        return [n.strip() for part in value for n in part.split(",") if n.strip()]

