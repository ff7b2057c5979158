#!/usr/bin/env python3
"""Unit tests of picture.py: docs/prrte.md's conformance picture.
Run with the others: python3 harnesses/prrte/test_bridge.py"""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


class Picture(unittest.TestCase):
    """harnesses/prrte/picture.py: docs/prrte.md's conformance picture from an expectations file and the runs."""

    EXPECT = {"implementation": "prrte", "expected": [
        {"id": "features/a.feature:1", "scenario": "one", "outcome": "failed", "clause": "NR.x", "class": "divergence",
         "evidence": {"spec": "upstream/node-reservation-spec.rst:390-394", "source": ["src/x.c:10-12 (what it does)"]},
         "reason": "PRRTE divergence: the why. Observed: op: expected a; observed b"},
        {"id": "features/a.feature:2", "scenario": "two | pipe", "outcomes": ["passed", "failed"], "class": "interpretation",
         "evidence": {"interpretation": "IP-REQ-ID-SCOPE", "source": ["src/y.c:5"]},
         "reason": "interpretation (IP-REQ-ID-SCOPE): another why. Observed: op2"},
        {"id": "features/a.feature:3", "scenario": "three", "outcome": "errored", "reason": "bridge limitation: old words. Observed: op3"},
        {"id": "features/a.feature:4", "scenario": "four", "outcome": "errored", "reason": "unclassified: not analysed yet. Observed: op4"}]}
    RUNS = [{"implementation": {"version": "prrte 52d5e4bb"}, "run": {"startedAt": "2026-11-29T00:00:00Z", "durationMs": 745000},
             "totals": {"scenarios": 10, "passed": 5, "failed": 2, "skipped": 1, "errored": 2}}]

    def test_totals_classes_and_a_table_per_class(self):
        import picture
        part = picture.picture(self.EXPECT, self.RUNS * 2)
        self.assertTrue(part.startswith(picture.BEGIN) and part.rstrip().endswith(picture.END))
        self.assertIn("| 2 | 2026-11-29T00:00:00Z | 5 | 2 | 1 | 2 | 745 s |", part)
        self.assertIn("**1 divergence**, **1 interpretation**, **1 harness-limitation**, **1 unclassified**", part)
        self.assertIn("| `features/a.feature:1` one | failed | `NR.x` | upstream/node-reservation-spec.rst:390-394 | src/x.c:10-12 | the why |", part)
        self.assertIn("| `features/a.feature:2` two \\| pipe | passed/failed | — | IP-REQ-ID-SCOPE | src/y.c:5 | another why |", part)
        self.assertIn("### harness-limitation (1)", part)  # read from the reason's first words, as the reports do
        self.assertIn("| observed: op4 |", part)
        self.assertLess(part.index("### divergence"), part.index("### interpretation"))

    def test_only_the_part_between_the_markers_is_replaced(self):
        import picture
        doc = f"# Title\n\nkept above\n\n{picture.BEGIN}\nold picture\n{picture.END}\n\nkept below\n"
        new = picture.replace_between_markers(doc, picture.picture(self.EXPECT, self.RUNS))
        self.assertTrue(new.startswith("# Title\n\nkept above\n\n" + picture.BEGIN))
        self.assertTrue(new.endswith(picture.END + "\n\nkept below\n"))
        self.assertNotIn("old picture", new)
        self.assertEqual(picture.replace_between_markers(new, picture.picture(self.EXPECT, self.RUNS)), new)  # idempotent
        with self.assertRaises(ValueError):
            picture.replace_between_markers("no markers", "x")

    def test_the_document_has_one_pair_of_markers(self):
        import picture
        path = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "docs", "prrte.md")
        with open(path) as f:
            text = f.read()
        self.assertEqual((text.count(picture.BEGIN), text.count(picture.END)), (1, 1))
        self.assertLess(text.index(picture.BEGIN), text.index(picture.END))


if __name__ == "__main__":
    unittest.main()
