#!/usr/bin/env bash
# Several live runs, one after another, and whether they agree:
#   bash scripts/prrte-runs.sh N PREFIX [--jobs J] [cucumber args...]
# Against PRRTE (ras/hosts): run k writes reports/prrte/NAME-k/ through
# scripts/prrte-run.sh (which --jobs and the cucumber args go to; NAME is
# $PRRTE_RUNS_NAME, default run); then tools/flakiness.ts compares the runs'
# conformance.json and writes reports/prrte/agreement.md (agreement-NAME.md):
# every scenario whose outcome was not the same in all runs, with what each run
# observed. Cucumber args (feature paths) make runs of part of the suite.
# With PRRTE_RUNS_RM=slurm (scripts/prrte-slurm-runs.sh sets it), the runs are
# whole Slurm-mode runs through scripts/prrte-slurm-run.sh, in
# $PRRTE_SLURM_RUNS_DIR (default reports/prrte-slurm-runs; NAME default w); the
# first run that cannot run here (exit 3, saying why) ends the batch; and
# harnesses/prrte/slurm_compare.py --agree writes agreement-NAME.md (it moves
# earlier runs' ids to the last run's by scenario name, so runs of different
# suite commits can be compared). Needs what the run script needs.
set -euo pipefail
cd "$(dirname "$0")/.."
slurm=""
[ "${PRRTE_RUNS_RM:-hosts}" = slurm ] && slurm=1
me=prrte-runs.sh
[ -n "$slurm" ] && me=prrte-slurm-runs.sh
if [ $# -lt 2 ]; then
  echo "usage: bash scripts/$me N PREFIX [--jobs J] [cucumber args...]" >&2
  exit 2
fi
n="$1"
prefix="$2"
shift 2
if [ -n "$slurm" ]; then
  run=scripts/prrte-slurm-run.sh out="${PRRTE_SLURM_RUNS_DIR:-reports/prrte-slurm-runs}" name="${PRRTE_RUNS_NAME:-w}"
else
  run=scripts/prrte-run.sh out=reports/prrte name="${PRRTE_RUNS_NAME:-run}"
fi
mkdir -p "$out"
reports=()
for k in $(seq 1 "$n"); do
  echo "== live run $k of $n"
  status=0
  PRRTE_REPORTS="$out/$name-$k" bash "$run" "$prefix" "$@" >"$out/$name-$k.log" 2>&1 || status=$?
  # the Slurm mode cannot run here (it said why): no later run can either
  if [ -n "$slurm" ] && [ "$status" = 3 ]; then cat "$out/$name-$k.log" >&2; exit 3; fi
  tail -3 "$out/$name-$k.log"
  [ -f "$out/$name-$k/conformance.json" ] && reports+=("$out/$name-$k/conformance.json")
done
if [ "${#reports[@]}" -lt 2 ]; then
  echo "fewer than two runs produced a report; see $out/$name-*.log" >&2
  exit 2
fi
if [ -n "$slurm" ]; then
  python3 harnesses/prrte/slurm_compare.py --agree "${reports[@]}" --markdown "$out/agreement-$name.md"
else
  md="$out/agreement.md"
  [ "$name" = run ] || md="$out/agreement-$name.md"
  node -r ./tools/register.js tools/flakiness.ts "${reports[@]}" --markdown "$md"
fi
