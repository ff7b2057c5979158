#!/usr/bin/env bash
# Several whole runs in the bridge's Slurm mode, one after another, and whether they agree
# (issue 26: the expectations rest on five agreeing runs):
#   bash scripts/prrte-slurm-runs.sh N PMIX_PREFIX [cucumber args...]
# Run k writes DIR/NAME-k/ and DIR/NAME-k.log (scripts/prrte-slurm-run.sh; DIR is
# $PRRTE_SLURM_RUNS_DIR, default reports/prrte-slurm-runs; NAME is $PRRTE_RUNS_NAME, default w). Then harnesses/prrte/slurm_compare.py --agree sets the
# runs side by side and writes DIR/agreement-NAME.md: how many runs ran
# each scenario, and every scenario whose outcome varied. Needs what prrte-slurm-run.sh needs
# (SLURM_PREFIX, PRRTE_SLURM_PREFIX); a whole run takes about 30 min on a 2-core machine.
# To write the expectations from them:
#   python3 harnesses/prrte/slurm_expectations.py expectations/prrte-slurm.json \
#     reports/prrte-slurm-runs/NAME-*/conformance.json --note "..."
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 2 ]; then
  echo "usage: bash scripts/prrte-slurm-runs.sh N PMIX_PREFIX [cucumber args...]" >&2
  exit 2
fi
n="$1"
prefix="$2"
shift 2
name="${PRRTE_RUNS_NAME:-w}"
out="${PRRTE_SLURM_RUNS_DIR:-reports/prrte-slurm-runs}"
mkdir -p "$out"
reports=()
for k in $(seq 1 "$n"); do
  echo "== Slurm-mode run $k of $n"
  status=0
  PRRTE_REPORTS="$out/$name-$k" bash scripts/prrte-slurm-run.sh "$prefix" "$@" >"$out/$name-$k.log" 2>&1 || status=$?
  # exit 3: the Slurm mode cannot run here (it said why); no later run can either
  if [ "$status" = 3 ]; then cat "$out/$name-$k.log" >&2; exit 3; fi
  tail -3 "$out/$name-$k.log"
  [ -f "$out/$name-$k/conformance.json" ] && reports+=("$out/$name-$k/conformance.json")
done
if [ "${#reports[@]}" -lt 2 ]; then
  echo "fewer than two runs produced a report; see $out/$name-*.log" >&2
  exit 2
fi
python3 harnesses/prrte/slurm_compare.py --agree "${reports[@]}" --markdown "$out/agreement-$name.md"
