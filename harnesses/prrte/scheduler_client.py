#!/usr/bin/env python3
"""The scheduler as a requester (issue 24 item 2; docs/prrte-scheduler-requests.md).

PRRTE master has one way for a process to be "the scheduler" to a DVM that
has none attached: connect to the DVM master as a tool whose connection says
PMIX_SERVER_SCHEDULER and names itself. PRRTE records that identity as its
scheduler (prrte src/prted/pmix/pmix_server_gen.c:568-569, 609-624), and the
ownership check admits it to every session (src/runtime/prte_globals.c:1176-1179):
it may extend, spawn into and release any reservation. It has no job object,
so PRRTE treats it as a tool (ras_base_allocate.c:1406-1414: its
PMIX_ALLOC_TARGET is honoured), and the completion events of its own requests
are directed to it (plm_base_launch_support.c:3144-3200).

The companion is agents/sched_client.c (tool_agent with that connection,
built with the other agents). This module starts it in a DVM's network
namespace and registers it as the tool that makes the scheduler's calls
(attach). The bridge (bridge.py) names its identity as the scheduler in the
'start' response, attaches it when the scheduler first asks for something
(ensure_attached), and declares 'scheduler-requests' (capabilities.py).

Not with PRRTE_BRIDGE_SCHEDULER=1: there the test scheduler (sched_agent, a
PMIx server PRRTE attaches to) is already PRRTE's scheduler, under a rank
this module cannot know; a companion under another identity replaces it and
PRRTE's forwarded requests then never return (measured; the docs say what
would make that mode work).
"""
import os
import sys
from typing import Any, Dict, List

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

# The scheduler's identity: the nspace the test scheduler serves under
# (agents/sched_agent.c, PMIX_SERVER_NSPACE), rank 0.
SCHEDULER_NSPACE = os.environ.get("PRRTE_BRIDGE_SCHEDULER_NSPACE", "prrte-test-scheduler")
SCHEDULER_RANK = 0
# The control of the experiments (docs/prrte-scheduler-requests.md): the
# companion attaches as an ordinary tool under the scheduler's name, without
# PMIX_SERVER_SCHEDULER. What still passes then does not rest on PRRTE
# knowing the scheduler.
PLAIN = os.environ.get("PRRTE_BRIDGE_SCHEDULER_PLAIN") == "1"


def identity() -> Dict[str, Any]:
    return {"nspace": SCHEDULER_NSPACE, "rank": SCHEDULER_RANK}


def companion_argv(hnp_pid: int, agents: str, uri: str, nspace: str = SCHEDULER_NSPACE,
                   rank: int = SCHEDULER_RANK, plain: bool = False) -> List[str]:
    """The companion's command line: sched_client in the DVM's network
    namespace (where the HNP's URI is reachable), its identity in its
    environment. plain=True attaches without PMIX_SERVER_SCHEDULER (an
    ordinary tool under that name: the control of the experiments)."""
    env = [f"SCHED_CLIENT_NSPACE={nspace}", f"SCHED_CLIENT_RANK={rank}"] + (["SCHED_CLIENT_PLAIN=1"] if plain else [])
    return ["env"] + env + ["nsenter", "-t", str(hnp_pid), "-n", os.path.join(agents, "sched_client"), uri]


def attach(dvm: Any, agents: str, nspace: str = SCHEDULER_NSPACE, rank: int = SCHEDULER_RANK,
           plain: bool = PLAIN) -> Any:
    """Start the companion against `dvm` (a dvm.Dvm) and register it as the
    tool that makes `nspace`'s calls (dvm.tools, where Dvm.tool_for finds a
    requester; Dvm.stop ends it with the others). Its events go to the DVM's
    event log addressed to `nspace`.`rank`."""
    from agents import Agent
    from wire import WireError
    agent = Agent(companion_argv(dvm.prte.pid, agents, dvm.uri, nspace, rank, plain), dvm.events,
                  "the scheduler's requests" if not plain else f"tool {nspace}")
    msg = agent.wait("PMIx_tool_init and attach")
    if msg.get("t") != "ready":
        agent.kill()
        raise WireError("internal", f"the scheduler's companion did not attach to the DVM: {msg}")
    if msg.get("proc") != {"nspace": nspace, "rank": rank}:
        agent.kill()
        raise WireError("internal", f"the scheduler's companion attached as {msg.get('proc')}, not {nspace}.{rank}")
    agent.me = msg["proc"]
    dvm.tools[nspace] = agent
    return agent


def is_scheduler(proc: Any) -> bool:
    return isinstance(proc, dict) and proc.get("nspace") == SCHEDULER_NSPACE and proc.get("rank", 0) == SCHEDULER_RANK


def ensure_attached(dvm: Any, agents: str) -> None:
    """The companion, attached to `dvm` once (at the scheduler's first request)."""
    if SCHEDULER_NSPACE in dvm.tools:
        return
    dvm.check_alive("the scheduler's first request")
    attach(dvm, agents)
