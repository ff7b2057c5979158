#!/usr/bin/env bash
# A large exploration of the elastic-DVM interleaving property
# (test/properties/elastic.property.test.ts): many more runs, longer
# sequences, and a fresh seed each time (printed, so a failure replays with
# PMIX_PROPERTY_SEED=<seed> PMIX_PROPERTY_PATH=<path> from the report).
#
#   bash scripts/properties-large.sh                      # 5000 runs x up to 60 ops
#   PMIX_PROPERTY_RUNS=20000 PMIX_PROPERTY_MAX_OPS=100 bash scripts/properties-large.sh
#   PMIX_PROPERTY_SEED=20261122 bash scripts/properties-large.sh   # a fixed seed
#   PMIX_CONFORMANCE_ADAPTER=adapters/subprocess bash scripts/properties-large.sh
#   bash scripts/properties-large.sh test/properties/lifecycle.property.test.ts ...   # other property files, same sizes
#
# The property prints one summary line at the end (runs requested and
# executed, ops per run max, checked steps, elapsed ms measured in the test)
# and, with PMIX_PROPERTY_COVERAGE=1 (the default here), how often each
# interesting situation arose.
set -euo pipefail
cd "$(dirname "$0")/.."
export TS_NODE_TRANSPILE_ONLY=true
export PMIX_PROPERTY_RUNS="${PMIX_PROPERTY_RUNS:-5000}"
export PMIX_PROPERTY_MAX_OPS="${PMIX_PROPERTY_MAX_OPS:-60}"
export PMIX_PROPERTY_SEED="${PMIX_PROPERTY_SEED:-$(( (RANDOM << 15 | RANDOM) ))}"
export PMIX_PROPERTY_COVERAGE="${PMIX_PROPERTY_COVERAGE:-1}"
if [ "$#" -gt 0 ]; then files=("$@"); else files=(test/properties/elastic.property.test.ts); fi

echo "properties-large: runs=$PMIX_PROPERTY_RUNS max-ops=$PMIX_PROPERTY_MAX_OPS seed=$PMIX_PROPERTY_SEED adapter=${PMIX_CONFORMANCE_ADAPTER:-adapters/reference}"
start=$(date +%s%N)
status=0
node --require ./tools/register.js --test "${files[@]}" || status=$?
wall=$(( ($(date +%s%N) - start) / 1000000 ))
echo "properties-large: exit $status, wall ${wall} ms (process start and TypeScript loading included; the test's own summary line above has the elapsed time of the runs)"
exit "$status"
