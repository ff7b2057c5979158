"""PMIx_Allocation_request in the template engine: NEW, EXTEND and RELEASE
(the decision table, picking and granting nodes, the response), and how an
allocation ends (a release, or the default disposition when its owner ends).
A real runtime makes these decisions itself: this half of the engine is what
disappears when you adapt the template."""
from __future__ import annotations

from typing import Optional

from engine_state import Allocation, Attrs, Caller, Job, Node
from errors import Rejected, log
from pmix_names import (
    DEFAULT_SESSION, PMIX_ALLOC_EXTEND, PMIX_ALLOC_ID, PMIX_ALLOC_INHERITANCE,
    PMIX_ALLOC_INHERIT_DEFAULT, PMIX_ALLOC_NEW, PMIX_ALLOC_NODE_LIST, PMIX_ALLOC_NUM_NODES,
    PMIX_ALLOC_RELEASE, PMIX_ALLOC_REQ_ID, PMIX_ALLOC_SHARE, PMIX_ALLOC_TARGET, PMIX_ALLOC_TIME,
    PMIX_ERR_BAD_PARAM, PMIX_ERR_NOT_FOUND, PMIX_ERR_NOT_SUPPORTED, PMIX_ERR_NO_PERMISSIONS,
    PMIX_ERR_OUT_OF_RESOURCE, PMIX_NSPACE_INVALID, PMIX_SESSION_ID,
)


class AllocationRequests:
    """The allocation half of a Dvm (engine.py; Dvm inherits it). It reads and
    changes the state the Dvm holds, below, and uses the Dvm's _mint, may_use
    and _live_namespace."""

    nodes: dict[str, Node]
    jobs: dict[str, Job]
    allocations: dict[str, Allocation]
    by_req_id: dict[tuple[str, str], str]
    by_session_id: dict[int, str]

    # ------------------------------------------------- allocation requests --

    def allocate(self, caller: Caller, directive: int, attrs: Attrs) -> list[dict]:
        """PMIx_Allocation_request. Returns the result info; raises Rejected.

        Every handler checks everything first and changes state only at the
        end: "in every rejection case no partial effect is observable"."""
        if directive == PMIX_ALLOC_NEW:
            return self._alloc_new(caller, attrs)
        if directive == PMIX_ALLOC_EXTEND:
            return self._alloc_extend(caller, attrs)
        if directive == PMIX_ALLOC_RELEASE:
            return self._alloc_release(caller, attrs)
        # REAQUIRE (lending), REQ_CANCEL (the scheduler's queue) and EXTERNAL
        # are not implemented: the call itself reports that.
        raise Rejected(PMIX_ERR_NOT_SUPPORTED, f"directive {directive} is not supported by this harness")

    def _alloc_new(self, caller: Caller, attrs: Attrs) -> list[dict]:
        # 1. The decision table. PMIX_ALLOC_TARGET is honoured only from a tool
        #    (the scheduler counts as one); an application's is refused whatever
        #    PMIX_ALLOC_SHARE says (IP-APP-TARGET-SHARE).
        owner = caller.nspace
        if attrs.has(PMIX_ALLOC_TARGET):
            if caller.kind == "app":
                raise Rejected(PMIX_ERR_NO_PERMISSIONS, "an application may not name PMIX_ALLOC_TARGET")
            target = attrs.string(PMIX_ALLOC_TARGET)
            if target == PMIX_NSPACE_INVALID:
                # An owner that is the empty namespace is no owner (IP-TARGET-INVALID).
                raise Rejected(PMIX_ERR_BAD_PARAM, "PMIX_ALLOC_TARGET names the invalid namespace")
            if not self._live_namespace(target):
                raise Rejected(PMIX_ERR_NOT_FOUND, f"PMIX_ALLOC_TARGET {target} is no live namespace")
            owner = target
        shared = attrs.boolean(PMIX_ALLOC_SHARE) is True  # absent / false: the "reserve" default

        # 2. The disposition. Without PMIX_ALLOC_INHERITANCE only the default
        #    one exists; any other value must be refused, not ignored.
        self._check_inheritance(attrs)

        # 3. The request id must not be ambiguous for a later EXTEND / spawn
        #    by the same requester (another requester's ids are its own).
        req_id = attrs.string(PMIX_ALLOC_REQ_ID)
        req_key = (caller.nspace, req_id) if req_id is not None else None
        if req_key is not None and req_key in self.by_req_id:
            raise Rejected(PMIX_ERR_BAD_PARAM, f"PMIX_ALLOC_REQ_ID {req_id!r} already names one of this requester's live allocations")

        # 4. Ask the scheduler for nodes (nothing is taken yet).
        granted = self._pick_nodes(attrs, allow_none=False)

        # 5. Commit: the allocation, its session, its nodes.
        alloc_id = self._mint("alloc")
        session_id = self.counters["alloc"]  # session ids 1, 2, ...; 0 is the default session
        alloc = Allocation(alloc_id, session_id, owner=owner, owners={owner}, shared=shared, req_id=req_id, req_key=req_key)
        self.allocations[alloc_id] = alloc
        if req_key is not None:
            self.by_req_id[req_key] = alloc_id
        if not shared:
            self.by_session_id[session_id] = alloc_id
        self._grant(alloc, granted)
        log(f"NEW {alloc_id} for {owner} ({'shared' if shared else 'reserved'}) on {granted}")
        return self._alloc_response(alloc, req_id, granted)

    def _alloc_extend(self, caller: Caller, attrs: Attrs) -> list[dict]:
        # The decision table applies to every request of an application.
        if caller.kind == "app" and attrs.has(PMIX_ALLOC_TARGET):
            raise Rejected(PMIX_ERR_NO_PERMISSIONS, "an application may not name PMIX_ALLOC_TARGET")
        # BAD_PARAM / NOT_FOUND / NO_PERMISSIONS, in that order. A tool's
        # PMIX_ALLOC_TARGET confers no authority (IP-EXTEND-OWNER), and
        # PMIX_ALLOC_SHARE changes nothing on an EXTEND (IP-EXTEND-SHARE).
        alloc = self._named_allocation(caller, attrs)
        if not self.may_use(caller, alloc):
            raise Rejected(PMIX_ERR_NO_PERMISSIONS, f"{caller.nspace} does not own {alloc.alloc_id}")
        self._check_inheritance(attrs)
        granted = self._pick_nodes(attrs, allow_none=True)  # an EXTEND may ask for time only
        self._grant(alloc, granted)  # the new nodes take the allocation's existing state
        log(f"EXTEND {alloc.alloc_id} by {granted}")
        # The response echoes the PMIX_ALLOC_REQ_ID this request carried (IP-EXTEND-REQ-ID-ECHO).
        return self._alloc_response(alloc, attrs.string(PMIX_ALLOC_REQ_ID), granted)

    def _alloc_release(self, caller: Caller, attrs: Attrs) -> list[dict]:
        # The same three checks as EXTEND (IP-RELEASE-ERRORS).
        # PMIX_ALLOC_INHERITANCE on a RELEASE is ignored.
        alloc = self._named_allocation(caller, attrs)
        if not self.may_use(caller, alloc):
            raise Rejected(PMIX_ERR_NO_PERMISSIONS, f"{caller.nspace} does not own {alloc.alloc_id}")
        if attrs.has(PMIX_ALLOC_TIME):
            raise Rejected(PMIX_ERR_NOT_SUPPORTED, "lending (RELEASE with PMIX_ALLOC_TIME) is not supported")
        if attrs.has(PMIX_ALLOC_NODE_LIST) or attrs.has(PMIX_ALLOC_NUM_NODES):
            raise Rejected(PMIX_ERR_NOT_SUPPORTED, "partial release is not supported")
        info = [{"key": PMIX_ALLOC_ID, "value": alloc.alloc_id}]
        req_id = attrs.string(PMIX_ALLOC_REQ_ID)
        if req_id is not None:
            info.append({"key": PMIX_ALLOC_REQ_ID, "value": req_id})
        self._end_allocation(alloc, return_to_scheduler=True)
        log(f"RELEASE {alloc.alloc_id}")
        return info

    def _named_allocation(self, caller: Caller, attrs: Attrs) -> Allocation:
        """The allocation an EXTEND / RELEASE names: PMIX_ALLOC_ID first, then
        the caller's own PMIX_ALLOC_REQ_ID when the former is absent or resolves
        to nothing (IP-EXTEND-TWO-NAMES, IP-REQ-ID-SCOPE)."""
        alloc_id = attrs.string(PMIX_ALLOC_ID)
        req_id = attrs.string(PMIX_ALLOC_REQ_ID)
        if alloc_id is None and req_id is None:
            raise Rejected(PMIX_ERR_BAD_PARAM, "neither PMIX_ALLOC_ID nor PMIX_ALLOC_REQ_ID")
        if alloc_id is not None and alloc_id in self.allocations:
            return self.allocations[alloc_id]
        if req_id is not None and (caller.nspace, req_id) in self.by_req_id:
            return self.allocations[self.by_req_id[(caller.nspace, req_id)]]
        raise Rejected(PMIX_ERR_NOT_FOUND, f"no allocation {alloc_id or req_id!r}")

    def _check_inheritance(self, attrs: Attrs) -> None:
        # This PMIx lacks PMIX_ALLOC_INHERITANCE, yet a non-default value (e.g.
        # from a newer peer) must be recognised and refused, never silently
        # dropped; a value outside 1-4 is refused too (IP-INHERITANCE-RANGE).
        # A harness that implements the dispositions declares the capability
        # and accepts 1-4 here.
        if attrs.has(PMIX_ALLOC_INHERITANCE):
            value = attrs.integer(PMIX_ALLOC_INHERITANCE)
            if value != PMIX_ALLOC_INHERIT_DEFAULT:
                raise Rejected(PMIX_ERR_NOT_SUPPORTED, f"PMIX_ALLOC_INHERITANCE {value} is not supported")

    def _pick_nodes(self, attrs: Attrs, allow_none: bool) -> list[str]:
        """The host scheduler's answer: which nodes it grants (nothing changes yet).

        PMIX_ALLOC_NODE_LIST names nodes: a free scheduler node, or a startup
        node still in the default session and held by no allocation (it is
        then carved out of the startup pool). PMIX_ALLOC_NUM_NODES asks for that
        many free scheduler nodes, in the scheduler's order. Marked required
        (PMIX_INFO_REQD), a shortfall fails the request; unmarked, it is a
        preference and the scheduler gives what it can (IP-OPTIONAL-ATTRIBUTES).
        """
        names = attrs.node_names(PMIX_ALLOC_NODE_LIST)
        count = attrs.integer(PMIX_ALLOC_NUM_NODES)
        if names is not None:
            grantable = [n for n in dict.fromkeys(names) if self._grantable(n)]
            if attrs.required(PMIX_ALLOC_NODE_LIST) and len(grantable) < len(set(names)):
                missing = sorted(set(names) - set(grantable))
                raise Rejected(PMIX_ERR_OUT_OF_RESOURCE, f"cannot grant {missing}")
            picked = grantable
        elif count is not None:
            if count < 0:
                raise Rejected(PMIX_ERR_BAD_PARAM, "negative PMIX_ALLOC_NUM_NODES")
            free = [n.name for n in self.nodes.values() if not n.startup and not n.in_dvm]
            if attrs.required(PMIX_ALLOC_NUM_NODES) and len(free) < count:
                raise Rejected(PMIX_ERR_OUT_OF_RESOURCE, f"{count} nodes asked, {len(free)} free")
            picked = free[:count]
        else:
            if allow_none:
                return []
            raise Rejected(PMIX_ERR_BAD_PARAM, "a NEW allocation must ask for nodes")
        if not picked and not allow_none:
            raise Rejected(PMIX_ERR_OUT_OF_RESOURCE, "the scheduler has none of the nodes asked for")
        return picked

    def _grantable(self, name: str) -> bool:
        node = self.nodes.get(name)
        if node is None:
            return False
        if not node.startup:
            return not node.in_dvm  # still in the scheduler's pool
        return node.in_dvm and node.allocation is None

    def _grant(self, alloc: Allocation, names: list[str]) -> None:
        """The nodes join the DVM (if they were the scheduler's) and the
        allocation: reserved to it, or, for a shared allocation, in the default
        session. Either way a node is available to exactly one session
        (IP-ONE-SESSION-PER-NODE)."""
        for name in names:
            node = self.nodes[name]
            node.in_dvm = True
            node.allocation = alloc.alloc_id
            node.available_to = DEFAULT_SESSION if alloc.shared else alloc.alloc_id
            alloc.nodes.append(name)

    def _alloc_response(self, alloc: Allocation, req_id: Optional[str], granted: list[str]) -> list[dict]:
        """Every success carries the PMIX_ALLOC_ID (IP-ALLOC-ID-ALWAYS), echoes
        the PMIX_ALLOC_REQ_ID it was given, and, for a reservation, the numeric
        PMIX_SESSION_ID a spawn may name it by."""
        info = [{"key": PMIX_ALLOC_ID, "value": alloc.alloc_id}]
        if req_id is not None:
            info.append({"key": PMIX_ALLOC_REQ_ID, "value": req_id})
        if not alloc.shared:
            info.append({"key": PMIX_SESSION_ID, "value": alloc.session_id})
        if granted:
            info.append({"key": PMIX_ALLOC_NODE_LIST, "value": ",".join(granted)})
        return info

    # ------------------------------------------------ ending an allocation --

    def _end_allocation(self, alloc: Allocation, return_to_scheduler: bool) -> None:
        """The allocation ends; its id no longer resolves.

        return_to_scheduler (a RELEASE): nodes the scheduler owns leave the
        DVM, their processes terminated first; nodes carved from the startup
        pool revert to the default session. Otherwise (the default
        disposition): every node stays in the DVM, unreserved, and no process
        is killed."""
        del self.allocations[alloc.alloc_id]
        self.by_session_id.pop(alloc.session_id, None)
        if alloc.req_key is not None and self.by_req_id.get(alloc.req_key) == alloc.alloc_id:
            del self.by_req_id[alloc.req_key]
        for name in alloc.nodes:
            node = self.nodes[name]
            node.allocation = None
            node.available_to = DEFAULT_SESSION
            if return_to_scheduler and not node.startup:
                self._node_leaves(node)

    def _node_leaves(self, node: Node) -> None:
        for job in self.jobs.values():
            hit = False
            for proc in job.procs:
                if proc.running and proc.node == node.name:
                    proc.running = False
                    hit = True
            if hit and job.state == "RUNNING" and not any(p.running for p in job.procs):
                job.state = "KILLED"
        node.in_dvm = False
        node.in_use = 0

    def _owner_ended(self, nspace: str) -> None:
        """An owning namespace terminated: apply its reservations' disposition.
        Only PMIX_ALLOC_INHERIT_DEFAULT exists here: the reservation ends and
        its nodes stay in the DVM, in the default session. A co-owner (a job
        spawned into the reservation) ending changes nothing."""
        for alloc in [a for a in self.allocations.values() if a.owner == nspace]:
            log(f"{nspace} ended: {alloc.alloc_id} is unreserved (default disposition)")
            self._end_allocation(alloc, return_to_scheduler=False)
