#!/usr/bin/env python3
"""Write expectations/prrte.json from live runs (reports/prrte*/conformance.json).

  python3 harnesses/prrte/expectations_from_runs.py OUT.json RUN1/conformance.json [RUN2/conformance.json ...] \
      [--rerun RERUN1/conformance.json ...] [--note "a sentence for the description"]

--rerun: runs of some feature files only, made after the main runs (the
bridge or those features changed since). For every feature file they ran,
the main runs' outcomes are set aside and the reruns' are used instead; the
description says which files and how many reruns.

  python3 harnesses/prrte/expectations_from_runs.py --update IN.json OUT.json RUN1/conformance.json [...] [--note "..."]
judges every scenario the runs ran by those runs alone and keeps the entries of
the scenarios they skipped (and drops those whose id the runs do not have):
after a change that affects part of the suite, without setting aside the
agreement of an earlier, larger set of runs.

  python3 harnesses/prrte/expectations_from_runs.py --reclassify IN.json OUT.json [--pool-reading | --daemon-reading]
re-applies `classify` to an existing file's entries (the observed cause is
what follows "Observed: " in each reason) and prints the class counts before
and after. Whether its runs saw membership through the node pool (the bridge
before 03ade59) is read from the description's "first started <time>"
unless a flag says.

A scenario is listed when it failed or errored in any run. Each entry
carries the observed cause (operation / expected / observed, or the fault
message) and the verdict of the rules in verdicts.py (`classify`), written into the
entry's `class` and `evidence` (schemas/reports/expectations.schema.json):
  divergence         - PRRTE breaks a sentence the specification itself
                       states: evidence.spec (document:lines) and
                       evidence.source (prrte 52d5e4bb / openpmix 494e9d9d
                       file:lines that cause it), always both;
  interpretation     - the verdict rests on an interpretation point of
                       features/INTERPRETATIONS.md: evidence.interpretation;
  harness-limitation - the bridge cannot drive or observe what the scenario
                       needs (or observed it wrongly);
  runtime-fault      - the DVM died or a call never returned (cause if known);
  suite-defect       - the scenario asks more than the specification does
                       (none at present);
  unclassified       - no rule for the cause: no class field, and the reason
                       starts with "unclassified:".
The reason stays a readable sentence: the class's words, why, then
"Observed: " and the cause.
A scenario whose outcome differed between the runs is listed with every
outcome it took ("outcomes", any of which matches) and a note; the others
with their one outcome.
"""
import json
import os
import re
import sys
from typing import Dict, List, Tuple

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from verdicts import (  # noqa: E402,F401  (re-exported: the tests and picture.py read them here)
    ALLOC, ED, NR, UNCLASSIFIED, Verdict, cause, classify, divergence, fault, harness, interpretation, pool_reading_at,
)


def load(path: str) -> dict:
    with open(path) as f:
        return json.load(f)


def feature_of(scenario_id: str) -> str:
    return scenario_id.split(":")[0]


CLASSING = ("Each entry is classed by harnesses/prrte/expectations_from_runs.py (classify) from its observed cause, "
            "and reviewed in docs/prrte.md: `class` divergence (PRRTE breaks a sentence the specification itself states; "
            "evidence.spec names the document and lines, evidence.source the prrte 52d5e4bb / openpmix 494e9d9d lines that "
            "cause it), interpretation (the verdict rests on an interpretation point: evidence.interpretation), "
            "harness-limitation (the bridge cannot drive or observe what the scenario needs), runtime-fault (PRRTE died or "
            "a call never returned), suite-defect; an entry with no rule for its cause has no class and its reason starts "
            "with 'unclassified:'. The reason starts with the class's words, then why, then 'Observed: ' and the cause.")


def reason_of(v: Verdict, c: str, varied: str = "") -> str:
    return f"{v.label()}: {v.why}. Observed: {c}{varied}"


def put_verdict(e: dict, v: Verdict) -> None:
    """Write the verdict's class and evidence into an entry (neither for an unclassified one)."""
    e.pop("class", None)
    e.pop("evidence", None)
    if v.cls != "unclassified":
        e["class"] = v.cls
        if v.evidence():
            e["evidence"] = v.evidence()


VARIED = re.compile(r"(\s\[varied[^\]]*\])$")


def reclassify(doc: dict, pool_reading: bool) -> dict:
    """Re-apply classify() to an expectations file's entries: the observed cause is what follows 'Observed: ' in
    each reason (a trailing '[varied ...]' note is kept). An entry whose reason has no 'Observed: ' is left as it is."""
    out = dict(doc)
    entries = []
    for e in doc.get("expected", []):
        e = dict(e)
        reason = e.get("reason", "")
        if "Observed: " in reason:
            observed = reason.split("Observed: ", 1)[1]
            m = VARIED.search(observed)
            varied = m.group(1) if m else ""
            c = observed[:m.start()] if m else observed
            v = classify({"name": e.get("scenario", "")}, c, pool_reading)
            e["reason"] = reason_of(v, c, varied)
            put_verdict(e, v)
        entries.append(e)
    out["expected"] = entries
    desc = out.get("description", "")
    desc = re.sub(r"Each reason starts with its classification \([^)]*\), generated by [^.]*\.", "", desc).strip()
    desc = re.sub(r"\s*Each entry is classed by harnesses/prrte/expectations_from_runs\.py.*?the cause\.", "", desc).strip()
    desc = re.sub(r"\s*Reclassified from the recorded causes[^.]*\.", "", desc).strip()
    out["description"] = (desc + " " if desc else "") + CLASSING + (
        " Reclassified from the recorded causes" + (" (observed while the bridge read membership from the node pool)" if pool_reading else "") + ".")
    return out


# As tools/lib/expectations.ts reads a class from a reason's first words when an entry has no `class`.
CLASS_FROM_REASON = [(re.compile(r"^[^:]{0,40}\bdivergen", re.I), "divergence"),
                     (re.compile(r"^[^:]{0,40}\binterpretation", re.I), "interpretation"),
                     (re.compile(r"^[^:]{0,40}\b(bridge|harness) limitation", re.I), "harness-limitation"),
                     (re.compile(r"^[^:]{0,40}\bfault\b", re.I), "runtime-fault"),
                     (re.compile(r"^[^:]{0,40}\bsuite defect", re.I), "suite-defect")]


def class_of(e: dict) -> str:
    if e.get("class"):
        return e["class"]
    head = e.get("reason", "").split(":")[0] + ":"
    return next((k for r, k in CLASS_FROM_REASON if r.search(head)), "unclassified")


def class_counts(doc: dict) -> Dict[str, int]:
    """Entries per class (an entry without `class` counted by its reason's first words, as the reports do)."""
    counts: Dict[str, int] = {}
    for e in doc.get("expected", []):
        k = class_of(e)
        counts[k] = counts.get(k, 0) + 1
    return counts


def main_reclassify(argv: List[str]) -> None:
    """--reclassify IN.json OUT.json [--pool-reading | --daemon-reading]"""
    flags = {a for a in argv if a.startswith("--")}
    args = [a for a in argv if not a.startswith("--")]
    if len(args) != 2:
        sys.exit("usage: expectations_from_runs.py --reclassify IN.json OUT.json [--pool-reading | --daemon-reading]")
    doc = load(args[0])
    if "--pool-reading" in flags or "--daemon-reading" in flags:
        pool = "--pool-reading" in flags
    else:  # from the first run's start in the description ("the first started <ISO time>")
        m = re.search(r"started (\d{4}-\d\d-\d\dT[\d:.]+Z)", doc.get("description", ""))
        pool = bool(m) and pool_reading_at(m.group(1))
    out = reclassify(doc, pool)
    with open(args[1], "w") as f:
        json.dump(out, f, indent=2)
        f.write("\n")
    before, after = class_counts(doc), class_counts(out)
    print(f"reclassified {len(out['expected'])} entries ({'node-pool' if pool else 'daemon'} membership reading): "
          f"before {json.dumps(before, sort_keys=True)}; after {json.dumps(after, sort_keys=True)}", file=sys.stderr)


def judged(runs: List[dict], reruns: List[dict], rerun_features: List[str], pool_reading: bool):
    """The entries the runs call for (every scenario that failed or errored in any of them, classed) and the
    scenarios whose outcome varied between them (id -> outcomes)."""
    first = runs[0]
    outcomes: Dict[str, List[str]] = {}
    entry_of: Dict[str, dict] = {}  # the scenario's entry in the first run where it did not pass
    for r, from_rerun in [(r, False) for r in runs] + [(r, True) for r in reruns]:
        for s in r["scenarios"]:
            if (feature_of(s["id"]) in rerun_features) != from_rerun:
                continue  # a rerun feature's outcomes come from the reruns only
            outcomes.setdefault(s["id"], []).append(s["outcome"])
            if s["outcome"] in ("failed", "errored") and s["id"] not in entry_of:
                entry_of[s["id"]] = s
    flaky = {i: o for i, o in outcomes.items() if len(set(o)) > 1}
    for i, o in sorted(flaky.items()):
        print(f"varied: {i}: {o}", file=sys.stderr)
    order = {s["id"]: n for n, s in enumerate(first["scenarios"])}
    entries = []
    for sid, s in sorted(entry_of.items(), key=lambda kv: order.get(kv[0], len(order))):
        c = cause(s)
        v = classify(s, c, pool_reading)
        seen = outcomes[sid]
        e = {"id": sid, "scenario": s["name"]}
        if sid in flaky:
            # Known to vary: every outcome it took, any of which matches (expectations schema: outcomes).
            e["outcomes"] = sorted(set(seen) - {"skipped"}, key=["passed", "failed", "errored"].index)
            varied = f" [varied between the {len(seen)} runs: {', '.join(seen)}]"
        else:
            e["outcome"] = s["outcome"]
            varied = ""
        e["reason"] = reason_of(v, c, varied)
        put_verdict(e, v)
        clause = s.get("_clause")
        if clause and clause in (s.get("clauses") or []):  # only a clause the scenario itself cites
            e["clause"] = clause
        if len(e.get("outcomes", ["x", "y"])) < 2:  # varied only with skipped: a single outcome after all
            e["outcome"] = e.pop("outcomes")[0]
        entries.append(e)
    return entries, flaky



def pop_note(argv: List[str]) -> Tuple[str, List[str]]:
    """The --note sentence for the description (e.g. the suite's commits), and the arguments without it."""
    if "--note" not in argv:
        return "", argv
    i = argv.index("--note")
    return argv[i + 1], argv[:i] + argv[i + 2:]


def write(out: str, doc: dict, varied: int) -> None:
    """An expectations file as the repository keeps them (2-space JSON, a final newline), and a line saying so."""
    with open(out, "w") as f:
        json.dump(doc, f, indent=2)
        f.write("\n")
    print(f"{len(doc['expected'])} expected non-passes written to {out} ({varied} varied)", file=sys.stderr)


def main_update(argv: List[str]) -> None:
    """--update IN.json OUT.json RUN... [--note "..."]: the entries of every scenario the runs ran (not skipped in
    all of them) are replaced by what the runs call for (none when it passed in every one); the entries of
    scenarios they skipped, or of feature files they did not run, are kept; an entry of a feature file they ran
    whose id none of its scenarios has any more (renamed or moved) is dropped and named. Runs must cover whole
    feature files (a --name filter would drop the entries of the scenarios it left out). For runs of some of the suite, or after a change that affects some scenarios only,
    without setting aside the agreement of earlier, larger sets of runs."""
    note, argv = pop_note(argv)
    doc, out, runs = load(argv[0]), argv[1], [load(p) for p in argv[2:]]
    first = runs[0]
    entries, flaky = judged(runs, [], [], pool_reading_at(first["run"].get("startedAt", first["run"].get("generatedAt", ""))))
    present = {s["id"] for r in runs for s in r["scenarios"]}
    ran = {s["id"] for r in runs for s in r["scenarios"] if s["outcome"] != "skipped"}
    # Runs of some feature files say nothing of the others: an entry is stale only when its feature file was run
    # and has no scenario under its id any more (run tools/rekey-expectations.ts first, so moved ids are not lost).
    features_run = {feature_of(i) for i in present}
    kept, stale = [], []
    for e in doc["expected"]:
        if e["id"] not in present and feature_of(e["id"]) in features_run:
            stale.append(e["id"])
        elif e["id"] not in ran:
            kept.append(e)
    new_ids = {e["id"] for e in entries}
    old_ids = {e["id"] for e in doc["expected"]}
    order = {s["id"]: n for n, s in enumerate(first["scenarios"])}
    merged = sorted(kept + entries, key=lambda e: order.get(e["id"], len(order)))
    totals = [r["totals"] for r in runs]
    started = first["run"].get("startedAt", first["run"]["generatedAt"])
    whole = f"{len(features_run)} feature files" if len(features_run) > 5 else f"{', '.join(sorted(features_run))}"
    doc["description"] += (f" UPDATED from {len(runs)} live run(s) of {whole} (the first started {started}; per run "
                           f"passed/failed/skipped/errored of {first['totals']['scenarios']}: " +
                           "; ".join(f"{t['passed']}/{t['failed']}/{t['skipped']}/{t['errored']}" for t in totals) +
                           f"): every scenario they ran is judged by them alone ({len(new_ids - old_ids)} entries added, "
                           f"{len((old_ids & ran) - new_ids)} dropped because it passed in every one, {len(flaky)} varied); "
                           f"entries of scenarios they skipped are kept from before; {len(stale)} entries whose scenario "
                           "no longer exists under that id were dropped." + (f" {note}" if note else ""))
    doc["expected"] = merged
    write(out, doc, len(flaky))
    for sid in sorted(new_ids - old_ids):
        print(f"added: {sid}", file=sys.stderr)
    for sid in sorted((old_ids & ran) - new_ids):
        print(f"dropped (passed in every run): {sid}", file=sys.stderr)
    for sid in stale:
        print(f"dropped (no such scenario in the runs): {sid}", file=sys.stderr)


def main(argv: List[str]) -> None:
    if argv and argv[0] == "--reclassify":
        return main_reclassify(argv[1:])
    if argv and argv[0] == "--update":
        return main_update(argv[1:])
    note, argv = pop_note(argv)
    main_paths = argv[1:argv.index("--rerun")] if "--rerun" in argv else argv[1:]
    rerun_paths = argv[argv.index("--rerun") + 1:] if "--rerun" in argv else []
    out, runs, reruns = argv[0], [load(p) for p in main_paths], [load(p) for p in rerun_paths]
    first = runs[0]
    pool_reading = pool_reading_at(first["run"].get("startedAt", first["run"].get("generatedAt", "")))
    rerun_features = sorted({feature_of(s["id"]) for r in reruns for s in r["scenarios"]})
    entries, flaky = judged(runs, reruns, rerun_features, pool_reading)
    impl = first["implementation"]
    totals = [r["totals"] for r in runs]
    doc = {
        "$schema": "../schemas/reports/expectations.schema.json",
        "implementation": "prrte",
        "description": (f"FROM {len(runs)} LIVE RUN(S) (the first started {first['run'].get('startedAt', first['run']['generatedAt'])}) of the suite against "
                        f"PRRTE through harnesses/prrte/bridge.py: {impl.get('version')}. Per run (passed/failed/skipped/errored of "
                        f"{first['totals']['scenarios']}): " + "; ".join(f"{t['passed']}/{t['failed']}/{t['skipped']}/{t['errored']}" for t in totals) +
                        f". {len(flaky)} scenario(s) varied between the runs and list the outcomes they took. " +
                        (f"Rerun {len(reruns)} time(s) after the main runs, and judged by the reruns alone: "
                         f"{', '.join(rerun_features)} (started {reruns[0]['run'].get('startedAt', reruns[0]['run']['generatedAt'])}). "
                         if reruns else "") + (note + " " if note else "") +
                        CLASSING),
        "expected": entries,
    }
    write(out, doc, len(flaky))


if __name__ == "__main__":
    main(sys.argv[1:])
