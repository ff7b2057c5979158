"""What an observed cause means: the rules that class a live run's non-pass against PRRTE.

classify(scenario, cause) gives a Verdict: its class (divergence, interpretation,
harness-limitation, runtime-fault; unclassified when no rule matches), why, and the
evidence (the specification lines, the PRRTE/openpmix source lines at the tested
commits, the interpretation point). cause() reads the observed cause out of a
scenario's report. Used by expectations_from_runs.py, which writes the
expectations file from runs; the rules are here so that each can be read, with
its evidence, apart from the file handling.
"""
import re
from typing import NamedTuple, Optional, Tuple

NSPACE = re.compile(r"prte-n1-\d+@\d+(\.\d+)?")


def cause(s: dict) -> str:
    f = dict(s.get("failure") or {})
    for line in (s.get("message") or "").splitlines():  # the message carries the same fields
        m = re.match(r"\s*(operation|expected|observed):\s*(.*)", line)
        if m and not f.get(m.group(1)):
            f[m.group(1)] = m.group(2)
    clause = next((m.group(1) for m in re.finditer(r"clause:\s*(\S+)", s.get("message") or "")), None)
    if clause:
        s.setdefault("_clause", clause)
    if f.get("operation"):
        text = f"{f.get('operation')}: expected {f.get('expected')}; observed {f.get('observed')}"
    else:
        text = (s.get("message") or "").splitlines()[0] if s.get("message") else ""
    text = NSPACE.sub("<nspace>", text)
    text = re.sub(r"seq \d+", "seq N", text)
    return " ".join(text.split())[:400]


NR = "upstream/node-reservation-spec.rst"
ED = "upstream/elastic_dvm_spec.rst"
ALLOC = "src/mca/ras/base/ras_base_allocate.c"  # prrte 52d5e4bb, as every source line below

# Why a directed event reaches only the HNP's own clients (prrte 52d5e4bb).
COMPLETION_LOCAL = ("src/mca/plm/base/plm_base_launch_support.c:3158-3169,3187,3198-3199 (prte_plm_base_dvm_mod_notify: a "
                    "custom-range event to the requester, marked 'prte.notify.donotloop' because 'the requester is a tool "
                    "local to this HNP', raised on the HNP's own server)",)
WARN_RELAY_LOCAL = ("src/prted/pmix/pmix_server.c:716-722,740,747-748 (the timeout-warning relay: the same marker, 'the "
                    "requestor is a tool local to this HNP')",)
NOTIFY_NOT_FORWARDED = ("src/prted/pmix/pmix_server_notify.c:416-421 (an event carrying the marker is not processed: the "
                        "upcall returns before it thread-shifts to _notify_event, whose prte_grpcomm_xcast at :382 is what "
                        "carries an event to the other daemons' clients)",)
# Why a job parked at the map-eligible boundary during a grow is never launched (traced with daemon-side logs, 2026-11-28:
# the grown daemon builds its child list on the launch's copy of the job, then finds the catch-up's copy, procless).
PARKED_NEVER_LAUNCHED = (
    "src/mca/state/dvm/state_dvm.c:299-309 (at the DVM's VM_READY after a grow, the catch-up of 'jobs already running' packs "
    "every job but the one passed in, which is the DVM's own daemon job: a job still parked at the fence goes in, unmapped)",
    "src/util/nidmap.c:683-687,698-707 (catchup_worthy excludes only that job and tools; the comment names the result: 'a "
    "catch-up entry for a job that has not been mapped yet would leave every daemon holding a procless version of it')",
    "src/util/nidmap.c:796-801 (each daemon records the procless copy)",
    "src/mca/odls/base/odls_base_default_fns.c:924 (the launch message's copy is then not recorded: prte_set_job_data_object "
    "returns PRTE_EXISTS, src/runtime/prte_globals.c:298-308, unchecked; the child list is built on that unrecorded copy)",
    "src/mca/odls/base/odls_base_default_fns.c:1784-1796 (the local launch looks the job up, gets the procless copy and stops at "
    "'no local procs': nothing is forked and nothing reported, so the spawn never returns)")
PARKED_NEVER_LAUNCHED_WHY = (
    "a job submitted while a grow is in progress is parked and released when the grow completes, mapped and sent its launch "
    "message, but no daemon starts its processes and the spawn never returns: the catch-up sent to the daemons when the "
    "grow's daemons are wired carries the parked, not yet mapped job, so every daemon already holds a procless copy of it and "
    "the launch's copy is dropped; the same spawn made after the grow launches at once")
# Source lines that recur, each checked by reading prrte at 52d5e4bb.
TEARDOWN_BY_ID = [f"{ALLOC}:1858 (a RELEASE carrying PMIX_ALLOC_ID takes the teardown path, before any node list is read)",
                  f"{ALLOC}:1816-1846 (ras_base_teardown_by_alloc_id: prte_ras_base_teardown_reservation(rsession, true))"]
TEARDOWN_SHRINKS = [f"{ALLOC}:1075-1097 (every member node's daemon is collected for the shrink; only the HNP is spared, startup nodes are not)",
                    f"{ALLOC}:1133-1150 (PRTE_DAEMON_SHRINK_CMD is broadcast to those daemons)",
                    "src/prted/prted_comm.c:689-735 (a target daemon of PRTE_DAEMON_SHRINK_CMD departs)",
                    "src/prted/prted_comm.c:172-173,213-236 (it exits at once, or in elastic mode after the 2 s self-exit timer; its processes with it)"]
UID_OWNER = "src/runtime/prte_globals.c:1189-1210 (prte_session_is_owned_by: a tool whose uid is the reservation's owner_uid is an owner)"
GENEALOGY = [f"{ALLOC}:1203-1239 (derived children are walked from the owner's job object through prte_job_t::children)",
             "src/mca/state/dvm/state_dvm.c:1122-1127 (cleanup_job unlinks an ended job, and with it its own children, from its parent's list)",
             f"{ALLOC}:1276-1293 (CHILD/CHILD_DEFAULT fire when an ended job is in that genealogy and nothing in it still runs)"]
POOL_QUERY = "src/prted/pmix/pmix_server_queries.c:753-754 (PMIX_QUERY_ALLOCATION without an id answers prte_node_pool, which nothing shrinks)"


class Verdict(NamedTuple):
    """One rule's verdict: the class (schema enum, or 'unclassified'), why, and where it can be checked.

    divergence: spec (document:lines) and source (file:line in prrte 52d5e4bb / openpmix 494e9d9d) always;
    interpretation: the IP id of features/INTERPRETATIONS.md always."""
    cls: str
    why: str
    spec: Optional[str] = None
    source: Tuple[str, ...] = ()
    interpretation: Optional[str] = None

    def evidence(self) -> dict:
        e: dict = {}
        if self.spec:
            e["spec"] = self.spec
        if self.source:
            e["source"] = list(self.source)
        if self.interpretation:
            e["interpretation"] = self.interpretation
        return e

    def label(self) -> str:
        """The reason's first words (tools/lib/expectations.ts reads a class from them when `class` is absent)."""
        if self.cls == "interpretation":
            return f"interpretation ({self.interpretation})"
        return {"divergence": "PRRTE divergence", "harness-limitation": "harness limitation", "runtime-fault": "PRRTE fault",
                "suite-defect": "suite defect"}.get(self.cls, "unclassified")


def divergence(why: str, spec: str, *source: str) -> Verdict:
    return Verdict("divergence", why, spec, tuple(source))


def interpretation(ip: str, why: str, *source: str) -> Verdict:
    return Verdict("interpretation", why, None, tuple(source), ip)


def harness(why: str, *source: str) -> Verdict:
    return Verdict("harness-limitation", why, None, tuple(source))


def fault(why: str, spec: Optional[str] = None, *source: str) -> Verdict:
    return Verdict("runtime-fault", why, spec, tuple(source))


UNCLASSIFIED = Verdict("unclassified", "not analysed yet; the observed cause is given")

# The bridge read DVM membership from PRRTE's node pool until commit 03ade59 (2026-11-28T01:01:56Z); since then
# from the DVM's own process table of its daemons. A run started before that read a released node as still there.
BRIDGE_READS_DAEMONS_SINCE = "2026-11-28T01:01:56Z"


def pool_reading_at(started_at: str) -> bool:
    """Whether a run started at this ISO time was observed through the node-pool reading."""
    return bool(started_at) and started_at < BRIDGE_READS_DAEMONS_SINCE


def classify(s: dict, c: str, pool_reading: bool = False) -> Verdict:
    """The verdict for one scenario (s: its name under "name") from its observed cause c.

    pool_reading: the run was made while the bridge read membership from the node pool (before 03ade59)."""
    name = s.get("name", "") or s.get("scenario", "")
    release = "PMIX_ALLOC_RELEASE" in c
    if "prrte-bridge-no-scheduler" in c:
        return harness("the scheduler acts in this scenario and no scheduler is attached (issue 9 item 2)")
    if "the DVM is dead" in c:
        return fault("the DVM died during the scenario (prte's own message is in the cause)")
    # A release by id tears the reservation down and shrinks every daemon of it (ras_base_allocate.c:1858).
    if release and "expected exactly one completion event" in c and "observed 0 delivered" in c:
        return divergence("a RELEASE by PMIX_ALLOC_ID tears the reservation down and broadcasts the shrink to its daemons itself, "
                          "without a shrink campaign, so no requester is recorded and no PMIX_DVM_IS_READY follows; only a "
                          "release by node list starts a campaign", f"{ED}:376-379,544-550",
                          *TEARDOWN_BY_ID, f"{ALLOC}:1133-1150 (the shrink is broadcast directly, no campaign)",
                          f"{ALLOC}:1638-1684 (a shrink campaign, which records the requester at :1675, is made only on the node-list path :1883-1891)",
                          "src/mca/plm/base/plm_base_launch_support.c:3144-3151 (the completion event goes to a campaign's requester)")
    if "never takes the node the request comes from" in name and "exited while answering alloc" in c:
        return interpretation("IP-PARTIAL-RELEASE", "a RELEASE of PMIX_ALLOC_NUM_NODES nodes that names its allocation tears the whole "
                              "reservation down, the requester's node with it, so the requester died while its request was answered "
                              "(a count release comes from the allocation RFC, not the specification)", *TEARDOWN_BY_ID)
    if release and "PMIX_ALLOC_ID" in c and ("PMIX_ALLOC_NODE_LIST" in c or "PMIX_ALLOC_NUM_NODES" in c) and \
            re.search(r"expected node \w+ (available only to allocation|in the DVM)[^;]*; observed not in the DVM", c):
        return interpretation("IP-PARTIAL-RELEASE", "a RELEASE carrying PMIX_ALLOC_ID ignores PMIX_ALLOC_NODE_LIST/PMIX_ALLOC_NUM_NODES "
                              "and tears the whole reservation down; only a release without an id is partial (ras_hosts.c); "
                              "the specification releases by allocation id only", *TEARDOWN_BY_ID)
    # The same teardown shrinks startup nodes lent to the reservation (observed since the bridge reads daemons).
    if re.search(r"expected node n\d+ in the DVM's default session; observed not in the DVM", c):
        return divergence("a startup node lent to a reservation leaves the DVM when the reservation is released or returned: "
                          "the teardown shrinks every member node's daemon, where the specification reverts startup nodes "
                          "to the default session", f"{NR}:390-394,421-425",
                          *TEARDOWN_BY_ID, *TEARDOWN_SHRINKS)
    killed = re.search(r"expected job \w+ still running[^;]*; observed (.*)", c)
    if killed and (re.search(r"rank \d+ on n\d+ \(not running\)", killed.group(1)) or
                   (release and not re.search(r" on s\d+", killed.group(1)))):
        return divergence("a job running on a startup node lent to a reservation is killed when the reservation is released: "
                          "the teardown shrinks the node's daemon and its processes end with it, where the specification "
                          "keeps the node in the DVM and kills no process", f"{NR}:390-394,421-425,432-434",
                          *TEARDOWN_BY_ID, *TEARDOWN_SHRINKS)
    if re.search(r"job process \S+ exited while answering spawn", c) and re.search(r"releas", name, re.I):
        return divergence("a job process on a startup node lent to a released reservation died while its spawn was in flight: "
                          "the release's teardown shrinks the startup node's daemon (the process dies with it ~0-2 s after "
                          "the answer), where the specification keeps the node and kills no process", f"{NR}:390-394,421-425,432-434",
                          *TEARDOWN_BY_ID, *TEARDOWN_SHRINKS)
    if re.search(r"job process \S+ exited while answering spawn", c):
        return fault("the job process making the spawn died while its request was in flight, after the DVM had changed; "
                     "cause not established")
    if "submitted into a growing allocation" in name and "no answer to spawn" in c:
        return divergence(PARKED_NEVER_LAUNCHED_WHY, f"{ED}:199-201,517-520", *PARKED_NEVER_LAUNCHED)
    if re.search(r"no answer to \w+ within", c):
        return fault("a PMIx call made to the live DVM never returned")
    if "never connected to the bridge" in c:
        return harness("a spawned process never reached the bridge (not launched, or launched where it could not run)")
    if "PMIX_ALLOC_NEW" in c and "PMIX_ALLOC_NUM_NODES" in c:
        return harness("without a scheduler ras/hosts grants only nodes named in PMIX_ALLOC_NODE_LIST: a count-only request "
                       "gets an id and no node", "src/mca/ras/hosts/ras_hosts.c:454-479", f"{ALLOC}:1572-1598 (only PMIX_ALLOC_NODE_LIST adds nodes)")
    if "status -179" in c and "PMIx_Spawn" in c and re.search(r"\d+ x \S+ on \S+", c):
        return harness("a bare host name in PMIX_HOST is one slot of that node to PRRTE (dash_host.c), so a multi-process "
                       "spawn 'on host X' failed to map (-179); the bridge sends 'X:*' since a582d8c")
    if "PMIX_ALLOC_SHARE=true" in c and "no PMIX_ALLOC_ID" in c:
        ip = "IP-TOOL-TARGET-SHARE" if "PMIX_ALLOC_TARGET" in c else "IP-SHARED-ALLOCATION-ID"
        return interpretation(ip, "D-4: a PMIX_ALLOC_SHARE=true allocation goes to the default session and no reservation object "
                              "is made, so the response has no PMIX_ALLOC_ID; the specification returns 'the destination's' id "
                              "(node-reservation-spec.rst:227-228) and the default session has none (:69-70), so that the "
                              "allocation has an id of its own is the suite's decision",
                              f"{ALLOC}:1411-1412 (SHARE=true: dest is the default session, no create_reservation)",
                              f"{ALLOC}:1512-1514 (no PMIX_ALLOC_ID is reported for the default session)")
    if "PMIX_ALLOC_SHARE=true" in c and "PMIX_ALLOC_NEW" in c and "not to be a member of the DVM; observed it is" in c and not pool_reading:
        return divergence("a shared allocation keeps neither its PMIX_ALLOC_TARGET owner nor its PMIX_ALLOC_INHERITANCE: no "
                          "reservation object is made, so no disposition fires when the owning namespace ends",
                          f"{NR}:121-125,174-177", f"{ALLOC}:1411-1412 (SHARE=true: dest is the default session, no create_reservation)",
                          f"{ALLOC}:1244-1305 (dispositions are applied only to reservations in prte_sessions)")
    if "PMIX_ALLOC_TARGET" in c and "PMIX_ALLOC_SHARE=true" in c and "PMIX_ERR_NO_PERMISSIONS" in c and c.startswith("job"):
        return divergence("D-2: PMIX_ALLOC_SHARE is checked before PMIX_ALLOC_TARGET, so an application's TARGET+SHARE=true is "
                          "accepted (the plan reads it so, IP-APP-TARGET-SHARE; the specification's table rejects it)",
                          f"{NR}:207-210,299-300", f"{ALLOC}:1411-1414 (SHARE=true is routed before the application-TARGET refusal)")
    if c.startswith("tool") and "PMIx_Spawn" in c and ("expected PMIX_ERR_NO_PERMISSIONS" in c or "not to own allocation" in c
                                                       or "not to own the reservation" in c) and "PMIX_SUCCESS" in c:
        return divergence("D-5: PRRTE counts any tool of the owner's uid as an owner, and every tool the bridge connects has that "
                          "uid; the specification's owner set is a set of namespaces, and a tool has its own",
                          f"{NR}:77-87,191-194,282-288,310-311", UID_OWNER,
                          "src/mca/plm/base/plm_base_receive.c:191-196,671-676 (the spawn ownership checks: PMIX_SPAWN_TARGET, and the legacy session attributes)")
    # Rules added after the bridge faults of 2026-11-25 were fixed (the causes below were hidden behind them).
    if "grandchild" in name and re.search(r"observed (it is, )?available to allocation", c):
        return divergence("a CHILD-flavoured reservation is still held after the owner, the child and the grandchild have all "
                          "ended: when the child ended it was unlinked from the owner's job with its own children, so the "
                          "grandchild's end is no longer found in the owner's genealogy and the disposition never fires",
                          f"{NR}:268-275,361-364,369-372", *GENEALOGY)
    if "orchestrator" in name and "available only to allocation" in c and ("observed available to the default session" in c
                                                                          or "observed not in the DVM" in c):
        return divergence("the orchestrator's CHILD-flavoured reservation ended while a derived child still ran: C1's end unlinked "
                          "its subtree (G1, and G2 spawned later) from the owner's job, so with C2 ended nothing in the walked "
                          "genealogy runs and the disposition fired while G2 ran", f"{NR}:268-275,361-364,369-372", *GENEALOGY)
    if c.startswith("tool") and release and "expected the request refused" in c and "observed PMIX_SUCCESS" in c:
        return divergence("D-5: a tool presenting the uid the reservation was granted to may release it, and every tool the "
                          "bridge connects has that uid; the specification lets owners (namespaces) and the scheduler release "
                          "and ends a reservation on no other event", f"{NR}:77-81,337-339,524-528", UID_OWNER,
                          f"{ALLOC}:1840 (the release's ownership check)")
    if "primary one" in name and re.search(r"expected every process of job \w+ on s\d; observed rank", c):
        return interpretation("IP-PRIMARY-TARGET", "a job spawned without a target by a parent whose targets began with the invalid "
                              "namespace runs in the default session: PRRTE makes the first entry, the default session included, "
                              "the parent's primary session, where the plan makes it the first valid allocation id",
                              "src/mca/plm/base/plm_base_receive.c:180-182,216-218,233-234 (the primary session is the first entry, an empty one being the default session)",
                              "src/mca/plm/base/plm_base_receive.c:629-638 (an untargeted spawn takes its parent's session)")
    if "not to be a member of the DVM; observed it is" in c and pool_reading:
        return harness("observed through the bridge's old membership reading (before 03ade59): it read the DVM from PRRTE's node "
                       "pool, which nothing shrinks, so a released or returned node looked still present; PRRTE's release by id "
                       "does shrink the reservation's daemons. Not PRRTE's: rerun to judge",
                       POOL_QUERY, *TEARDOWN_BY_ID, *TEARDOWN_SHRINKS)
    if "PMIX_SESSION_ID in the allocation response; observed none" in c:
        return interpretation("IP-READING-SESSION-ID-IN-RESPONSE", "the allocation response carries PMIX_ALLOC_ID but no "
                              "PMIX_SESSION_ID; the specification's response has none, PRRTE 7.2.2 (background) has it",
                              f"{ALLOC}:1519-1524 (the response holds PMIX_ALLOC_ID and PMIX_ALLOC_REQ_ID only)")
    if "not to own allocation" in c and "PMIX_ERR_NO_PERMISSIONS" in c and c.startswith("tool"):
        return divergence("D-5: any tool of the owner's uid counts as an owner, and every tool the bridge connects has the same uid",
                          f"{NR}:77-87,191-194,282-288,310-311", UID_OWNER)
    if c.startswith("tool") and "PMIX_ALLOC_EXTEND" in c and "expected PMIX_ERR_NO_PERMISSIONS" in c and "PMIX_SUCCESS" in c \
            and "PMIX_ALLOC_REQ_ID=" not in c and "PMIX_ALLOC_SHARE=true" not in c:
        return divergence("D-5: any tool of the owner's uid counts as an owner, so another tool's EXTEND is accepted; the "
                          "specification lets only the owning namespace extend", f"{NR}:77-87,218-222,301-302", UID_OWNER,
                          f"{ALLOC}:1425-1428 (the EXTEND's ownership check)")
    if "PMIX_ALLOC_RELEASE, no attributes" in c and "PMIX_ERR_NOT_FOUND" in c:
        return interpretation("IP-RELEASE-ERRORS", "D-9: a RELEASE naming neither an id nor a node list gets PMIX_ERR_NOT_FOUND; "
                              "the specification's error table has no RELEASE rows", f"{ALLOC}:1877-1880")
    # Rules added after reading the unclassified causes of the 2026-11-25 run.
    if "PMIX_ALLOC_REQ_ID=" in c and "PMIX_ALLOC_EXTEND" in c and ("observed PMIX_ERR_NO_PERMISSIONS" in c or "observed PMIX_SUCCESS" in c):
        return interpretation("IP-REQ-ID-SCOPE", "a PMIX_ALLOC_REQ_ID is looked up across requesters, not per requester: one "
                              "requester's id finds another's allocation, whose ownership D-5 then decides by uid",
                              "src/runtime/prte_globals.c:372-395 (prte_get_session_object_from_refid: the first session with that id, any requester's)",
                              f"{ALLOC}:1422-1428", UID_OWNER)
    if "PMIX_ALLOC_TARGET=" in c and "expected the request refused" in c and "observed PMIX_SUCCESS" in c:
        ip = "IP-TARGET-INVALID" if "PMIX_ALLOC_TARGET=the default session" in c else "IP-TARGET-UNKNOWN"
        return interpretation(ip, "PMIX_ALLOC_TARGET is not checked: a namespace that has ended, one that never existed, or the "
                              "default session's (the invalid namespace) is accepted as the target; the specification's error "
                              "table does not cover it", f"{ALLOC}:1367-1372 (the target is read, never validated)",
                              f"{ALLOC}:1409,1437 (it becomes the new reservation's owner)")
    if "PMIX_ALLOC_INHERITANCE=" in c and "expected PMIX_ERR_NOT_SUPPORTED" in c and "observed PMIX_SUCCESS" in c:
        return interpretation("IP-INHERITANCE-RANGE", "a PMIX_ALLOC_INHERITANCE value outside the four dispositions is accepted "
                              "(and acts as DEFAULT), not refused with PMIX_ERR_NOT_SUPPORTED",
                              f"{ALLOC}:1379-1385 (any uint8 is taken)", f"{ALLOC}:1294-1301 (an unknown value falls to DEFAULT)")
    if "PMIX_ALLOC_EXTEND" in c and "PMIX_ALLOC_SHARE=true" in c and "observed PMIX_SUCCESS" in c:
        return divergence("an EXTEND with PMIX_ALLOC_SHARE=true is served as a share before the EXTEND's checks: no id, an "
                          "unknown id and a non-owner are all accepted, where the specification refuses each",
                          f"{NR}:218-222,301-307", f"{ALLOC}:1411-1412 (SHARE=true is routed to the default session first)",
                          f"{ALLOC}:1415-1428 (the EXTEND checks, never reached)")
    if "PMIX_ALLOC_EXTEND" in c and "PMIX_ALLOC_SHARE=true" in c and "observed available to the default session" in c:
        return interpretation("IP-EXTEND-SHARE", "an EXTEND with PMIX_ALLOC_SHARE=true sends the new node to the default session, "
                              "not to the reservation it extends", f"{ALLOC}:1411-1412")
    if "PMIX_ALLOC_NEW" in c and "available only to allocation" in c and "observed available to" in c:
        return harness("a NEW naming a node already reserved to another reservation is granted: without a scheduler ras/hosts "
                       "grants whatever PMIX_ALLOC_NODE_LIST names and the node is moved to the new reservation; choosing "
                       "nodes is the scheduler's (node-reservation-spec.rst:49-52), and no scheduler is attached",
                       "src/mca/ras/hosts/ras_hosts.c:454-479", f"{ALLOC}:1044-1045 (the node's session is overwritten)")
    if re.search(r"did not end within [\d.]+ s of its release", c):
        return harness("PRRTE had not reported the released job's end (every process PMIx_Finalize'd and exited) within the "
                       "bridge's bounded wait (PRRTE_BRIDGE_CALL_S - 1 s); where the outcomes vary, other runs of the same "
                       "scenario got past it")
    if "no observable change after the rejected request" in c and '"daemon": "ready"' in c and '"daemon": "joining"' in c:
        return harness("between the observations before and after a rejected request, one node's daemon went from 'ready' to "
                       "'joining': an earlier release's daemon departure trails its answer (prted_comm.c, up to 2 s) and the "
                       "bridge observed before PRRTE had settled (it declares quietMs since 03ade59); an effect of the "
                       "earlier accepted request, not of the rejected one", *TEARDOWN_SHRINKS[2:])
    if "scheduler cannot grant" in name and "observed PMIX_SUCCESS" in c:
        return harness("without a scheduler ras/hosts grants any node named in PMIX_ALLOC_NODE_LIST, so there is no node it cannot grant",
                       "src/mca/ras/hosts/ras_hosts.c:454-479")
    # Rules added after the first runs with the settled checks and the daemons' membership reading (2026-11-28).
    if "to have ended, no process of it running; observed state RUNNING; " in c and all(
            p.strip().endswith("(not running)")
            for p in c.split("observed state RUNNING; ", 1)[1].split(" [observed", 1)[0].split("; ")):
        return fault("PRRTE keeps the job RUNNING in its record after every process of it has exited: the daemon running "
                     "them was shrunk away and took them down (their connections to the bridge closed), and PMIX_QUERY_PROC_TABLE "
                     "still lists them running; the process table is not updated for a daemon lost in a shrink. Seen for a "
                     "job on a scheduler node returned by a disposition", None,
                     "src/prted/prted_comm.c:689-735 (a shrink target departs with its local processes)")
    # An event raised on the HNP's own PMIx server with the donotloop marker reaches only the HNP's local clients.
    if "PMIX_ALLOC_TIMEOUT_WARNING" in c and re.search(r"expected exactly one PMIX_ALLOC_TIMEOUT_WARNING delivered to job [CD]; observed 0", c):
        return divergence("the relayed warning never reaches a requester that is a process of a job running on another node "
                          "than the HNP's (job C on a scheduler node, job D on the second startup node; job A rank 1, on the "
                          "HNP's node, gets it): the relay raises it on the HNP's own PMIx server marked "
                          "'prte.notify.donotloop', written for 'a tool local to this HNP', and the marker stops the server "
                          "upcall that would xcast it to the other daemons, so only the HNP's local clients can receive it",
                          f"{NR}:453-456", *WARN_RELAY_LOCAL, *NOTIFY_NOT_FORWARDED)
    if "reaches the requesting process wherever it runs" in name and re.search(r'\(job "[CD]", on', name) and (
            "0 such: no completion event" in c or "observed 0 delivered" in c):
        return divergence("the completion event never reaches a requester that is a process of a job running on another node "
                          "than the HNP's (job D on the second startup node, job C on a node the DVM gained; job A rank 1, on "
                          "the HNP's node, gets it): the shared helper raises it on the HNP's own PMIx server marked "
                          "'prte.notify.donotloop', written for 'a tool local to this HNP', and the marker stops the server "
                          "upcall that would xcast it to the other daemons, so only the HNP's local clients can receive it",
                          f"{ED}:370-379", *COMPLETION_LOCAL, *NOTIFY_NOT_FORWARDED)
    if "exited while answering alloc" in c and re.search(r"while job C runs on n\d", name):
        return divergence("job C, on a startup node lent to the reservation, released it and its process died while the "
                          "answer was on its way: the teardown shrinks the startup node's daemon and its processes end with "
                          "it, where the specification keeps the node in the DVM and kills no process",
                          f"{NR}:390-394,421-425,432-434", *TEARDOWN_BY_ID, *TEARDOWN_SHRINKS)
    if "exited while answering alloc" in c and ("which runs in it" in name or "release by C itself" in name):
        return fault("job C's process ended while its release of the reservation it runs in was answered, which the "
                     "scenario allows (the release's shrink takes its node: IP-RELEASER-ENDED-BY-RELEASE) only once C is "
                     "seen to have ended; PRRTE's record kept C RUNNING after its daemon took its process down (as in the "
                     "disposition case), so the fault stands", None,
                     "src/prted/prted_comm.c:689-735 (a shrink target departs with its local processes)")
    # Rules added with daemon-faults (issue 24 item 1): the completion-events scenarios that run against PRRTE since.
    if "adds no daemon" in name and "expected no PMIX_DVM_IS_READY or PMIX_ERR_DVM_MOD delivered" in c and "PMIX_DVM_IS_READY (-195)" in c:
        return divergence("an allocation that grows the DVM by no daemon (its node is already a DVM node) is answered with "
                          "PMIX_DVM_IS_READY at once: setup_vm finds no new daemon for a grow request and notifies its requester; "
                          "the specification: a request that initiates no actual size change is complete at acceptance and emits "
                          "no asynchronous event", f"{ED}:386-389",
                          "src/mca/plm/base/plm_base_launch_support.c:3051-3063 (a grow with map->num_new_daemons == 0 calls "
                          "prte_plm_base_dvm_mod_notify(..., true, PMIX_SUCCESS))")
    if "cannot start fails as a whole" in name and "PMIX_ERR_DVM_MOD: node s1 no longer a member of the DVM" in c and "node s1 is in the DVM" in c:
        return divergence("a grow whose second daemon (s2) fails to start is failed and its requester gets PMIX_ERR_DVM_MOD, but "
                          "the first (s1), launched and not yet reported in, is not rolled back: the rollback terminates a started "
                          "daemon only with the shrink command, whose send to a daemon that has not reported yet fails and is "
                          "ignored, and s1's report that follows is accepted, so it joins the DVM (seen with plm and errmgr verbose "
                          "5: 'Comm failure for daemon [..,2], not yet reported - ignoring it', then 'prted_report_launch from "
                          "daemon [..,2] on node s1')", f"{ED}:203-209",
                          "src/mca/plm/base/plm_base_launch_support.c:3426-3429,3455-3470 (grow_rollback: a started daemon is "
                          "terminated only by the shrink xcast)",
                          "src/mca/errmgr/dvm/errmgr_dvm.c:304-340 (a send failure to a daemon not yet reported is ignored)",
                          "src/mca/plm/base/plm_base_launch_support.c:1748-1755 (the rolled-back daemon's later report is "
                          "taken and its node marked up)")
    if "spanning a departing node" in name and "(frame check)" in c and re.search(r"stopped: rank \d+ on n\d", c):
        return divergence("outside elastic mode the HNP takes the departed daemon's lost connection for a node failure and "
                          "aborts the whole DVM, so the processes of the job on the nodes that stay end too; the elastic-mode "
                          "guard that ignores an already-departed daemon is not applied (seen with errmgr_base_verbose 5: "
                          "'Comm failure: daemon [..,3] - aborting'); a race with the scenario's last check, so it varies",
                          f"{NR}:426-434", "src/mca/errmgr/dvm/errmgr_dvm.c:369-371 (the already-departed guard, elastic mode only)",
                          "src/mca/errmgr/dvm/errmgr_dvm.c:433-440 (otherwise: 'Comm failure: daemon - aborting')")
    # Rules added with scheduler-requests (issue 24 item 2): the scenarios the scheduler's companion makes runnable.
    if "scheduler spawned into the reservation keeps it" in name and re.search(
            r"expected node s\d+ available only to allocation \w+; observed (not in the DVM|available to the default session)", c):
        return divergence("a job the scheduler spawned into a CHILD-flavoured reservation does not hold it open: once the owner "
                          "ended, the disposition fired while that job still ran, because PRRTE follows only the owner's spawn "
                          "subtree when the owner's job object is kept, never the jobs spawned into the reservation by others; "
                          "the specification counts children launched into the reservation via PMIX_SPAWN_TARGET as derived "
                          "children", f"{NR}:268-275,361-372",
                          f"{ALLOC}:1200-1222 (reservation_term_in_genealogy: roots at owner_job when present; the jobs spawned "
                          "into the reservation are walked only when there is none)",
                          f"{ALLOC}:1224-1243 (reservation_has_running_descendant: the same roots)")
    return UNCLASSIFIED
