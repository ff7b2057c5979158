#!/usr/bin/env bash
# The main job: run the whole conformance suite against an implementation
# (the built-in reference engine unless PMIX_CONFORMANCE_ADAPTER names another
# adapter module), write HTML, JUnit XML and cucumber-message reports to
# reports/, then the conformance report (reports/conformance.json and
# reports/summary.md) judged against PMIX_CONFORMANCE_EXPECT (an
# expectations/<implementation>.json file; none: every scenario must pass or
# be skipped). Exit status 0 only when every outcome matches the expectations.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
mkdir -p reports
rm -f reports/conformance.ndjson # never judge a stale run
export TS_NODE_TRANSPILE_ONLY=true
cucumber_status=0
npx cucumber-js --profile reports "$@" || cucumber_status=$?
if [ ! -s reports/conformance.ndjson ]; then
  echo "cucumber exited with status $cucumber_status before writing reports/conformance.ndjson: nothing to report" >&2
  exit "$((cucumber_status == 0 ? 2 : cucumber_status))"
fi
status=0
node -r ./tools/register.js tools/report.ts --ndjson reports/conformance.ndjson --out reports \
  ${PMIX_CONFORMANCE_EXPECT:+--expect "$PMIX_CONFORMANCE_EXPECT"} || status=$?
echo "reports written to reports/: report.html (open in a browser: the verdict first), summary.md, conformance.json, conformance.html (every step), conformance.junit.xml, conformance.ndjson"
exit "$status"
