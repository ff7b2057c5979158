#!/usr/bin/env python3
"""Write the conformance picture of docs/prrte.md from an expectations file and the runs it came from.

  python3 harnesses/prrte/picture.py [--doc docs/prrte.md] [--expect expectations/prrte.json] \
      RUN1/conformance.json [RUN2/conformance.json ...] [--stdout]

Replaces only the part of the document between the two marker lines
  <!-- picture:begin -->
  <!-- picture:end -->
(the rest of docs/prrte.md is kept by hand), or prints the part with
--stdout. The picture gives: the implementation's version, each run's
totals, the expected non-passes per class (the `class` field of each entry
of the expectations file, written by expectations_from_runs.py; an entry
without one is counted from its reason's first words, as the reports do), and
per class the table of its entries: scenario, clause, and for a divergence
the specification lines and the PRRTE source lines, for an interpretation
the interpretation point, for the other classes why.
"""
import json
import os
import re
import sys
from typing import Dict, List, Optional, Tuple

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from expectations_from_runs import class_of  # noqa: E402  (same reading of a class as the reports)

BEGIN = "<!-- picture:begin -->"
END = "<!-- picture:end -->"
ORDER = ["divergence", "interpretation", "harness-limitation", "runtime-fault", "suite-defect", "unclassified"]
WORDS = {  # as tools/lib/expectations.ts CLASS_WORDS
    "divergence": "PRRTE breaks a sentence the specification itself states",
    "interpretation": "the verdict rests on an interpretation point (features/INTERPRETATIONS.md)",
    "harness-limitation": "the bridge cannot drive or observe what the scenario needs",
    "runtime-fault": "PRRTE crashes, hangs or answers garbage",
    "suite-defect": "the suite itself is wrong here",
    "unclassified": "no rule for the observed cause yet",
}


def cell(text: str) -> str:
    """Safe inside a Markdown table cell."""
    return " ".join(str(text).split()).replace("|", "\\|")


def short_source(src: str) -> str:
    """'file.c:12-30 (what it does)' -> 'file.c:12-30' (the explanation stays in the expectations file)."""
    return src.split(" (", 1)[0]


def why_of(e: dict) -> str:
    """The reason's explanation: after the class words, before 'Observed: '."""
    reason = e.get("reason", "")
    head, _, rest = reason.partition(": ")
    why = rest if rest else head
    return why.split(". Observed: ", 1)[0].rstrip(".")


def outcome_of(e: dict) -> str:
    return "/".join(e["outcomes"]) if "outcomes" in e else e.get("outcome", "failed")


def run_rows(runs: List[dict]) -> List[str]:
    rows = ["| run | started | passed | failed | skipped | errored | wall |", "|---|---|---:|---:|---:|---:|---:|"]
    for n, r in enumerate(runs, 1):
        t, info = r["totals"], r.get("run", {})
        wall = f"{round(info['durationMs'] / 1000)} s" if isinstance(info.get("durationMs"), (int, float)) else ""
        rows.append(f"| {n} | {info.get('startedAt', info.get('generatedAt', ''))} | {t['passed']} | {t['failed']} | "
                    f"{t['skipped']} | {t['errored']} | {wall} |")
    return rows


def class_tables(entries: List[dict]) -> Tuple[Dict[str, int], List[str]]:
    by: Dict[str, List[dict]] = {}
    for e in entries:
        by.setdefault(class_of(e), []).append(e)
    counts = {k: len(by[k]) for k in ORDER if k in by}
    out: List[str] = []
    for k in ORDER:
        if k not in by:
            continue
        out += ["", f"### {k} ({len(by[k])})", "", f"{WORDS[k][0].upper()}{WORDS[k][1:]}.", ""]
        if k == "divergence":
            out += ["| scenario | outcome | clause | specification | PRRTE source | why |", "|---|---|---|---|---|---|"]
        elif k == "interpretation":
            out += ["| scenario | outcome | clause | interpretation point | PRRTE source | why |", "|---|---|---|---|---|---|"]
        else:
            out += ["| scenario | outcome | clause | why |", "|---|---|---|---|"]
        for e in by[k]:
            ev = e.get("evidence") or {}
            scen = f"`{e['id']}` {e.get('scenario', '')}"
            clause = f"`{e['clause']}`" if e.get("clause") else "—"
            src = "<br>".join(cell(short_source(s)) for s in ev.get("source", [])) or "—"
            if k == "divergence":
                out.append(f"| {cell(scen)} | {outcome_of(e)} | {clause} | {cell(ev.get('spec', '—'))} | {src} | {cell(why_of(e))} |")
            elif k == "interpretation":
                out.append(f"| {cell(scen)} | {outcome_of(e)} | {clause} | {cell(ev.get('interpretation', '—'))} | {src} | {cell(why_of(e))} |")
            else:
                why = why_of(e) if k != "unclassified" else "observed: " + e.get("reason", "").split("Observed: ", 1)[-1]
                out.append(f"| {cell(scen)} | {outcome_of(e)} | {clause} | {cell(why)} |")
    return counts, out


def picture(expect: dict, runs: List[dict], expect_path: str = "expectations/prrte.json",
            run_paths: Optional[List[str]] = None) -> str:
    """The Markdown between the markers."""
    entries = expect.get("expected", [])
    version = runs[0].get("implementation", {}).get("version", "") if runs else ""
    counts, tables = class_tables(entries)
    lines = [BEGIN,
             "<!-- generated by harnesses/prrte/picture.py: edit the expectations or the runs, not this part -->",
             "## The conformance picture of PRRTE master", "",
             "Generated: `python3 harnesses/prrte/picture.py [--expect expectations/prrte.json] "
             "reports/prrte/run-*/conformance.json` rewrites only this part of docs/prrte.md (between the "
             "`picture:begin` and `picture:end` markers); `--stdout` prints it instead.", ""]
    if version:
        lines += [f"{cell(version)}.", ""]
    if runs:
        scen = runs[0]["totals"]["scenarios"]
        lines += [f"{len(runs)} live run(s) of the suite ({scen} scenarios) against PRRTE through "
                  "`harnesses/prrte/bridge.py`" + (f" ({', '.join(f'`{p}`' for p in run_paths)})" if run_paths else "") + ":", ""]
        lines += run_rows(runs)
        lines.append("")
    lines += [f"`{expect_path}`: {len(entries)} expected non-passes, "
              + ", ".join(f"**{n} {k}**" for k, n in counts.items()) + ". "
              "Each entry's class and evidence are generated by `harnesses/prrte/expectations_from_runs.py` from the "
              "observed cause (its `reason` gives the cause after \"Observed:\"); a divergence cites the specification "
              "lines PRRTE breaks and the PRRTE source lines (prrte `52d5e4bb`, openpmix `494e9d9d`) that cause it, an "
              "interpretation the interpretation point the verdict rests on.", "",
              "| class | entries | meaning |", "|---|---:|---|"]
    lines += [f"| {k} | {n} | {WORDS[k]} |" for k, n in counts.items()]
    lines += tables
    lines += ["", END]
    return "\n".join(lines) + "\n"


def replace_between_markers(doc: str, part: str) -> str:
    """doc with the text from the BEGIN marker line to the END marker line (both included) replaced by part."""
    b, e = doc.find(BEGIN), doc.find(END)
    if b < 0 or e < 0 or e < b:
        raise ValueError(f"the document has no {BEGIN} ... {END} pair")
    e += len(END)
    if doc[e:e + 1] == "\n":
        e += 1
    return doc[:b] + part + doc[e:]


def main(argv: List[str]) -> None:
    doc_path, expect_path, stdout = "docs/prrte.md", "expectations/prrte.json", False
    runs: List[str] = []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--doc":
            doc_path, i = argv[i + 1], i + 2
        elif a == "--expect":
            expect_path, i = argv[i + 1], i + 2
        elif a == "--stdout":
            stdout, i = True, i + 1
        else:
            runs.append(a)
            i += 1
    with open(expect_path) as f:
        expect = json.load(f)
    loaded = []
    for p in runs:
        with open(p) as f:
            loaded.append(json.load(f))
    part = picture(expect, loaded, expect_path, runs)
    if stdout:
        sys.stdout.write(part)
        return
    with open(doc_path) as f:
        doc = f.read()
    with open(doc_path, "w") as f:
        f.write(replace_between_markers(doc, part))
    print(f"{doc_path}: picture of {len(expect.get('expected', []))} entries and {len(loaded)} run(s) written between the markers",
          file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
