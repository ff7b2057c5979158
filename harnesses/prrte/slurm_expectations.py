#!/usr/bin/env python3
"""Write expectations/prrte-slurm.json from whole runs of the bridge's Slurm mode (issue 26):

  python3 harnesses/prrte/slurm_expectations.py OUT.json RUN1/conformance.json [RUN2/conformance.json ...] [--note "..."]

As expectations_from_runs.py writes expectations/prrte.json (a scenario is listed when it failed or
errored in any run; one that varied lists every outcome it took), with three differences:
  - the verdicts are verdicts_slurm.classify_slurm's (ras/slurm's causes and source lines), and the
    file is refused (exit 1, nothing written) while any entry is unclassified;
  - the runs may have been made with different scenario ids (a feature file edited between them):
    an id the last run does not have is moved to the last run's id of the scenario with the same
    name in the same feature file (never guessed: a name that is not unique there is an error);
  - an outcome that a suite defect fixed since caused (SUITE_FIXES: the cause, the commit that
    fixed it) is set aside, and the scenario judged by the runs made after the fix; so are the
    earlier runs' outcomes of a scenario the last run skipped (a tag of the suite moved since);
    the description says which.
"""
import os
import sys
from collections import Counter
from typing import Dict, List, Tuple

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import expectations_from_runs as efr  # noqa: E402
from verdicts import cause  # noqa: E402
from verdicts_slurm import classify_for  # noqa: E402

# (what the cause says, the commit that fixed the suite, what changed): an outcome with such a cause
# is the suite's, not the implementation's, and is set aside.
SUITE_FIXES: List[Tuple[str, str, str]] = [
    ("the scenario has no job", "df6e095",
     "a later step naming a job whose spawn was refused errored with 'the scenario has no job'; it now fails on the refusal"),
]


CLASSING = ("Each entry's `class`: divergence (ras/slurm or PRRTE breaks a sentence the specification itself states; "
            "evidence.spec names the document and lines, evidence.source the prrte 52d5e4bb lines that cause it), "
            "interpretation (the verdict rests on an interpretation point of features/INTERPRETATIONS.md: "
            "evidence.interpretation), harness-limitation, runtime-fault (the DVM died or a call never returned). The "
            "reason starts with the class's words, then why, then 'Observed: ' and the cause. The causes are traced in "
            "docs/prrte-slurm.md ('The live outcome').")


def rekey(run: dict, last: dict) -> List[str]:
    """Move the run's scenario ids that the last run does not have to the last run's id of the same (feature, name)."""
    ids = {s["id"] for s in last["scenarios"]}
    by_name: Dict[Tuple[str, str], List[str]] = {}
    for s in last["scenarios"]:
        by_name.setdefault((efr.feature_of(s["id"]), s["name"]), []).append(s["id"])
    moved, problems = [], []
    for s in run["scenarios"]:
        if s["id"] in ids:
            continue
        found = by_name.get((efr.feature_of(s["id"]), s["name"]), [])
        if len(found) != 1:
            problems.append(f"{s['id']} ({s['name']!r}): {len(found)} scenarios of that name in the last run")
            continue
        moved.append(f"{s['id']} -> {found[0]}")
        s["id"] = found[0]
    if problems:
        sys.exit("cannot match the runs' scenario ids:\n  " + "\n  ".join(problems))
    return moved


def set_aside_fixed(runs: List[dict]) -> List[str]:
    """Drop from each run the outcomes a since-fixed suite defect caused (see SUITE_FIXES)."""
    out = []
    for n, r in enumerate(runs):
        kept = []
        for s in r["scenarios"]:
            c = cause(dict(s)) if s["outcome"] in ("failed", "errored") else ""
            fix = next((f for f in SUITE_FIXES if f[0] in c), None)
            if fix:
                out.append(f"run {n + 1}: {s['id']} {s['outcome']} ({fix[0]!r}, fixed by {fix[1]})")
                continue
            kept.append(s)
        r["scenarios"] = kept
    return out


def skipped_last(runs: List[dict]) -> List[str]:
    """Drop from the earlier runs the scenarios the last run skipped: a capability the bridge does not declare, which
    only an edit of the suite (a tag moved) can have made them run before; nothing is expected of them now."""
    why = {s["id"]: (s.get("skip") or {}).get("reason", "") for s in runs[-1]["scenarios"] if s["outcome"] == "skipped"}
    out = []
    for n, r in enumerate(runs[:-1]):
        out += [f"run {n + 1}: {s['id']} {s['outcome']} (skipped in the last run: {why[s['id']]})"
                for s in r["scenarios"] if s["id"] in why and s["outcome"] != "skipped"]
        r["scenarios"] = [s for s in r["scenarios"] if s["id"] not in why]
    return out


def build(runs: List[dict], note: str = "") -> Tuple[dict, Dict[str, List[str]], List[str]]:
    last = runs[-1]
    moved = [m for r in runs[:-1] for m in rekey(r, last)]
    aside = set_aside_fixed(runs) + skipped_last(runs)
    # judged() classes with the module's classify: this mode's rules for the call, the ras/hosts rules again after
    # (left in place, every later user of expectations_from_runs in the process would class by the Slurm rules)
    ordinary, efr.classify = efr.classify, classify_for
    try:
        entries, flaky = efr.judged(runs, [], [], False)
    finally:
        efr.classify = ordinary
    order = {s["id"]: n for n, s in enumerate(last["scenarios"])}
    entries.sort(key=lambda e: order.get(e["id"], len(order)))
    unclassified = [e["id"] for e in entries if efr.class_of(e) == "unclassified"]
    if unclassified:
        sys.exit("unclassified (add a rule to verdicts_slurm.py): " + ", ".join(unclassified))
    totals = [r0["totals"] for r0 in runs]
    started = [r0["run"].get("startedAt", r0["run"].get("generatedAt", "")) for r0 in runs]
    classes = Counter(efr.class_of(e) for e in entries)
    desc = (f"FROM {len(runs)} WHOLE LIVE RUN(S) of the suite against PRRTE allocating through a real Slurm (ras/slurm), "
            f"through the bridge's Slurm mode (PRRTE_BRIDGE_RM=slurm, scripts/prrte-slurm-run.sh): "
            f"{last['implementation'].get('version')}. Runs started " + ", ".join(started) +
            f"; per run passed/failed/skipped/errored of {last['totals']['scenarios']}: " +
            "; ".join(f"{t['passed']}/{t['failed']}/{t['skipped']}/{t['errored']}" for t in totals) +
            f". {len(flaky)} scenario(s) varied between the runs and list every outcome they took. "
            f"{len(entries)} entries: " + ", ".join(f"{n} {k}" for k, n in sorted(classes.items(), key=lambda kv: -kv[1])) +
            ". Classed by harnesses/prrte/verdicts_slurm.py (classify_slurm; its rules cite ras/slurm's source lines at prrte "
            "52d5e4bb and the specification's lines) and written by harnesses/prrte/slurm_expectations.py. " +
            (f"Set aside: {len(aside)} outcome(s) of the earlier runs that the suite's own changes since account for "
             f"({'; '.join(aside)}). " if aside else "") +
            (f"Ids of earlier runs moved to the last run's by scenario name: {len(moved)}. " if moved else "") +
            (note + " " if note else "") + CLASSING)
    doc = {"$schema": "../schemas/reports/expectations.schema.json", "implementation": "prrte (Slurm mode: ras/slurm)",
           "description": desc, "expected": entries}
    return doc, flaky, moved + aside


def main(argv: List[str]) -> None:
    note, argv = efr.pop_note(argv)
    if len(argv) < 2:
        sys.exit(__doc__)
    out, runs = argv[0], [efr.load(p) for p in argv[1:]]
    doc, flaky, notes = build(runs, note)
    for n in notes:
        print(n, file=sys.stderr)
    efr.write(out, doc, len(flaky))


if __name__ == "__main__":
    main(sys.argv[1:])
