#!/usr/bin/env bash
# The benchmark (not a test: nothing fails on a number). Measures, in one run:
# the suite in-process against cucumber's floor, over the wire against
# in-process, every engine operation at 1x and 10x of its workload, and the
# property tests' interleavings per second. Prints a table; writes
# reports/bench.json and reports/bench.svg. Arguments go to bench/run.ts
# (--reps N; --skip-suite; --only suite,engine,properties,bounds; --engine-args "--nodes 2000 --calls 100";
# --baseline <revision>[,<revision>]: the same figures for those revisions,
# side by side, in the same run).
# The live section (bench/live.ts), when a PRRTE is given: --prrte PREFIX (or
# --only live with $PRRTE_PREFIX) [--jobs N] [--live-parts floor,serial,parallel]
# [-- <cucumber args: feature paths, scenario ids, --name, --tags>]: the floor
# (one DVM started and stopped per scenario a live run runs, N at a time), the
# serial and the --jobs N wall time of scripts/prrte-run.sh, side by side with
# their ratios to the floor; reports/bench-live.json. Needs root (namespaces).
#   bash scripts/bench.sh --only live --prrte ~/pmix-install --jobs 6
#   bash scripts/bench.sh --only live --prrte ~/pmix-install --jobs 2 -- features/elastic/elastic-mode-gate.feature
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
export TS_NODE_TRANSPILE_ONLY=true
exec node -r ./tools/register.js bench/run.ts "$@"
