"""What an observed cause means when PRRTE allocates through a real Slurm (ras/slurm; issue 26).

classify_slurm(scenario, cause) gives a Verdict (verdicts.py) for one non-pass of a run of the
bridge's Slurm mode (PRRTE_BRIDGE_RM=slurm, scripts/prrte-slurm-run.sh). The ras/hosts rules
(verdicts.classify) are not reused: most of the causes they name are on paths ras/slurm never
reaches (ras_base_prepare_grow, create_reservation, the teardown by id), so their source lines
would be wrong here. Every rule below was traced in docs/prrte-slurm.md ("The live outcome") and
its lines read at prrte 52d5e4bb (the commit the Slurm-enabled PRRTE was built from, ras/slurm
included) and in the specification; test_verdicts_slurm.py checks that every cited line exists.

The causes, in one sentence each (the rules say more):
  - ras/slurm's grant is a session with no owner (no owner set, no owner uid): every
    PMIX_SPAWN_TARGET naming it is refused with -23, whoever asks;
  - that session is not a reservation: its nodes keep node->session NULL, so they stay in the
    default pool (untargeted jobs land there) and a job that names the session by the older
    PMIX_ALLOC_ID / PMIX_ALLOC_REQ_ID fails to map (-179);
  - ras/slurm reads only PMIX_ALLOC_NUM_NODES, PMIX_ALLOC_NODE_LIST and PMIX_ALLOC_REQ_ID, and
    NEW is EXTEND: every grow is a new Slurm job with a new id, PMIX_ALLOC_ID / TARGET / SHARE /
    INHERITANCE are ignored, and none of the base checks that refuse an EXTEND runs;
  - a release outside elastic mode is refused (-64);
  - a grow Slurm cannot grant at once (a node another job holds, a count larger than the pool,
    a node the DVM itself holds) is answered only when Slurm grants it.
"""
import os
import re
from typing import Optional

from verdicts import ED, NR, PARKED_NEVER_LAUNCHED, PARKED_NEVER_LAUNCHED_WHY, UNCLASSIFIED, Verdict, divergence, fault, harness, interpretation  # noqa: F401

# prrte 52d5e4bb, as every source line below (the Slurm-enabled install is built from it).
SLURM = "src/mca/ras/slurm"
MODULE = f"{SLURM}/ras_slurm_module.c"
EXTEND = f"{SLURM}/ras_slurm_modify_extend.c"
RELEASE = f"{SLURM}/ras_slurm_modify_release.c"
ALLOC = "src/mca/ras/base/ras_base_allocate.c"
RECEIVE = "src/mca/plm/base/plm_base_receive.c"

NO_OWNER = (f"{MODULE}:842-940 (prte_ras_slurm_assign_new_session: the grant's session gets an id, nodes and the DYNAMIC "
            "flag, never an owner or an owner uid)",
            f"{EXTEND}:1531-1550 (a grow's grant: a new session, and only the requester recorded, for the campaign)",
            "src/runtime/prte_globals.c:1159-1208 (prte_session_is_owned_by: no owners and PRTE_INVALID_UID owner_uid -> "
            "false for everyone but the scheduler)",
            f"{RECEIVE}:191-196 (resolve_spawn_targets refuses a target the requester does not own with PRTE_ERR_PERM)",
            f"{ALLOC}:1010-1013 (the owner set is seeded only by create_reservation, which a ras/slurm grow never reaches)")
NOT_RESERVED = (f"{MODULE}:924-928 (the grant's nodes keep node->session NULL: 'they remain in the general pool ... it is "
                "not a reservation')",
                "src/mca/rmaps/base/rmaps_base_support_fns.c:104-110 (a node with no session belongs to the default "
                "session for mapping)")
READS_ONLY = (f"{MODULE}:309-318 (PMIX_ALLOC_NEW is a synonym for PMIX_ALLOC_EXTEND: every grow is a second, disjoint "
              "Slurm job)",
              f"{EXTEND}:1784-1829 (the only keys read: PMIX_ALLOC_NUM_NODES, PMIX_ALLOC_NODE_LIST, PMIX_ALLOC_REQ_ID)")
BASE_SKIPPED = (f"{EXTEND}:1993-1995 (serve_extend_req returns PRTE_ERR_OP_IN_PROGRESS)",
                f"{ALLOC}:763-767 (a module that is handling the request: the base returns, so ras_base_prepare_grow's "
                "checks (:1345-1446, called at :1566) never run)")
QUEUED = (f"{EXTEND}:1186-1190 ('A node the DVM already holds ... such a request simply pends until the node is released')",
          f"{EXTEND}:1941-1943 (salloc holds the handshake until the job leaves PENDING: the grow is answered at the grant)")

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def scenario_text(scenario_id: str, root: str = ROOT, name: str = "") -> str:
    """The steps of the scenario (or outline) a report id names, read from its feature file; when the id's line is
    no longer a scenario's (the file was edited since the run), the scenario of that name; '' if neither is found."""
    parts = scenario_id.split(":")
    try:
        with open(os.path.join(root, parts[0])) as f:
            lines = f.read().splitlines()
        start = int(parts[1]) - 1
    except (OSError, ValueError, IndexError):
        return ""
    if not (0 <= start < len(lines) and re.match(r"\s*Scenario( Outline)?:", lines[start])):
        start = next((n for n, line in enumerate(lines) if name and line.strip() == f"Scenario: {name}"), -1)
        if start < 0:
            return ""
    out = []
    for n, line in enumerate(lines[start:], start):
        if n > start and re.match(r"\s*(Scenario|Rule:|Feature:|@|Examples:)", line):
            break
        out.append(line)
    text = "\n".join(out)
    # An outline's row (the id's third part): its values in place of the placeholders, from the Examples header above it.
    row = int(parts[2]) - 1 if len(parts) > 2 and parts[2].isdigit() else -1
    if 0 <= row < len(lines) and lines[row].strip().startswith("|"):
        header = next((lines[k] for k in range(row - 1, start, -1)
                       if lines[k].strip().startswith("|") and lines[k - 1].strip().startswith("Examples")), "")
        cells = lambda line: [c.strip() for c in line.strip().strip("|").split("|")]  # noqa: E731
        for key, value in zip(cells(header), cells(lines[row])):
            text = text.replace(f"<{key}>", value)
    return text


def names_dvm_node(scenario_id: str, root: str = ROOT, name: str = "") -> bool:
    """Whether the scenario asks for a node the DVM already holds (a startup node n<k>) in an allocation."""
    text = scenario_text(scenario_id, root, name)
    return bool(re.search(r'allocation "\w+" of nodes? "[^"]*\bn\d', text) or
                re.search(r'PMIX_ALLOC_NODE_LIST\s*\|\s*"[^"]*\bn\d', text) or
                re.search(r"DVM node", text))


def classify_slurm(s: dict, c: str, root: str = ROOT) -> Verdict:
    """The verdict for one scenario of a Slurm-mode run (s: its report entry, "id" and "name") from its observed cause c."""
    name = s.get("name", "") or s.get("scenario", "")
    sid = s.get("id", "")
    spawn = "PMIx_Spawn(" in c
    grow = bool(re.search(r"PMIX_ALLOC_(NEW|EXTEND)\b", c))
    if "Slurm queued its expander job" in c:
        if names_dvm_node(sid, root, name):
            return divergence("the allocation names a node the DVM already holds (a startup node): ras/slurm asks Slurm for "
                              "a new job on it, which pends for as long as the DVM's own job holds the node, so the "
                              "reservation is never made (the bridge cancelled it after 15 s); the specification carves "
                              "reservations from the startup pool too, and a request that adds no daemon is complete at "
                              "acceptance", f"{NR}:390-394", *QUEUED)
        return interpretation("IP-QUEUED-REQUESTS", "Slurm queues a grow it cannot grant now (a node another allocation "
                              "holds, more nodes than are free) and ras/slurm answers it only when Slurm grants it; the "
                              "suite reads a queued request as answered PMIX_OPERATION_IN_PROGRESS at once, so the bridge "
                              "cancelled it after 15 s and the scenario errored. The node was not taken", *QUEUED)
    if "the DVM is dead" in c and re.search(r"cannot start", name):
        return divergence("a grow one of whose daemons cannot start ends the whole DVM: plm/slurm takes the grow's srun "
                          "exiting non-zero as a failed daemon launch and terminates the DVM, where the specification fails "
                          "the grow alone and rolls it back", f"{ED}:203-209",
                          "src/mca/plm/slurm/plm_slurm_module.c:683-690 (srun-failed: PRTE_JOB_STATE_DAEMONS_TERMINATED)",
                          "src/mca/plm/slurm/plm_slurm_module.c:155-185 (srun_exit_expected excuses only the srun of a "
                          "session no longer held)")
    if "the DVM is dead" in c:
        return fault("the DVM died during the scenario (prte's own message is in the cause)")
    if "no answer to spawn" in c and "never makes the DVM grow" in name:
        # Not Slurm's: under ras/slurm the grown node stays in the default pool (item 3), so job D maps onto it and
        # meets the parked-job fault; under ras/hosts D cannot map (s1 is reserved) and is refused at once.
        return divergence(PARKED_NEVER_LAUNCHED_WHY + " (here job D, 6 processes, no target, maps onto n1, n2 and the grown "
                          "s1, which ras/slurm leaves in the default pool; under ras/hosts it cannot map and is refused)",
                          f"{ED}:199-201,517-520", *PARKED_NEVER_LAUNCHED)
    if re.search(r"no answer to \w+ within", c):
        return fault("a PMIx call made to the live DVM never returned (seen under load; cause not established)")
    # 1. The grant has no owner: spawns that target it are refused, whoever asks.
    if spawn and "PMIX_SPAWN_TARGET=" in c and re.search(r"(observed|refused with) PMIX_ERR_NO_PERMISSIONS \(-23\)", c) and (
            "accepted" in c or "expected PMIX_ERR_NOT_FOUND" in c or "refused with PMIX_ERR_NO_PERMISSIONS" in c):
        return divergence("a spawn that names a grown allocation in PMIX_SPAWN_TARGET is refused with "
                          "PMIX_ERR_NO_PERMISSIONS whoever asks, the requester that got the allocation included: ras/slurm's "
                          "grant is a session with no owner set and no owner uid, so the ownership check fails for every "
                          "namespace (a target list is refused at its first such entry, before an unknown one is found)",
                          f"{NR}:72-75,257-266,282-285", *NO_OWNER)
    # 2. Not a reservation: the legacy attributes find the session and map onto nothing; untargeted jobs land there.
    if spawn and re.search(r"PMIX_ALLOC_(ID|REQ_ID)=", c) and "PMIX_SPAWN_TARGET=" not in c and "status -179" in c:
        return interpretation("IP-LEGACY-SESSION-ATTRIBUTES", "a spawn naming the grown allocation by PMIX_ALLOC_ID or "
                              "PMIX_ALLOC_REQ_ID fails to map (-179), owner or not: the session is found, the job is given "
                              "it, and the mapper keeps only nodes of that session, which ras/slurm never assigns (the nodes "
                              "stay in the default pool); no ownership check runs either, the session not being flagged "
                              "reserved. The suite reads the legacy attributes as a one-element PMIX_SPAWN_TARGET",
                              f"{RECEIVE}:602-611 (PMIX_ALLOC_ID names the job's session)",
                              f"{RECEIVE}:671-677 (the legacy ownership check runs only for a PRTE_SESSION_FLAG_RESERVED session)",
                              *NOT_RESERVED, "src/mca/rmaps/base/rmaps_base_support_fns.c:238-244 (nodes outside the "
                              "job's targeted sessions are skipped)")
    if spawn and re.search(r"expected no process of (any job|job \w+) on s\d", c) and re.search(r"observed (job \w+ )?rank \d+ on s\d", c):
        return divergence("a job that targets no reservation lands on a grown node: ras/slurm's grant leaves its nodes in "
                          "the default pool, so they are never withheld from untargeted jobs", f"{NR}:72-75,249-252",
                          *NOT_RESERVED)
    # 3. ras/slurm reads three keys, and NEW is EXTEND.
    if grow and "PMIX_ALLOC_REQ_ID" in c and "echoed; observed no PMIX_ALLOC_REQ_ID in the response" in c:
        return divergence("the grow's answer does not echo the PMIX_ALLOC_REQ_ID the request supplied: it carries "
                          "PMIX_ALLOC_ID and PMIX_RM_NAME only", f"{NR}:227-230",
                          f"{EXTEND}:1613-1616 (the answer: PMIX_ALLOC_ID and PMIX_RM_NAME, nothing else)")
    if "PMIX_ALLOC_EXTEND" in c and (re.search(r'expected PMIX_ALLOC_ID "?[^;]*\(allocation \w+\)[^;]*; observed', c)
                                     or re.search(r"expected node s\d available only to allocation \w+; observed available to \"", c)):
        return divergence("an EXTEND does not extend: ras/slurm ignores PMIX_ALLOC_ID (and what a PMIX_ALLOC_REQ_ID names), "
                          "asks Slurm for a new job and answers its new id; the node goes to that new allocation (and a "
                          "completion event carries the new id)", f"{NR}:218-222", *READS_ONLY,
                          f"{EXTEND}:1531-1534 (every grant is a session of its own)")
    if "PMIX_ALLOC_EXTEND" in c and re.search(r"expected PMIX_ERR_(BAD_PARAM|NOT_FOUND|NO_PERMISSIONS)", c) and \
            re.search(r"observed PMIX_(SUCCESS|OPERATION_IN_PROGRESS)", c):
        return divergence("an EXTEND the specification refuses (naming no reservation, an unknown one, or one the requester "
                          "does not own) is accepted and grows the DVM: ras/slurm names no reservation at all, and the "
                          "base checks that refuse these are skipped for a module that answers asynchronously",
                          f"{NR}:218-222,301-307", *READS_ONLY, *BASE_SKIPPED)
    if grow and "PMIX_ALLOC_TARGET=" in c and c.startswith("job") and "expected PMIX_ERR_NO_PERMISSIONS" in c and \
            "observed PMIX_SUCCESS" in c:
        return divergence("an application's request carrying PMIX_ALLOC_TARGET is accepted: ras/slurm never reads the key, "
                          "and the base check that refuses it is skipped", f"{NR}:92-96,207-210,299-300",
                          *READS_ONLY, *BASE_SKIPPED)
    if grow and "PMIX_ALLOC_TARGET=" in c and "expected the request refused" in c and "observed PMIX_SUCCESS" in c:
        ip = "IP-TARGET-INVALID" if "invalid namespace" in c else "IP-TARGET-UNKNOWN"
        return interpretation(ip, "a tool's PMIX_ALLOC_TARGET naming no live namespace (or the invalid one) is accepted: "
                              "ras/slurm never reads the key; the specification's error table does not cover it", *READS_ONLY)
    if grow and "PMIX_ALLOC_INHERITANCE=" in c and "expected PMIX_ERR_NOT_SUPPORTED" in c and "observed PMIX_SUCCESS" in c:
        return interpretation("IP-INHERITANCE-RANGE", "a PMIX_ALLOC_INHERITANCE value outside the four dispositions is "
                              "accepted: ras/slurm never reads the key", *READS_ONLY)
    # 4. Nodes never become unreserved / shared: SHARE and INHERITANCE are ignored, the session lasts until a release.
    stays = re.search(r"expected node s\d (in the DVM's default session|not to be a member of the DVM); observed (it is, )?"
                      r"available to allocation \w+", c)
    if stays and "PMIX_ALLOC_SHARE=true" in c and "PMIX_ALLOC_NEW" in c and "default session" in stays.group(1):
        return divergence("a PMIX_ALLOC_SHARE=true grow is not shared: ras/slurm ignores the key, so the nodes form a session "
                          "of their own, which PRRTE lists under the grant's id, never as the default session's (for mapping "
                          "they are in the default pool, as every grant's are)", f"{NR}:100-106,195-198,203-206",
                          *READS_ONLY, f"{EXTEND}:1531-1534 (every grant is a session of its own)")
    if stays or ("PMIX_ALLOC_RELEASE" in c and re.search(r"expected node s\d in the DVM's default session; observed available to allocation", c)):
        return divergence("the grant outlives what should end or unreserve it (the owning namespace's end, a disposition, a "
                          "release): ras/slurm ignores PMIX_ALLOC_INHERITANCE (a non-default value is neither honoured nor "
                          "refused) and its session is not a reservation, so no disposition fires; it ends only when "
                          "released or at finalize, and PRRTE lists its nodes under its id until then",
                          f"{NR}:112-131,346-410", *READS_ONLY,
                          f"{ALLOC}:1258-1260 (dispositions skip every session not flagged PRTE_SESSION_FLAG_RESERVED)",
                          f"{MODULE}:909-911 (a grant's session is flagged DYNAMIC only)")
    # 5. Releases.
    if "PMIX_ALLOC_RELEASE" in c and "observed status -64" in c:
        return divergence("a release outside elastic mode is refused (-64, PRTE_ERR_NOT_AVAILABLE): ras/slurm serves "
                          "releases only in elastic DVM mode; the specification lets an owner release its reservation in "
                          "any DVM", f"{NR}:334-339",
                          f"{RELEASE}:630-634 ('release requests require elastic DVM mode')")
    if "PMIX_ALLOC_RELEASE" in c and "expected the request refused" in c and re.search(r"observed PMIX_(SUCCESS|OPERATION_IN_PROGRESS)", c):
        return divergence("a release by a namespace outside the owner set is accepted: ras/slurm's release checks no "
                          "ownership (the grant has no owner set to check)", f"{NR}:77-81,337-339",
                          f"{RELEASE}:622-640 (serve_release_req: the elastic-mode check, no ownership check)", *NO_OWNER[:1])
    # 6. Completion events: directed with the donotloop marker, they reach only the HNP's own clients.
    if re.search(r"expected exactly one completion event delivered to job \w+ rank \d+: PMIX_DVM_IS_READY; observed 0", c):
        return divergence("the completion event never reaches a requesting job process: it is sent with custom range and "
                          "the 'prte.notify.donotloop' marker, which keeps the HNP's server upcall from relaying it to the "
                          "other daemons, so only a client of the HNP itself can receive it; under Slurm the HNP runs on the "
                          "submit host, where no job process runs (under ras/hosts the same holds for a job process on any "
                          "node but the head node)", f"{ED}:370-380",
                          "src/mca/plm/base/plm_base_launch_support.c:3157-3160,3186-3187 (a directed event, marked "
                          "'prte.notify.donotloop')",
                          "src/prted/pmix/pmix_server_notify.c:416-421 (an event carrying the marker is not processed further)")
    if re.search(r"expected PMIX_ALLOC_ID=\"\w+\" \(allocation \w+\) in the PMIX_DVM_IS_READY", c) and "PMIX_ALLOC_EXTEND" in c:
        return divergence("the completion event of an EXTEND carries the new allocation's id, not the extended one's: "
                          "ras/slurm made a new allocation of the grow", f"{NR}:218-222", *READS_ONLY,
                          f"{EXTEND}:1531-1534 (every grant is a session of its own)")
    return UNCLASSIFIED


def classify_for(s: dict, c: str, pool_reading: bool = False, root: Optional[str] = None) -> Verdict:
    """classify_slurm with verdicts.classify's signature (expectations_from_runs.judged calls it so)."""
    return classify_slurm(s, c, root or ROOT)
