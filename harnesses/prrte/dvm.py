"""One live PRRTE DVM per scenario (Dvm): brought up in private network and
UTS namespaces with its helpers (the observer tool, and the test scheduler
when one is attached), and stopped with pterm; and the requests it serves:
tools, allocate, spawn, terminate-job, query-allocation and the scheduler's
timeout warning. What 'observe' reports is observation.py's (Dvm inherits
it). Also how a request's nodes and hosts are spelled for PRRTE (node_spec,
with_slot_mapping, host_spec)."""
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
from typing import Any, Dict, List, Optional

from agents import Agent, EventLog
from hosts import Addressing, hosts_file, hub_argv
from listener import AgentListener
from observation import Observation
from settings import CALL_S, DVM_START_S, GRANT_SETTLE_S, GRANT_WAIT_S, WARN_VIA, WITH_SCHEDULER
from wire import ACCEPTED, PMIX_ALLOC_TIMEOUT_WARNING, WireError, decode_infos, encode_infos, log

HERE = os.path.dirname(os.path.abspath(__file__))


def node_spec(nodes: List[dict]) -> str:
    """Nodes as PMIX_ALLOC_NODE_LIST spells a size: name:slots,..."""
    return ",".join(f"{n['name']}:{n['slots']}" for n in nodes)


def with_slot_mapping(info: List[dict]) -> List[dict]:
    """A spawn's info with PMIX_MAPBY "slot" and PMIX_BINDTO "none" added
    unless the scenario gave its own. Every "node" is a daemon on this one
    host and sees the host's cores (2 on the CI machine); PRRTE's default for
    a job maps by core and binds to it, which caps a node at its free cores
    whatever its slots: a 4-process spawn onto two 4-slot nodes failed to map
    (-179) once two processes ran there. The suite's nodes have slots, not
    cores. (The DVM-wide "mapby"/"bindto" MCA defaults do not help: a job a
    tool launches never inherits them, rmaps_base_map_job.c.)"""
    given = {i["key"] for i in info}
    extra = [{"key": k, "value": v} for k, v in (("pmix.mapby", "slot"), ("pmix.bindto", "none")) if k not in given]
    return info + extra


def host_spec(hosts: List[str]) -> str:
    """A spawn's hosts as PMIX_HOST: "name:*" for each bare name. PRRTE reads a
    bare name as one slot of that node (dash_host.c), so "2 processes on host
    n2" failed to map (-179); the suite's "on host n2" names where the job may
    run, and "name:*" is PRRTE's spelling of "the node's free slots"."""
    return ",".join(h if ":" in h else f"{h}:*" for h in hosts)


def with_pool_sizes(info: List[dict], slots: Dict[str, int]) -> List[dict]:
    """Without a scheduler PRRTE learns a granted node's size only from
    PMIX_ALLOC_NODE_LIST's "name:slots" form (ras/hosts); a bare name gets
    one slot. The scenario's pool says how big each node is, so the bridge
    adds ":slots" to a bare pool name, as a resource manager would know it."""
    out = []
    for i in info:
        if i["key"] == "pmix.alloc.nlist" and isinstance(i["value"], str):
            names = [n if ":" in n or n not in slots else f"{n}:{slots[n]}" for n in i["value"].split(",")]
            i = {**i, "value": ",".join(names)}
        out.append(i)
    return out


def sized_request(directive: int, info: List[dict], slots: Dict[str, int]) -> List[dict]:
    """Sizes only for what is granted (PMIX_ALLOC_NEW 1, PMIX_ALLOC_EXTEND 2).
    A RELEASE names nodes PRRTE already has, by name alone: "s1:2" names no
    node, and the release was answered PMIX_ERR_NOT_FOUND (-46)."""
    return with_pool_sizes(info, slots) if directive in (1, 2) else info


def reap(proc: subprocess.Popen, within: float) -> None:
    """Wait for a helper process to end on its own, ending it after `within` seconds."""
    try:
        proc.wait(timeout=within)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


class Dvm(Observation):
    """One live DVM for one scenario."""

    def __init__(self, prefix: str, agents: str, startup: List[dict], pool: List[dict], elastic: bool,
                 addressing: Optional[Addressing] = None):
        if not startup:
            raise WireError("not-supported", "a DVM needs at least one startup node (the HNP)")
        self.prefix, self.agents = prefix, agents
        self.dir = tempfile.mkdtemp(prefix="prrte-bridge-")
        self.startup = startup
        self.slots = {n["name"]: n["slots"] for n in pool}
        self.slots.update({n["name"]: n["slots"] for n in startup})
        self.head = startup[0]["name"]
        self.elastic = elastic
        self.events = EventLog()
        self.tools: Dict[str, Agent] = {}
        self.jobs: Dict[str, dict] = {}
        self.procs: Dict[tuple, Agent] = {}  # (nspace, rank) -> a job's process
        self.procs_changed = threading.Condition()
        self.tool_count = 0
        self.sock_path = os.path.join(self.dir, "agents.sock")
        # Job processes connect here; each says who it is first.
        self.listener = AgentListener(self.sock_path,
                                      lambda conn: threading.Thread(target=self._register, args=(conn,), daemon=True).start())
        with open(os.path.join(self.dir, "hostfile"), "w") as f:
            for n in startup:
                f.write(f"{n['name']} slots={n['slots']}\n")
        env = dict(os.environ)
        env["PATH"] = os.path.join(prefix, "bin") + ":" + env.get("PATH", "")
        agent = f"{HERE}/launch-agent.sh --ctl={self.dir} --path={prefix}/bin"
        self.addressing = addressing or Addressing()
        self.hub: Optional[subprocess.Popen] = None
        if self.addressing.distinct:
            self._start_hub([n["name"] for n in startup + pool])
            agent += f" --net={self.hub.pid}/{self.addressing.prefixlen}"
        prte = ["prte", "--hostfile", f"{self.dir}/hostfile", "--report-uri", f"{self.dir}/uri",
                "--prtemca", "plm_ssh_agent", agent, "--prtemca", "plm_ssh_no_tree_spawn", "1",
                "--allow-run-as-root"]
        if elastic:
            prte += ["--prtemca", "prte_elastic_mode", "1"]
        if WITH_SCHEDULER:
            # A system tmpdir of this DVM's own, so the scheduler's rendezvous
            # (pmix.sched.<HNP hostname>) is found by this DVM and no other;
            # ras/pmix is selected only when told a scheduler exists.
            env["PMIX_SYSTEM_TMPDIR"] = os.path.join(self.dir, "system")
            os.makedirs(env["PMIX_SYSTEM_TMPDIR"], exist_ok=True)
            prte += ["--prtemca", "ras_pmix_system_scheduler", "1"]
            # With a scheduler, PRRTE's only RAS module is ras/pmix, which
            # discovers nothing: no hostfile or -host is read, and the base
            # allocation is the HNP's host with its core count as slots
            # (ras_base_allocate.c). The head's slots are set here; the other
            # startup nodes join the default session in _share_startup_nodes.
            prte += ["--prtemca", "prte_set_default_slots", str(startup[0]["slots"])]
        net = ("ip link set lo up && ip link add v0 type veth peer name v1 && "
               "ip addr add 10.254.0.1/24 dev v0 && ip link set v1 up && ip link set v0 up && "
               'hostname "$0" && exec "$@"')
        argv = ["unshare", "-n", "-u", "sh", "-c", net, self.head] + prte
        if self.hub is not None:
            # prte in the head node's own network namespace (made like every
            # other node's by netns-node.sh), inside the hub's mount namespace
            # (/etc/hosts resolves every node's name to its address).
            hub = str(self.hub.pid)
            r = subprocess.run(["nsenter", "-t", hub, "-m", f"{HERE}/netns-node.sh", hub, self.dir, self.head,
                                str(self.addressing.prefixlen)], capture_output=True, text=True, timeout=10)
            if r.returncode != 0:
                self._stop_hub()
                raise WireError("internal", f"the head node's network namespace could not be made: {r.stderr.strip()}")
            argv = ["nsenter", "-t", hub, "-m", "nsenter", f"--net={self.dir}/{self.head}.net",
                    "unshare", "-u", "sh", "-c", 'hostname "$0" && exec "$@"', self.head] + prte
        self.hnp_nspace = ""  # known once the DVM is up; stop() reads it
        self.out = open(os.path.join(self.dir, "prte.out"), "w")
        self.prte = subprocess.Popen(argv,
                                     stdin=subprocess.DEVNULL, stdout=self.out, stderr=subprocess.STDOUT,
                                     env=env, start_new_session=True)
        deadline = time.monotonic() + DVM_START_S
        while time.monotonic() < deadline:
            if self.prte.poll() is not None:
                self._stop_hub()
                raise WireError("internal", f"prte exited ({self.prte.returncode}) during start-up: {self.tail()}")
            if "DVM ready" in self.read_out():
                break
            time.sleep(0.05)
        else:
            self.stop()
            raise WireError("internal", f"the DVM was not ready within {DVM_START_S:g} s: {self.tail()}")
        self.uri = open(os.path.join(self.dir, "uri")).readline().strip()
        self.hnp_nspace = self.uri.split(".")[0] if "@" in self.uri else ""
        try:
            self._start_helpers(env, startup, pool)
        except BaseException:
            self.stop()  # the DVM is up: a helper that fails to start must not leave it running
            raise

    def _start_hub(self, names: List[str]) -> None:
        """Distinct-address mode (hosts.py): the hub namespace holding the
        bridge every node's veth joins, and the DVM's /etc/hosts: the nodes
        known now with their addresses (CTL/hosts), the subnet's other
        addresses for nodes a grant brings in later (CTL/free)."""
        plan = self.addressing.plan(names)
        with open(os.path.join(self.dir, "hosts"), "w") as f:
            f.write(hosts_file(plan))
        with open(os.path.join(self.dir, "free"), "w") as f:
            f.write("".join(a + "\n" for a in self.addressing.free(plan.values())))
        self.hub = subprocess.Popen(hub_argv(os.path.join(self.dir, "hosts")), stdin=subprocess.PIPE,
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
        line = self.hub.stdout.readline().strip() if self.hub.stdout else ""
        if line != "ready":
            err = self.hub.stderr.read() if self.hub.poll() is not None and self.hub.stderr else ""
            self._stop_hub()
            raise WireError("internal", f"the DVM's hub namespace could not be made: {err.strip() or line}")
        log(f"node addresses ({self.addressing.describe()}): " + ", ".join(f"{n}={a}" for n, a in plan.items()))

    def _stop_hub(self) -> None:
        """End the hub: its namespaces go once the DVM's processes are gone."""
        if self.hub is None:
            return
        try:
            if self.hub.stdin:
                self.hub.stdin.close()
            self.hub.wait(timeout=3)
        except (OSError, subprocess.TimeoutExpired):
            self.hub.kill()
            self.hub.wait(timeout=3)
        self.hub = None

    def _start_helpers(self, env: Dict[str, str], startup: List[dict], pool: List[dict]) -> None:
        # A private tool that reads proc tables for 'observe'; its events are not recorded.
        self.observer = self.new_agent("observer")
        self.observer.wait("tool init")
        self.scheduler: Optional[Agent] = None
        if WITH_SCHEDULER:
            # In the HNP's network and UTS namespaces: PRRTE looks for the
            # rendezvous under its own hostname, and connects over loopback.
            argv = ["nsenter", "-t", str(self.prte.pid), "-n", "-u", f"{self.agents}/sched_agent", env["PMIX_SYSTEM_TMPDIR"]]
            self.scheduler = Agent(argv, self.events, "test scheduler")
            msg = self.scheduler.wait("PMIx_server_init")
            if msg.get("t") != "ready":
                raise WireError("internal", f"the test scheduler did not start: {msg}")
            self.scheduler.call(["pool", node_spec(pool)])  # grantable by name or count
            self.scheduler.call(["startup", node_spec(startup)])  # grantable by name only
            self._share_startup_nodes(startup[1:])

    def _share_startup_nodes(self, rest: List[dict]) -> None:
        """The startup nodes after the head, as PRRTE can take them under a
        scheduler: a PMIX_ALLOC_NEW with PMIX_ALLOC_SHARE=true and no target,
        whose nodes go into the default session (RFC 8.2.2.4.2), granted by
        the test scheduler from its startup list. Made by the observer tool,
        whose events the suite never sees."""
        if not rest:
            return
        info = [{"key": "pmix.alloc.nlist", "value": node_spec(rest)},
                {"key": "pmix.alloc.share", "value": True}]
        msg = self.observer.call(["alloc", "1"] + encode_infos(info))
        if int(msg["status"]) not in ACCEPTED:
            raise WireError("internal", f"the startup nodes {[n['name'] for n in rest]} could not join the default session through the test scheduler: status {msg['status']}")
        self.wait_for_grant(info)

    def _register(self, conn: socket.socket) -> None:
        agent = Agent(None, self.events, "job process", conn)
        try:
            msg = agent.wait("PMIx_Init", timeout=CALL_S)
        except WireError as e:
            log(str(e))
            agent.kill()
            return
        if msg.get("t") != "ready":
            log(f"a job process failed to initialize: {msg}")
            agent.kill()
            return
        agent.me = msg["proc"]
        agent.label = f"job process {agent.me['nspace']}.{agent.me['rank']}"
        with self.procs_changed:
            self.procs[(agent.me["nspace"], agent.me["rank"])] = agent
            self.procs_changed.notify_all()

    def wait_procs(self, nspace: str, n: int, timeout: float) -> int:
        deadline = time.monotonic() + timeout
        with self.procs_changed:
            while True:
                have = sum(1 for (ns, _r) in self.procs if ns == nspace)
                left = deadline - time.monotonic()
                if have >= n or left <= 0:
                    return have
                self.procs_changed.wait(left)

    def read_out(self) -> str:
        try:
            with open(os.path.join(self.dir, "prte.out")) as f:
                return f.read()
        except OSError:
            return ""

    def tail(self) -> str:
        return " | ".join(self.read_out().strip().splitlines()[-8:])

    def check_alive(self, what: str) -> None:
        """A dead DVM is an implementation fault of this scenario."""
        if self.prte.poll() is not None:
            raise WireError("internal", f"the DVM is dead (prte exit {self.prte.returncode}) before {what}: {self.tail()}")

    def new_agent(self, label: str) -> Agent:
        argv = ["nsenter", "-t", str(self.prte.pid), "-n", f"{self.agents}/tool_agent", self.uri]
        return Agent(argv, self.events, label)

    # -- tools -------------------------------------------------------------

    def connect_tool(self, label: str) -> dict:
        self.check_alive("connect-tool")
        self.tool_count += 1
        agent = self.new_agent(f"tool {label}")
        msg = agent.wait("PMIx_tool_init")
        if msg.get("t") != "ready":
            agent.kill()
            raise WireError("internal", f"tool {label}: PMIx_tool_init failed: {msg}")
        agent.me = msg["proc"]
        self.tools[agent.me["nspace"]] = agent
        return agent.me

    def tool_for(self, proc: dict, what: str) -> Agent:
        """The agent that makes a PMIx call as `proc`: a tool or a job's process."""
        agent = self.tools.get(proc["nspace"])
        if agent is not None:
            return agent
        if proc["nspace"] in self.jobs:
            self.wait_procs(proc["nspace"], proc["rank"] + 1, 3)
            agent = self.procs.get((proc["nspace"], proc["rank"]))
            if agent is None:
                raise WireError("internal", f"{what}: process {proc['nspace']}.{proc['rank']} never connected to the bridge (not launched?)")
            return agent
        raise WireError("not-supported", f"{what}: {proc['nspace']} is not a process this bridge started")

    def disconnect_tool(self, proc: dict) -> int:
        agent = self.tool_for(proc, "disconnect-tool")
        msg = agent.call(["fin"])
        del self.tools[proc["nspace"]]
        try:
            if agent.proc is not None:
                agent.proc.wait(timeout=3)
        except subprocess.TimeoutExpired:
            agent.kill()
        return int(msg["status"])

    # -- calls -------------------------------------------------------------

    def allocate(self, requester: dict, directive: int, info: List[dict]) -> dict:
        self.check_alive("allocate")
        agent = self.tool_for(requester, "allocate")
        msg = agent.call(["alloc", str(directive)] + encode_infos(sized_request(directive, info, self.slots)))
        status = int(msg["status"])
        results = decode_infos(msg.get("info", []))
        if not self.elastic and status in ACCEPTED and directive in (1, 2):
            self.wait_for_grant(info)
        return {"status": status, "info": results}

    def warn(self, req: dict) -> dict:
        """The scheduler's PMIX_ALLOC_TIMEOUT_WARNING for an allocation, to
        PRRTE's relay handler (alloc_timeout_warning_hdlr), which finds the
        allocation's requester and re-sends the warning to it alone. By
        default the observer tool sends it as an event directed at the HNP
        alone (PMIX_RANGE_CUSTOM), which PRRTE's server library hands to its
        handler. With PRRTE_BRIDGE_WARN_VIA=scheduler the test scheduler
        sends it instead (PMIx_Notify_event to PRRTE, its client); it does
        not arrive, because a PMIx server delivers an event only to the
        clients that registered for it, and PRRTE, a gateway server, never
        registers its handlers with a server it attaches to (docs/prrte.md)."""
        self.check_alive("scheduler")
        if WARN_VIA == "scheduler":
            secs = [str(req["timeRemaining"])] if "timeRemaining" in req else []
            msg = self.scheduler.call(["warn", req["allocId"]] + secs)
        else:
            info = [{"key": "pmix.alloc.id", "value": req["allocId"]}]
            if "timeRemaining" in req:
                info.append({"key": "pmix.time.remaining", "value": req["timeRemaining"]})
            msg = self.observer.call(["notify", str(PMIX_ALLOC_TIMEOUT_WARNING)] + encode_infos(info))
        # The relay is asynchronous; the suite waits for the event itself.
        return {"status": int(msg["status"])}

    def wait_for_grant(self, info: List[dict]) -> None:
        """Outside elastic mode PRRTE answers a grant before the new daemons
        are up and sends no event when they are. The suite reads a granted
        allocation as usable at once, and PRRTE kills the whole DVM when a
        second grow arrives while a daemon is still wiring up (state_dvm.c:354,
        docs/prrte.md), so the bridge waits, bounded, for the named nodes'
        daemons before it answers."""
        names = [n.split(":")[0] for i in info if i["key"] == "pmix.alloc.nlist" and isinstance(i["value"], str)
                 for n in i["value"].split(",") if n]
        if not names:
            return
        deadline = time.monotonic() + GRANT_WAIT_S
        while time.monotonic() < deadline:
            if all(n in self.live_daemons() for n in names):
                time.sleep(GRANT_SETTLE_S)
                return
            time.sleep(0.05)
        log(f"the daemons of {names} were not all up {GRANT_WAIT_S:g} s after the grant")

    def spawn(self, requester: dict, apps: List[dict], info: List[dict]) -> dict:
        self.check_alive("spawn")
        agent = self.tool_for(requester, "spawn")
        fields = ["spawn", str(len(apps))]
        # Every process is a job agent: a PMIx client that takes the bridge's
        # commands and exits normally when 'terminate-job' tells it to.
        for app in apps:
            fields += [f"{self.agents}/job_agent {self.sock_path}", str(app["np"]), host_spec(app.get("hosts", [])) or "-"]
        msg = agent.call(fields + encode_infos(with_slot_mapping(info)))
        status = int(msg["status"])
        out: Dict[str, Any] = {"status": status, "info": []}
        if status == 0 and msg.get("nspace"):
            out["nspace"] = msg["nspace"]
            self.jobs[msg["nspace"]] = {"state": "RUNNING", "procs": [], "released": False,
                                        "np": sum(a["np"] for a in apps)}
            # a job "is running" once its processes are up: wait for them (bounded)
            self.wait_procs(msg["nspace"], self.jobs[msg["nspace"]]["np"], 4)
        return out

    def terminate_job(self, nspace: str) -> int:
        self.check_alive("terminate-job")
        job = self.jobs.get(nspace)
        if job is None:
            return -46  # PMIX_ERR_NOT_FOUND
        job["released"] = True
        for (ns, _r), agent in list(self.procs.items()):
            if ns == nspace:
                try:
                    agent.call(["fin"], timeout=3)
                except WireError as e:
                    log(f"terminate-job {nspace}: {e}")
        deadline = time.monotonic() + CALL_S - 1
        while time.monotonic() < deadline:
            self.refresh_job(nspace)
            if job["state"] != "RUNNING":
                return 0
            time.sleep(0.1)
        raise WireError("internal", f"{nspace} did not end within {CALL_S - 1:g} s of its release")

    def query_allocation(self, requester: dict, qualifiers: List[dict]) -> dict:
        self.check_alive("query-allocation")
        agent = self.tool_for(requester, "query-allocation")
        msg = agent.call(["qalloc"] + encode_infos(qualifiers))
        return {"status": int(msg["status"])}

    def stop(self) -> None:
        self.listener.stop()
        for agent in list(self.tools.values()) + list(self.procs.values()) + [getattr(self, "observer", None), getattr(self, "scheduler", None)]:
            if agent is not None:
                agent.kill()
        self.tools.clear()
        if self.prte.poll() is None:
            # pterm halts the DVM, and prte exits once its daemons have (seen
            # 16-70 ms after pterm starts, no prted left); pterm itself takes
            # about a second more to finalize as a tool, which was a second
            # of every scenario's stop. So wait for prte's exit, the state
            # that matters, not for pterm's: pterm finishes on its own and is
            # reaped in the background (ended if still there after 5 s).
            pterm = subprocess.Popen(["nsenter", "-t", str(self.prte.pid), "-n", f"{self.prefix}/bin/pterm",
                                      "--dvm-uri", f"file:{self.dir}/uri"],
                                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            threading.Thread(target=reap, args=(pterm, 5.0), daemon=True).start()
        try:
            self.prte.wait(timeout=8)  # as before: pterm's 5 s, then 3 s more
        except subprocess.TimeoutExpired:
            log("prte did not exit within 8 s of pterm")
            os.killpg(self.prte.pid, signal.SIGKILL)
            self.prte.wait(timeout=3)
        # prted daemonizes: end any of this DVM's daemons that outlived prte
        for pid in os.listdir("/proc"):
            if pid.isdigit():
                try:
                    with open(f"/proc/{pid}/cmdline", "rb") as f:
                        cmd = f.read()
                    if cmd.split(b"\0")[0].endswith(b"prted") and self.hnp_nspace and self.hnp_nspace.encode() in cmd:
                        os.kill(int(pid), signal.SIGKILL)
                except (OSError, ValueError):
                    pass
        self._stop_hub()
        self.out.close()
        if not os.environ.get("PRRTE_BRIDGE_KEEP"):
            shutil.rmtree(self.dir, ignore_errors=True)
