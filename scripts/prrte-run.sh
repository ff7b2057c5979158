#!/usr/bin/env bash
# The live run: the whole conformance suite against a real PRRTE DVM through
# harnesses/prrte/bridge.py.
#   bash scripts/prrte-run.sh [PREFIX] [cucumber args...]
# PREFIX: the openpmix+prrte install prefix (default $PRRTE_PREFIX, else
# /work/build/install), e.g. the one scripts/prrte-build.sh made. Needs root
# (or CAP_SYS_ADMIN) for the private network and UTS namespaces the bridge
# gives the DVM. Reports go to $PRRTE_REPORTS (default reports/prrte/:
# report.html, summary.md, conformance.json, conformance.junit.xml,
# conformance.html, conformance.ndjson), judged against
# expectations/prrte.json (PMIX_CONFORMANCE_EXPECT overrides).
set -euo pipefail
cd "$(dirname "$0")/.."
prefix="${PRRTE_PREFIX:-/work/build/install}"
if [ $# -gt 0 ] && [ "${1#-}" = "$1" ] && [ -d "$1" ]; then prefix="$1"; shift; fi
if [ ! -x "$prefix/bin/prte" ] || [ ! -f "$prefix/include/pmix.h" ]; then
  echo "no PRRTE available: $prefix/bin/prte or $prefix/include/pmix.h is missing; build one with scripts/prrte-build.sh" >&2
  exit 2
fi
out="${PRRTE_REPORTS:-reports/prrte}"
agents="${TMPDIR:-/tmp}/pmix-prrte-agents"
make -s -C harnesses/prrte/agents PMIX_PREFIX="$prefix" OUT="$agents" all check
export TS_NODE_TRANSPILE_ONLY=true
start=$(date +%s)
status=0
# pmix-conformance run (tools/cli.ts): smoke-tests the bridge first (one request of
# every kind it declares), runs cucumber with the HTML, JUnit and message
# formatters, and replaces the previous reports in $out only when the run
# completes; cucumber args (feature paths, scenario ids as the reports print
# them) are passed on.
node -r ./tools/register.js tools/cli.ts run \
  --command "python3 harnesses/prrte/bridge.py --prefix=$prefix --agents=$agents" \
  --reports "$out" --expect "${PMIX_CONFORMANCE_EXPECT:-expectations/prrte.json}" -- "$@" || status=$?
echo "live run: $(( $(date +%s) - start )) s wall (exit $status)"
echo "reports in $out/: report.html (what decides the exit status first), summary.md, conformance.json, conformance.junit.xml, conformance.html, conformance.ndjson"
exit "$status"
