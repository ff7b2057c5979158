"""The one-host Slurm cluster the bridge's Slurm mode runs on (slurm_mode.py):
where Slurm and the Slurm-enabled PRRTE are installed, the environment their
clients need, the cluster's shape for a scenario (scripts/slurm-cluster.sh),
Slurm's own view of its jobs (Cluster), and the record of the DVMs this host's
bridges started, so a DVM an earlier bridge left behind is ended."""
import json
import os
import signal
import subprocess
import time
from typing import Dict, List, Optional

from wire import WireError, log

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
# Where Slurm and the Slurm-enabled PRRTE are installed: no default (missing() says what is not set).
SLURM_PREFIX = os.environ.get("SLURM_PREFIX", "")
PRRTE_SLURM_PREFIX = os.environ.get("PRRTE_SLURM_PREFIX", "")
SLURM_STATE = os.environ.get("SLURM_STATE", "/tmp/pmix-slurm")
# linuxproc (the default of slurm-cluster.sh) or cgroup; with cgroup prte runs
# with --leave-session-attached (a daemonized prted is killed with its step).
PROCTRACK = os.environ.get("SLURM_PROCTRACK", "linuxproc")
CLUSTER = os.path.join(REPO, "scripts", "slurm-cluster.sh")
DEFAULT_STARTUP = ["n1", "n2", "n3"]
DEFAULT_POOL = ["s1", "s2", "s3", "s4", "s5", "s6"]


def slurm_env(base: Optional[Dict[str, str]] = None) -> Dict[str, str]:
    """The environment for Slurm clients and the DVM: the Slurm-enabled PRRTE
    and Slurm first on PATH, SLURM_CONF, and LD_LIBRARY_PATH so the PRRTE
    binaries load their own libprrte (their RUNPATH names the openpmix prefix
    first, which holds the ras/hosts build's: docs/prrte-slurm.md, "What does
    not work" 2). No SLURM_JOB* of an outer allocation is inherited."""
    env = {k: v for k, v in (base if base is not None else os.environ).items()
           if not (k.startswith("SLURM_JOB") or k in ("SLURM_JOBID", "SLURM_NODELIST", "SLURM_TASKS_PER_NODE", "SLURMD_NODENAME"))}
    env["PATH"] = ":".join([os.path.join(PRRTE_SLURM_PREFIX, "bin"), os.path.join(SLURM_PREFIX, "bin"),
                            os.path.join(SLURM_PREFIX, "sbin"), env.get("PATH", "/usr/bin:/bin")])
    env["LD_LIBRARY_PATH"] = os.path.join(PRRTE_SLURM_PREFIX, "lib")
    env["SLURM_CONF"] = os.path.join(SLURM_STATE, "etc", "slurm.conf")
    env["SLURM_STATE"] = SLURM_STATE
    env["SLURM_PREFIX"] = SLURM_PREFIX
    return env


def cluster_shape(startup: List[dict], pool: List[dict]) -> Dict[str, str]:
    """The slurm-cluster.sh settings a scenario needs: its startup nodes among
    SLURM_STARTUP and its pool among SLURM_POOL (the default names kept, so
    the cluster rarely changes), and each of its nodes' slots as CPUs
    (SLURM_CPUS, NAME=N; 4 for the others)."""
    s = [n["name"] for n in startup]
    p = [n["name"] for n in pool]
    st = DEFAULT_STARTUP + [n for n in s if n not in DEFAULT_STARTUP]
    pl = [n for n in DEFAULT_POOL if n not in st] + [n for n in p if n not in DEFAULT_POOL and n not in st]
    cpus = {n["name"]: int(n["slots"]) for n in pool}
    cpus.update({n["name"]: int(n["slots"]) for n in startup})
    spec = ",".join(f"{k}={v}" for k, v in sorted(cpus.items()) if v != 4)
    return {"SLURM_STARTUP": ",".join(st), "SLURM_POOL": ",".join(pl), "SLURM_CPUS": spec or "4",
            "SLURM_PROCTRACK": PROCTRACK}


REGISTRY = os.path.join(SLURM_STATE, "bridge-dvms")


def remember(pid: int, ctl: str, nspace: str) -> None:
    """Note a live DVM (its salloc's pid, control directory, namespace), so
    that one whose bridge was killed before its stop (the runner kills a
    bridge that faulted) is ended at the next start (end_leftovers)."""
    try:
        os.makedirs(SLURM_STATE, exist_ok=True)
        with open(REGISTRY, "a") as f:
            f.write(f"{pid} {ctl} {nspace}\n")
    except OSError as e:
        log(f"Slurm mode: cannot note the DVM in {REGISTRY}: {e}")


def forget(ctl: str) -> None:
    try:
        with open(REGISTRY) as f:
            lines = [ln for ln in f.read().split("\n") if ln.strip() and ln.split()[1:2] != [ctl]]
        with open(REGISTRY, "w") as f:
            f.write("".join(ln + "\n" for ln in lines))
    except (OSError, IndexError):
        pass


def cmdline(pid: str) -> bytes:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read()
    except OSError:
        return b""


def kill_prteds(nspace: str) -> None:
    """SIGKILL every prted of the DVM `nspace` (a daemonized prted escapes its
    Slurm step under linuxproc: docs/prrte-slurm.md section 2)."""
    if not nspace:
        return
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            cmd = cmdline(pid)
            if cmd.split(b"\0")[0].endswith(b"prted") and nspace.encode() in cmd:
                try:
                    os.kill(int(pid), signal.SIGKILL)
                except OSError:
                    pass


def end_leftovers() -> None:
    """End the DVMs of this mode's earlier bridges that were never stopped:
    each noted salloc still running with its own control directory on its
    command line (so never another process that took its pid), its process
    group, and its prteds. Their Slurm jobs go with Cluster.ensure's scancel."""
    try:
        with open(REGISTRY) as f:
            lines = f.read().split("\n")
        os.unlink(REGISTRY)
    except OSError:
        return
    for line in lines:
        parts = line.split()
        if len(parts) != 3 or not parts[0].isdigit():
            continue
        _pid, ctl, nspace = parts
        if kill_named(ctl):
            log(f"Slurm mode: ended a DVM an earlier bridge left running ({ctl})")
        kill_prteds(nspace)
        if "prrte-slurm-bridge-" in ctl:
            shutil.rmtree(ctl, ignore_errors=True)


def kill_named(ctl: str) -> List[int]:
    """SIGKILL every process whose command line names the DVM's control
    directory: its salloc and its prte (--report-uri CTL/uri), which salloc
    puts in a process group of its own. The directory is a fresh mkdtemp,
    so nothing else names it."""
    killed = []
    for pid in os.listdir("/proc"):
        if pid.isdigit() and int(pid) != os.getpid() and ctl.encode() in cmdline(pid):
            try:
                os.kill(int(pid), signal.SIGKILL)
                killed.append(int(pid))
            except OSError:
                pass
    return killed


def parse_squeue(text: str) -> List[Dict[str, str]]:
    """`squeue -h -o '%i|%j|%T|%N'` lines -> dicts."""
    rows = []
    for line in text.splitlines():
        parts = line.strip().split("|")
        if len(parts) == 4:
            rows.append(dict(zip(("id", "name", "state", "nodes"), parts)))
    return rows


class Cluster:
    """The one-host cluster, reshaped per scenario through slurm-cluster.sh."""

    def __init__(self, run=subprocess.run) -> None:
        self.run = run
        self.env = slurm_env()
        self.record = os.path.join(SLURM_STATE, "bridge-shape.json")

    def sh(self, argv: List[str], timeout: float = 30, env: Optional[Dict[str, str]] = None) -> str:
        r = self.run(argv, capture_output=True, text=True, timeout=timeout, env=env or self.env)
        if r.returncode != 0:
            raise WireError("internal", f"{' '.join(argv)} failed ({r.returncode}): {(r.stdout + r.stderr).strip()[-600:]}")
        return r.stdout

    def current(self) -> Optional[dict]:
        try:
            with open(self.record) as f:
                return json.load(f)
        except (OSError, ValueError):
            return None

    def running(self) -> bool:
        r = self.run(["scontrol", "ping"], capture_output=True, text=True, timeout=10, env=self.env)
        return r.returncode == 0 and "UP" in r.stdout

    def ensure(self, startup: List[dict], pool: List[dict]) -> None:
        want = cluster_shape(startup, pool)
        if self.current() != want or not self.running():
            env = dict(self.env, **want)
            self.sh(["bash", CLUSTER, "stop"], env=env)
            self.sh(["bash", CLUSTER, "start"], timeout=90, env=env)
            with open(self.record, "w") as f:
                json.dump(want, f)
        self.cancel_all()
        self.sh(["bash", CLUSTER, "shape", ",".join(n["name"] for n in startup + pool)])

    def jobs(self) -> List[Dict[str, str]]:
        return parse_squeue(self.sh(["squeue", "-h", "-o", "%i|%j|%T|%N"]))

    def cancel_all(self, wait_s: float = 10) -> List[str]:
        """scancel every job the cluster lists (only this bridge uses it), and
        wait, bounded, until none is listed as running or pending."""
        ids = [j["id"] for j in self.jobs()]
        if ids:
            self.run(["scancel"] + ids, capture_output=True, timeout=10, env=self.env)
            deadline = time.monotonic() + wait_s
            while time.monotonic() < deadline and any(j["state"] in ("RUNNING", "PENDING", "CONFIGURING", "COMPLETING")
                                                      for j in self.jobs()):
                time.sleep(0.2)
        return ids

    def pending_expanders(self) -> List[str]:
        return [j["id"] for j in self.jobs() if j["name"] == "prrte" and j["state"] == "PENDING"]

    def job_nodes(self, job: str) -> List[str]:
        r = self.run(["squeue", "-h", "-j", job, "-o", "%N"], capture_output=True, text=True, timeout=10, env=self.env)
        spec = r.stdout.strip()
        if r.returncode != 0 or not spec:
            return []
        r = self.run(["scontrol", "show", "hostnames", spec], capture_output=True, text=True, timeout=10, env=self.env)
        return r.stdout.split()
