"""The bridge's Slurm mode (issue 26; docs/prrte-slurm.md, "The Slurm mode"):
PRRTE_BRIDGE_RM=slurm. Each scenario's DVM runs inside a real Slurm
allocation on the one-host cluster of scripts/slurm-cluster.sh, so PRRTE
selects ras/slurm and every grant, release and cancel goes through Slurm:

- 'start' shapes the cluster to the scenario (its startup and pool nodes,
  each with the scenario's slots as its CPUs: the cluster is restarted only
  when the CPU map or the node names change), drains every other node, and
  starts `salloc --nodes=k --nodelist=<startup> --exclusive prte ...`
  (ras/slurm reads the startup slots from SLURM_TASKS_PER_NODE, which
  --exclusive makes each node's CPUs); the daemons are srun tasks started
  through scripts/slurm-node-prted.sh (one UTS namespace per node);
- tools are tool_agent processes in the host's network namespace (the
  slurmds, and so the prteds, live there: docs/prrte-slurm.md section 2);
- a grow goes to PRRTE as the scenario wrote it (no ':slots': ras/slurm
  refuses a per-node slot count with -27 and sizes a node from Slurm); one
  that Slurm queues is not answered until it is granted (PMIx_Allocation_request
  blocks, docs/prrte-slurm.md "What does not work" 3): after GROW_QUEUE_S the
  bridge cancels it (REQ_CANCEL of its request id through the observer tool,
  else `scancel` of the pending expander job), takes PRRTE's late answer off
  the tool, and answers the request with an internal error saying so;
- 'stop' is pterm, then the salloc's end, then `scancel` of every job still
  listed, then a kill of any of this DVM's prteds that outlived it.

What this mode declares (capabilities(), READINGS) is only what was seen
live in this configuration; the rest of the bridge (observation, spawns,
jobs) is the ordinary one (dvm.Dvm)."""
import os
import shlex
import shutil
import subprocess
import tempfile
import threading
import time
from typing import Dict, List, Optional

from agents import Agent, EventLog
from dvm import Dvm, reap
from listener import AgentListener
from settings import CALL_S
from slurm_cluster import (CLUSTER, DEFAULT_POOL, DEFAULT_STARTUP, PROCTRACK, PRRTE_SLURM_PREFIX, REGISTRY,  # noqa: F401
                           SLURM_PREFIX, SLURM_STATE, Cluster, cluster_shape, cmdline, end_leftovers, forget,
                           kill_named, kill_prteds, parse_squeue, remember, slurm_env)
from wire import ACCEPTED, WireError, decode_infos, encode_infos, log

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))

ACTIVE = os.environ.get("PRRTE_BRIDGE_RM", "hosts") == "slurm"
START_S = float(os.environ.get("PRRTE_BRIDGE_SLURM_START_S", "30"))
# How long a grow may stay unanswered (queued in Slurm) before the bridge
# cancels it; below the runner's request timeout (scripts/prrte-slurm-run.sh).
GROW_QUEUE_S = float(os.environ.get("PRRTE_BRIDGE_SLURM_GROW_S", "15"))
# scripts/slurm-node-prted.sh with the bridge's control directory (daemon faults)
LAUNCH_AGENT = os.path.join(HERE, "slurm-launch-agent.sh")

# Declared in this mode (see capabilities()).
READINGS = {"session-id-in-response": "omitted"}


# Which key capabilities this mode declares: "keys" (default), every key the
# PMIx in use defines, as the ordinary bridge does; "narrow", only
# PMIX_DVM_MOD_EVENTS (the first live run's profile; see capabilities()).
PROFILE = os.environ.get("PRRTE_BRIDGE_SLURM_PROFILE", "keys")
# daemon-faults: off with PRRTE_BRIDGE_SLURM_DAEMON_FAULTS=0 (see capabilities()).
DAEMON_FAULTS = os.environ.get("PRRTE_BRIDGE_SLURM_DAEMON_FAULTS", "1") != "0"


def capabilities(keys: List[str], profile: str = "", daemon_faults: Optional[bool] = None) -> List[str]:
    """What the handshake declares in this mode (docs/prrte-slurm.md, "The Slurm mode").
    - The key capabilities: a key capability says that the PMIx in use
      defines the key (seam/capabilities.ts), and this mode's PMIx is the
      ordinary bridge's, so the same keys are declared (defined_keys). That
      ras/slurm ignores PMIX_ALLOC_TARGET, PMIX_ALLOC_SHARE and
      PMIX_ALLOC_INHERITANCE (it reads only PMIX_ALLOC_NUM_NODES,
      PMIX_ALLOC_NODE_LIST and PMIX_ALLOC_REQ_ID: ras_slurm_modify_extend.c:1784-1829)
      is what the scenarios that use them judge. Not declaring a key would
      say the PMIx lacks it, and run the @without:<KEY> scenarios, which
      judge a fallback this configuration does not have (the first live run,
      profile "narrow", did exactly that).
    - elastic: the two-phase grow (-156, then PMIX_DVM_IS_READY) and
      releases, seen live.
    - daemon-faults (unless PRRTE_BRIDGE_SLURM_DAEMON_FAULTS=0): the bridge
      can cause both faults here, seen live: slurm-launch-agent.sh keeps a
      node's daemon from starting (its srun task exits 1), and faults.py
      kills a grown node's prted by pid (the DVM then drops the node and
      goes on). What PRRTE does with the first is what the scenarios judge:
      plm/slurm takes a daemon srun's non-zero exit for a dead DVM and the
      whole DVM exits (plm_slurm_module.c:672-689).
    Not declared:
    - scheduler-warning: Slurm has no source for PMIX_ALLOC_TIMEOUT_WARNING
      (the ordinary bridge relays one through PRRTE's handler; nothing in
      ras/slurm sends it);
    - scheduler-requests: not examined here. Slurm is this DVM's scheduler;
      the companion (scheduler_client.py) would claim that role inside PRRTE
      as a PMIx tool, which no Slurm site has, and nothing was run to show
      what ras/slurm then does with its requests;
    - everything the ordinary bridge does not declare either."""
    profile = profile or PROFILE
    daemon_faults = DAEMON_FAULTS if daemon_faults is None else daemon_faults
    out = [k for k in keys if k == "PMIX_DVM_MOD_EVENTS"] if profile == "narrow" else list(keys)
    out.append("elastic")
    if daemon_faults:
        out.append("daemon-faults")
    return out


def describe() -> str:
    """What the handshake's version adds in this mode: the allocator and the Slurm."""
    try:
        out = subprocess.run([os.path.join(SLURM_PREFIX, "bin", "sinfo"), "--version"], capture_output=True,
                             text=True, timeout=10, env=slurm_env()).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        out = ""
    # No install path: the version string goes into reports and expectations files, which are shared.
    return f"; Slurm mode: ras/slurm of the Slurm-enabled PRRTE ($PRRTE_SLURM_PREFIX), {out or 'no Slurm found at $SLURM_PREFIX'}"


def missing() -> List[str]:
    """What this mode needs that is not here, plainly (empty when all is)."""
    out = []
    if not SLURM_PREFIX:
        out.append("SLURM_PREFIX is not set: the Slurm install to use (scripts/slurm-build.sh SRC PREFIX makes one)")
    elif not os.access(os.path.join(SLURM_PREFIX, "bin", "salloc"), os.X_OK):
        out.append(f"no Slurm at {SLURM_PREFIX} (bin/salloc; build it with scripts/slurm-build.sh, or set SLURM_PREFIX)")
    if not PRRTE_SLURM_PREFIX:
        out.append("PRRTE_SLURM_PREFIX is not set: the Slurm-enabled PRRTE install to use (scripts/slurm-prrte-build.sh makes one)")
    elif not os.access(os.path.join(PRRTE_SLURM_PREFIX, "bin", "prte"), os.X_OK):
        out.append(f"no Slurm-enabled PRRTE at {PRRTE_SLURM_PREFIX} (bin/prte; build it with scripts/slurm-prrte-build.sh, "
                   "or set PRRTE_SLURM_PREFIX)")
    return out


def salloc_argv(startup: List[dict], uri_file: str, elastic: bool, attached: bool, ctl: str = "") -> List[str]:
    """The DVM as a Slurm user starts it (docs/prrte-slurm.md): prte as the
    command of an salloc naming the startup nodes, whole nodes (--exclusive:
    SLURM_TASKS_PER_NODE is then each node's CPUs, the scenario's slots)."""
    argv = ["salloc", f"--nodes={len(startup)}", f"--nodelist={','.join(n['name'] for n in startup)}",
            "--exclusive", "--job-name=prrte-dvm", "prte", "--report-uri", uri_file, "--allow-run-as-root",
            "--prtemca", "prte_launch_agent", f"{LAUNCH_AGENT} --ctl={ctl} prted" if ctl else f"{LAUNCH_AGENT} prted"]
    if attached:
        argv.insert(argv.index("prte") + 1, "--leave-session-attached")
    if elastic:
        argv += ["--prtemca", "prte_elastic_mode", "1"]
    return argv


def grow_request(info: List[dict]) -> List[dict]:
    """A grow's info as PRRTE under ras/slurm must get it: the node list by
    name alone. The bridge adds no ':slots' (Dvm.with_pool_sizes does under
    ras/hosts); a slot count the scenario itself wrote is passed on as written."""
    return list(info)


def req_id(info: List[dict]) -> Optional[str]:
    for i in info:
        if i["key"] == "pmix.alloc.reqid" and isinstance(i["value"], str):
            return i["value"]
    return None


class SlurmDvm(Dvm):
    """One DVM inside a Slurm allocation (see the module's text). Everything
    after start-up is the ordinary Dvm's, except tools (no network namespace
    to enter), grows (no ':slots'; a queued grow is cancelled), the nodes
    reported (the HNP's host is no node of the scenario) and stop."""

    def __init__(self, prefix: str, agents: str, startup: List[dict], pool: List[dict], elastic: bool,
                 cluster: Optional[Cluster] = None):
        if not startup:
            raise WireError("not-supported", "a DVM needs at least one startup node")
        gone = missing()
        if gone:
            raise WireError("internal", "Slurm mode: " + "; ".join(gone))
        self.prefix, self.agents = prefix, agents
        self.dir = tempfile.mkdtemp(prefix="prrte-slurm-bridge-")
        self.startup = startup
        self.slots = {n["name"]: n["slots"] for n in pool}
        self.slots.update({n["name"]: n["slots"] for n in startup})
        self.head = startup[0]["name"]
        self.elastic = elastic
        self.events = EventLog()
        self.tools: Dict[str, Agent] = {}
        self.jobs: Dict[str, dict] = {}
        self.procs: Dict[tuple, Agent] = {}
        self.procs_changed = threading.Condition()
        self.tool_count = 0
        self.hnp_nspace = ""
        self.dvm_job: Optional[str] = None
        end_leftovers()
        self.cluster = cluster or Cluster()
        self.sock_path = os.path.join(self.dir, "agents.sock")
        self.listener = AgentListener(self.sock_path,
                                      lambda conn: threading.Thread(target=self._register, args=(conn,), daemon=True).start())
        self.out = open(os.path.join(self.dir, "prte.out"), "w")
        try:
            self.cluster.ensure(startup, pool)
        except BaseException:
            self.listener.stop()
            raise
        env = slurm_env()
        # ras/slurm refuses any release touching the DVM's own job unless
        # SLURMD_NODENAME says where prte runs (ras_slurm_modify_release.c:958-963);
        # salloc runs prte on the submit host, where it is unset. The head
        # node is taken as that node, as LaunchParameters=use_interactive_step would give.
        env["SLURMD_NODENAME"] = self.head
        self.env = env
        argv = salloc_argv(startup, os.path.join(self.dir, "uri"), elastic, attached=PROCTRACK == "cgroup", ctl=self.dir)
        log(f"Slurm mode: {' '.join(shlex.quote(a) for a in argv)}")
        self.prte = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=self.out, stderr=subprocess.STDOUT,
                                     env=env, start_new_session=True, cwd=self.dir)
        deadline = time.monotonic() + START_S
        while time.monotonic() < deadline:
            if self.prte.poll() is not None:
                tail = self.tail()
                self.stop()
                raise WireError("internal", f"salloc/prte exited ({self.prte.returncode}) during start-up: {tail}")
            if "DVM ready" in self.read_out():
                break
            time.sleep(0.05)
        else:
            tail = self.tail()
            self.stop()
            raise WireError("internal", f"the DVM in Slurm was not ready within {START_S:g} s: {tail}")
        self.uri = open(os.path.join(self.dir, "uri")).readline().strip()
        self.hnp_nspace = self.uri.split(".")[0] if "@" in self.uri else ""
        remember(self.prte.pid, self.dir, self.hnp_nspace)
        # The DVM's own Slurm job: ras/slurm keeps a session for it, which
        # PMIx queries list with the startup nodes (see nodes()).
        self.dvm_job = next((j["id"] for j in self.cluster.jobs() if j["name"] == "prrte-dvm"), None)
        try:
            self._start_helpers(env, startup, pool)
        except BaseException:
            self.stop()
            raise

    def _start_helpers(self, env: Dict[str, str], startup: List[dict], pool: List[dict]) -> None:
        self.observer = self.new_agent("observer")
        self.observer.wait("tool init")
        self.scheduler = None  # no test scheduler: Slurm is the scheduler

    def new_agent(self, label: str) -> Agent:
        return Agent([f"{self.agents}/tool_agent", self.uri], self.events, label)

    def nodes(self, in_use: Dict[str, int]) -> List[dict]:
        """The ordinary membership, less any node that is not the scenario's:
        the HNP runs on the submit host (salloc's command), which PRRTE lists
        in its pool and process table under the host's own name. The DVM's
        own Slurm job is the default session: ras/slurm keeps a session
        object for it (prte_ras_slurm_assign_new_session), which
        PMIX_QUERY_ALLOC_IDS lists with the startup nodes, but it is a
        tracking handle and not a reservation (node->session stays NULL, so
        its nodes stay in the general pool: ras/slurm's AGENTS.md, "The
        node->session deviation"); its nodes are reported as the default
        session's (''). A grown allocation is reported by its id, as PRRTE
        lists it, although its nodes are in the general pool too (the same
        deviation; docs/prrte-slurm.md)."""
        out = [n for n in super().nodes(in_use) if n["name"] in self.slots]
        for n in out:
            if self.dvm_job is not None and n["availableTo"] == self.dvm_job:
                n["availableTo"] = ""
        return out

    def allocate(self, requester: dict, directive: int, info: List[dict]) -> dict:
        self.check_alive("allocate")
        agent = self.tool_for(requester, "allocate")
        grow = directive in (1, 2)
        sent = grow_request(info) if grow else info
        agent.send(["alloc", str(directive)] + encode_infos(sent))
        try:
            msg = agent.wait("alloc", timeout=GROW_QUEUE_S if grow else CALL_S)
        except WireError as e:
            if not grow or "no answer" not in str(e):
                raise
            raise WireError("internal", self.cancel_queued(agent, info)) from None
        status = int(msg["status"])
        results = decode_infos(msg.get("info", []))
        if not self.elastic and grow and status in ACCEPTED:
            self.wait_for_job(results)
        return {"status": status, "info": results}

    def cancel_queued(self, agent: Agent, info: List[dict]) -> str:
        """A grow unanswered after GROW_QUEUE_S: Slurm has queued its expander
        (salloc --no-shell stays PENDING) and PRRTE answers only once it is
        granted. Cancel it as a requester can (REQ_CANCEL of its request id,
        from the observer tool; else scancel of the pending expander), take
        PRRTE's late answer off the tool so its next call is not answered
        with it, and say what happened."""
        pending = self.cluster.pending_expanders()
        rid = req_id(info)
        how = ""
        if rid is not None:
            try:
                msg = self.observer.call(["alloc", "5"] + encode_infos([{"key": "pmix.alloc.reqid", "value": rid}]))
                how = f"REQ_CANCEL of request id {rid!r} answered {msg['status']}"
            except WireError as e:
                how = f"REQ_CANCEL of request id {rid!r} failed: {e}"
        if rid is None or not how.endswith(" 0"):
            ids = self.cluster.pending_expanders() or pending
            if ids:
                self.cluster.run(["scancel"] + ids, capture_output=True, timeout=10, env=self.cluster.env)
            how += ("; " if how else "") + f"scancel of pending expander job(s) {ids}"
        try:
            late = agent.wait("the cancelled grow's answer", timeout=10)
            after = f"PRRTE then answered the grow {late.get('status')}"
        except WireError:
            agent.kill()  # out of step with its calls: it must not answer the next one with this
            after = "PRRTE gave the grow no answer even then (the tool was ended)"
        return (f"the grow was not answered within {GROW_QUEUE_S:g} s: Slurm queued its expander job "
                f"({', '.join(pending) or 'none listed as pending'}) and PRRTE answers a grow only once Slurm grants it; "
                f"the bridge cancelled it ({how}); {after}")

    def wait_for_job(self, results: List[dict]) -> None:
        """Outside elastic mode ras/slurm answers a grow in one phase with no
        event (ras_slurm_modify_extend.c:1630-1634): wait, bounded, for the
        daemons of the Slurm job it names (PMIX_ALLOC_ID is the job id)."""
        job = next((str(i["value"]) for i in results if i["key"] == "pmix.alloc.id"), None)
        if job is None:
            return
        names = self.cluster.job_nodes(job)
        if names:
            self.wait_for_grant([{"key": "pmix.alloc.nlist", "value": ",".join(names)}])

    def stop(self) -> None:
        self.listener.stop()
        for agent in list(self.tools.values()) + list(self.procs.values()) + [getattr(self, "observer", None)]:
            if agent is not None:
                agent.kill()
        self.tools.clear()
        if self.prte.poll() is None and os.path.exists(os.path.join(self.dir, "uri")):
            # As in Dvm.stop: wait for the DVM's end (salloc's exit, below), not
            # for pterm's, which finalizes as a tool for about a second after
            # prte has gone; pterm is reaped in the background.
            pterm = subprocess.Popen(["pterm", "--dvm-uri", f"file:{self.dir}/uri"], stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=self.env)
            threading.Thread(target=reap, args=(pterm, 10.0), daemon=True).start()
        try:
            self.prte.wait(timeout=10)
        except subprocess.TimeoutExpired:
            # salloc does not reliably act on SIGTERM (ras/slurm's AGENTS.md),
            # and prte is in a process group of its own
            log(f"Slurm mode: the DVM did not end after pterm: killed {kill_named(self.dir)}")
            try:
                self.prte.wait(timeout=3)
            except subprocess.TimeoutExpired:
                log(f"Slurm mode: salloc (pid {self.prte.pid}) still runs after SIGKILL")
        try:
            left = self.cluster.cancel_all()
            if left:
                log(f"Slurm mode: cancelled the jobs still listed after the DVM ended: {left}")
        except (WireError, subprocess.SubprocessError, OSError) as e:
            log(f"Slurm mode: could not cancel the jobs left: {e}")
        kill_prteds(self.hnp_nspace)
        forget(self.dir)
        self.out.close()
        if not os.environ.get("PRRTE_BRIDGE_KEEP"):
            shutil.rmtree(self.dir, ignore_errors=True)
