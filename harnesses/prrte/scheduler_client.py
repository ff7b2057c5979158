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

The companion is agents/sched_client.c (tool_agent with that connection).
This module starts it in a DVM's network namespace and registers it as the
tool that makes the scheduler's calls (attach); bridge_class() is the PRRTE
bridge that names it as the scheduler in the 'start' response, attaches it
when the scheduler first asks for something, and declares
'scheduler-requests'. It is a prototype for
the lead to integrate (what bridge.py, dvm.py and capabilities.py would
change is in docs/prrte-scheduler-requests.md); run it instead of bridge.py:

  python3 harnesses/prrte/scheduler_client.py --prefix=DIR [--agents=DIR]

Not with PRRTE_BRIDGE_SCHEDULER=1: there the test scheduler (sched_agent, a
PMIx server PRRTE attaches to) is already PRRTE's scheduler, under a rank
this module cannot know; a companion under another identity replaces it and
PRRTE's forwarded requests then never return (measured; the docs say what
would make that mode work).
"""
import os
import subprocess
import sys
from typing import Any, Dict, List

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

# The scheduler's identity: the nspace the test scheduler serves under
# (agents/sched_agent.c, PMIX_SERVER_NSPACE), rank 0.
SCHEDULER_NSPACE = os.environ.get("PRRTE_BRIDGE_SCHEDULER_NSPACE", "prrte-test-scheduler")
SCHEDULER_RANK = 0
CAPABILITY = "scheduler-requests"
# The control of the experiments (docs/prrte-scheduler-requests.md): the
# companion attaches as an ordinary tool under the scheduler's name, without
# PMIX_SERVER_SCHEDULER. What still passes then does not rest on PRRTE
# knowing the scheduler.
PLAIN = os.environ.get("PRRTE_BRIDGE_SCHEDULER_PLAIN") == "1"
# Experiments only: capabilities to declare although the bridge lacks them
# (comma-separated), so that Examples rows skipped only by a tag on their
# Scenario Outline can be measured. The rows that do use them error (the
# bridge answers not-supported): disregard those.
EXPERIMENT_DECLARE = [c for c in os.environ.get("PRRTE_BRIDGE_EXPERIMENT_DECLARE", "").split(",") if c]


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


def with_capability(capabilities: List[str]) -> List[str]:
    return capabilities if CAPABILITY in capabilities else capabilities + [CAPABILITY]


def build(prefix: str, out: str) -> str:
    """Compile agents/sched_client.c into `out` (beside the other agents)
    unless it is there and newer than its sources; the agents' Makefile does
    not know it yet (the lead adds the target, see the docs)."""
    src = os.path.join(HERE, "agents")
    exe = os.path.join(out, "sched_client")
    sources = [os.path.join(src, f) for f in ("sched_client.c", "tool_agent.c", "agent_common.c", "agent_common.h")]
    if os.path.exists(exe) and all(os.path.getmtime(exe) >= os.path.getmtime(s) for s in sources):
        return exe
    os.makedirs(out, exist_ok=True)
    cmd = [os.environ.get("CC", "cc"), "-O1", "-g", "-Wall", "-Wextra", "-Wno-unused-parameter",
           f"-I{prefix}/include", "-o", exe, sources[0], sources[2],
           f"-L{prefix}/lib", f"-Wl,-rpath,{prefix}/lib", "-lpmix", "-lpthread"]
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        raise SystemExit(f"prrte-bridge: building sched_client failed:\n{r.stdout}")
    return exe


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


def bridge_class() -> type:
    """The PRRTE bridge with the scheduler's companion (imported late: the
    bridge redirects stdout when imported). 'start' names the scheduler's
    identity; the companion attaches to the DVM when the scheduler first
    makes a call of its own (allocate, spawn, query-allocation), so a
    scenario in which the scheduler never asks anything runs exactly as
    under bridge.py (PRRTE never learns of a scheduler)."""
    import bridge
    from wire import WireError

    class Bridge(bridge.Bridge):
        def __init__(self, prefix: str, agents: str):
            super().__init__(prefix, agents)
            self.capabilities = with_capability(self.capabilities)
            self.capabilities += [c for c in EXPERIMENT_DECLARE if c not in self.capabilities]
            self.built = False

        def handle(self, req: dict) -> dict:
            cmd = req.get("cmd")
            if cmd == "start":
                if getattr(bridge, "WITH_SCHEDULER", False):
                    raise WireError("not-supported", "the scheduler's companion cannot run beside the attached test scheduler (PRRTE_BRIDGE_SCHEDULER=1)")
                return {**super().handle(req), "scheduler": identity()}
            if cmd in ("allocate", "spawn", "query-allocation") and is_scheduler(req.get("requester")) \
                    and self.dvm is not None and SCHEDULER_NSPACE not in self.dvm.tools:
                if not self.built:
                    build(self.prefix, self.agents)
                    self.built = True
                self.dvm.check_alive("the scheduler's first request")
                attach(self.dvm, self.agents)
            return super().handle(req)

    return Bridge


def main(argv: List[str]) -> None:
    import bridge
    cls = bridge_class()
    bridge.Bridge = cls  # bridge.main builds the handler it names
    bridge.main(argv)


if __name__ == "__main__":
    main(sys.argv[1:])
