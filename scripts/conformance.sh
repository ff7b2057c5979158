#!/usr/bin/env bash
# The main job: run the whole conformance suite against an implementation
# (the built-in reference engine unless PMIX_CONFORMANCE_ADAPTER names another
# adapter module) and write HTML, JUnit XML and cucumber-message reports to reports/.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
mkdir -p reports
export TS_NODE_TRANSPILE_ONLY=true
status=0
npx cucumber-js --profile reports "$@" || status=$?
echo "reports written to reports/: conformance.html (open in a browser), conformance.junit.xml, conformance.ndjson"
exit "$status"
