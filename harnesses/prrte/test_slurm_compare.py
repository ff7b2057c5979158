"""Unit tests of slurm_compare.py --agree: several Slurm-mode runs side by side. No Slurm needed."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import slurm_compare  # noqa: E402


def run(*scenarios, started="2026-11-28T00:00:00Z"):
    out = [{"id": i, "name": n, "outcome": o, "message": m} for i, n, o, m in scenarios]
    totals = {"scenarios": len(out), **{k: sum(s["outcome"] == k for s in out)
                                        for k in ("passed", "failed", "skipped", "errored")}}
    return {"run": {"startedAt": started, "durationMs": 1000}, "totals": totals, "scenarios": out}


F = "features/x.feature"


class Agree(unittest.TestCase):
    def test_same_outcomes_under_moved_ids_agree(self):
        earlier = run((f"{F}:10", "a", "failed", "x"), (f"{F}:20", "b", "passed", ""))
        later = run((f"{F}:12", "a", "failed", "x"), (f"{F}:22", "b", "passed", ""), (f"{F}:30", "new", "passed", ""))
        r = slurm_compare.agree([earlier, later])
        self.assertEqual(r["varied"], [])
        self.assertEqual(r["moved"], 2)
        self.assertEqual(r["ran_in"], {2: 2, 1: 1})

    def test_an_outcome_that_differs_is_listed_with_every_runs_outcome(self):
        runs = [run((f"{F}:10", "a", "passed", "")), run((f"{F}:10", "a", "failed", "late event")),
                run((f"{F}:10", "a", "passed", ""))]
        r = slurm_compare.agree(runs)
        self.assertEqual([v["outcomes"] for v in r["varied"]], [["passed", "failed", "passed"]])
        self.assertEqual(r["varied"][0]["messages"][1], "late event")
        md = slurm_compare.agree_markdown(["r1", "r2", "r3"], runs, r)
        self.assertIn("run 2 failed", md)
        self.assertIn("1 scenario(s) whose outcome was not the same", md)

    def test_a_scenario_the_last_run_skips_is_not_compared(self):
        runs = [run((f"{F}:10", "a", "failed", "x")), run((f"{F}:10", "a", "skipped", ""))]
        r = slurm_compare.agree(runs)
        self.assertEqual(r["varied"], [])
        self.assertEqual(r["skipped_last"], 1)

    def test_the_runs_given_are_not_changed(self):
        earlier = run((f"{F}:10", "a", "failed", "x"))
        slurm_compare.agree([earlier, run((f"{F}:12", "a", "failed", "x"))])
        self.assertEqual(earlier["scenarios"][0]["id"], f"{F}:10")


REFUSED = ("job A: PMIx_Spawn(job C: 1 x C; PMIX_SPAWN_TARGET=allocation R): expected an accepted status (PMIX_SUCCESS, "
           "PMIX_OPERATION_SUCCEEDED or PMIX_OPERATION_IN_PROGRESS); observed PMIX_ERR_NO_PERMISSIONS (-23)")


class SameOutcomeOtherOperation(unittest.TestCase):
    def test_the_operation_is_what_precedes_expected(self):
        self.assertEqual(slurm_compare.failing_operation("PRRTE divergence: why. Observed: " + REFUSED),
                         "job A: PMIx_Spawn(job C: 1 x C; PMIX_SPAWN_TARGET=allocation R)")

    def test_a_failure_at_another_operation_is_listed_and_one_at_the_same_is_not(self):
        hosts = {"expected": [
            {"id": f"{F}:10", "outcome": "failed", "reason": "PRRTE divergence: x. Observed: job A: "
             "PMIx_Allocation_request(PMIX_ALLOC_RELEASE, PMIX_ALLOC_ID=allocation R): expected one event; observed 0"},
            {"id": f"{F}:20", "outcome": "failed", "reason": "PRRTE divergence: y. Observed: " + REFUSED}]}
        here = run((f"{F}:10", "a", "failed", REFUSED), (f"{F}:20", "b", "failed", REFUSED))
        for s in here["scenarios"]:
            s["failure"] = {"message": REFUSED}
        groups = slurm_compare.same_outcome_other_operation(here, hosts)
        rows = [r for v in groups.values() for r in v]
        self.assertEqual(len(rows), 1)
        self.assertTrue(rows[0].startswith(f"{F}:10 (failed): here at job A: PMIx_Spawn"), rows[0])
        self.assertIn("under ras/hosts at job A: PMIx_Allocation_request(PMIX_ALLOC_RELEASE", rows[0])


class CausesMarkdown(unittest.TestCase):
    def test_a_differing_verdict_and_a_same_verdict_at_another_operation_each_have_their_section(self):
        hosts = {"expected": [
            {"id": f"{F}:10", "outcome": "failed", "reason": "PRRTE divergence: x. Observed: job A: "
             "PMIx_Allocation_request(PMIX_ALLOC_RELEASE, PMIX_ALLOC_ID=allocation R): expected one event; observed 0"}]}
        here = run((f"{F}:10", "a", "failed", REFUSED), (f"{F}:20", "b", "failed", REFUSED), (f"{F}:30", "c", "passed", ""))
        for s in here["scenarios"]:
            if s["outcome"] == "failed":
                s["failure"] = {"message": REFUSED}
        md = slurm_compare.causes_markdown("r.json", here, "e.json", hosts)
        self.assertIn("**1 verdicts differ**", md)
        self.assertIn(f"- `{F}:20` (failed <- passed)", md)
        self.assertIn("**1 more end the same but fail at another operation**", md)
        self.assertIn(f"- {F}:10 (failed): here at job A: PMIx_Spawn", md)


if __name__ == "__main__":
    unittest.main()
