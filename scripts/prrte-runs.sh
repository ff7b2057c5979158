#!/usr/bin/env bash
# Several live runs against PRRTE, one after another, and whether they agree:
#   bash scripts/prrte-runs.sh N PREFIX [--jobs J] [cucumber args...]
# Run k writes reports/prrte/run-k/ (scripts/prrte-run.sh, which --jobs and
# the cucumber args go to; with PRRTE_RUNS_NAME=rerun, reports/prrte/rerun-k/);
# cucumber args (feature paths) make runs of part of the suite. Then
# tools/flakiness.ts compares the runs' conformance.json and writes
# reports/prrte/agreement.md (agreement-NAME.md): every scenario whose outcome was not the same in
# all runs, with what each run observed. Needs what scripts/prrte-run.sh needs.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 2 ]; then
  echo "usage: bash scripts/prrte-runs.sh N PREFIX [--jobs J] [cucumber args...]" >&2
  exit 2
fi
n="$1"
prefix="$2"
shift 2
name="${PRRTE_RUNS_NAME:-run}"
mkdir -p reports/prrte
reports=()
for k in $(seq 1 "$n"); do
  echo "== live run $k of $n"
  PRRTE_REPORTS="reports/prrte/$name-$k" bash scripts/prrte-run.sh "$prefix" "$@" >"reports/prrte/$name-$k.log" 2>&1 || true
  tail -3 "reports/prrte/$name-$k.log"
  [ -f "reports/prrte/$name-$k/conformance.json" ] && reports+=("reports/prrte/$name-$k/conformance.json")
done
if [ "${#reports[@]}" -lt 2 ]; then
  echo "fewer than two runs produced a report; see reports/prrte/$name-*.log" >&2
  exit 2
fi
md="reports/prrte/agreement.md"
[ "$name" = run ] || md="reports/prrte/agreement-$name.md"
node -r ./tools/register.js tools/flakiness.ts "${reports[@]}" --markdown "$md"
