#!/usr/bin/env bash
# The live run: the whole conformance suite against a real PRRTE DVM through
# harnesses/prrte/bridge.py.
#   bash scripts/prrte-run.sh [PREFIX] [cucumber args...]
# PREFIX: the openpmix+prrte install prefix (default $PRRTE_PREFIX, else
# /work/build/install), e.g. the one scripts/prrte-build.sh made. Needs root
# (or CAP_SYS_ADMIN) for the private network and UTS namespaces the bridge
# gives the DVM. Reports go to $PRRTE_REPORTS (default reports/prrte/),
# judged against expectations/prrte.json (PMIX_CONFORMANCE_EXPECT overrides).
set -euo pipefail
cd "$(dirname "$0")/.."
prefix="${PRRTE_PREFIX:-/work/build/install}"
if [ $# -gt 0 ] && [ "${1#-}" = "$1" ] && [ -d "$1" ]; then prefix="$1"; shift; fi
if [ ! -x "$prefix/bin/prte" ] || [ ! -f "$prefix/include/pmix.h" ]; then
  echo "no PRRTE available: $prefix/bin/prte or $prefix/include/pmix.h is missing; build one with scripts/prrte-build.sh" >&2
  exit 2
fi
out="${PRRTE_REPORTS:-reports/prrte}"
mkdir -p "$out"
rm -f "$out/conformance.ndjson"
agents="${TMPDIR:-/tmp}/pmix-prrte-agents"
make -s -C harnesses/prrte/agents PMIX_PREFIX="$prefix" OUT="$agents" all check
export TS_NODE_TRANSPILE_ONLY=true
export PMIX_CONFORMANCE_ADAPTER=adapters/subprocess
export PMIX_CONFORMANCE_COMMAND="python3 harnesses/prrte/bridge.py --prefix=$prefix --agents=$agents"
start=$(date +%s)
status=0
npx cucumber-js --format progress --format "message:$out/conformance.ndjson" "$@" || status=$?
echo "live run: $(( $(date +%s) - start )) s wall (cucumber exit $status)"
node -r ./tools/register.js tools/report.ts --ndjson "$out/conformance.ndjson" --out "$out" \
  --expect "${PMIX_CONFORMANCE_EXPECT:-expectations/prrte.json}" || status=$?
echo "reports in $out/ (summary.md first)"
exit "$status"
