"""Unit tests of the Slurm-mode verdicts (verdicts_slurm.py) and of the expectations written from
Slurm-mode runs (slurm_expectations.py, expectations/prrte-slurm.json). No Slurm needed. The
cited-line test reads the documents and the source given by the person running it:
  PMIX_SPEC_DIR=/path/to/spec PRRTE_SRC=/path/to/prrte python3 -m pytest -q harnesses/prrte/test_verdicts_slurm.py
(without them it skips, as test_expectations_from_runs.py does)."""
import copy
import json
import os
import re
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)


def read(path: str) -> str:
    with open(path) as f:
        return f.read()

import slurm_expectations  # noqa: E402
import verdicts_slurm as vs  # noqa: E402

EXPECT = os.path.join(ROOT, "expectations", "prrte-slurm.json")

# One observed cause per rule, as the reports write them (from the runs w2 and w3).
SAMPLES = [
    ({"id": "features/reservation/spawn-targeting.feature:1", "name": "x"},
     "job A: PMIx_Spawn(job C: 1 x C; PMIX_SPAWN_TARGET=allocation R): expected an accepted status (PMIX_SUCCESS, "
     "PMIX_OPERATION_SUCCEEDED or PMIX_OPERATION_IN_PROGRESS); observed PMIX_ERR_NO_PERMISSIONS (-23)", "divergence"),
    ({"id": "features/reservation/new-and-extend.feature:186", "name": "x"},
     "job A: PMIx_Spawn(job C: 1 x C; PMIX_SPAWN_TARGET=allocation R): expected job C launched: a later step of the "
     "scenario acts on it (When job \"C\" requests PMIX_ALLOC_EXTEND with:); observed the spawn was refused with "
     "PMIX_ERR_NO_PERMISSIONS (-23), so there is no job C", "divergence"),
    ({"id": "x:1", "name": "x"}, "job A: PMIx_Spawn(job C: 2 x C; PMIX_ALLOC_ID=allocation R1): expected an accepted "
     "status (PMIX_SUCCESS, PMIX_OPERATION_SUCCEEDED or PMIX_OPERATION_IN_PROGRESS); observed status -179", "interpretation"),
    ({"id": "x:1", "name": "x"}, "tool T: PMIx_Spawn(job C: 8 x C; no attributes): expected no process of any job on s1, "
     "s2; observed job C rank 6 on s1; job C rank 7 on s1", "divergence"),
    ({"id": "x:1", "name": "x"}, "job A: PMIx_Allocation_request(PMIX_ALLOC_EXTEND, PMIX_ALLOC_ID=allocation R, "
     "PMIX_ALLOC_NODE_LIST=\"s2\"): expected PMIX_ALLOC_ID \"396\" (allocation R); observed \"397\"", "divergence"),
    ({"id": "x:1", "name": "x"}, "job A: PMIx_Allocation_request(PMIX_ALLOC_EXTEND, PMIX_ALLOC_NODE_LIST=\"s2\"): "
     "expected PMIX_ERR_BAD_PARAM (-27); observed PMIX_SUCCESS (0)", "divergence"),
    ({"id": "x:1", "name": "x"}, "job A: PMIx_Allocation_request(PMIX_ALLOC_NEW, PMIX_ALLOC_NODE_LIST=\"s1\", "
     "PMIX_ALLOC_TARGET=job B): expected PMIX_ERR_NO_PERMISSIONS (-23); observed PMIX_SUCCESS (0)", "divergence"),
    ({"id": "x:1", "name": "x"}, "tool T: PMIx_Allocation_request(PMIX_ALLOC_NEW, PMIX_ALLOC_NODE_LIST=\"s1\", "
     "PMIX_ALLOC_TARGET=job B): expected the request refused with an error status (the specification names none); "
     "observed PMIX_SUCCESS (0)", "interpretation"),
    ({"id": "x:1", "name": "x"}, "job A: PMIx_Allocation_request(PMIX_ALLOC_NEW, PMIX_ALLOC_NODE_LIST=\"s2\", "
     "PMIX_ALLOC_INHERITANCE=9): expected PMIX_ERR_NOT_SUPPORTED (-47); observed PMIX_SUCCESS (0)", "interpretation"),
    ({"id": "x:1", "name": "x"}, "job A: PMIx_Allocation_request(PMIX_ALLOC_NEW, PMIX_ALLOC_NODE_LIST=\"s1\", "
     "PMIX_ALLOC_SHARE=true): expected node s1 in the DVM's default session; observed available to allocation R", "divergence"),
    ({"id": "x:1", "name": "x"}, "job A: PMIx_Allocation_request(PMIX_ALLOC_NEW, PMIX_ALLOC_NODE_LIST=\"s1\", "
     "PMIX_ALLOC_INHERITANCE=4): expected node s1 in the DVM's default session; observed available to allocation R", "divergence"),
    ({"id": "x:1", "name": "x"}, "job A: PMIx_Allocation_request(PMIX_ALLOC_RELEASE, PMIX_ALLOC_ID=allocation R): expected "
     "an accepted status (PMIX_SUCCESS, PMIX_OPERATION_SUCCEEDED or PMIX_OPERATION_IN_PROGRESS); observed status -64", "divergence"),
    ({"id": "x:1", "name": "x"}, "tool U: PMIx_Allocation_request(PMIX_ALLOC_RELEASE, PMIX_ALLOC_ID=allocation R): expected "
     "the request refused with an error status (the specification names none); observed PMIX_OPERATION_IN_PROGRESS (-156)",
     "divergence"),
    ({"id": "x:1", "name": "x"}, "job A: PMIx_Allocation_request(PMIX_ALLOC_NEW, PMIX_ALLOC_NODE_LIST=\"s1\", "
     "PMIX_ALLOC_REQ_ID=\"a-request-1\"): expected PMIX_ALLOC_REQ_ID \"a-request-1\" echoed; observed no PMIX_ALLOC_REQ_ID "
     "in the response", "divergence"),
    ({"id": "x:1", "name": "x"}, "job A rank 1: PMIx_Allocation_request(PMIX_ALLOC_NEW, PMIX_ALLOC_NODE_LIST=\"s1\"): "
     "expected exactly one completion event delivered to job A rank 1: PMIX_DVM_IS_READY; observed 0 delivered to it: no "
     "completion event", "divergence"),
    ({"id": "x:1", "name": "x"}, "tool T: PMIx_Allocation_request(PMIX_ALLOC_EXTEND, PMIX_ALLOC_ID=allocation R, "
     "PMIX_ALLOC_NODE_LIST=\"s2\", PMIX_ALLOC_REQ_ID=\"more\"): expected PMIX_ALLOC_ID=\"8\" (allocation R) in the "
     "PMIX_DVM_IS_READY (-195) payload; observed {PMIX_ALLOC_ID=\"9\"}", "divergence"),
    ({"id": "features/lifecycle/allocation-directives.feature:38", "name": "A required node the scheduler cannot grant"},
     "implementation fault during allocate: the implementation answered allocate (seq N) with an error (internal): the "
     "grow was not answered within 15 s: Slurm queued its expander job (5) and PRRTE answers a grow only once Slurm "
     "grants it", "interpretation"),
    ({"id": "features/lifecycle/ending-while-jobs-run.feature:1",
      "name": "Only the job on the departing node is terminated; the one on the node that stays runs on"},
     "implementation fault during allocate: the implementation answered allocate (seq N) with an error (internal): the "
     "grow was not answered within 15 s: Slurm queued its expander job (43) and PRRTE answers a grow only once Slurm "
     "grants it", "divergence"),
    ({"id": "x:1", "name": "A grow one of whose daemons cannot start fails as a whole"},
     "implementation fault during observe: the implementation answered observe (seq N) with an error (internal): the DVM "
     "is dead (prte exit 0) before observe", "divergence"),
    ({"id": "x:1", "name": "x"}, "implementation fault during spawn: the implementation answered spawn (seq N) with an "
     "error (internal): tool T: no answer to spawn within 20 s", "runtime-fault"),
    ({"id": "x:1", "name": "Submitting a job never makes the DVM grow, not even a job larger than the DVM"},
     "implementation fault during spawn: the implementation answered spawn (seq N) with an error (internal): tool T: no "
     "answer to spawn within 20 s", "divergence"),
]


class Rules(unittest.TestCase):
    def test_each_sample_cause_gets_its_class(self):
        for s, c, cls in SAMPLES:
            with self.subTest(c=c[:80]):
                self.assertEqual(vs.classify_slurm(s, c).cls, cls)

    def test_an_unknown_cause_is_unclassified(self):
        self.assertEqual(vs.classify_slurm({"id": "x:1", "name": "x"}, "something new").cls, "unclassified")

    def test_verdicts_are_well_formed(self):
        ips = set(re.findall(r"^### (IP-[A-Z0-9-]+)", read(os.path.join(ROOT, "features", "INTERPRETATIONS.md")), re.M))
        for s, c, _ in SAMPLES:
            v = vs.classify_slurm(s, c)
            if v.cls == "divergence":
                self.assertTrue(v.spec and v.source, c[:80])
            if v.cls == "interpretation":
                self.assertIn(v.interpretation, ips)

    def test_a_queued_grow_of_a_startup_node_is_told_from_the_feature_text(self):
        self.assertTrue(vs.names_dvm_node("features/lifecycle/ending-while-jobs-run.feature:1", name="Only the job on the "
                                          "departing node is terminated; the one on the node that stays runs on"))
        self.assertTrue(vs.names_dvm_node("features/lifecycle/unconditional-triggers.feature:302:322"))
        self.assertFalse(vs.names_dvm_node("features/lifecycle/allocation-directives.feature:38"))
        # an outline whose node is a placeholder: the row says which
        rows = [n + 1 for n, line in enumerate(read(os.path.join(ROOT, "features/lifecycle/ending-while-jobs-run.feature")).splitlines(True))
                if re.match(r"\s*\|.*\| (n3|s1)\s*\|", line)]
        outline = next(n + 1 for n, line in enumerate(read(os.path.join(ROOT, "features/lifecycle/ending-while-jobs-run.feature")).splitlines(True))
                       if "Scenario Outline: Ended by <how> while job C runs on <node>:" in line)
        on = {vs.names_dvm_node(f"features/lifecycle/ending-while-jobs-run.feature:{outline}:{r}") for r in rows if r > outline}
        self.assertEqual(on, {True, False})
        self.assertFalse(vs.names_dvm_node("features/reservation/new-and-extend.feature:397"))


def run(*scenarios, started="2026-11-28T06:00:00Z"):
    totals = {"scenarios": len(scenarios), "passed": 0, "failed": 0, "skipped": 0, "errored": 0}
    for s in scenarios:
        totals[s["outcome"]] += 1
    return {"run": {"startedAt": started}, "implementation": {"version": "v"}, "totals": totals,
            "scenarios": [dict(s) for s in scenarios]}


REFUSED = ("the implementation broke a clause:\n  clause:    X\n  operation: job A: PMIx_Spawn(job C: 1 x C; "
           "PMIX_SPAWN_TARGET=allocation R)\n  expected:  job C launched\n  observed:  the spawn was refused with "
           "PMIX_ERR_NO_PERMISSIONS (-23), so there is no job C")
RELEASE = ("the implementation broke a clause:\n  clause:    X\n  operation: job A: PMIx_Allocation_request(PMIX_ALLOC_RELEASE, "
           "PMIX_ALLOC_ID=allocation R)\n  expected:  an accepted status\n  observed:  status -64")


class Expectations(unittest.TestCase):
    def test_two_runs_rekeyed_by_name_varied_listed_with_both_and_the_fixed_suite_defect_set_aside(self):
        w2 = run({"id": "f.feature:10", "name": "moved", "outcome": "failed", "message": RELEASE},
                 {"id": "g.feature:5", "name": "defect", "outcome": "errored", "message": 'the scenario has no job "C"'},
                 {"id": "g.feature:9", "name": "varies", "outcome": "passed"})
        w2["scenarios"].append({"id": "h.feature:1", "name": "now tagged", "outcome": "failed", "message": RELEASE})
        w3 = run({"id": "h.feature:1", "name": "now tagged", "outcome": "skipped", "skip": {"reason": "r"}},
                 {"id": "f.feature:20", "name": "moved", "outcome": "failed", "message": RELEASE},
                 {"id": "g.feature:5", "name": "defect", "outcome": "failed", "message": REFUSED},
                 {"id": "g.feature:9", "name": "varies", "outcome": "failed", "message": RELEASE})
        doc, flaky, notes = slurm_expectations.build([w2, w3])
        by = {e["id"]: e for e in doc["expected"]}
        self.assertEqual(sorted(by), ["f.feature:20", "g.feature:5", "g.feature:9"])
        self.assertEqual(by["f.feature:20"]["outcome"], "failed")
        self.assertEqual(by["g.feature:5"]["outcome"], "failed")  # w2's error was the suite's, set aside
        self.assertEqual(by["g.feature:9"]["outcomes"], ["passed", "failed"])
        self.assertEqual(list(flaky), ["g.feature:9"])
        self.assertTrue(all(e["class"] == "divergence" for e in doc["expected"]))
        self.assertTrue(any("f.feature:10 -> f.feature:20" in n for n in notes))
        self.assertTrue(any("h.feature:1 failed (skipped in the last run: r)" in n for n in notes))

    def test_an_unclassified_entry_refuses_the_file(self):
        with self.assertRaises(SystemExit):
            slurm_expectations.build([run({"id": "f.feature:1", "name": "n", "outcome": "failed", "message": "new"})])

    def test_the_file_if_written_classes_every_entry(self):
        if not os.path.exists(EXPECT):
            self.skipTest("no expectations/prrte-slurm.json yet")
        doc = json.loads(read(EXPECT))
        self.assertTrue(doc["expected"])
        for e in doc["expected"]:
            self.assertIn(e.get("class"), {"divergence", "interpretation", "harness-limitation", "runtime-fault"}, e["id"])
            if e["class"] == "divergence":
                self.assertTrue(e["evidence"]["spec"] and e["evidence"]["source"], e["id"])


class CitedLines(unittest.TestCase):
    SPEC = os.environ.get("PMIX_SPEC_DIR", "")
    PRRTE = os.environ.get("PRRTE_SRC", "")

    def cited(self):
        import inspect
        text = inspect.getsource(vs)
        for k in ("SLURM", "MODULE", "EXTEND", "RELEASE", "ALLOC", "RECEIVE"):
            text = text.replace("{" + k + "}", getattr(vs, k))
        text = text.replace("{NR}", vs.NR).replace("{ED}", vs.ED).replace("{SLURM}", vs.SLURM)
        if os.path.exists(EXPECT):
            text += json.dumps(json.loads(read(EXPECT)))
        spec = set(re.findall(r"(upstream/[\w-]+\.rst):([\d,-]+\d)", text))
        src = set(re.findall(r"(src/[\w/.-]+\.c):([\d,-]+\d)", text))
        return spec, src

    @staticmethod
    def numbers(lines):
        return [int(k) for part in lines.split(",") for k in part.split("-")]

    def test_every_cited_line_exists(self):
        spec, src = self.cited()
        self.assertGreater(len(spec), 8)
        self.assertGreater(len(src), 15)
        if not self.SPEC or not os.path.isdir(self.SPEC):
            self.skipTest("cited specification lines not checked: set PMIX_SPEC_DIR to the spec documents' folder")
        for doc, lines in spec:
            n = len(read(os.path.join(self.SPEC, doc)).splitlines())
            self.assertTrue(all(1 <= k <= n for k in self.numbers(lines)), f"{doc}:{lines}")
        if not self.PRRTE or not os.path.isdir(self.PRRTE):
            self.skipTest("cited source lines not checked: set PRRTE_SRC to a prrte checkout at the tested commit")
        for path, lines in src:
            n = len(read(os.path.join(self.PRRTE, path)).splitlines())
            self.assertTrue(all(1 <= k <= n for k in self.numbers(lines)), f"{path}:{lines}")

    def test_the_cited_ras_slurm_lines_say_what_the_rules_say(self):
        """Not only in range: each key ras/slurm line holds the code the rules name."""
        if not self.PRRTE or not os.path.isdir(self.PRRTE):
            self.skipTest("set PRRTE_SRC to a prrte checkout at the tested commit")

        def line(path, n):
            return read(os.path.join(self.PRRTE, path)).splitlines()[n - 1]
        self.assertIn("PMIX_ALLOC_NEW is a synonym for PMIX_ALLOC_EXTEND", line(vs.MODULE, 309))
        self.assertIn("node->session is intentionally left NULL", line(vs.MODULE, 925))
        self.assertIn("PRTE_SESSION_FLAG_DYNAMIC", line(vs.MODULE, 910))
        self.assertIn("PMIX_ALLOC_ID, job_id", line(vs.EXTEND, 1613))
        self.assertIn("PMIX_RM_NAME", line(vs.EXTEND, 1614))
        self.assertIn("PRTE_ERR_OP_IN_PROGRESS", line(vs.EXTEND, 1995))
        self.assertIn("simply pends until the node is released", line(vs.EXTEND, 1190))
        self.assertIn("prte_ras_slurm_assign_new_session", line(vs.EXTEND, 1532))
        self.assertIn("release requests require elastic DVM mode", line(vs.RELEASE, 631))
        self.assertIn("PMIX_OPERATION_IN_PROGRESS == req->pstatus", line(vs.ALLOC, 764))
        self.assertIn("PRTE_SESSION_FLAG_RESERVED", line(vs.ALLOC, 1258))
        self.assertIn("prte_session_is_owned_by", line(vs.RECEIVE, 193))
        self.assertIn("PRTE_SESSION_FLAG_RESERVED", line(vs.RECEIVE, 673))
        self.assertIn("srun-failed", line("src/mca/plm/slurm/plm_slurm_module.c", 687))
        self.assertIn("prte.notify.donotloop", line("src/mca/plm/base/plm_base_launch_support.c", 3187))
        self.assertIn("prte.notify.donotloop", line("src/prted/pmix/pmix_server_notify.c", 418))


if __name__ == "__main__":
    unittest.main()
