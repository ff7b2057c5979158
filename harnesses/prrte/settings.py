"""The bridge's settings, read once from the environment (PRRTE_BRIDGE_*):
how long it waits for PRRTE, how the scheduler's timeout warning reaches
PRRTE and whether the test scheduler is attached, and how long the suite is
told to wait for quiet (the handshake's quietMs)."""
import os

# Every wait is bounded below the runner's default 10 s request timeout, so
# a stuck DVM becomes an error response for that scenario, never a hang.
DVM_START_S = float(os.environ.get("PRRTE_BRIDGE_START_S", "8"))
CALL_S = float(os.environ.get("PRRTE_BRIDGE_CALL_S", "7"))
GRANT_WAIT_S = float(os.environ.get("PRRTE_BRIDGE_GRANT_WAIT_S", "5"))
GRANT_SETTLE_S = float(os.environ.get("PRRTE_BRIDGE_GRANT_SETTLE_S", "0.3"))
# How the scheduler's timeout warning reaches PRRTE (Dvm.warn): "observer"
# (default) or "scheduler" (the test scheduler's own event; implies it).
WARN_VIA = os.environ.get("PRRTE_BRIDGE_WARN_VIA", "observer")
# Experimental (issue 9 item 2): attach the test scheduler (agents/sched_agent.c)
# to every DVM. Off by default: the expectations come from runs without it.
WITH_SCHEDULER = os.environ.get("PRRTE_BRIDGE_SCHEDULER") == "1" or WARN_VIA == "scheduler"
# The handshake's quietMs: how long nothing a client sees may change before
# the suite judges a claim (Bridge.handle says why 3000 ms).
QUIET_MS = int(os.environ.get("PRRTE_BRIDGE_QUIET_MS", "3000"))
