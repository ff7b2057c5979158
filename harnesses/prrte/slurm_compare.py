#!/usr/bin/env python3
"""A Slurm-mode run beside the ras/hosts expectations (issue 26, item 5):
    python3 harnesses/prrte/slurm_compare.py [-v] REPORTS/conformance.json [expectations/prrte.json]
For every scenario the Slurm-mode run did not skip: its outcome here and the
outcome ras/hosts is expected to have (the entry in the expectations, else
passed: the ras/hosts bridge declares every capability this mode declares, so
each scenario run here also runs there), and whether they differ. Then the
scenarios skipped here that run under ras/hosts, counted by the capability
this mode does not declare. Reads reports; runs nothing."""
import json
import sys
from collections import Counter
from typing import Dict, List

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


def main(argv: List[str]) -> int:
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
