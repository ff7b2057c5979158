#!/usr/bin/env python3
"""A Slurm-mode run beside the ras/hosts expectations (issue 26, item 5):
    python3 harnesses/prrte/slurm_compare.py [-v] REPORTS/conformance.json [expectations/prrte.json]
    python3 harnesses/prrte/slurm_compare.py --causes REPORTS/conformance.json [expectations/prrte.json] [--markdown OUT.md]
    python3 harnesses/prrte/slurm_compare.py --runs EARLIER/conformance.json LATER/conformance.json
    python3 harnesses/prrte/slurm_compare.py --agree RUN1/conformance.json ... RUNn/conformance.json [--markdown OUT.md]
--causes: the verdicts that differ from ras/hosts counted by their Slurm-mode cause
(verdicts_slurm.classify_slurm). --runs: two Slurm-mode runs beside each other, every scenario
whose outcome differs (the earlier run's ids moved to the later's by scenario name). --agree: several
Slurm-mode runs, oldest first, prepared as slurm_expectations.py prepares them (ids moved to the last
run's, outcomes a since-fixed suite defect caused set aside, scenarios the last run skips dropped): how
many scenarios ran in how many runs, and every one whose outcome was not the same in all runs that ran it.
For every scenario the Slurm-mode run did not skip: its outcome here and the
outcome ras/hosts is expected to have (the entry in the expectations, else
passed: the ras/hosts bridge declares every capability this mode declares, so
each scenario run here also runs there), and whether they differ. Then the
scenarios skipped here that run under ras/hosts, counted by the capability
this mode does not declare. Reads reports; runs nothing."""
import json
import re
import sys
from collections import Counter
from typing import Dict, List

sys.path.insert(0, __import__('os').path.dirname(__import__('os').path.abspath(__file__)))

# What the ordinary bridge declares (capabilities.py, PRRTE master's pmix_common.h).
HOSTS_CAPABILITIES = {"PMIX_ALLOC_TARGET", "PMIX_ALLOC_SHARE", "PMIX_ALLOC_INHERITANCE", "PMIX_ALLOC_WARN_TIMEOUT",
                      "PMIX_SPAWN_TARGET", "PMIX_DVM_MOD_EVENTS", "elastic", "daemon-faults", "scheduler-warning",
                      "scheduler-requests"}


def hosts_outcome(entry: dict) -> str:
    o = entry.get("outcome")
    return o if isinstance(o, str) else "/".join(entry.get("outcomes", [])) or str(o)


def compare(report: dict, expectations: dict) -> Dict[str, List]:
    expected = {e["id"]: e for e in expectations["expected"]}
    rows, skipped = [], Counter()
    for s in report["scenarios"]:
        if s["outcome"] == "skipped":
            caps = set(s.get("skip", {}).get("capabilities", []))
            if caps and caps <= HOSTS_CAPABILITIES:
                skipped[", ".join(sorted(caps))] += 1
            continue
        e = expected.get(s["id"])
        hosts = hosts_outcome(e) if e else "passed"
        rows.append({"id": s["id"], "name": s["name"], "slurm": s["outcome"], "hosts": hosts,
                     "differs": s["outcome"] not in hosts.split("/"),
                     "hosts_reason": (e or {}).get("reason", "")[:200],
                     "observed": json.dumps(s.get("failure") or s.get("error") or "")[:300]})
    return {"rows": rows, "skipped_here_run_there": sorted(skipped.items(), key=lambda kv: -kv[1])}


def compare_runs(earlier: dict, later: dict) -> List[Dict[str, str]]:
    """Every scenario whose outcome differs between two Slurm-mode runs (ids of the earlier moved to the later's)."""
    import copy
    from slurm_expectations import rekey
    earlier = copy.deepcopy(earlier)
    rekey(earlier, later)
    before = {s["id"]: s for s in earlier["scenarios"]}
    rows = []
    for s in later["scenarios"]:
        b = before.get(s["id"])
        if b and b["outcome"] != s["outcome"]:
            rows.append({"id": s["id"], "name": s["name"], "earlier": b["outcome"], "later": s["outcome"],
                         "earlier_message": (b.get("message") or "")[:300], "later_message": (s.get("message") or "")[:300]})
    return rows


def agree(runs: List[dict]) -> dict:
    """Several Slurm-mode runs (oldest first) side by side, prepared as for the expectations (see the module's text).
    Returns the notes of that preparation, how many runs ran each scenario (a count of counts), and the scenarios
    whose outcome was not the same in every run that ran them, with each run's outcome (None: not in that run)."""
    import copy
    from slurm_expectations import rekey, set_aside_fixed, skipped_last
    runs = copy.deepcopy(runs)
    moved = [m for r in runs[:-1] for m in rekey(r, runs[-1])]
    notes = set_aside_fixed(runs) + skipped_last(runs)
    per_run = [{s["id"]: s for s in r["scenarios"]} for r in runs]
    ids = list(dict.fromkeys(i for r in per_run for i in r))
    ran_in, varied, skipped = Counter(), [], 0
    for i in ids:
        seen = [r.get(i) for r in per_run]
        if seen[-1] is not None and seen[-1]["outcome"] == "skipped":
            skipped += 1  # the earlier runs' outcomes of it are dropped (skipped_last)
            continue
        outcomes = [s["outcome"] if s else None for s in seen]
        ran_in[sum(o is not None for o in outcomes)] += 1
        if len({o for o in outcomes if o is not None}) > 1:
            name = next(s["name"] for s in seen if s)
            messages = [" ".join((s.get("message") or "").split())[:240] if s else "" for s in seen]
            varied.append({"id": i, "name": name, "outcomes": outcomes, "messages": messages})
    return {"moved": len(moved), "notes": notes, "ran_in": dict(sorted(ran_in.items(), reverse=True)), "varied": varied,
            "skipped_last": skipped}


def agree_markdown(paths: List[str], runs: List[dict], result: dict) -> str:
    lines = ["# Whole Slurm-mode runs side by side", "",
             "Written by `python3 harnesses/prrte/slurm_compare.py --agree` (oldest run first; earlier runs' ids moved "
             "to the last run's by scenario name, outcomes a since-fixed suite defect caused set aside, scenarios the "
             "last run skips dropped).", "", "| run | started | scenarios | passed | failed | skipped | errored | wall |",
             "|---|---|---:|---:|---:|---:|---:|---:|"]
    for p, r in zip(paths, runs):
        t = r.get("totals", {})
        lines.append(f"| `{p}` | {r['run'].get('startedAt', '')} | {t.get('scenarios', '')} | {t.get('passed', '')} | "
                     f"{t.get('failed', '')} | {t.get('skipped', '')} | {t.get('errored', '')} | "
                     f"{r['run'].get('durationMs', 0) / 1000:.0f} s |")
    n = len(runs)
    lines += ["", "Scenarios run, by the number of runs that ran them: " +
              ", ".join(f"{c} in {k} of {n}" for k, c in result["ran_in"].items()) +
              f"; {result['skipped_last']} skipped in the last run (a capability this mode does not declare).", ""]
    v = result["varied"]
    lines.append(f"**{len(v)} scenario(s) whose outcome was not the same in every run that ran them**" +
                 (":" if v else "."))
    for row in v:
        lines += ["", f"- `{row['id']}` {row['name']}: " + ", ".join(f"run {k + 1} {o or 'not run'}"
                                                                   for k, o in enumerate(row["outcomes"]))]
        lines += [f"  - run {k + 1}: {m}" for k, m in enumerate(row["messages"]) if m]
    lines += ["", f"Preparation: {result['moved']} scenario id(s) of earlier runs moved to the last run's by name"
              + ("; set aside:" if result["notes"] else ".")] + [f"- {x}" for x in result["notes"]]
    return "\n".join(lines) + "\n"


def causes(report: dict, expectations: dict) -> Dict[str, List[str]]:
    """The scenarios whose verdict differs from ras/hosts, grouped by their cause here: the Slurm-mode verdict of a
    non-pass (class and why), or 'passes here' for one that passes here and not under ras/hosts."""
    from verdicts import cause
    from verdicts_slurm import classify_slurm
    by_id = {s["id"]: s for s in report["scenarios"]}
    groups: Dict[str, List[str]] = {}
    for r in compare(report, expectations)["rows"]:
        if not r["differs"]:
            continue
        s = by_id[r["id"]]
        if s["outcome"] == "passed":
            key = f"passes here, {r['hosts']} under ras/hosts"
        else:
            v = classify_slurm(s, cause(dict(s)))
            key = f"{v.label()}: {v.why.split(':')[0].split(';')[0]}"
        groups.setdefault(key, []).append(f"{r['id']} ({r['slurm']} <- {r['hosts']})")
    return dict(sorted(groups.items(), key=lambda kv: -len(kv[1])))


def failing_operation(text: str) -> str:
    """The operation a failure names (the reports write 'Observed: ACTOR: OPERATION: expected ...'; the ras/hosts
    expectations' reasons carry the same text after 'Observed: ')."""
    text = text.split("Observed: ", 1)[-1]
    m = re.match(r"(.*?): expected", text, re.S)
    return " ".join((m.group(1) if m else text[:120]).split())


def same_outcome_other_operation(report: dict, expectations: dict) -> Dict[str, List[str]]:
    """The scenarios that end the same here as under ras/hosts but fail at another operation: the same verdict for
    another reason (e.g. a spawn refused here before the step that fails there is reached). Grouped by the cause
    here; each line names both operations."""
    from verdicts import cause
    from verdicts_slurm import classify_slurm
    expected = {e["id"]: e for e in expectations["expected"]}
    groups: Dict[str, List[str]] = {}
    for s in report["scenarios"]:
        e = expected.get(s["id"])
        if not e or s["outcome"] in ("passed", "skipped") or s["outcome"] not in hosts_outcome(e).split("/"):
            continue
        here, there = failing_operation(cause(dict(s))), failing_operation(e.get("reason", ""))
        if here != there:
            v = classify_slurm(s, cause(dict(s)))
            key = f"{v.label()}: {v.why.split(':')[0].split(';')[0]}"
            groups.setdefault(key, []).append(f"{s['id']} ({s['outcome']}): here at {here[:110]}; "
                                              f"under ras/hosts at {there[:110]}")
    return dict(sorted(groups.items(), key=lambda kv: -len(kv[1])))


def causes_markdown(report_path: str, report: dict, expectations_path: str, expectations: dict) -> str:
    """--causes as a document: every verdict that differs from ras/hosts under its cause here, then every verdict that
    is the same but fails at another operation, then the scenarios skipped here that run under ras/hosts."""
    groups, other = causes(report, expectations), same_outcome_other_operation(report, expectations)
    skipped = compare(report, expectations)["skipped_here_run_there"]
    t, run = report.get("totals", {}), report.get("run", {})
    lines = ["# The Slurm mode against ras/hosts: every verdict that differs, by its cause here", "",
             f"Written by `python3 harnesses/prrte/slurm_compare.py --causes {report_path} {expectations_path} --markdown OUT` "
             f"from a whole Slurm-mode run (started {run.get('startedAt', '')}, {t.get('scenarios', '')} scenarios: "
             f"{t.get('passed', '')} passed, {t.get('failed', '')} failed, {t.get('skipped', '')} skipped, "
             f"{t.get('errored', '')} errored) and the ras/hosts expectations. Each cause is a rule of "
             "`harnesses/prrte/verdicts_slurm.py` (or of `verdicts.py` where the cause is not Slurm's); its evidence "
             "(specification lines, prrte 52d5e4bb lines) is in `expectations/prrte-slurm.json` and docs/prrte-slurm.md, "
             "\"The live outcome\". A line reads `scenario (outcome here <- outcome under ras/hosts)`.", "",
             f"**{sum(len(v) for v in groups.values())} verdicts differ** from ras/hosts; "
             f"**{sum(len(v) for v in other.values())} more end the same but fail at another operation** (section B); "
             f"**{sum(n for _, n in skipped)} scenarios are skipped here and run under ras/hosts** ("
             + ", ".join(f"{n} `{caps}`" for caps, n in skipped) + ").", "", "## A. Verdicts that differ", ""]
    for k, (cause_, ids) in enumerate(groups.items(), 1):
        lines += [f"### A{k}. {cause_}: {len(ids)}", ""] + [f"- `{i.split(' ', 1)[0]}` {i.split(' ', 1)[1]}" for i in ids] + [""]
    lines += ["## B. The same verdict, another operation", "",
              "Each line names the operation that fails here and the one that fails under ras/hosts.", ""]
    for k, (cause_, rows) in enumerate(other.items(), 1):
        lines += [f"### B{k}. {cause_}: {len(rows)}", ""] + [f"- {r}" for r in rows] + [""]
    return "\n".join(lines)


def main(argv: List[str]) -> int:
    if argv and argv[0] == "--agree":
        out = ""
        if "--markdown" in argv:
            k = argv.index("--markdown")
            out, argv = argv[k + 1], argv[:k] + argv[k + 2:]
        paths = argv[1:]
        runs = [json.load(open(p)) for p in paths]
        result = agree(runs)
        md = agree_markdown(paths, runs, result)
        if out:
            with open(out, "w") as f:
                f.write(md)
        print(md if not out else f"{len(result['varied'])} scenario(s) varied; written to {out}")
        return 0
    if argv and argv[0] == "--runs":
        earlier, later = json.load(open(argv[1])), json.load(open(argv[2]))
        for name, r in (("earlier", earlier), ("later", later)):
            print(f"{name}: {json.dumps(r.get('totals', {}))}, {r['run'].get('durationMs', 0) / 1000:.0f} s")
        rows = compare_runs(earlier, later)
        print(f"{len(rows)} scenario(s) with a different outcome:")
        for r in rows:
            print(f"  {r['id']}: {r['earlier']} -> {r['later']}  {r['name'][:90]}")
            for k in ("earlier_message", "later_message"):
                if r[k]:
                    print(f"      {k.split('_')[0]}: {' '.join(r[k].split())[:240]}")
        return 0
    if argv and argv[0] == "--causes":
        if "--markdown" in argv:
            k = argv.index("--markdown")
            out, argv = argv[k + 1], argv[:k] + argv[k + 2:]
            exp_path = argv[2] if len(argv) > 2 else "expectations/prrte.json"
            with open(out, "w") as f:
                f.write(causes_markdown(argv[1], json.load(open(argv[1])), exp_path, json.load(open(exp_path))))
            print(f"written to {out}")
            return 0
        report = json.load(open(argv[1]))
        expectations = json.load(open(argv[2] if len(argv) > 2 else "expectations/prrte.json"))
        groups = causes(report, expectations)
        print(f"{sum(len(v) for v in groups.values())} verdicts differ from ras/hosts, by cause here:")
        for k, ids in groups.items():
            print(f"{len(ids):4}  {k}")
            for i in ids:
                print(f"        {i}")
        other = same_outcome_other_operation(report, expectations)
        print(f"{sum(len(v) for v in other.values())} verdicts are the same as under ras/hosts but fail at another "
              "operation, by cause here:")
        for k, rows in other.items():
            print(f"{len(rows):4}  {k}")
            for i in rows:
                print(f"        {i}")
        return 0
    verbose = "-v" in argv
    argv = [a for a in argv if a != "-v"]
    report = json.load(open(argv[0]))
    expectations = json.load(open(argv[1] if len(argv) > 1 else "expectations/prrte.json"))
    out = compare(report, expectations)
    t = report.get("totals", {})
    print(f"totals here: {json.dumps(t)}")
    for r in out["rows"]:
        mark = "DIFFERS" if r["differs"] else "same   "
        print(f"{mark} {r['slurm']:8} (ras/hosts {r['hosts']:8}) {r['id']}  {r['name'][:80]}")
        if verbose and r["slurm"] != "passed":
            print(f"      here: {r['observed']}")
            if r["hosts_reason"]:
                print(f"      ras/hosts: {r['hosts_reason']}")
    print("skipped here, run under ras/hosts (by the capabilities this mode does not declare):")
    for caps, n in out["skipped_here_run_there"]:
        print(f"  {n:4}  {caps}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
