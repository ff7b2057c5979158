#!/usr/bin/env python3
"""PRRTE inside a real Slurm allocation, and ras/slurm's allocation path driven
by a PMIx tool (issue 26, step 2; docs/prrte-slurm.md).

    python3 harnesses/prrte/slurm_probe.py --out DIR [--startup n1,n2] [--slots 4] [--no-elastic]

Needs the one-host cluster running (scripts/slurm-cluster.sh start), a PRRTE
with ras/slurm's extensions (scripts/slurm-prrte-build.sh) and the bridge's
tool_agent (make -C harnesses/prrte/agents). It starts `salloc -N<k> -w <startup>
--ntasks-per-node=<slots> prte ...` so ras/slurm is selected, then runs a fixed
sequence of requests through tool_agent (EXTEND/NEW by count and by name,
RELEASE by name, count and id, REQ_CANCEL of a queued extend, malformed grows),
recording each answer, each event, squeue, and every salloc/scontrol/scancel/
srun command PRRTE ran (through logging shims put first on its PATH). It
records what happens; it judges nothing. DIR gets transcript.txt, prte.out,
slurm-commands.log."""
import argparse
import json
import os
import queue
import shutil
import subprocess
import sys
import threading
import time
from typing import Dict, List, Optional

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
SHIMMED = ("salloc", "scontrol", "scancel", "srun", "sbatch", "squeue")
# pmix_common.h: allocation directives and the statuses a grow answers with
DIRECTIVE = {"NEW": 1, "EXTEND": 2, "RELEASE": 3, "REAQUIRE": 4, "REQ_CANCEL": 5}
STATUS_NAMES = {0: "PMIX_SUCCESS", -156: "PMIX_OPERATION_IN_PROGRESS", -195: "PMIX_DVM_IS_READY",
                -196: "PMIX_ERR_DVM_MOD", -64: "PMIX_ERR_NOT_AVAILABLE", -27: "PMIX_ERR_BAD_PARAM",
                -46: "PMIX_ERR_NOT_FOUND", -23: "PMIX_ERR_NO_PERMISSIONS", -179: "PMIX_ERR_JOB_FAILED_TO_MAP",
                -47: "PMIX_ERR_NOT_SUPPORTED", -1: "PMIX_ERROR", -157: "PMIX_OPERATION_SUCCEEDED"}


def find_slurm(prefix: Optional[str] = None) -> Optional[str]:
    """The directory holding salloc (PREFIX/bin, else PATH), or None: the caller
    says plainly that Slurm is absent."""
    if prefix:
        b = os.path.join(prefix, "bin")
        return b if os.access(os.path.join(b, "salloc"), os.X_OK) else None
    found = shutil.which("salloc")
    return os.path.dirname(found) if found else None


def shim_script(name: str, real_bin: str, log: str) -> str:
    """A wrapper that appends `<epoch> <name> <args>` to LOG and execs the real
    command: what PRRTE asked of Slurm, argument by argument."""
    return ("#!/bin/sh\n"
            f"printf '%s {name}' \"$(date +%s.%N)\" >> '{log}'\n"
            f"for a in \"$@\"; do printf ' %s' \"$a\" >> '{log}'; done\n"
            f"echo >> '{log}'\n"
            f"exec '{os.path.join(real_bin, name)}' \"$@\"\n")


def write_shims(shim_dir: str, real_bin: str, log: str) -> None:
    os.makedirs(shim_dir, exist_ok=True)
    for name in SHIMMED:
        path = os.path.join(shim_dir, name)
        with open(path, "w") as f:
            f.write(shim_script(name, real_bin, log))
        os.chmod(path, 0o755)


def salloc_argv(startup: List[str], slots: int, uri_file: str, agent: str, elastic: bool,
                verbose: bool = True, attached: bool = False) -> List[str]:
    """The DVM as a Slurm user starts it: prte as the salloc's command, so it
    inherits SLURM_JOBID/SLURM_NODELIST and ras/slurm is selected; the startup
    nodes named, `slots` tasks per node (ras/slurm reads SLURM_TASKS_PER_NODE)."""
    argv = ["salloc", f"--nodes={len(startup)}", f"--nodelist={','.join(startup)}",
            f"--ntasks-per-node={slots}", "--job-name=prrte-dvm",
            "prte", "--report-uri", uri_file, "--allow-run-as-root",
            "--prtemca", "prte_launch_agent", f"{agent} prted"]
    if elastic:
        argv += ["--prtemca", "prte_elastic_mode", "1"]
    if attached:
        # prted stays the srun task instead of daemonizing: under
        # proctrack/cgroup a daemonized prted is killed when its step ends
        argv.insert(argv.index("prte") + 1, "--leave-session-attached")
    if verbose:
        argv += ["--prtemca", "ras_base_verbose", "10", "--prtemca", "plm_base_verbose", "5"]
    return argv


def agent_line(op: str, *fields: str) -> str:
    """One tool_agent command: TAB-separated fields."""
    for f in fields:
        if "\t" in f or "\n" in f:
            raise ValueError(f"field with TAB or newline: {f!r}")
    return "\t".join((op,) + fields) + "\n"


def alloc_line(directive: str, **keys: object) -> str:
    """alloc <directive> [<key> <type> <value>]...: nnodes is u64, every other key a string."""
    names = {"nnodes": ("pmix.alloc.nnodes", "u64"), "nlist": ("pmix.alloc.nlist", "s"),
             "reqid": ("pmix.alloc.reqid", "s"), "id": ("pmix.alloc.id", "s")}
    fields: List[str] = [str(DIRECTIVE[directive])]
    for k, v in keys.items():
        key, typ = names[k]
        fields += [key, typ, str(v)]
    return agent_line("alloc", *fields)


def parse_squeue(text: str) -> List[Dict[str, str]]:
    """`squeue -h -o '%i|%j|%T|%N|%r'` lines -> dicts."""
    rows = []
    for line in text.splitlines():
        parts = line.strip().split("|")
        if len(parts) == 5:
            rows.append(dict(zip(("id", "name", "state", "nodes", "reason"), parts)))
    return rows


def status_name(code: int) -> str:
    return f"{code} {STATUS_NAMES.get(code, '')}".strip()


class Tool:
    """A tool_agent connected to the DVM: results in order, events with times."""

    def __init__(self, exe: str, uri: str, t0: float, say) -> None:
        self.t0, self.say = t0, say
        self.proc = subprocess.Popen([exe, uri], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, text=True, bufsize=1)
        self.results: "queue.Queue[dict]" = queue.Queue()
        self.events: "queue.Queue[dict]" = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        ready = self.results.get(timeout=30)
        if ready.get("t") != "ready":
            raise RuntimeError(f"tool_agent did not start: {ready}")
        self.nspace = ready["proc"]["nspace"]

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            try:
                msg = json.loads(line)
            except json.JSONDecodeError:
                self.say(f"  tool_agent: {line.rstrip()}")
                continue
            msg["at"] = round(time.monotonic() - self.t0, 2)
            (self.events if msg.get("t") == "event" else self.results).put(msg)
        self.results.put({"t": "eof"})

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line)
        self.proc.stdin.flush()

    def result(self, timeout: float) -> Optional[dict]:
        try:
            return self.results.get(timeout=timeout)
        except queue.Empty:
            return None

    def drain_events(self, wait: float) -> List[dict]:
        out, deadline = [], time.monotonic() + wait
        while True:
            left = deadline - time.monotonic()
            try:
                out.append(self.events.get(timeout=max(left, 0.01)) if left > 0 else self.events.get_nowait())
            except queue.Empty:
                return out

    def close(self) -> None:
        try:
            self.send(agent_line("fin"))
            self.proc.wait(timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()


def info_summary(infos: List[dict]) -> str:
    return ", ".join(f"{i['key']}={i['value']}" for i in infos if i["key"] != "pmix.evrange")


class Probe:
    def __init__(self, out: str, env: Dict[str, str], tool_exe: str) -> None:
        self.out, self.env, self.tool_exe = out, env, tool_exe
        self.t0 = time.monotonic()
        self.transcript = open(os.path.join(out, "transcript.txt"), "w")
        self.cmd_log = os.path.join(out, "slurm-commands.log")
        self.cmd_seen = 0
        self.last: Optional[dict] = None

    def say(self, text: str) -> None:
        line = f"[{time.monotonic() - self.t0:7.2f}] {text}"
        print(line, flush=True)
        self.transcript.write(line + "\n")
        self.transcript.flush()

    def sh(self, cmd: str) -> str:
        r = subprocess.run(cmd, shell=True, capture_output=True, text=True, env=self.env)
        return (r.stdout + r.stderr).rstrip()

    def new_commands(self) -> List[str]:
        """Slurm commands PRRTE ran since the last call (scontrol show job --json polls folded)."""
        try:
            lines = open(self.cmd_log).read().splitlines()
        except FileNotFoundError:
            return []
        new, self.cmd_seen = lines[self.cmd_seen:], len(lines)
        shown, shows = [], 0
        for ln in new:
            parts = ln.split(" ", 1)
            text = parts[1] if len(parts) == 2 else ln
            if text.startswith("scontrol show job") or text.startswith("squeue"):
                shows += 1
                continue
            shown.append(text)
        if shows:
            shown.append(f"(and {shows} scontrol show job --json / squeue queries)")
        return shown

    def spawn(self, uri_file: str, n: int) -> str:
        """prun -n N --map-by node: how many processes ran on each node (by the
        hostname each saw). Each lives 2 s: a process that exits before its
        daemon's launch report is sent can take the DVM down (state_prted.c:222
        packs an exit code the HNP does not unpack, plm_base_receive.c:1131)."""
        text = self.sh(f"prun --allow-run-as-root --dvm-uri file:{uri_file} -n {n} --map-by node "
                       "sh -c 'hostname; sleep 2'")
        lines = text.splitlines()
        counts: Dict[str, int] = {}
        for ln in lines:
            counts[ln.strip()] = counts.get(ln.strip(), 0) + 1
        if any(len(k.split()) > 1 for k in counts):  # not hostnames: an error text
            return " | ".join(ln for ln in lines if ln.strip())[:600]
        return " ".join(f"{k}x{v}" for k, v in sorted(counts.items()))

    def squeue(self) -> str:
        return "; ".join(self.sh("squeue -h -o '%i|%j|%T|%N|%r' | sort -n").splitlines())

    def report(self, label: str, tool: Tool, answer: Optional[dict], wait_events: float) -> Optional[dict]:
        if answer is None:
            self.say(f"  {label}: no answer yet")
        elif answer.get("t") == "result":
            self.say(f"  {label}: status {status_name(answer['status'])}; {info_summary(answer.get('info', []))}")
        else:
            self.say(f"  {label}: {answer}")
        for ev in tool.drain_events(wait_events):
            self.say(f"  event at {ev['at']} s: {status_name(ev['code'])} from {ev['source']['nspace']}; "
                     f"{info_summary(ev.get('info', []))}")
        for c in self.new_commands():
            self.say(f"  slurm command: {c}")
        self.say(f"  squeue: {self.squeue() or '(empty)'}")
        return answer

    def case(self, title: str, tool: Tool, line: str, answer_s: float = 60, events_s: float = 3) -> Optional[dict]:
        self.say(f"== {title}")
        self.say(f"  request: {line.strip()!r}")
        tool.send(line)
        self.last = self.report("answer", tool, tool.result(answer_s), events_s)
        return self.last


def alloc_id(answer: Optional[dict]) -> Optional[str]:
    for i in (answer or {}).get("info", []):
        if i["key"] == "pmix.alloc.id":
            return str(i["value"])
    return None


def run(args: argparse.Namespace) -> int:
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    slurm_bin = find_slurm(args.slurm_prefix)
    if slurm_bin is None:
        print(f"skipped: no Slurm (no salloc under {args.slurm_prefix}/bin)")
        return 0
    env = dict(os.environ)
    env["SLURM_CONF"] = args.slurm_conf
    shims = os.path.join(out, "shims")
    write_shims(shims, slurm_bin, os.path.join(out, "slurm-commands.log"))
    env["PATH"] = ":".join([os.path.join(args.prrte_prefix, "bin"), slurm_bin, env.get("PATH", "")])
    # The PRRTE binaries' RUNPATH names the openpmix prefix first, which holds
    # another libprrte (the ras/hosts build): without this, that one and its
    # components (ras/slurm without extensions) are what runs.
    env["LD_LIBRARY_PATH"] = os.path.join(args.prrte_prefix, "lib")
    p = Probe(out, env, args.tool_agent)  # the probe's own commands are not logged as PRRTE's
    dvm_env = dict(env, PATH=shims + ":" + env["PATH"])
    if args.hnp_node:
        # As if prte ran on that compute node: ras/slurm refuses any release
        # touching the DVM's own job when SLURMD_NODENAME is unset
        # (ras_slurm_modify_release.c:960-962, :1288-1296), and it is unset
        # where salloc runs its command on the submit host.
        dvm_env["SLURMD_NODENAME"] = args.hnp_node
    startup = args.startup.split(",")
    uri_file = os.path.join(out, "dvm.uri")
    agent = os.path.join(REPO, "scripts", "slurm-node-prted.sh")
    argv = salloc_argv(startup, args.slots, uri_file, agent, not args.no_elastic, attached=args.attached)
    p.say(f"Slurm: {p.sh('sinfo --version')}; PRRTE: {args.prrte_prefix}")
    p.say("sinfo: " + " ".join(p.sh("sinfo -h -N -o %N:%T").split()))
    p.say("start: " + " ".join(argv))
    prte_out = open(os.path.join(out, "prte.out"), "w")
    dvm = subprocess.Popen(argv, env=dvm_env, stdout=prte_out, stderr=subprocess.STDOUT,
                           stdin=subprocess.DEVNULL, start_new_session=True)
    tools: List[Tool] = []
    holder = None
    try:
        deadline = time.monotonic() + 60
        while "DVM ready" not in open(os.path.join(out, "prte.out")).read():
            if dvm.poll() is not None or time.monotonic() > deadline:
                p.say(f"the DVM did not start (rc {dvm.poll()}); see prte.out")
                return 1
            time.sleep(0.2)
        p.say(f"DVM ready; squeue: {p.squeue()}")
        for c in p.new_commands():
            p.say(f"  slurm command: {c}")
        uri = open(uri_file).readline().strip()
        a = Tool(args.tool_agent, uri, p.t0, p.say)
        b = Tool(args.tool_agent, uri, p.t0, p.say)  # cancels while a is blocked in a queued grow
        tools = [a, b]
        total = len(startup) * args.slots
        p.say(f"== spawn {total} across the startup allocation: {p.spawn(uri_file, total)}")
        g1 = p.case("EXTEND by count (1 node)", a, alloc_line("EXTEND", nnodes=1, reqid="grow-count"))
        p.case("EXTEND by name (s3)", a, alloc_line("EXTEND", nlist="s3", reqid="grow-name"))
        g3 = p.case("NEW by count (2 nodes)", a, alloc_line("NEW", nnodes=2, reqid="new-count"))
        p.say("== sessions: " + json.dumps(sessions(a)))
        if alloc_id(g3):
            p.say(f"== spawn 2 x sleep with PMIX_SPAWN_TARGET={alloc_id(g3)} (the NEW grow)")
            a.send(agent_line("spawn", "1", "/bin/sleep 4", "2", "-", "pmix.spwn.tgt", "s", alloc_id(g3)))
            sp = a.result(60) or {}
            p.say(f"  answer: status {status_name(sp.get('status', 0))}; nspace {sp.get('nspace')}")
            if sp.get("nspace"):
                a.send(agent_line("ptable", sp["nspace"]))
                p.say(f"  proc table: {json.dumps((a.result(30) or {}).get('procs'))[:600]}")
        if alloc_id(g1):
            p.case(f"EXTEND naming an existing allocation ({alloc_id(g1)}) by PMIX_ALLOC_ID, 1 node", a,
                   alloc_line("EXTEND", id=alloc_id(g1), nnodes=1, reqid="grow-by-id"))
            p.say("== sessions: " + json.dumps(sessions(a)))
        total += 4 * args.slots
        p.say(f"== spawn {total} across everything: {p.spawn(uri_file, total)}")
        new_nodes = [n["name"] for s in sessions(a).get("sessions", []) if s["id"] == alloc_id(g3) for n in s["nodes"]]
        if new_nodes:
            p.case(f"RELEASE by name ({new_nodes[0]}, no id)", a, alloc_line("RELEASE", nlist=new_nodes[0]))
        p.case("RELEASE by count (1 node, no id)", a, alloc_line("RELEASE", nnodes=1))
        if alloc_id(g1):
            p.case(f"RELEASE by id ({alloc_id(g1)}, the count grow) with a request id of its own", a,
                   alloc_line("RELEASE", id=alloc_id(g1), reqid="release-by-id"))
        p.say("== sessions: " + json.dumps(sessions(a)))
        p.case("EXTEND naming neither a count nor nodes", a, alloc_line("EXTEND", reqid="grow-nothing"))
        p.case("EXTEND naming a startup node the DVM holds (n1)", a, alloc_line("EXTEND", nlist=startup[0], reqid="grow-held"),
               answer_s=10)
        p.case("REQ_CANCEL of grow-held (from a second tool)", b, alloc_line("REQ_CANCEL", reqid="grow-held"))
        p.say("  the first tool's answer to grow-held, after the cancel:")
        p.report("answer", a, a.result(15), 2)
        # a queued grow: an outside job holds s6 so the expander pends
        hold = p.sh("salloc --no-shell --nodelist=s6 --nodes=1 --job-name=outside-holder 2>&1")
        p.say(f"== outside job holds s6: {hold}")
        holder = next((r["id"] for r in parse_squeue(p.squeue()) if r["name"] == "outside-holder"), None)
        p.case("EXTEND by name (s6, held by another job: queued)", a, alloc_line("EXTEND", nlist="s6", reqid="grow-queued"),
               answer_s=8)
        p.case("REQ_CANCEL of grow-queued (from a second tool)", b, alloc_line("REQ_CANCEL", reqid="grow-queued"))
        p.say("  the first tool's answer to grow-queued, after the cancel:")
        p.report("answer", a, a.result(15), 2)
        p.case("REQ_CANCEL of a request id nobody made", b, alloc_line("REQ_CANCEL", reqid="no-such-request"))
        p.case(f"RELEASE by name of a startup node ({startup[-1]})", a, alloc_line("RELEASE", nlist=startup[-1]))
        p.say("== sessions: " + json.dumps(sessions(a)))
        p.case("EXTEND naming a slot count (s2:4)", a, alloc_line("EXTEND", nlist="s2:4", reqid="grow-slots"))
        p.case("EXTEND naming both a count and nodes", a, alloc_line("EXTEND", nnodes=1, nlist="s2", reqid="grow-both"))
        idle = [n for n in p.sh("sinfo -h -N -t idle -o %N").split() if n.startswith("s")]
        if idle:
            twice = f"{idle[0]},{idle[0]}"
            p.case(f"EXTEND naming one idle node twice ({twice})", a, alloc_line("EXTEND", nlist=twice, reqid="grow-twice"))
            tw = p.last
            if alloc_id(tw):  # give its nodes back for the grows below
                p.case(f"RELEASE by id ({alloc_id(tw)}, the twice-named grow)", a, alloc_line("RELEASE", id=alloc_id(tw)))
        p.case("EXTEND naming an allocation id nobody holds (99999)", a,
               alloc_line("EXTEND", id="99999", nnodes=1, reqid="grow-unknown-id"))
        p.case("NEW with PMIX_ALLOC_TARGET naming no namespace there is", a,
               agent_line("alloc", "1", "pmix.alloc.nnodes", "u64", "1", "pmix.alloc.tgt", "s", "no-such-namespace",
                          "pmix.alloc.reqid", "s", "new-bad-target"))
        p.case("NEW with PMIX_ALLOC_SHARE=true", a,
               agent_line("alloc", "1", "pmix.alloc.nnodes", "u64", "1", "pmix.alloc.share", "b", "true",
                          "pmix.alloc.reqid", "s", "new-shared"))
        p.say(f"== spawn 1 after all that: {p.spawn(uri_file, 1)}")
    finally:
        for t in tools:
            t.close()
        p.say(f"== pterm: {p.sh(f'pterm --dvm-uri file:{uri_file} 2>&1 | tail -1')}")
        try:
            dvm.wait(timeout=30)
        except subprocess.TimeoutExpired:
            dvm.kill()
        for c in p.new_commands():
            p.say(f"  slurm command: {c}")
        time.sleep(2)
        p.say(f"squeue after the DVM ended: {p.squeue() or '(empty)'}")
        if holder:
            p.sh(f"scancel {holder}")
        left = [r["id"] for r in parse_squeue(p.squeue())]
        if left:
            p.say(f"cancelling leftover jobs: {left}")
            p.sh("scancel " + " ".join(left))
    return 0


def sessions(tool: Tool) -> dict:
    tool.send(agent_line("sessions"))
    r = tool.result(30) or {}
    return {"pool": [n["name"] for n in r.get("pool", [])],
            "sessions": r.get("sessions", [])}


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--startup", default="n1,n2")
    ap.add_argument("--slots", type=int, default=4)
    ap.add_argument("--no-elastic", action="store_true")
    ap.add_argument("--attached", action="store_true",
                    help="prte --leave-session-attached (needed when the cluster uses proctrack/cgroup)")
    ap.add_argument("--hnp-node", default="", help="set SLURMD_NODENAME for prte (the node it is taken to run on)")
    ap.add_argument("--slurm-prefix", default=os.environ.get("SLURM_PREFIX", ""),
                    help="the Slurm install (or $SLURM_PREFIX); required")
    ap.add_argument("--slurm-conf", default=os.environ.get("SLURM_CONF", "/tmp/pmix-slurm/etc/slurm.conf"))
    ap.add_argument("--prrte-prefix", default=os.environ.get("PRRTE_SLURM_PREFIX", ""),
                    help="the Slurm-enabled PRRTE install (or $PRRTE_SLURM_PREFIX); required")
    ap.add_argument("--tool-agent", default="/tmp/pmix-slurm-agents/tool_agent")
    return run(ap.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
