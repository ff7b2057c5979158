#!/usr/bin/env python3
"""A template harness for the PMIx dynamic-resource conformance suite.

It speaks the suite's wire protocol (schemas/README.md): one JSON request per
line on stdin, one JSON response per line on stdout. Behind the protocol sits
a small in-memory "engine" that behaves the way the features in
features/reservation/ and features/INTERPRETATIONS.md say a runtime must:

  * a DVM: the startup nodes form the default session; the scheduler owns a
    pool of further nodes it can grant to dynamic allocations;
  * tools connect and disconnect; jobs are spawned (by-slot mapping, no
    oversubscription, -host restriction) and terminate;
  * PMIx_Allocation_request with PMIX_ALLOC_NEW / EXTEND / RELEASE, routed by
    the decision table (requester class x PMIX_ALLOC_TARGET x PMIX_ALLOC_SHARE);
  * PMIx_Spawn with PMIX_SPAWN_TARGET (and the older single-session attributes),
    the ownership check, owner-set growth and mapping isolation;
  * the default disposition (PMIX_ALLOC_INHERIT_DEFAULT) when an owning
    namespace ends: this harness does not have PMIX_ALLOC_INHERITANCE, so every
    reservation gets the default one, and any other value is refused.

It is deliberately NOT a port of reference/: it is a template to copy. To
test a real runtime, keep the protocol half (the bottom of this file) and
replace the engine half with calls into your runtime; docs/writing-a-harness.md
explains how each message maps onto PMIx.

Python 3 standard library only. Run it through the suite with:

  PMIX_CONFORMANCE_ADAPTER=adapters/subprocess \\
  PMIX_CONFORMANCE_COMMAND="python3 harnesses/python/harness.py" npx cucumber-js
"""

from __future__ import annotations

import json
import sys
import traceback
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

# --------------------------------------------------------------------------
# Protocol stream discipline
# --------------------------------------------------------------------------
# stdout carries protocol lines ONLY. Keep a private handle on it and point
# sys.stdout at stderr, so that a stray print() anywhere (yours, or a
# library's) becomes a diagnostic instead of a protocol fault.
PROTOCOL_OUT = sys.stdout
sys.stdout = sys.stderr


def log(*parts: Any) -> None:
    """Diagnostics go to stderr; the runner quotes the last 20 lines on a fault."""
    print("[harness]", *parts, file=sys.stderr, flush=True)


# --------------------------------------------------------------------------
# PMIx names and values (exactly as seam/pmix.ts, i.e. openpmix master)
# --------------------------------------------------------------------------
PROTOCOL_VERSION = "pmix-dynres-wire/1"
IMPLEMENTATION = {"name": "python-template-harness", "version": "0.1.0"}

PMIX_SUCCESS = 0
PMIX_ERR_NO_PERMISSIONS = -23
PMIX_ERR_UNREACH = -25
PMIX_ERR_BAD_PARAM = -27
PMIX_ERR_OUT_OF_RESOURCE = -29
PMIX_ERR_NOT_FOUND = -46
PMIX_ERR_NOT_SUPPORTED = -47

PMIX_ALLOC_NEW = 1
PMIX_ALLOC_EXTEND = 2
PMIX_ALLOC_RELEASE = 3
PMIX_ALLOC_REAQUIRE = 4  # sic: the header's spelling
PMIX_ALLOC_REQ_CANCEL = 5
PMIX_ALLOC_EXTERNAL = 128

PMIX_ALLOC_INHERIT_DEFAULT = 3

PMIX_ALLOC_ID = "pmix.alloc.id"
PMIX_ALLOC_REQ_ID = "pmix.alloc.reqid"
PMIX_ALLOC_NUM_NODES = "pmix.alloc.nnodes"
PMIX_ALLOC_NODE_LIST = "pmix.alloc.nlist"
PMIX_ALLOC_TIME = "pmix.alloc.time"
PMIX_ALLOC_TARGET = "pmix.alloc.tgt"
PMIX_ALLOC_SHARE = "pmix.alloc.share"
PMIX_ALLOC_INHERITANCE = "pmix.alloc.inhrt"
PMIX_SPAWN_TARGET = "pmix.spwn.tgt"
PMIX_SESSION_ID = "pmix.session.id"

PMIX_NSPACE_INVALID = ""  # as a spawn-target entry: the default session
DEFAULT_SESSION = ""  # what observe's availableTo says for the default session

# --------------------------------------------------------------------------
# What this harness declares (seam/capabilities.ts). Declare only what you
# really do: a declared capability makes the suite run the scenarios that
# need it, an undeclared one makes it skip them, with the reason.
# --------------------------------------------------------------------------
CAPABILITIES = [
    "PMIX_ALLOC_TARGET",  # honours a tool's PMIX_ALLOC_TARGET, refuses an application's
    "PMIX_ALLOC_SHARE",  # PMIX_ALLOC_SHARE=true sends the nodes to the default session
    "PMIX_SPAWN_TARGET",  # spawn targeting, string and array forms
    "emulate-missing-keys",  # can behave as if its PMIx lacked the three keys above
    "scheduler-requests",  # "the scheduler" makes requests as a caller of its own (Caller kind 'scheduler')
]
# Not declared, on purpose: PMIX_ALLOC_INHERITANCE (only the default
# disposition is implemented), PMIX_ALLOC_WARN_TIMEOUT, PMIX_DVM_MOD_EVENTS,
# elastic, job-staging, daemon-faults, daemon-control, introspection,
# scheduler-policy.

# The optional keys (by name, as start's withoutKeys spells them) this harness
# can pretend not to know, and the key string each stands for.
EMULATED_KEYS = {
    "PMIX_ALLOC_TARGET": PMIX_ALLOC_TARGET,
    "PMIX_ALLOC_SHARE": PMIX_ALLOC_SHARE,
    "PMIX_SPAWN_TARGET": PMIX_SPAWN_TARGET,
}


# --------------------------------------------------------------------------
# The two ways a request can go wrong
# --------------------------------------------------------------------------
class Rejected(Exception):
    """The PMIx call failed. NOT a protocol error: it is answered with the
    command's normal response carrying `status`, and the suite grades it."""

    def __init__(self, status: int, why: str):
        super().__init__(why)
        self.status = status


class WireError(Exception):
    """The request could not be carried out at all: answered with an error
    response (schemas/error-response.json), reported by the suite as an
    implementation fault ("errored"), never as a broken clause."""

    def __init__(self, kind: str, message: str):
        super().__init__(message)
        self.kind = kind


# --------------------------------------------------------------------------
# The engine's state
# --------------------------------------------------------------------------
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


# --------------------------------------------------------------------------
# The DVM: one per scenario (start ... stop)
# --------------------------------------------------------------------------
class Dvm:
    SCHEDULER_NSPACE = "scheduler"

    def __init__(self, startup: list[dict], scheduler_pool: list[dict], without_keys: list[str]):
        self.unknown_keys = {EMULATED_KEYS[k] for k in without_keys}
        # Node order is the observation order: startup nodes, then the
        # scheduler's in the order it prefers them. Keeping it fixed keeps
        # observe() deterministic, which "nothing changed" depends on.
        self.nodes: dict[str, Node] = {}
        for spec in startup:
            self._add_node(spec, startup=True)
        for spec in scheduler_pool:
            self._add_node(spec, startup=False)
        self.tools: dict[str, bool] = {}  # nspace -> still connected
        self.jobs: dict[str, Job] = {}  # in launch order
        self.allocations: dict[str, Allocation] = {}  # live allocations only
        self.by_req_id: dict[tuple[str, str], str] = {}  # (requester nspace, PMIX_ALLOC_REQ_ID) -> allocation id
        self.by_session_id: dict[int, str] = {}  # PMIX_SESSION_ID -> allocation id
        self.counters = {"tool": 0, "job": 0, "alloc": 0}

    def _add_node(self, spec: dict, startup: bool) -> None:
        if spec["name"] in self.nodes:
            raise WireError("bad-request", f"node {spec['name']} is listed twice")
        self.nodes[spec["name"]] = Node(spec["name"], spec["slots"], startup=startup, in_dvm=startup)

    def _mint(self, what: str) -> str:
        self.counters[what] += 1
        return f"{what}-{self.counters[what]}"

    # -------------------------------------------------------------- callers --

    def caller(self, proc: dict) -> Caller:
        """Classify the process making a call. The scheduler has no job, so it
        is a tool for the decision table (and an implicit owner of everything)."""
        nspace, rank = proc["nspace"], proc["rank"]
        if nspace == self.SCHEDULER_NSPACE:
            return Caller("scheduler", nspace, rank)
        if nspace in self.tools:
            if not self.tools[nspace]:
                raise Rejected(PMIX_ERR_UNREACH, f"tool {nspace} has disconnected")
            return Caller("tool", nspace, rank)
        job = self.jobs.get(nspace)
        if job is None:
            raise WireError("bad-request", f"no process {nspace}:{rank} was ever started here")
        if rank >= len(job.procs):
            raise WireError("bad-request", f"job {nspace} has no rank {rank}")
        if not job.procs[rank].running:
            raise Rejected(PMIX_ERR_UNREACH, f"{nspace}:{rank} is no longer running")
        return Caller("app", nspace, rank)

    def may_use(self, caller: Caller, alloc: Allocation) -> bool:
        """The ownership check: the requester's namespace is in the owner set,
        or the requester is the scheduler."""
        return caller.kind == "scheduler" or caller.nspace in alloc.owners

    def _live_namespace(self, nspace: str) -> bool:
        if nspace == self.SCHEDULER_NSPACE:
            return True
        if self.tools.get(nspace):
            return True
        job = self.jobs.get(nspace)
        return job is not None and job.state == "RUNNING"

    # ---------------------------------------------------------------- tools --

    def connect_tool(self, label: str) -> dict:
        nspace = self._mint("tool")
        self.tools[nspace] = True
        log(f"tool {label!r} connected as {nspace}")
        return {"nspace": nspace, "rank": 0}

    def disconnect_tool(self, proc: dict) -> int:
        nspace = proc["nspace"]
        if not self.tools.get(nspace):
            raise Rejected(PMIX_ERR_NOT_FOUND, f"no connected tool {nspace}")
        self.tools[nspace] = False
        # A tool's namespace terminates when it disconnects (IP-TOOL-TERMINATION).
        self._owner_ended(nspace)
        return PMIX_SUCCESS

    # ------------------------------------------------- allocation requests --

    def allocate(self, caller: Caller, directive: int, attrs: Attrs) -> list[dict]:
        """PMIx_Allocation_request. Returns the result info; raises Rejected.

        Every handler checks everything first and changes state only at the
        end: "in every rejection case no partial effect is observable"."""
        if directive == PMIX_ALLOC_NEW:
            return self._alloc_new(caller, attrs)
        if directive == PMIX_ALLOC_EXTEND:
            return self._alloc_extend(caller, attrs)
        if directive == PMIX_ALLOC_RELEASE:
            return self._alloc_release(caller, attrs)
        # REAQUIRE (lending), REQ_CANCEL (the scheduler's queue) and EXTERNAL
        # are not implemented: the call itself reports that.
        raise Rejected(PMIX_ERR_NOT_SUPPORTED, f"directive {directive} is not supported by this harness")

    def _alloc_new(self, caller: Caller, attrs: Attrs) -> list[dict]:
        # 1. The decision table. PMIX_ALLOC_TARGET is honoured only from a tool
        #    (the scheduler counts as one); an application's is refused whatever
        #    PMIX_ALLOC_SHARE says (IP-APP-TARGET-SHARE).
        owner = caller.nspace
        if attrs.has(PMIX_ALLOC_TARGET):
            if caller.kind == "app":
                raise Rejected(PMIX_ERR_NO_PERMISSIONS, "an application may not name PMIX_ALLOC_TARGET")
            target = attrs.string(PMIX_ALLOC_TARGET)
            if target == PMIX_NSPACE_INVALID:
                # An owner that is the empty namespace is no owner (IP-TARGET-INVALID).
                raise Rejected(PMIX_ERR_BAD_PARAM, "PMIX_ALLOC_TARGET names the invalid namespace")
            if not self._live_namespace(target):
                raise Rejected(PMIX_ERR_NOT_FOUND, f"PMIX_ALLOC_TARGET {target} is no live namespace")
            owner = target
        shared = attrs.boolean(PMIX_ALLOC_SHARE) is True  # absent / false: the "reserve" default

        # 2. The disposition. Without PMIX_ALLOC_INHERITANCE only the default
        #    one exists; any other value must be refused, not ignored.
        self._check_inheritance(attrs)

        # 3. The request id must not be ambiguous for a later EXTEND / spawn
        #    by the same requester (another requester's ids are its own).
        req_id = attrs.string(PMIX_ALLOC_REQ_ID)
        req_key = (caller.nspace, req_id) if req_id is not None else None
        if req_key is not None and req_key in self.by_req_id:
            raise Rejected(PMIX_ERR_BAD_PARAM, f"PMIX_ALLOC_REQ_ID {req_id!r} already names one of this requester's live allocations")

        # 4. Ask the scheduler for nodes (nothing is taken yet).
        granted = self._pick_nodes(attrs, allow_none=False)

        # 5. Commit: the allocation, its session, its nodes.
        alloc_id = self._mint("alloc")
        session_id = self.counters["alloc"]  # session ids 1, 2, ...; 0 is the default session
        alloc = Allocation(alloc_id, session_id, owner=owner, owners={owner}, shared=shared, req_id=req_id, req_key=req_key)
        self.allocations[alloc_id] = alloc
        if req_key is not None:
            self.by_req_id[req_key] = alloc_id
        if not shared:
            self.by_session_id[session_id] = alloc_id
        self._grant(alloc, granted)
        log(f"NEW {alloc_id} for {owner} ({'shared' if shared else 'reserved'}) on {granted}")
        return self._alloc_response(alloc, req_id, granted)

    def _alloc_extend(self, caller: Caller, attrs: Attrs) -> list[dict]:
        # The decision table applies to every request of an application.
        if caller.kind == "app" and attrs.has(PMIX_ALLOC_TARGET):
            raise Rejected(PMIX_ERR_NO_PERMISSIONS, "an application may not name PMIX_ALLOC_TARGET")
        # BAD_PARAM / NOT_FOUND / NO_PERMISSIONS, in that order. A tool's
        # PMIX_ALLOC_TARGET confers no authority (IP-EXTEND-OWNER), and
        # PMIX_ALLOC_SHARE changes nothing on an EXTEND (IP-EXTEND-SHARE).
        alloc = self._named_allocation(caller, attrs)
        if not self.may_use(caller, alloc):
            raise Rejected(PMIX_ERR_NO_PERMISSIONS, f"{caller.nspace} does not own {alloc.alloc_id}")
        self._check_inheritance(attrs)
        granted = self._pick_nodes(attrs, allow_none=True)  # an EXTEND may ask for time only
        self._grant(alloc, granted)  # the new nodes take the allocation's existing state
        log(f"EXTEND {alloc.alloc_id} by {granted}")
        # The response echoes the PMIX_ALLOC_REQ_ID this request carried (IP-EXTEND-REQ-ID-ECHO).
        return self._alloc_response(alloc, attrs.string(PMIX_ALLOC_REQ_ID), granted)

    def _alloc_release(self, caller: Caller, attrs: Attrs) -> list[dict]:
        # The same three checks as EXTEND (IP-RELEASE-ERRORS).
        # PMIX_ALLOC_INHERITANCE on a RELEASE is ignored.
        alloc = self._named_allocation(caller, attrs)
        if not self.may_use(caller, alloc):
            raise Rejected(PMIX_ERR_NO_PERMISSIONS, f"{caller.nspace} does not own {alloc.alloc_id}")
        if attrs.has(PMIX_ALLOC_TIME):
            raise Rejected(PMIX_ERR_NOT_SUPPORTED, "lending (RELEASE with PMIX_ALLOC_TIME) is not supported")
        if attrs.has(PMIX_ALLOC_NODE_LIST) or attrs.has(PMIX_ALLOC_NUM_NODES):
            raise Rejected(PMIX_ERR_NOT_SUPPORTED, "partial release is not supported")
        info = [{"key": PMIX_ALLOC_ID, "value": alloc.alloc_id}]
        req_id = attrs.string(PMIX_ALLOC_REQ_ID)
        if req_id is not None:
            info.append({"key": PMIX_ALLOC_REQ_ID, "value": req_id})
        self._end_allocation(alloc, return_to_scheduler=True)
        log(f"RELEASE {alloc.alloc_id}")
        return info

    def _named_allocation(self, caller: Caller, attrs: Attrs) -> Allocation:
        """The allocation an EXTEND / RELEASE names: PMIX_ALLOC_ID first, then
        the caller's own PMIX_ALLOC_REQ_ID when the former is absent or resolves
        to nothing (IP-EXTEND-TWO-NAMES, IP-REQ-ID-SCOPE)."""
        alloc_id = attrs.string(PMIX_ALLOC_ID)
        req_id = attrs.string(PMIX_ALLOC_REQ_ID)
        if alloc_id is None and req_id is None:
            raise Rejected(PMIX_ERR_BAD_PARAM, "neither PMIX_ALLOC_ID nor PMIX_ALLOC_REQ_ID")
        if alloc_id is not None and alloc_id in self.allocations:
            return self.allocations[alloc_id]
        if req_id is not None and (caller.nspace, req_id) in self.by_req_id:
            return self.allocations[self.by_req_id[(caller.nspace, req_id)]]
        raise Rejected(PMIX_ERR_NOT_FOUND, f"no allocation {alloc_id or req_id!r}")

    def _check_inheritance(self, attrs: Attrs) -> None:
        # This PMIx lacks PMIX_ALLOC_INHERITANCE, yet a non-default value (e.g.
        # from a newer peer) must be recognised and refused, never silently
        # dropped; a value outside 1-4 is refused too (IP-INHERITANCE-RANGE).
        # A harness that implements the dispositions declares the capability
        # and accepts 1-4 here.
        if attrs.has(PMIX_ALLOC_INHERITANCE):
            value = attrs.integer(PMIX_ALLOC_INHERITANCE)
            if value != PMIX_ALLOC_INHERIT_DEFAULT:
                raise Rejected(PMIX_ERR_NOT_SUPPORTED, f"PMIX_ALLOC_INHERITANCE {value} is not supported")

    def _pick_nodes(self, attrs: Attrs, allow_none: bool) -> list[str]:
        """The host scheduler's answer: which nodes it grants (nothing changes yet).

        PMIX_ALLOC_NODE_LIST names nodes: a free scheduler node, or a startup
        node still in the default session and held by no allocation (it is
        then carved out of the startup pool). PMIX_ALLOC_NUM_NODES asks for that
        many free scheduler nodes, in the scheduler's order. Marked required
        (PMIX_INFO_REQD), a shortfall fails the request; unmarked, it is a
        preference and the scheduler gives what it can (IP-OPTIONAL-ATTRIBUTES).
        """
        names = attrs.node_names(PMIX_ALLOC_NODE_LIST)
        count = attrs.integer(PMIX_ALLOC_NUM_NODES)
        if names is not None:
            grantable = [n for n in dict.fromkeys(names) if self._grantable(n)]
            if attrs.required(PMIX_ALLOC_NODE_LIST) and len(grantable) < len(set(names)):
                missing = sorted(set(names) - set(grantable))
                raise Rejected(PMIX_ERR_OUT_OF_RESOURCE, f"cannot grant {missing}")
            picked = grantable
        elif count is not None:
            if count < 0:
                raise Rejected(PMIX_ERR_BAD_PARAM, "negative PMIX_ALLOC_NUM_NODES")
            free = [n.name for n in self.nodes.values() if not n.startup and not n.in_dvm]
            if attrs.required(PMIX_ALLOC_NUM_NODES) and len(free) < count:
                raise Rejected(PMIX_ERR_OUT_OF_RESOURCE, f"{count} nodes asked, {len(free)} free")
            picked = free[:count]
        else:
            if allow_none:
                return []
            raise Rejected(PMIX_ERR_BAD_PARAM, "a NEW allocation must ask for nodes")
        if not picked and not allow_none:
            raise Rejected(PMIX_ERR_OUT_OF_RESOURCE, "the scheduler has none of the nodes asked for")
        return picked

    def _grantable(self, name: str) -> bool:
        node = self.nodes.get(name)
        if node is None:
            return False
        if not node.startup:
            return not node.in_dvm  # still in the scheduler's pool
        return node.in_dvm and node.allocation is None

    def _grant(self, alloc: Allocation, names: list[str]) -> None:
        """The nodes join the DVM (if they were the scheduler's) and the
        allocation: reserved to it, or, for a shared allocation, in the default
        session. Either way a node is available to exactly one session
        (IP-ONE-SESSION-PER-NODE)."""
        for name in names:
            node = self.nodes[name]
            node.in_dvm = True
            node.allocation = alloc.alloc_id
            node.available_to = DEFAULT_SESSION if alloc.shared else alloc.alloc_id
            alloc.nodes.append(name)

    def _alloc_response(self, alloc: Allocation, req_id: Optional[str], granted: list[str]) -> list[dict]:
        """Every success carries the PMIX_ALLOC_ID (IP-ALLOC-ID-ALWAYS), echoes
        the PMIX_ALLOC_REQ_ID it was given, and, for a reservation, the numeric
        PMIX_SESSION_ID a spawn may name it by."""
        info = [{"key": PMIX_ALLOC_ID, "value": alloc.alloc_id}]
        if req_id is not None:
            info.append({"key": PMIX_ALLOC_REQ_ID, "value": req_id})
        if not alloc.shared:
            info.append({"key": PMIX_SESSION_ID, "value": alloc.session_id})
        if granted:
            info.append({"key": PMIX_ALLOC_NODE_LIST, "value": ",".join(granted)})
        return info

    # ------------------------------------------------ ending an allocation --

    def _end_allocation(self, alloc: Allocation, return_to_scheduler: bool) -> None:
        """The allocation ends; its id no longer resolves.

        return_to_scheduler (a RELEASE): nodes the scheduler owns leave the
        DVM, their processes terminated first; nodes carved from the startup
        pool revert to the default session. Otherwise (the default
        disposition): every node stays in the DVM, unreserved, and no process
        is killed."""
        del self.allocations[alloc.alloc_id]
        self.by_session_id.pop(alloc.session_id, None)
        if alloc.req_key is not None and self.by_req_id.get(alloc.req_key) == alloc.alloc_id:
            del self.by_req_id[alloc.req_key]
        for name in alloc.nodes:
            node = self.nodes[name]
            node.allocation = None
            node.available_to = DEFAULT_SESSION
            if return_to_scheduler and not node.startup:
                self._node_leaves(node)

    def _node_leaves(self, node: Node) -> None:
        for job in self.jobs.values():
            hit = False
            for proc in job.procs:
                if proc.running and proc.node == node.name:
                    proc.running = False
                    hit = True
            if hit and job.state == "RUNNING" and not any(p.running for p in job.procs):
                job.state = "KILLED"
        node.in_dvm = False
        node.in_use = 0

    def _owner_ended(self, nspace: str) -> None:
        """An owning namespace terminated: apply its reservations' disposition.
        Only PMIX_ALLOC_INHERIT_DEFAULT exists here: the reservation ends and
        its nodes stay in the DVM, in the default session. A co-owner (a job
        spawned into the reservation) ending changes nothing."""
        for alloc in [a for a in self.allocations.values() if a.owner == nspace]:
            log(f"{nspace} ended: {alloc.alloc_id} is unreserved (default disposition)")
            self._end_allocation(alloc, return_to_scheduler=False)

    # ----------------------------------------------------------------- spawn --

    def spawn(self, caller: Caller, apps: list[dict], attrs: Attrs) -> str:
        """PMIx_Spawn. Returns the new namespace; raises Rejected with nothing launched."""
        sessions, primary = self._spawn_sessions(caller, attrs)
        candidates = self._candidate_nodes(sessions)
        placement = self._map_by_slot(apps, candidates)

        # Commit: the job, its processes, and its place in the owner sets.
        nspace = self._mint("job")
        procs = []
        for rank, (node_name, counts) in enumerate(placement):
            procs.append(Proc(rank, node_name, running=True, counts=counts))
            if counts:
                self.nodes[node_name].in_use += 1
        parent = caller.nspace if caller.kind == "app" else None
        self.jobs[nspace] = Job(nspace, procs, parent=parent, primary=primary)
        # The job becomes an owner of exactly the reservations it was spawned
        # into, never of its parent's others (ownership is not transitive).
        for key in sessions:
            if key != DEFAULT_SESSION:
                self.allocations[key].owners.add(nspace)
        log(f"spawned {nspace} for {caller.nspace} into {sessions or ['(default)']}: {placement}")
        return nspace

    def _spawn_sessions(self, caller: Caller, attrs: Attrs) -> tuple[list[str], str]:
        """The sessions the job may be mapped onto, in order ('' = the default
        session, else a reserved allocation's id), and its primary session.

        Precedence (IP-LEGACY-SESSION-ATTRIBUTES, IP-PARENT-SESSION):
          PMIX_SPAWN_TARGET; else the first of PMIX_SESSION_ID, PMIX_ALLOC_ID,
          PMIX_ALLOC_REQ_ID as a one-element target; else, for an application,
          its parent's primary session while it exists; else the default session.
        Every entry passes the same checks; one bad entry refuses the whole
        spawn, which is never narrowed to the good ones."""
        entries: Optional[list[str]] = attrs.strings(PMIX_SPAWN_TARGET)
        if entries is not None:
            if not entries:
                raise Rejected(PMIX_ERR_BAD_PARAM, "an empty PMIX_SPAWN_TARGET array")
            sessions = [self._target_entry(caller, e) for e in entries]
        elif attrs.has(PMIX_SESSION_ID):
            session_id = attrs.integer(PMIX_SESSION_ID)
            if session_id == 0:
                sessions = [DEFAULT_SESSION]
            elif session_id in self.by_session_id:
                sessions = [self._target_entry(caller, self.by_session_id[session_id])]
            else:
                raise Rejected(PMIX_ERR_NOT_FOUND, f"no session {session_id}")
        elif attrs.has(PMIX_ALLOC_ID):
            sessions = [self._target_entry(caller, attrs.string(PMIX_ALLOC_ID))]
        elif attrs.has(PMIX_ALLOC_REQ_ID):
            req_key = (caller.nspace, attrs.string(PMIX_ALLOC_REQ_ID))
            if req_key not in self.by_req_id:
                raise Rejected(PMIX_ERR_NOT_FOUND, f"no allocation request {req_key[1]!r} of {caller.nspace}")
            sessions = [self._target_entry(caller, self.by_req_id[req_key])]
        elif caller.kind == "app":
            # The parent's primary session, while it exists; having been spawned
            # into it, the child becomes an owner of it (IP-PARENT-SESSION).
            parent_primary = self.jobs[caller.nspace].primary
            sessions = [parent_primary if parent_primary in self.allocations else DEFAULT_SESSION]
        else:
            # A tool's (or the scheduler's) untargeted spawn: the default
            # session only, even if it owns a reservation (IP-TOOL-SPAWN-DEFAULT).
            sessions = [DEFAULT_SESSION]
        sessions = list(dict.fromkeys(sessions))  # naming a session twice is harmless
        primary = next((s for s in sessions if s != DEFAULT_SESSION), DEFAULT_SESSION)
        return sessions, primary

    def _target_entry(self, caller: Caller, entry: str) -> str:
        if entry == PMIX_NSPACE_INVALID:
            return DEFAULT_SESSION  # open to everyone
        alloc = self.allocations.get(entry)
        if alloc is None:
            raise Rejected(PMIX_ERR_NOT_FOUND, f"{entry!r} resolves to no session")
        if alloc.shared:
            # A shared allocation's id denotes its destination, the default
            # session: anyone may name it, and naming it makes no one an owner
            # (IP-SHARED-ALLOCATION-ID).
            return DEFAULT_SESSION
        if not self.may_use(caller, alloc):
            raise Rejected(PMIX_ERR_NO_PERMISSIONS, f"{caller.nspace} does not own {entry}")
        return alloc.alloc_id

    def _candidate_nodes(self, sessions: list[str]) -> list[Node]:
        """Exactly the union of the sessions' nodes: a job sees no other node."""
        picked: list[Node] = []
        for key in sessions:
            for node in self.nodes.values():
                if node.in_dvm and node.available_to == key and node not in picked:
                    picked.append(node)
        return picked

    def _map_by_slot(self, apps: list[dict], candidates: list[Node]) -> list[tuple[str, bool]]:
        """By-slot mapping without oversubscription: fill each candidate node's
        free slots in order (IP-SLOT-CAPACITY). Returns (node, takes-a-slot)
        per rank, ranks numbered across the apps. A -host list restricts an
        app to those nodes; naming a node outside the job's sessions refuses
        the spawn (IP-HOST-OUTSIDE-TARGETS allows refusing or placing elsewhere;
        it never lands there)."""
        free = {n.name: n.slots - n.in_use for n in candidates}
        placement: list[tuple[str, bool]] = []
        for app in apps:
            np = app["np"]
            if np < 1:
                raise Rejected(PMIX_ERR_BAD_PARAM, f"app {app['cmd']}: np must be at least 1")
            allowed = [n.name for n in candidates]
            if "hosts" in app:
                outside = [h for h in app["hosts"] if h not in free]
                if outside:
                    raise Rejected(PMIX_ERR_OUT_OF_RESOURCE, f"-host {outside} is outside the job's sessions")
                allowed = [n for n in allowed if n in app["hosts"]]
            if not allowed:
                raise Rejected(PMIX_ERR_OUT_OF_RESOURCE, "the job's sessions have no node")
            if app.get("tool"):
                # A tool app's processes take no slot (PRRTE_APP_FLAG_TOOL).
                placement += [(allowed[0], False)] * np
                continue
            for _ in range(np):
                node = next((n for n in allowed if free[n] > 0), None)
                if node is None:
                    raise Rejected(PMIX_ERR_OUT_OF_RESOURCE, f"not enough free slots for {np} processes of {app['cmd']}")
                free[node] -= 1
                placement.append((node, True))
        return placement

    # -------------------------------------------------------- job lifecycle --

    def terminate_job(self, nspace: str) -> int:
        """Every process of the job exits normally."""
        job = self.jobs.get(nspace)
        if job is None:
            raise Rejected(PMIX_ERR_NOT_FOUND, f"no job {nspace}")
        if job.state != "RUNNING":
            return PMIX_SUCCESS  # already over: nothing left to end
        for proc in job.procs:
            if proc.running:
                proc.running = False
                if proc.counts:
                    self.nodes[proc.node].in_use -= 1
        job.state = "TERMINATED"
        self._owner_ended(nspace)
        return PMIX_SUCCESS

    # --------------------------------------------------------------- observe --

    def observe(self, only_nodes: Optional[list[str]], only_jobs: Optional[list[str]]) -> dict:
        """What a client could see. Deterministic order, so that an unchanged
        DVM gives an identical answer. This harness delivers no events."""
        nodes = [
            {
                "name": n.name,
                "slots": n.slots,
                "slotsInUse": n.in_use,
                "availableTo": n.available_to,
                "daemon": "ready",
            }
            for n in self.nodes.values()
            if n.in_dvm and (only_nodes is None or n.name in only_nodes)
        ]
        jobs = [
            {
                "nspace": j.nspace,
                "state": j.state,
                "procs": [{"rank": p.rank, "node": p.node, "running": p.running} for p in j.procs],
            }
            for j in self.jobs.values()
            if only_jobs is None or j.nspace in only_jobs
        ]
        return {"nodes": nodes, "jobs": jobs, "events": []}


# --------------------------------------------------------------------------
# The protocol: one handler per command
# --------------------------------------------------------------------------
# Each handler takes the request (a dict) and returns the response fields
# (without seq). It raises WireError for an error response, and Rejected
# when the modelled PMIx call fails (turned into {"status": ..., ...}).


class Harness:
    def __init__(self) -> None:
        self.dvm: Optional[Dvm] = None
        self.handshaken = False

    def need_dvm(self) -> Dvm:
        if self.dvm is None:
            raise WireError("not-started", "no DVM: send 'start' first")
        return self.dvm

    # -- handshake --------------------------------------------------------

    def cmd_start_protocol(self, req: dict) -> dict:
        if req["protocolVersion"] != PROTOCOL_VERSION:
            raise VersionRefused(req["protocolVersion"])
        self.handshaken = True
        return {"protocolVersion": PROTOCOL_VERSION, "implementation": IMPLEMENTATION, "capabilities": CAPABILITIES}

    # -- DVM lifetime -----------------------------------------------------

    def cmd_start(self, req: dict) -> dict:
        # A fresh DVM every time: nothing of an earlier scenario survives.
        if req["elastic"]:
            raise WireError("not-supported", "elastic mode is not supported (capability 'elastic' not declared)")
        unknown = [k for k in req["withoutKeys"] if k not in EMULATED_KEYS]
        if unknown:
            raise WireError("not-supported", f"cannot run as if the PMIx lacked {unknown}")
        if "scheduler" in req:
            raise WireError("not-supported", "scheduler policies are not supported (capability 'scheduler-policy')")
        self.dvm = Dvm(req["startupNodes"], req["schedulerNodes"], req["withoutKeys"])
        return {"scheduler": {"nspace": Dvm.SCHEDULER_NSPACE, "rank": 0}}

    def cmd_stop(self, req: dict) -> dict:
        # A real harness tears its DVM down here (and waits for it to be gone).
        self.dvm = None
        return {}

    # -- tools ------------------------------------------------------------

    def cmd_connect_tool(self, req: dict) -> dict:
        return {"proc": self.need_dvm().connect_tool(req["label"])}

    def cmd_disconnect_tool(self, req: dict) -> dict:
        return {"status": self.need_dvm().disconnect_tool(req["proc"])}

    # -- PMIx calls -------------------------------------------------------

    def cmd_allocate(self, req: dict) -> dict:
        dvm = self.need_dvm()
        try:
            caller = dvm.caller(req["requester"])
            info = dvm.allocate(caller, req["directive"], Attrs(req["info"], dvm.unknown_keys))
            return {"status": PMIX_SUCCESS, "info": info}
        except Rejected as r:
            log(f"allocate refused: {r} ({r.status})")
            return {"status": r.status, "info": []}

    def cmd_spawn(self, req: dict) -> dict:
        dvm = self.need_dvm()
        if "hold" in req:
            raise WireError("not-supported", "spawn 'hold' needs the 'job-staging' capability")
        try:
            caller = dvm.caller(req["requester"])
            nspace = dvm.spawn(caller, req["apps"], Attrs(req["info"], dvm.unknown_keys))
            return {"status": PMIX_SUCCESS, "nspace": nspace, "info": []}
        except Rejected as r:
            log(f"spawn refused: {r} ({r.status})")
            return {"status": r.status, "info": []}  # no nspace: nothing was launched

    def cmd_terminate_job(self, req: dict) -> dict:
        try:
            return {"status": self.need_dvm().terminate_job(req["nspace"])}
        except Rejected as r:
            return {"status": r.status}

    def cmd_observe(self, req: dict) -> dict:
        return self.need_dvm().observe(req.get("nodes"), req.get("jobs"))

    # -- not provided ------------------------------------------------------
    # Each of these is only needed for capabilities this harness does not
    # declare (or, for 'scheduler' and 'query-allocation', for scenarios
    # that make the scheduler act or poll a request). Answer "not-supported".

    NOT_SUPPORTED = {
        "scheduler": "scheduler actions (reclaim, timeout warning, teardown, add nodes, queue) are not implemented",
        "query-allocation": "PMIx_Query_info(PMIX_QUERY_ALLOC_STATUS) is not implemented",
        "daemon": "daemon events need the 'daemon-faults' (crash, fail to start) or 'daemon-control' (every event) capability",
        "advance-job": "job staging needs the 'job-staging' capability",
        "inspect": "introspection needs the 'introspection' capability",
    }

    # -- dispatch ----------------------------------------------------------

    REQUIRED = {
        "start-protocol": ["protocolVersion"],
        "start": ["startupNodes", "schedulerNodes", "withoutKeys", "elastic"],
        "stop": [],
        "connect-tool": ["label"],
        "disconnect-tool": ["proc"],
        "allocate": ["requester", "directive", "info"],
        "spawn": ["requester", "apps", "info"],
        "terminate-job": ["nspace"],
        "observe": [],
    }

    def handle(self, req: dict) -> dict:
        cmd = req.get("cmd")
        if cmd in self.NOT_SUPPORTED:
            raise WireError("not-supported", f"{cmd}: {self.NOT_SUPPORTED[cmd]}")
        if cmd not in self.REQUIRED:
            raise WireError("bad-request", f"unknown command {cmd!r}")
        missing = [f for f in self.REQUIRED[cmd] if f not in req]
        if missing:
            raise WireError("bad-request", f"{cmd} lacks {missing}")
        if cmd != "start-protocol" and not self.handshaken:
            raise WireError("bad-request", "the first request must be start-protocol")
        handler: Callable[[dict], dict] = getattr(self, "cmd_" + cmd.replace("-", "_"))
        return handler(req)


class VersionRefused(Exception):
    def __init__(self, theirs: str):
        super().__init__(f"this harness speaks {PROTOCOL_VERSION} only, not {theirs}")


# --------------------------------------------------------------------------
# The main loop: read a line, answer a line
# --------------------------------------------------------------------------


def send(message: dict) -> None:
    # Compact JSON, one line, flushed at once: the runner is waiting for it.
    PROTOCOL_OUT.write(json.dumps(message, separators=(",", ":")) + "\n")
    PROTOCOL_OUT.flush()


def main() -> None:
    harness = Harness()
    while True:
        line = sys.stdin.readline()
        if line == "":
            return  # stdin closed: the runner is done with us
        if not line.strip():
            continue
        seq = None
        try:
            req = json.loads(line)
            if not isinstance(req, dict) or not isinstance(req.get("seq"), int):
                raise WireError("bad-request", "a request must be a JSON object with an integer seq")
            seq = req["seq"]
            send({"seq": seq, **harness.handle(req)})
        except json.JSONDecodeError as e:
            send({"seq": None, "error": {"message": f"not JSON: {e}", "kind": "bad-request"}})
        except VersionRefused as e:
            send({"seq": seq, "error": {"message": str(e), "kind": "protocol-version", "supportedVersions": [PROTOCOL_VERSION]}})
        except WireError as e:
            log(f"error response ({e.kind}): {e}")
            send({"seq": seq, "error": {"message": str(e), "kind": e.kind}})
        except Exception as e:  # a bug in the harness: report it, keep the stream alive
            detail = traceback.format_exc()
            log(detail)
            send({"seq": seq, "error": {"message": f"{type(e).__name__}: {e}", "kind": "internal", "detail": detail}})


if __name__ == "__main__":
    main()
