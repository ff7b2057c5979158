"""What 'observe' reports, read from PRRTE through the DVM's private observer
tool: each job's processes and state (refresh_job), and the DVM's nodes
(nodes): membership from PRRTE's record of its daemons (daemon_states), each
daemon's progress from the live prted processes (live_daemons, from
prted_pids, which faults.py uses too), slots from the node pool and who
holds each node from the reservations. membership() is the rule itself,
pure."""
import os
import subprocess
from typing import Dict, List, Optional

from agents import Agent, EventLog
from wire import PROC_ERROR, PROC_RUNNING_STATES, PROC_TERMINATE, PROC_TERMINATED, WireError, log


class Observation:
    """The observing half of a Dvm (dvm.py; Dvm inherits it). It reads what
    the Dvm holds, below, and calls its check_alive."""

    observer: Agent  # the DVM's private tool; its events are not recorded
    events: EventLog
    jobs: Dict[str, dict]  # nspace -> {"state", "procs", "released", "np"}
    head: str  # the HNP's node
    hnp_nspace: str  # the DVM's own namespace: its daemons
    prte: "subprocess.Popen[bytes]"

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

    def exited(self, nspace: str, rank: int) -> bool:
        """Whether the job's process has exited: its agent's connection to the
        bridge closed. PRRTE's process table goes on listing a process as
        running when the daemon that ran it was shrunk away: seen live, a child
        on a startup node lent to a released reservation stayed RUNNING in
        PMIX_QUERY_PROC_TABLE after its daemon departed and took it down
        (prted_comm.c:689-735), so the table alone would call a dead process
        alive."""
        agent = self.procs.get((nspace, rank))
        return agent is not None and agent.gone

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
        job["procs"] = [{"rank": p["rank"], "node": p["host"] or "", "running": p["state"] in PROC_RUNNING_STATES and not self.exited(nspace, p["rank"])}
                        for p in procs]
        states = [p["state"] for p in procs]
        if states and all(s == PROC_TERMINATED for s in states):
            job["state"] = "TERMINATED"
        elif states and all(s >= PROC_TERMINATED for s in states) and any(s >= PROC_ERROR for s in states):
            job["state"] = "KILLED"

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

    def live_daemons(self) -> Dict[str, str]:
        """node name -> 'ready' for every live prted of this DVM (and the HNP)."""
        nodes = {self.head: "ready"} if self.prte.poll() is None else {}
        nodes.update((name, "ready") for name in prted_pids(self.hnp_nspace))
        return nodes


def membership(pool: List[dict], owner: Dict[str, str], daemons: Dict[str, int], live: Dict[str, str],
               in_use: Dict[str, int]) -> List[dict]:
    """The observation's nodes from PRRTE's answers (see Observation.nodes): pool
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


def prted_pids(hnp_nspace: str, proc: str = "/proc") -> Dict[str, int]:
    """node name -> pid of this DVM's live prted on it (a prted is this DVM's
    when its command line names the DVM's namespace; its node is the
    hostname of its UTS namespace, the name launch-agent.sh gave it)."""
    out: Dict[str, int] = {}
    if not hnp_nspace:
        return out  # not up yet: no prted can be told to be this DVM's
    for pid in os.listdir(proc):
        if not pid.isdigit():
            continue
        try:
            with open(f"{proc}/{pid}/cmdline", "rb") as f:
                cmd = f.read().split(b"\0")
        except OSError:
            continue
        if not cmd or not cmd[0].endswith(b"prted") or hnp_nspace.encode() not in b" ".join(cmd):
            continue
        try:
            name = subprocess.run(["nsenter", "-t", pid, "-u", "hostname"], capture_output=True,
                                  text=True, timeout=2).stdout.strip()
        except subprocess.TimeoutExpired:
            continue
        if name:
            out[name] = int(pid)
    return out
