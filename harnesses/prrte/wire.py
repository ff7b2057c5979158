"""What travels, and how it can fail: the suite's wire protocol
(schemas/README.md) on this process's stdout (send), diagnostics on stderr
(log), the error a request ends in (WireError), the info codec between the
protocol's pmix_info_t lists and the agents' TAB-separated lines
(encode_infos, decode_infos), and the PMIx numbers the bridge reads in the
agents' answers or sends through them.

Importing it makes sys.stdout stderr, so that nothing but protocol lines
reaches the real stdout, whatever prints."""
import json
import sys
from typing import Any, Dict, List, Optional

PROTOCOL_VERSION = "pmix-dynres-wire/1"
PROTOCOL_OUT = sys.stdout
sys.stdout = sys.stderr  # nothing but protocol lines may reach the real stdout

# The C type of each key the suite sends (pmix_common.h); unknown keys are
# typed from their JSON value.
KEY_TYPES = {
    "pmix.alloc.id": "s", "pmix.alloc.reqid": "s", "pmix.alloc.nnodes": "u64",
    "pmix.alloc.nlist": "s", "pmix.alloc.time": "s", "pmix.alloc.tgt": "s",
    "pmix.alloc.share": "b", "pmix.alloc.inhrt": "u8", "pmix.alloc.wtmo": "u32",
    "pmix.time.remaining": "u32", "pmix.session.id": "u32", "pmix.alloc.sep": "b",
    "pmix.ssn.sep": "b", "pmix.notify.complete": "b",
}

# Process states (pmix_proc_state_t, pmix_common.h) the bridge tells apart.
PROC_TERMINATE = 4
PROC_TERMINATED = 20
PROC_ERROR = 50
PROC_RUNNING_STATES = range(1, 20)
# The event the scheduler's timeout warning travels as (Dvm.warn).
PMIX_ALLOC_TIMEOUT_WARNING = -194

# What PMIx_Allocation_request answers for a request it took: PMIX_SUCCESS,
# PMIX_OPERATION_SUCCEEDED (-157), PMIX_OPERATION_IN_PROGRESS (-156).
ACCEPTED = (0, -157, -156)


def send(message: dict) -> None:
    PROTOCOL_OUT.write(json.dumps(message, separators=(",", ":")) + "\n")
    PROTOCOL_OUT.flush()


def log(msg: str) -> None:
    sys.stderr.write(f"prrte-bridge: {msg}\n")
    sys.stderr.flush()


class WireError(Exception):
    def __init__(self, kind: str, message: str, detail: Optional[str] = None):
        super().__init__(message)
        self.kind = kind
        self.detail = detail


def encode_infos(infos: List[dict]) -> List[str]:
    """Wire pmix_info_t list -> the agents' TAB-separated key/type/value triples."""
    out: List[str] = []
    for item in infos:
        key, value = item["key"], item["value"]
        typ = KEY_TYPES.get(key)
        if isinstance(value, list):
            # every item follows a 0x1f, so [] (""), [""] ("\x1f") and ["a", "b"] differ
            if any("\x1f" in str(v) for v in value):
                raise WireError("not-supported", f"{key}: an array item with 0x1f cannot reach the agent")
            typ, text = "a", "".join("\x1f" + str(v) for v in value)
        elif typ is None:
            if isinstance(value, bool):
                typ = "b"
            elif isinstance(value, int):
                typ = "u32" if value >= 0 else "i32"
            elif isinstance(value, str):
                typ = "s"
            else:
                raise WireError("not-supported", f"cannot pass {key}={value!r} (a non-integer number) to libpmix")
        if not isinstance(value, list):
            if isinstance(value, bool):
                text = "true" if value else "false"
            else:
                text = str(value)
            if typ == "s" and not isinstance(value, str):
                raise WireError("not-supported", f"{key} is a string in PMIx; got {value!r}")
        if any(c in text for c in "\t\n\r"):
            raise WireError("not-supported", f"{key}: a value with TAB or newline cannot reach the agent")
        out += [key, ("R" if item.get("required") else "") + typ, text]
    return out


def decode_infos(infos: List[dict]) -> List[dict]:
    """Agent JSON info list -> wire info list (required only when set)."""
    out = []
    for i in infos:
        entry: Dict[str, Any] = {"key": i["key"], "value": i["value"]}
        if i.get("reqd"):
            entry["required"] = True
        out.append(entry)
    return out
