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


if __name__ == "__main__":
    unittest.main()
