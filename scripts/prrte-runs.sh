#!/usr/bin/env bash
# Several live runs against PRRTE, one after another, and whether they agree:
#   bash scripts/prrte-runs.sh [N=5] [PREFIX]
# Run k writes reports/prrte/run-k/ (scripts/prrte-run.sh); then
# tools/flakiness.ts compares the runs' conformance.json and writes
# reports/prrte/agreement.md: every scenario whose outcome was not the same in
# all runs, with what each run observed. Needs what scripts/prrte-run.sh needs.
set -euo pipefail
cd "$(dirname "$0")/.."
n="${1:-5}"
prefix="${2:-${PRRTE_PREFIX:-/work/build/install}}"
mkdir -p reports/prrte
reports=()
for k in $(seq 1 "$n"); do
  echo "== live run $k of $n"
  PRRTE_REPORTS="reports/prrte/run-$k" bash scripts/prrte-run.sh "$prefix" >"reports/prrte/run-$k.log" 2>&1 || true
  tail -3 "reports/prrte/run-$k.log"
  [ -f "reports/prrte/run-$k/conformance.json" ] && reports+=("reports/prrte/run-$k/conformance.json")
done
if [ "${#reports[@]}" -lt 2 ]; then
  echo "fewer than two runs produced a report; see reports/prrte/run-*.log" >&2
  exit 2
fi
node -r ./tools/register.js tools/flakiness.ts "${reports[@]}" --markdown reports/prrte/agreement.md
