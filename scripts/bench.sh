#!/usr/bin/env bash
# The benchmark (not a test: nothing fails on a number). Measures, in one run:
# the suite in-process against cucumber's floor, over the wire against
# in-process, every engine operation at 1x and 10x of its workload, and the
# property tests' interleavings per second. Prints a table; writes
# reports/bench.json and reports/bench.svg. Arguments go to bench/run.ts
# (--reps N; --skip-suite; --only suite,engine,properties,bounds; --engine-args "--nodes 2000 --calls 100";
# --baseline <revision>[,<revision>]: the same figures for those revisions,
# side by side, in the same run).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
export TS_NODE_TRANSPILE_ONLY=true
exec node -r ./tools/register.js bench/run.ts "$@"
