"""The template's small in-memory engine: a DVM (one per scenario, start ...
stop) that behaves the way features/reservation/ and
features/INTERPRETATIONS.md say a runtime must. Its allocation requests are
in allocation_requests.py, its state in engine_state.py. To test a real
runtime, replace this engine with calls into the runtime (README.md,
"Adapting it to a real runtime")."""
from __future__ import annotations

from typing import Optional

from allocation_requests import AllocationRequests
from engine_state import Allocation, Attrs, Caller, Job, Node, Proc
from errors import Rejected, WireError, log
from pmix_names import (
    DEFAULT_SESSION, PMIX_ALLOC_ID, PMIX_ALLOC_REQ_ID, PMIX_ALLOC_SHARE, PMIX_ALLOC_TARGET,
    PMIX_ERR_BAD_PARAM, PMIX_ERR_NOT_FOUND, PMIX_ERR_NO_PERMISSIONS, PMIX_ERR_OUT_OF_RESOURCE,
    PMIX_ERR_UNREACH, PMIX_NSPACE_INVALID, PMIX_SESSION_ID, PMIX_SPAWN_TARGET, PMIX_SUCCESS,
)


# The optional keys (by name, as start's withoutKeys spells them) this harness
# can pretend not to know, and the key string each stands for.
EMULATED_KEYS = {
    "PMIX_ALLOC_TARGET": PMIX_ALLOC_TARGET,
    "PMIX_ALLOC_SHARE": PMIX_ALLOC_SHARE,
    "PMIX_SPAWN_TARGET": PMIX_SPAWN_TARGET,
}


# --------------------------------------------------------------------------
# The DVM: one per scenario (start ... stop)
# --------------------------------------------------------------------------
class Dvm(AllocationRequests):
    SCHEDULER_NSPACE = "scheduler"

    def __init__(self, startup: list[dict], scheduler_pool: list[dict], without_keys: list[str]):
        self.unknown_keys = {EMULATED_KEYS[k] for k in without_keys}
        # Node order is the observation order: startup nodes, then the
        # scheduler's in the order it prefers them. Keeping it fixed keeps
        # observe() deterministic, which "nothing changed" depends on.
        self.nodes: dict[str, Node] = {}
        for spec in startup:
            self._add_node(spec, startup=True)
        for spec in scheduler_pool:
            self._add_node(spec, startup=False)
        self.tools: dict[str, bool] = {}  # nspace -> still connected
        self.jobs: dict[str, Job] = {}  # in launch order
        self.allocations: dict[str, Allocation] = {}  # live allocations only
        self.by_req_id: dict[tuple[str, str], str] = {}  # (requester nspace, PMIX_ALLOC_REQ_ID) -> allocation id
        self.by_session_id: dict[int, str] = {}  # PMIX_SESSION_ID -> allocation id
        self.counters = {"tool": 0, "job": 0, "alloc": 0}

    def _add_node(self, spec: dict, startup: bool) -> None:
        if spec["name"] in self.nodes:
            raise WireError("bad-request", f"node {spec['name']} is listed twice")
        self.nodes[spec["name"]] = Node(spec["name"], spec["slots"], startup=startup, in_dvm=startup)

    def _mint(self, what: str) -> str:
        self.counters[what] += 1
        return f"{what}-{self.counters[what]}"

    # -------------------------------------------------------------- callers --

    def caller(self, proc: dict) -> Caller:
        """Classify the process making a call. The scheduler has no job, so it
        is a tool for the decision table (and an implicit owner of everything)."""
        nspace, rank = proc["nspace"], proc["rank"]
        if nspace == self.SCHEDULER_NSPACE:
            return Caller("scheduler", nspace, rank)
        if nspace in self.tools:
            if not self.tools[nspace]:
                raise Rejected(PMIX_ERR_UNREACH, f"tool {nspace} has disconnected")
            return Caller("tool", nspace, rank)
        job = self.jobs.get(nspace)
        if job is None:
            raise WireError("bad-request", f"no process {nspace}:{rank} was ever started here")
        if rank >= len(job.procs):
            raise WireError("bad-request", f"job {nspace} has no rank {rank}")
        if not job.procs[rank].running:
            raise Rejected(PMIX_ERR_UNREACH, f"{nspace}:{rank} is no longer running")
        return Caller("app", nspace, rank)

    def may_use(self, caller: Caller, alloc: Allocation) -> bool:
        """The ownership check: the requester's namespace is in the owner set,
        or the requester is the scheduler."""
        return caller.kind == "scheduler" or caller.nspace in alloc.owners

    def _live_namespace(self, nspace: str) -> bool:
        if nspace == self.SCHEDULER_NSPACE:
            return True
        if self.tools.get(nspace):
            return True
        job = self.jobs.get(nspace)
        return job is not None and job.state == "RUNNING"

    # ---------------------------------------------------------------- tools --

    def connect_tool(self, label: str) -> dict:
        nspace = self._mint("tool")
        self.tools[nspace] = True
        log(f"tool {label!r} connected as {nspace}")
        return {"nspace": nspace, "rank": 0}

    def disconnect_tool(self, proc: dict) -> int:
        nspace = proc["nspace"]
        if not self.tools.get(nspace):
            raise Rejected(PMIX_ERR_NOT_FOUND, f"no connected tool {nspace}")
        self.tools[nspace] = False
        # A tool's namespace terminates when it disconnects (IP-TOOL-TERMINATION).
        self._owner_ended(nspace)
        return PMIX_SUCCESS

    # ----------------------------------------------------------------- spawn --

    def spawn(self, caller: Caller, apps: list[dict], attrs: Attrs) -> str:
        """PMIx_Spawn. Returns the new namespace; raises Rejected with nothing launched."""
        sessions, primary = self._spawn_sessions(caller, attrs)
        candidates = self._candidate_nodes(sessions)
        placement = self._map_by_slot(apps, candidates)

        # Commit: the job, its processes, and its place in the owner sets.
        nspace = self._mint("job")
        procs = []
        for rank, (node_name, counts) in enumerate(placement):
            procs.append(Proc(rank, node_name, running=True, counts=counts))
            if counts:
                self.nodes[node_name].in_use += 1
        parent = caller.nspace if caller.kind == "app" else None
        self.jobs[nspace] = Job(nspace, procs, parent=parent, primary=primary)
        # The job becomes an owner of exactly the reservations it was spawned
        # into, never of its parent's others (ownership is not transitive).
        for key in sessions:
            if key != DEFAULT_SESSION:
                self.allocations[key].owners.add(nspace)
        log(f"spawned {nspace} for {caller.nspace} into {sessions or ['(default)']}: {placement}")
        return nspace

    def _spawn_sessions(self, caller: Caller, attrs: Attrs) -> tuple[list[str], str]:
        """The sessions the job may be mapped onto, in order ('' = the default
        session, else a reserved allocation's id), and its primary session.

        Precedence (IP-LEGACY-SESSION-ATTRIBUTES, IP-PARENT-SESSION):
          PMIX_SPAWN_TARGET; else the first of PMIX_SESSION_ID, PMIX_ALLOC_ID,
          PMIX_ALLOC_REQ_ID as a one-element target; else, for an application,
          its parent's primary session while it exists; else the default session.
        Every entry passes the same checks; one bad entry refuses the whole
        spawn, which is never narrowed to the good ones."""
        entries: Optional[list[str]] = attrs.strings(PMIX_SPAWN_TARGET)
        if entries is not None:
            if not entries:
                raise Rejected(PMIX_ERR_BAD_PARAM, "an empty PMIX_SPAWN_TARGET array")
            sessions = [self._target_entry(caller, e) for e in entries]
        elif attrs.has(PMIX_SESSION_ID):
            session_id = attrs.integer(PMIX_SESSION_ID)
            if session_id == 0:
                sessions = [DEFAULT_SESSION]
            elif session_id in self.by_session_id:
                sessions = [self._target_entry(caller, self.by_session_id[session_id])]
            else:
                raise Rejected(PMIX_ERR_NOT_FOUND, f"no session {session_id}")
        elif attrs.has(PMIX_ALLOC_ID):
            sessions = [self._target_entry(caller, attrs.string(PMIX_ALLOC_ID))]
        elif attrs.has(PMIX_ALLOC_REQ_ID):
            req_key = (caller.nspace, attrs.string(PMIX_ALLOC_REQ_ID))
            if req_key not in self.by_req_id:
                raise Rejected(PMIX_ERR_NOT_FOUND, f"no allocation request {req_key[1]!r} of {caller.nspace}")
            sessions = [self._target_entry(caller, self.by_req_id[req_key])]
        elif caller.kind == "app":
            # The parent's primary session, while it exists; having been spawned
            # into it, the child becomes an owner of it (IP-PARENT-SESSION).
            parent_primary = self.jobs[caller.nspace].primary
            sessions = [parent_primary if parent_primary in self.allocations else DEFAULT_SESSION]
        else:
            # A tool's (or the scheduler's) untargeted spawn: the default
            # session only, even if it owns a reservation (IP-TOOL-SPAWN-DEFAULT).
            sessions = [DEFAULT_SESSION]
        sessions = list(dict.fromkeys(sessions))  # naming a session twice is harmless
        primary = next((s for s in sessions if s != DEFAULT_SESSION), DEFAULT_SESSION)
        return sessions, primary

    def _target_entry(self, caller: Caller, entry: str) -> str:
        if entry == PMIX_NSPACE_INVALID:
            return DEFAULT_SESSION  # open to everyone
        alloc = self.allocations.get(entry)
        if alloc is None:
            raise Rejected(PMIX_ERR_NOT_FOUND, f"{entry!r} resolves to no session")
        if alloc.shared:
            # A shared allocation's id denotes its destination, the default
            # session: anyone may name it, and naming it makes no one an owner
            # (IP-SHARED-ALLOCATION-ID).
            return DEFAULT_SESSION
        if not self.may_use(caller, alloc):
            raise Rejected(PMIX_ERR_NO_PERMISSIONS, f"{caller.nspace} does not own {entry}")
        return alloc.alloc_id

    def _candidate_nodes(self, sessions: list[str]) -> list[Node]:
        """Exactly the union of the sessions' nodes: a job sees no other node."""
        picked: list[Node] = []
        for key in sessions:
            for node in self.nodes.values():
                if node.in_dvm and node.available_to == key and node not in picked:
                    picked.append(node)
        return picked

    def _map_by_slot(self, apps: list[dict], candidates: list[Node]) -> list[tuple[str, bool]]:
        """By-slot mapping without oversubscription: fill each candidate node's
        free slots in order (IP-SLOT-CAPACITY). Returns (node, takes-a-slot)
        per rank, ranks numbered across the apps. A -host list restricts an
        app to those nodes; naming a node outside the job's sessions refuses
        the spawn (IP-HOST-OUTSIDE-TARGETS allows refusing or placing elsewhere;
        it never lands there)."""
        free = {n.name: n.slots - n.in_use for n in candidates}
        placement: list[tuple[str, bool]] = []
        for app in apps:
            np = app["np"]
            if np < 1:
                raise Rejected(PMIX_ERR_BAD_PARAM, f"app {app['cmd']}: np must be at least 1")
            allowed = [n.name for n in candidates]
            if "hosts" in app:
                outside = [h for h in app["hosts"] if h not in free]
                if outside:
                    raise Rejected(PMIX_ERR_OUT_OF_RESOURCE, f"-host {outside} is outside the job's sessions")
                allowed = [n for n in allowed if n in app["hosts"]]
            if not allowed:
                raise Rejected(PMIX_ERR_OUT_OF_RESOURCE, "the job's sessions have no node")
            if app.get("tool"):
                # A tool app's processes take no slot (PRRTE_APP_FLAG_TOOL).
                placement += [(allowed[0], False)] * np
                continue
            for _ in range(np):
                node = next((n for n in allowed if free[n] > 0), None)
                if node is None:
                    raise Rejected(PMIX_ERR_OUT_OF_RESOURCE, f"not enough free slots for {np} processes of {app['cmd']}")
                free[node] -= 1
                placement.append((node, True))
        return placement

    # -------------------------------------------------------- job lifecycle --

    def terminate_job(self, nspace: str) -> int:
        """Every process of the job exits normally."""
        job = self.jobs.get(nspace)
        if job is None:
            raise Rejected(PMIX_ERR_NOT_FOUND, f"no job {nspace}")
        if job.state != "RUNNING":
            return PMIX_SUCCESS  # already over: nothing left to end
        for proc in job.procs:
            if proc.running:
                proc.running = False
                if proc.counts:
                    self.nodes[proc.node].in_use -= 1
        job.state = "TERMINATED"
        self._owner_ended(nspace)
        return PMIX_SUCCESS

    # --------------------------------------------------------------- observe --

    def observe(self, only_nodes: Optional[list[str]], only_jobs: Optional[list[str]]) -> dict:
        """What a client could see. Deterministic order, so that an unchanged
        DVM gives an identical answer. This harness delivers no events."""
        nodes = [
            {
                "name": n.name,
                "slots": n.slots,
                "slotsInUse": n.in_use,
                "availableTo": n.available_to,
                "daemon": "ready",
            }
            for n in self.nodes.values()
            if n.in_dvm and (only_nodes is None or n.name in only_nodes)
        ]
        jobs = [
            {
                "nspace": j.nspace,
                "state": j.state,
                "procs": [{"rank": p.rank, "node": p.node, "running": p.running} for p in j.procs],
            }
            for j in self.jobs.values()
            if only_jobs is None or j.nspace in only_jobs
        ]
        return {"nodes": nodes, "jobs": jobs, "events": []}
