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

Usage: bridge.py [--prefix DIR] [--agents DIR]
  --prefix   the openpmix+prrte install prefix (default $PRRTE_PREFIX or
             /work/build/install)
  --agents   where the compiled agents are (default: build them into
             $TMPDIR/pmix-prrte-agents with agents/Makefile)
Diagnostics go to stderr; stdout carries protocol lines only.
"""
import json
import os
import queue
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from typing import Any, Dict, List, Optional

PROTOCOL_VERSION = "pmix-dynres-wire/1"
HERE = os.path.dirname(os.path.abspath(__file__))
PROTOCOL_OUT = sys.stdout
sys.stdout = sys.stderr  # nothing but protocol lines may reach the real stdout

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
PMIX_ALLOC_TIMEOUT_WARNING = -194

# The capabilities this bridge can honestly offer: keys the PMIx in use
# defines (checked against pmix_common.h at start-up), elastic mode, partial
# release and the scheduler's warning (capabilities() below).
# Not declared: job-staging, daemon-control, introspection,
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

# The C type of each key the suite sends (pmix_common.h); unknown keys are
# typed from their JSON value.
KEY_TYPES = {
    "pmix.alloc.id": "s", "pmix.alloc.reqid": "s", "pmix.alloc.nnodes": "u64",
    "pmix.alloc.nlist": "s", "pmix.alloc.time": "s", "pmix.alloc.tgt": "s",
    "pmix.alloc.share": "b", "pmix.alloc.inhrt": "u8", "pmix.alloc.wtmo": "u32",
    "pmix.time.remaining": "u32", "pmix.session.id": "u32", "pmix.alloc.sep": "b",
    "pmix.ssn.sep": "b", "pmix.notify.complete": "b",
}

PROC_TERMINATE = 4
QUIET_MS = int(os.environ.get("PRRTE_BRIDGE_QUIET_MS", "3000"))
PROC_TERMINATED = 20
PROC_ERROR = 50
PROC_RUNNING_STATES = range(1, 20)


# What PMIx_Allocation_request answers for a request it took: PMIX_SUCCESS,
# PMIX_OPERATION_SUCCEEDED (-157), PMIX_OPERATION_IN_PROGRESS (-156).
ACCEPTED = (0, -157, -156)


def node_spec(nodes: List[dict]) -> str:
    """Nodes as PMIX_ALLOC_NODE_LIST spells a size: name:slots,..."""
    return ",".join(f"{n['name']}:{n['slots']}" for n in nodes)


def log(msg: str) -> None:
    sys.stderr.write(f"prrte-bridge: {msg}\n")
    sys.stderr.flush()


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


class Agent:
    """One tool_agent process: lines in, JSON lines out, events collected."""

    def __init__(self, argv: Optional[List[str]], events: "EventLog", label: str,
                 conn: Optional[socket.socket] = None):
        self.label = label
        self.results: "queue.Queue[dict]" = queue.Queue()
        self.events = events
        self.me: Optional[dict] = None
        self.stderr_tail: List[str] = []
        self.proc: Optional[subprocess.Popen] = None
        self.conn = conn
        if conn is not None:  # a job agent that connected to the bridge's socket
            self.rfile = conn.makefile("r", encoding="utf-8", newline="\n")
            self.wfile = conn.makefile("w", encoding="utf-8", newline="\n")
        else:  # a tool agent the bridge started
            assert argv is not None
            self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.PIPE, text=True, bufsize=1)
            self.rfile, self.wfile = self.proc.stdout, self.proc.stdin
            threading.Thread(target=self._read_err, daemon=True).start()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        try:
            lines = list_lines(self.rfile)
            for line in lines:
                self._line(line)
        except (OSError, ValueError):
            pass
        self.results.put({"t": "eof"})

    def _line(self, line: str) -> None:
        if True:
            try:
                msg = json.loads(line)
            except json.JSONDecodeError:
                log(f"{self.label}: not JSON: {line.rstrip()}")
                return
            if msg.get("t") == "event":
                if self.me is not None:
                    self.events.add(msg, self.me)
            elif msg.get("t") in ("alloc", "attached"):
                # what the test scheduler was asked and answered: a log line
                log(f"{self.label}: {line.rstrip()}")
            else:
                self.results.put(msg)

    def _read_err(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.stderr_tail = (self.stderr_tail + [line.rstrip()])[-10:]
            log(f"{self.label}: {line.rstrip()}")

    def wait(self, what: str, timeout: float = CALL_S) -> dict:
        try:
            msg = self.results.get(timeout=timeout)
        except queue.Empty:
            raise WireError("internal", f"{self.label}: no answer to {what} within {timeout:g} s")
        if msg.get("t") == "eof":
            raise WireError("internal", f"{self.label} exited while answering {what}: " + " | ".join(self.stderr_tail))
        if msg.get("t") == "error":
            raise WireError("internal", f"{self.label}: {msg.get('message')}")
        return msg

    def send(self, fields: List[str]) -> None:
        try:
            self.wfile.write("\t".join(fields) + "\n")
            self.wfile.flush()
        except (BrokenPipeError, OSError) as e:
            raise WireError("internal", f"{self.label} is gone: {e}")

    def call(self, fields: List[str], timeout: float = CALL_S) -> dict:
        self.send(fields)
        return self.wait(fields[0], timeout)

    def kill(self) -> None:
        if self.conn is not None:
            try:
                self.conn.close()
            except OSError:
                pass
            return
        assert self.proc is not None
        if self.proc.poll() is None:
            self.proc.kill()
        try:
            self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            pass


def list_lines(f: Any):
    """Iterate a text stream line by line without read-ahead blocking."""
    while True:
        line = f.readline()
        if not line:
            return
        yield line


class EventLog:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.items: List[dict] = []

    def add(self, msg: dict, to: dict) -> None:
        with self.lock:
            self.items.append({"seq": len(self.items) + 1, "code": msg["code"], "to": to,
                               "info": decode_infos(msg.get("info", []))})

    def snapshot(self) -> List[dict]:
        with self.lock:
            return list(self.items)


class AgentListener:
    """The socket job processes connect to, one per DVM; `on_conn` gets each
    connection on the accept thread."""

    def __init__(self, path: str, on_conn: Any) -> None:
        self.stopping = False
        self.on_conn = on_conn
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.bind(path)
        self.sock.listen(64)
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            if self.stopping:
                conn.close()
                return
            self.on_conn(conn)

    def stop(self) -> None:
        # Wake the accept thread before closing. Closing alone left it blocked
        # in accept(), and every DVM's listener gets the same descriptor
        # number (3). Seen live, with each listener's descriptor logged: a
        # stopped DVM's thread accepted a later scenario's job process, which
        # then never heard its release ("did not end within") or never seemed
        # to connect ("never connected to the bridge"), in some runs and not
        # others. How the old accept() reached the new socket was not
        # established. shutdown() makes a blocked accept() return at once on
        # Linux, so no thread outlives its DVM.
        self.stopping = True
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        try:
            self.sock.close()
        except OSError:
            pass


class Dvm:
    """One live DVM for one scenario."""

    def __init__(self, prefix: str, agents: str, startup: List[dict], pool: List[dict], elastic: bool):
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
        self.out = open(os.path.join(self.dir, "prte.out"), "w")
        self.prte = subprocess.Popen(["unshare", "-n", "-u", "sh", "-c", net, self.head] + prte,
                                     stdin=subprocess.DEVNULL, stdout=self.out, stderr=subprocess.STDOUT,
                                     env=env, start_new_session=True)
        deadline = time.monotonic() + DVM_START_S
        while time.monotonic() < deadline:
            if self.prte.poll() is not None:
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
        msg = agent.call(["alloc", str(directive)] + encode_infos(self.with_slots(info)))
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

    def with_slots(self, info: List[dict]) -> List[dict]:
        """Without a scheduler PRRTE learns a granted node's size only from
        PMIX_ALLOC_NODE_LIST's "name:slots" form (ras/hosts); a bare name gets
        one slot. The scenario's pool says how big each node is, so the bridge
        adds ":slots" to a bare pool name, as a resource manager would know it."""
        out = []
        for i in info:
            if i["key"] == "pmix.alloc.nlist" and isinstance(i["value"], str):
                names = [n if ":" in n or n not in self.slots else f"{n}:{self.slots[n]}"
                         for n in i["value"].split(",")]
                i = {**i, "value": ",".join(names)}
            out.append(i)
        return out

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

    def refresh_job(self, nspace: str) -> None:
        job = self.jobs[nspace]
        if job["state"] != "RUNNING":
            return
        msg = self.observer.call(["ptable", nspace])
        if int(msg["status"]) != 0:
            # PRRTE forgets a job once it is cleaned up: the last view stands
            if job["released"]:
                job["state"] = "TERMINATED"
                for p in job["procs"]:
                    p["running"] = False
            return
        procs = msg.get("procs", [])
        job["procs"] = [{"rank": p["rank"], "node": p["host"] or "", "running": p["state"] in PROC_RUNNING_STATES}
                        for p in procs]
        states = [p["state"] for p in procs]
        if states and all(s == PROC_TERMINATED for s in states):
            job["state"] = "TERMINATED"
        elif states and all(s >= PROC_TERMINATED for s in states) and any(s >= PROC_ERROR for s in states):
            job["state"] = "KILLED"

    # -- observation ---------------------------------------------------------

    def live_daemons(self) -> Dict[str, str]:
        """node name -> 'ready' for every live prted of this DVM (and the HNP)."""
        nodes = {self.head: "ready"} if self.prte.poll() is None else {}
        for pid in os.listdir("/proc"):
            if not pid.isdigit():
                continue
            try:
                with open(f"/proc/{pid}/cmdline", "rb") as f:
                    cmd = f.read().split(b"\0")
            except OSError:
                continue
            if not cmd or not cmd[0].endswith(b"prted") or self.hnp_nspace.encode() not in b" ".join(cmd):
                continue
            try:
                name = subprocess.run(["nsenter", "-t", pid, "-u", "hostname"], capture_output=True,
                                      text=True, timeout=2).stdout.strip()
            except subprocess.TimeoutExpired:
                continue
            if name:
                nodes[name] = "ready"
        return nodes

    def observe(self, only_nodes: Optional[List[str]], only_jobs: Optional[List[str]]) -> dict:
        self.check_alive("observe")
        for ns in self.jobs:
            self.refresh_job(ns)
        in_use: Dict[str, int] = {}
        for job in self.jobs.values():
            for p in job["procs"]:
                if p["running"] and p["node"]:
                    in_use[p["node"]] = in_use.get(p["node"], 0) + 1
        nodes = self.nodes(in_use)
        if only_nodes is not None:
            nodes = [n for n in nodes if n["name"] in only_nodes]
        jobs = [{"nspace": ns, "state": j["state"], "procs": j["procs"]} for ns, j in self.jobs.items()
                if only_jobs is None or ns in only_jobs]
        return {"nodes": nodes, "jobs": jobs, "events": self.events.snapshot()}

    def daemon_states(self) -> Dict[str, int]:
        """node name -> the state PRRTE records for the daemon serving it: the
        process table of the DVM's own namespace (PMIX_QUERY_PROC_TABLE on
        the HNP's nspace), PRRTE's authoritative list of its daemons. A
        daemon PRRTE has launched is PMIX_PROC_STATE_RUNNING (5) at once; one
        that departed or was lost is TERMINATED (20) or an error state (>= 50),
        e.g. COMM_FAILED (56) after a shrink (seen live, ras_base_allocate.c:1844
        -> prted_comm.c:172, the departing daemon's 2 s self-exit timer)."""
        msg = self.observer.call(["ptable", self.hnp_nspace])
        if int(msg["status"]) != 0:
            raise WireError("internal", f"PMIx_Query_info(PMIX_QUERY_PROC_TABLE) of the DVM's daemons ({self.hnp_nspace}) failed with {msg['status']}")
        states: Dict[str, int] = {}
        for p in msg.get("procs", []):
            host = p.get("host") or ""
            # A node served twice (a daemon relaunched after a failure): the live one counts.
            if host and (host not in states or states[host] >= PROC_TERMINATED):
                states[host] = int(p["state"])
        return states

    def nodes(self, in_use: Dict[str, int]) -> List[dict]:
        """The DVM's nodes as PRRTE reports them to a client.

        Membership: a node is in the DVM while a daemon serves it, and PRRTE's
        own record of its daemons says which do (daemon_states). The node pool
        (PMIX_QUERY_ALLOCATION) is not membership: nothing removes a node from
        it but finalize (pmix_server_queries.c:753-795 lists it unfiltered),
        so a node whose daemon PRRTE shrank away stays in the pool. A pool
        node whose daemon PRRTE records as live is in the DVM; 'ready' once
        its prted is running, 'joining' while PRRTE has launched it but the
        process has not started (PRRTE marks a daemon RUNNING at launch, so
        only the process shows it has started); 'leaving' if PRRTE has marked
        it for termination (PMIX_PROC_STATE_TERMINATE, 4). Slots come from the
        pool, each reservation's nodes from PMIX_QUERY_ALLOCATION qualified by
        every id PMIX_QUERY_ALLOC_IDS lists."""
        msg = self.observer.call(["sessions"])
        if int(msg["status"]) != 0:
            raise WireError("internal", f"PMIx_Query_info(PMIX_QUERY_ALLOCATION) failed with {msg['status']}")
        owner: Dict[str, str] = {}
        for sess in msg.get("sessions", []):
            for n in sess.get("nodes", []):
                if n["name"] in owner and owner[n["name"]] != sess["id"]:
                    log(f"node {n['name']} is listed by two reservations: {owner[n['name']]} and {sess['id']}; reporting the later")
                owner[n["name"]] = sess["id"]
        return membership(msg.get("pool", []), owner, self.daemon_states(), self.live_daemons(), in_use)

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
            try:
                subprocess.run(["nsenter", "-t", str(self.prte.pid), "-n", f"{self.prefix}/bin/pterm",
                                "--dvm-uri", f"file:{self.dir}/uri"], capture_output=True, timeout=5)
            except subprocess.TimeoutExpired:
                log("pterm did not finish within 5 s")
        try:
            self.prte.wait(timeout=3)
        except subprocess.TimeoutExpired:
            os.killpg(self.prte.pid, signal.SIGKILL)
            self.prte.wait(timeout=3)
        # prted daemonizes: end any of this DVM's daemons that outlived pterm
        for pid in os.listdir("/proc"):
            if pid.isdigit():
                try:
                    with open(f"/proc/{pid}/cmdline", "rb") as f:
                        cmd = f.read()
                    if cmd.split(b"\0")[0].endswith(b"prted") and self.hnp_nspace and self.hnp_nspace.encode() in cmd:
                        os.kill(int(pid), signal.SIGKILL)
                except (OSError, ValueError):
                    pass
        self.out.close()
        if not os.environ.get("PRRTE_BRIDGE_KEEP"):
            shutil.rmtree(self.dir, ignore_errors=True)


def defined_keys(prefix: str) -> List[str]:
    try:
        with open(os.path.join(prefix, "include", "pmix_common.h")) as f:
            text = f.read()
    except OSError:
        return []
    return [cap for cap, macro in KEY_CAPABILITIES.items() if f"#define {macro} " in text]


def capabilities(keys: List[str]) -> List[str]:
    """The key capabilities, elastic mode, and scheduler-warning when the
    PMIx in use has the warning event (Dvm.warn delivers it to PRRTE).
    Not partial-release: a RELEASE that names its allocation (PMIX_ALLOC_ID)
    takes the teardown path and ignores PMIX_ALLOC_NODE_LIST and
    PMIX_ALLOC_NUM_NODES (ras_base_allocate.c:1858, seen live: the whole
    reservation goes); only a RELEASE without an id removes just the named
    nodes (ras_hosts.c), and that is not the capability's 'part of an
    allocation'."""
    out = keys + ["elastic"]
    if "PMIX_ALLOC_WARN_TIMEOUT" in keys:
        out.append("scheduler-warning")
    return out


def membership(pool: List[dict], owner: Dict[str, str], daemons: Dict[str, int], live: Dict[str, str],
               in_use: Dict[str, int]) -> List[dict]:
    """The observation's nodes from PRRTE's answers (see Dvm.nodes): pool
    nodes whose daemon PRRTE records as live, in name order."""
    out = []
    for n in pool:
        name = n["name"]
        state = daemons.get(name)
        if state is None or state >= PROC_TERMINATED:
            continue  # no daemon serves it: not a member, whatever the pool says
        daemon = "leaving" if state == PROC_TERMINATE else "ready" if name in live else "joining"
        out.append({"name": name, "slots": max(0, int(n["slots"])), "slotsInUse": in_use.get(name, 0),
                    "availableTo": owner.get(name, ""), "daemon": daemon})
    return sorted(out, key=lambda v: v["name"])


class Bridge:
    NOT_SUPPORTED = {
        "scheduler": "of a scheduler's acts only the timeout warning has a way into PRRTE master (reclaim, teardown, pushing nodes, queueing and a failing shrink order have none)",
        "daemon": "daemon control is not offered (capability 'daemon-control' not declared)",
        "advance-job": "PRRTE has no public way to hold a job at a boundary (capability 'job-staging')",
        "inspect": "PRRTE's bookkeeping is not readable through PMIx (capability 'introspection')",
    }

    # Readings (seam/readings.ts) PRRTE master takes, as observed in the live
    # runs of 2026-11-24: its allocation responses carry PMIX_ALLOC_ID and the
    # echoed PMIX_ALLOC_REQ_ID, and no PMIX_SESSION_ID.
    READINGS = {"session-id-in-response": "omitted"}

    def __init__(self, prefix: str, agents: str):
        self.prefix, self.agents = prefix, agents
        self.dvm: Optional[Dvm] = None
        self.capabilities = capabilities(defined_keys(prefix))

    def need(self) -> Dvm:
        if self.dvm is None:
            raise WireError("not-started", "no DVM: send 'start' first")
        return self.dvm

    def handle(self, req: dict) -> dict:
        cmd = req.get("cmd")
        if cmd == "scheduler" and req.get("action") == "timeout-warning" and "scheduler-warning" in self.capabilities:
            return self.need().warn(req)
        if cmd in self.NOT_SUPPORTED:
            raise WireError("not-supported", f"{cmd}: {self.NOT_SUPPORTED[cmd]}")
        if cmd == "start-protocol":
            if req.get("protocolVersion") != PROTOCOL_VERSION:
                raise VersionRefused(str(req.get("protocolVersion")))
            return {"protocolVersion": PROTOCOL_VERSION,
                    "implementation": {"name": "prrte-bridge", "version": self.version()},
                    "capabilities": self.capabilities,
                    "readings": self.READINGS,
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
            self.dvm = Dvm(self.prefix, self.agents, req["startupNodes"], req["schedulerNodes"], req["elastic"])
            # No scheduler is attached: this names nobody (PRRTE has no scheduler process).
            return {"scheduler": {"nspace": "prrte-bridge-no-scheduler", "rank": 0}}
        if cmd == "stop":
            if self.dvm is not None:
                self.dvm.stop()
                self.dvm = None
            return {}
        dvm = self.need()
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


def send(message: dict) -> None:
    PROTOCOL_OUT.write(json.dumps(message, separators=(",", ":")) + "\n")
    PROTOCOL_OUT.flush()


def build_agents(prefix: str) -> str:
    out = os.path.join(tempfile.gettempdir(), "pmix-prrte-agents")
    r = subprocess.run(["make", "-s", "-C", os.path.join(HERE, "agents"), f"PMIX_PREFIX={prefix}", f"OUT={out}", "all"],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        raise SystemExit(f"prrte-bridge: building the agents failed:\n{r.stdout}")
    return out


def main(argv: List[str]) -> None:
    prefix = os.environ.get("PRRTE_PREFIX", "/work/build/install")
    agents = None
    for a in argv:
        if a.startswith("--prefix="):
            prefix = a.split("=", 1)[1]
        elif a.startswith("--agents="):
            agents = a.split("=", 1)[1]
    if not os.path.exists(os.path.join(prefix, "bin", "prte")):
        raise SystemExit(f"prrte-bridge: no PRRTE at {prefix} (bin/prte missing); build one with scripts/prrte-build.sh")
    agents = agents or build_agents(prefix)
    bridge = Bridge(prefix, agents)
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
