#!/usr/bin/env bash
# Mutation testing of reference/ with Stryker and its cucumber runner: how many
# deliberate bugs in the reference engine does the conformance suite catch?
# Slow (minutes); not part of the test command. Report: reports/mutation/.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
export TS_NODE_TRANSPILE_ONLY=true
npx stryker run stryker.config.json "$@"
