#!/usr/bin/env python3
"""The PRRTE bridge: the suite's wire protocol (schemas/README.md) on stdio,
driving a live PRRTE DVM built from openpmix and prrte master.

Per scenario ('start' .. 'stop') it brings up a fresh DVM:
- in a private network namespace (unshare -n) whose only interfaces are
  loopback and a veth pair with both ends inside it, so no traffic leaves
  the host (PRRTE's OOB refuses a loopback-only daemon, hence the veth);
- the first startup node is the HNP (prte runs with that hostname in its
  own UTS namespace), the others are prted daemons launched through
  launch-agent.sh, each in its own UTS namespace named after the node.
Tools are tool_agent processes (C, libpmix) entered into that network
namespace; every status reported is one libpmix returned.

What a live DVM cannot tell a client is stated, never invented: see
docs/prrte.md ("What the bridge reports and how").

Usage: bridge.py --prefix=DIR [--agents=DIR] [--net=shared|netns] [--node-map=JSON|FILE] [--subnet=CIDR]
  --prefix   the openpmix+prrte install prefix, holding bin/prte and
             include/pmix.h (required: this or $PRRTE_PREFIX)
  --agents   where the compiled agents are (default: build them into
             $TMPDIR/pmix-prrte-agents with agents/Makefile)
  --net      shared (default): all nodes share one address; netns: every
             node has its own network namespace and address (hosts.py;
             or $PRRTE_BRIDGE_NET)
  --node-map scenario node name -> address, JSON inline or a file's path
             (netns only; or $PRRTE_BRIDGE_NODE_MAP); --subnet the nodes'
             subnet (default 10.254.0.0/24; or $PRRTE_BRIDGE_SUBNET)
Diagnostics go to stderr; stdout carries protocol lines only.

The bridge's modules, one responsibility each:
  wire.py          the protocol's version and output, WireError, the info
                   codec, the PMIx numbers in the agents' answers
  settings.py      the PRRTE_BRIDGE_* settings (waits, the test scheduler)
  hosts.py         what the scenario's node names map to: one shared address
                   (default) or an address and network namespace per node
  agents.py        the bridge's end of the C agents (Agent, EventLog)
  listener.py      the socket job processes connect back to (AgentListener)
  dvm.py           one DVM: start in namespaces, helpers, stop; the requests
  observation.py   what 'observe' reports (jobs, daemons, membership, nodes)
  capabilities.py  what the handshake declares (capabilities, readings)
  faults.py        daemon faults caused from outside: kill a node's prted,
                   keep a node's daemon from starting ('daemon-faults')
  bridge.py        this: the request handler (Bridge), the command line and
                   main; it re-exports what the tests and scripts import
  slurm_mode.py    the Slurm mode (PRRTE_BRIDGE_RM=slurm): the DVM inside a
                   Slurm allocation, ras/slurm's declarations (docs/prrte-slurm.md)
"""
import json
import os
import subprocess
import sys
import tempfile
import traceback
from typing import Any, Dict, List, Mapping, Optional, Tuple

# wire first: importing it makes sys.stdout stderr (protocol lines only on the real stdout).
from wire import (  # noqa: F401  (re-exported: `import bridge` keeps working)
    ACCEPTED, KEY_TYPES, PMIX_ALLOC_TIMEOUT_WARNING, PROC_ERROR, PROC_RUNNING_STATES, PROC_TERMINATE,
    PROC_TERMINATED, PROTOCOL_OUT, PROTOCOL_VERSION, WireError, decode_infos, encode_infos, log, send)
from settings import (  # noqa: F401
    CALL_S, DVM_START_S, GRANT_SETTLE_S, GRANT_WAIT_S, QUIET_MS, WARN_VIA, WITH_SCHEDULER)
from agents import Agent, EventLog, list_lines  # noqa: F401
from listener import AgentListener  # noqa: F401
from dvm import Dvm, host_spec, node_spec, with_slot_mapping  # noqa: F401
from observation import Observation, membership  # noqa: F401
from capabilities import KEY_CAPABILITIES, READINGS, capabilities, defined_keys  # noqa: F401
from faults import daemon_fault  # noqa: F401
from hosts import Addressing, NodeMapError, from_args  # noqa: F401
import scheduler_client  # noqa: E402
import slurm_mode  # noqa: E402  (PRRTE_BRIDGE_RM=slurm: slurm_mode.py)

HERE = os.path.dirname(os.path.abspath(__file__))


class Bridge:
    NOT_SUPPORTED = {
        "scheduler": "of a scheduler's acts only the timeout warning has a way into PRRTE master (reclaim, teardown, pushing nodes, queueing and a failing shrink order have none)",
        "advance-job": "PRRTE has no public way to hold a job at a boundary (capability 'job-staging')",
        "inspect": "PRRTE's bookkeeping is not readable through PMIx (capability 'introspection')",
    }

    def __init__(self, prefix: str, agents: str, addressing: Optional[Addressing] = None):
        self.prefix, self.agents = prefix, agents
        self.addressing = addressing or Addressing()
        self.dvm: Optional[Dvm] = None
        # The scheduler's companion, unless the test scheduler is PRRTE's scheduler (scheduler_client.py).
        self.companion = not WITH_SCHEDULER and not slurm_mode.ACTIVE
        self.capabilities = capabilities(defined_keys(prefix), companion=self.companion)
        self.readings, self.slurm = READINGS, slurm_mode.ACTIVE
        if self.slurm:  # the Slurm mode: its own DVM and declarations (slurm_mode.py)
            self.capabilities = slurm_mode.capabilities(defined_keys(prefix))
            self.readings = slurm_mode.READINGS

    def need(self) -> Dvm:
        if self.dvm is None:
            raise WireError("not-started", "no DVM: send 'start' first")
        return self.dvm

    def handle(self, req: dict) -> dict:
        cmd = req.get("cmd")
        if cmd == "scheduler" and req.get("action") == "timeout-warning" and "scheduler-warning" in self.capabilities:
            return self.need().warn(req)
        if cmd == "daemon":
            # Only what can be done to a live daemon from outside (faults.py).
            if "daemon-faults" not in self.capabilities:
                raise WireError("not-supported", "daemon: no daemon faults are offered (capability 'daemon-faults' not declared)")
            return daemon_fault(self.need(), req)
        if cmd in self.NOT_SUPPORTED:
            raise WireError("not-supported", f"{cmd}: {self.NOT_SUPPORTED[cmd]}")
        if cmd == "start-protocol":
            if req.get("protocolVersion") != PROTOCOL_VERSION:
                raise VersionRefused(str(req.get("protocolVersion")))
            return {"protocolVersion": PROTOCOL_VERSION,
                    "implementation": {"name": "prrte-bridge", "version": self.version() + (slurm_mode.describe() if self.slurm else "")},
                    "capabilities": self.capabilities,
                    "readings": self.readings,
                    # A live DVM: daemons exit, processes end and events
                    # arrive after the answer that caused them.
                    "effectsTrailAnswers": True,
                    # A daemon a shrink departs exits on a 2 s timer
                    # (prted_comm.c:172), and PRRTE then records it lost:
                    # nothing a client sees changes in between.
                    "quietMs": QUIET_MS}
        if cmd == "start":
            if self.dvm is not None:
                self.dvm.stop()
                self.dvm = None
            if req["withoutKeys"]:
                raise WireError("not-supported", "cannot run PRRTE as if its PMIx lacked keys")
            if "scheduler" in req:
                raise WireError("not-supported", "no scheduler policy can be chosen: no scheduler is attached")
            if self.slurm:  # the DVM inside a Slurm allocation (slurm_mode.py); one address, Slurm's
                self.dvm = slurm_mode.SlurmDvm(self.prefix, self.agents, req["startupNodes"], req["schedulerNodes"], req["elastic"])
            else:
                self.dvm = Dvm(self.prefix, self.agents, req["startupNodes"], req["schedulerNodes"], req["elastic"],
                               addressing=self.addressing)
            if self.companion:
                # The identity the companion attaches under, at the scheduler's first request.
                return {"scheduler": scheduler_client.identity()}
            # No scheduler is attached: this names nobody (PRRTE has no scheduler process).
            return {"scheduler": {"nspace": "prrte-bridge-no-scheduler", "rank": 0}}
        if cmd == "stop":
            if self.dvm is not None:
                self.dvm.stop()
                self.dvm = None
            return {}
        dvm = self.need()
        if self.companion and cmd in ("allocate", "spawn", "query-allocation") and scheduler_client.is_scheduler(req.get("requester")):
            # Attached once per DVM, when the scheduler first asks: a scenario
            # in which it never does runs as if PRRTE had no scheduler.
            scheduler_client.ensure_attached(dvm, self.agents)
        if cmd == "connect-tool":
            return {"proc": dvm.connect_tool(req["label"])}
        if cmd == "disconnect-tool":
            return {"status": dvm.disconnect_tool(req["proc"])}
        if cmd == "allocate":
            return dvm.allocate(req["requester"], req["directive"], req["info"])
        if cmd == "spawn":
            if "hold" in req:
                raise WireError("not-supported", "spawn 'hold' needs 'job-staging'")
            return dvm.spawn(req["requester"], req["apps"], req["info"])
        if cmd == "terminate-job":
            return {"status": dvm.terminate_job(req["nspace"])}
        if cmd == "observe":
            return dvm.observe(req.get("nodes"), req.get("jobs"))
        if cmd == "query-allocation":
            return dvm.query_allocation(req["requester"], req["qualifiers"])
        raise WireError("bad-request", f"unknown command {cmd!r}")

    def version(self) -> str:
        try:
            with open(os.path.join(self.prefix, "pmix-conformance-sources.txt")) as f:
                return "; ".join(line.strip() for line in f if line.strip())
        except OSError:
            return "unknown"


class VersionRefused(Exception):
    pass


def build_agents(prefix: str) -> str:
    out = os.path.join(tempfile.gettempdir(), "pmix-prrte-agents")
    r = subprocess.run(["make", "-s", "-C", os.path.join(HERE, "agents"), f"PMIX_PREFIX={prefix}", f"OUT={out}", "all"],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        raise SystemExit(f"prrte-bridge: building the agents failed:\n{r.stdout}")
    return out


def parse_args(argv: List[str], environ: Mapping[str, str]) -> Tuple[str, Optional[str]]:
    """(prefix, agents) from the command line (--prefix=, else $PRRTE_PREFIX;
    --agents=). There is no default prefix: a missing one, or one that is not
    an openpmix+prrte install (no bin/prte or no include/pmix.h), ends the
    bridge with a message naming what is required, or the path as given."""
    prefix, given_as = environ.get("PRRTE_PREFIX", ""), "PRRTE_PREFIX"
    agents = None
    for a in argv:
        if a.startswith("--prefix="):
            prefix, given_as = a.split("=", 1)[1], "--prefix"
        elif a.startswith("--agents="):
            agents = a.split("=", 1)[1]
    if not prefix:
        raise SystemExit("prrte-bridge: no install prefix: give --prefix=DIR (or set PRRTE_PREFIX), "
                         "DIR an openpmix+prrte install with bin/prte and include/pmix.h; "
                         "build one with scripts/prrte-build.sh")
    missing = [p for p in ("bin/prte", "include/pmix.h") if not os.path.exists(os.path.join(prefix, p))]
    if missing:
        raise SystemExit(f"prrte-bridge: {given_as}={prefix} is not an openpmix+prrte install "
                         f"({' and '.join(missing)} missing there); build one with scripts/prrte-build.sh")
    return prefix, agents


def main(argv: List[str]) -> None:
    prefix, agents = parse_args(argv, os.environ)
    try:
        addressing = from_args(argv, os.environ)
    except NodeMapError as e:
        raise SystemExit(f"prrte-bridge: {e}")
    log(f"node addressing: {addressing.describe()}")
    agents = agents or build_agents(prefix)
    bridge = Bridge(prefix, agents, addressing)
    try:
        for line in sys.stdin:
            if not line.strip():
                continue
            seq = None
            try:
                req = json.loads(line)
                seq = req.get("seq") if isinstance(req, dict) else None
                send({"seq": seq, **bridge.handle(req)})
            except VersionRefused as e:
                send({"seq": seq, "error": {"message": f"this bridge speaks {PROTOCOL_VERSION} only, not {e}",
                                            "kind": "protocol-version", "supportedVersions": [PROTOCOL_VERSION]}})
            except WireError as e:
                log(f"error response ({e.kind}): {e}")
                err: Dict[str, Any] = {"message": str(e), "kind": e.kind}
                if e.detail:
                    err["detail"] = e.detail
                send({"seq": seq, "error": err})
            except Exception as e:  # a bridge bug: report it for this request, keep serving
                detail = traceback.format_exc()
                log(detail)
                send({"seq": seq, "error": {"message": f"{type(e).__name__}: {e}", "kind": "internal", "detail": detail}})
    finally:
        if bridge.dvm is not None:
            bridge.dvm.stop()


if __name__ == "__main__":
    main(sys.argv[1:])
