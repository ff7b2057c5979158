"""Daemon faults a harness can cause from outside a live PRRTE DVM
(capability 'daemon-faults'): kill a chosen node's prted (it crashes), and
keep a chosen node's daemon from starting (the launch agent refuses it). The
DVM's daemons otherwise act on their own: nothing here steps a daemon
through report-in or wireup, makes one exit cleanly, or fails a shrink
order (capability 'daemon-control', not offered).

A 'cause' in the request is not PRRTE's to be told: a killed daemon is
whatever PRRTE sees (a lost connection), and the bridge says which cause it
ignored in its log. A fault the bridge can no longer cause is an error,
never a silent success: a daemon that has already been launched cannot be
kept from starting, and a node with no daemon cannot be crashed."""
import os
import signal
import time
from typing import Callable, Dict, Optional

from observation import prted_pids
from wire import WireError, log

# How long a crash waits for a launched daemon's prted to appear (its node
# 'joining') before it says no daemon runs there. Below the bridge's CALL_S.
APPEAR_S = 5.0
# How long it waits for the killed prted to be gone.
GONE_S = 3.0


def launched(ctl: str, node: str) -> bool:
    """Whether launch-agent.sh has started (or refused) the node's daemon:
    it writes <node>.log at every launch and <node>.pid when it starts one."""
    return os.path.exists(os.path.join(ctl, f"{node}.pid")) or os.path.exists(os.path.join(ctl, f"{node}.log"))


def keep_from_starting(ctl: str, node: str, running: Callable[[], Dict[str, int]]) -> None:
    """The node's next daemon launch fails: launch-agent.sh exits 1 instead of
    starting it (<node>.fail in the control directory). Refused when the
    daemon has already been launched: it can no longer be kept from starting."""
    if node in running() or launched(ctl, node):
        raise WireError("not-supported", f"the daemon on {node} has already been launched: it can no longer be kept from starting "
                        "(this bridge can only keep a daemon from starting before PRRTE launches it)")
    with open(os.path.join(ctl, f"{node}.fail"), "w") as f:
        f.write("kept from starting by the suite (daemon fail-to-start)\n")


def crash(node: str, head: str, running: Callable[[], Dict[str, int]],
          kill: Callable[[int, int], None] = os.kill, sleep: Callable[[float], None] = time.sleep,
          clock: Callable[[], float] = time.monotonic) -> int:
    """SIGKILL the node's prted and wait (bounded) until it is gone; its pid.
    A node whose daemon PRRTE has launched but whose prted has not started
    yet is waited for (APPEAR_S) first. The head node's daemon is prte
    itself: killing it ends the DVM, which no scenario means by a crash."""
    if node == head:
        raise WireError("not-supported", f"{node} is the head node: its daemon is prte itself, and killing it ends the DVM")
    deadline = clock() + APPEAR_S
    pid: Optional[int] = None
    while True:
        pid = running().get(node)
        if pid is not None or clock() >= deadline:
            break
        sleep(0.05)
    if pid is None:
        raise WireError("internal", f"no daemon of this DVM runs on {node} (none appeared within {APPEAR_S:g} s): nothing to crash")
    try:
        kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass  # it ended on its own meanwhile: gone either way
    deadline = clock() + GONE_S
    while node in running() and clock() < deadline:
        sleep(0.05)
    if node in running():
        raise WireError("internal", f"the prted on {node} (pid {pid}) was still running {GONE_S:g} s after SIGKILL")
    return pid


def daemon_fault(dvm, req: dict) -> dict:
    """The 'daemon' request against a live DVM: crash or fail-to-start only."""
    event, node = req.get("event"), req.get("node")
    if event not in ("crash", "fail-to-start"):
        raise WireError("not-supported", f"daemon {event}: the DVM's daemons act on their own; only a crash (kill) or a "
                        "failed start can be caused from outside (capability 'daemon-faults', not 'daemon-control')")
    if not isinstance(node, str) or not node:
        raise WireError("bad-request", f"daemon {event} names no node")
    dvm.check_alive(f"daemon {event}")
    if "cause" in req:
        log(f"daemon {event} on {node}: cause {req['cause']} ignored (PRRTE reports the cause it sees)")

    def running() -> Dict[str, int]:
        return prted_pids(dvm.hnp_nspace)
    if event == "fail-to-start":
        keep_from_starting(dvm.dir, node, running)
    else:
        pid = crash(node, dvm.head, running)
        log(f"daemon crash: killed the prted on {node} (pid {pid})")
    return {"status": 0}
