"""What the bridge declares in its handshake: the key capabilities the PMIx
in use defines (defined_keys, read from its pmix_common.h), the capabilities
offered (capabilities), and the readings PRRTE takes (READINGS)."""
import os
from typing import List

# The capabilities this bridge can honestly offer: keys the PMIx in use
# defines (checked against pmix_common.h at start-up), elastic mode, daemon
# faults caused from outside (faults.py) and the scheduler's warning
# (capabilities() below, which says why not partial-release).
# scheduler-requests (scheduler_client.py: a companion tool that PRRTE takes
# for its scheduler makes the scheduler's requests; not beside the attached
# test scheduler, PRRTE_BRIDGE_SCHEDULER=1, docs/prrte-scheduler-requests.md).
# Not declared: job-staging, daemon-control (PRRTE's daemons report in, are
# wired and depart on their own; nothing steps them or fails a shrink order), introspection,
# emulate-missing-keys, scheduler-control, scheduler-policy (no scheduler
# is attached: ras/hosts serves requests; of a scheduler's acts only the
# warning has a way into PRRTE), query-alloc-status (PRRTE
# advertises it but has no handler), alloc-lending (not examined).
KEY_CAPABILITIES = {
    "PMIX_ALLOC_TARGET": "PMIX_ALLOC_TARGET",
    "PMIX_ALLOC_SHARE": "PMIX_ALLOC_SHARE",
    "PMIX_ALLOC_INHERITANCE": "PMIX_ALLOC_INHERITANCE",
    "PMIX_ALLOC_WARN_TIMEOUT": "PMIX_ALLOC_TIMEOUT_WARNING",
    "PMIX_SPAWN_TARGET": "PMIX_SPAWN_TARGET",
    "PMIX_DVM_MOD_EVENTS": "PMIX_ERR_DVM_MOD",
}


# Readings (seam/readings.ts) PRRTE master takes, as observed in the live
# runs of 2026-11-24: its allocation responses carry PMIX_ALLOC_ID and the
# echoed PMIX_ALLOC_REQ_ID, and no PMIX_SESSION_ID.
READINGS = {"session-id-in-response": "omitted"}


def defined_keys(prefix: str) -> List[str]:
    try:
        with open(os.path.join(prefix, "include", "pmix_common.h")) as f:
            text = f.read()
    except OSError:
        return []
    return [cap for cap, macro in KEY_CAPABILITIES.items() if f"#define {macro} " in text]


def capabilities(keys: List[str], companion: bool = True) -> List[str]:
    """The key capabilities, elastic mode, daemon-faults (faults.py: the
    bridge launches every daemon through launch-agent.sh, so it can keep one
    from starting, and kills a node's prted to crash it), and scheduler-warning when the
    PMIx in use has the warning event (Dvm.warn delivers it to PRRTE).
    Not partial-release: a RELEASE that names its allocation (PMIX_ALLOC_ID)
    takes the teardown path and ignores PMIX_ALLOC_NODE_LIST and
    PMIX_ALLOC_NUM_NODES (ras_base_allocate.c:1858, seen live: the whole
    reservation goes); only a RELEASE without an id removes just the named
    nodes (ras_hosts.c), and that is not the capability's 'part of an
    allocation'."""
    out = keys + ["elastic", "daemon-faults"]
    if "PMIX_ALLOC_WARN_TIMEOUT" in keys:
        out.append("scheduler-warning")
    if companion:
        # The scheduler's requests, made by its companion (scheduler_client.py).
        out.append("scheduler-requests")
    return out
