#!/usr/bin/env bash
# The live run: the whole conformance suite against a real PRRTE DVM through
# harnesses/prrte/bridge.py.
#   bash scripts/prrte-run.sh PREFIX [--jobs N] [cucumber args...]
# PREFIX: the openpmix+prrte install prefix (required: the argument, or
# $PRRTE_PREFIX), e.g. the one scripts/prrte-build.sh made. Needs root (or
# CAP_SYS_ADMIN) for the private network and UTS namespaces the bridge gives
# each DVM. --jobs N runs N scenarios at once, each with its own bridge and
# DVM (cucumber's --parallel N; every DVM has its own network namespace,
# control directory and PRRTE session directories, so nothing is shared but
# the read-only agents). Reports go to $PRRTE_REPORTS (default reports/prrte/:
# report.html, summary.md, conformance.json, conformance.junit.xml,
# conformance.html, conformance.ndjson), judged against
# expectations/prrte.json (PMIX_CONFORMANCE_EXPECT overrides).
set -euo pipefail
cd "$(dirname "$0")/.."
prefix="${PRRTE_PREFIX:-}"
given="PRRTE_PREFIX=${PRRTE_PREFIX:-}"
if [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; then prefix="$1"; given="$1"; shift; fi
if [ -z "$prefix" ]; then
  echo "no PRRTE install given: bash scripts/prrte-run.sh PREFIX [--jobs N] [cucumber args] (or set PRRTE_PREFIX); build one with scripts/prrte-build.sh" >&2
  exit 2
fi
if [ ! -x "$prefix/bin/prte" ] || [ ! -f "$prefix/include/pmix.h" ]; then
  echo "not a PRRTE install: $given (bin/prte or include/pmix.h is missing there); build one with scripts/prrte-build.sh" >&2
  exit 2
fi
jobs=1
if [ "${1:-}" = "--jobs" ]; then jobs="${2:?--jobs needs a number}"; shift 2; fi
out="${PRRTE_REPORTS:-reports/prrte}"
# The agents are compiled per run, into the run's own temporary directory:
# two runs never overwrite each other's.
work="$(mktemp -d "${TMPDIR:-/tmp}/pmix-prrte-run-XXXXXX")"
trap 'rm -rf "$work"' EXIT
agents="$work/agents"
make -s -C harnesses/prrte/agents PMIX_PREFIX="$prefix" OUT="$agents" all check
export TS_NODE_TRANSPILE_ONLY=true
parallel=()
[ "$jobs" -gt 1 ] && parallel=(--parallel "$jobs")
start=$(date +%s)
status=0
# pmix-conformance run (tools/cli.ts): smoke-tests the bridge first (one request of
# every kind it declares), runs cucumber with the HTML, JUnit and message
# formatters, and replaces the previous reports in $out only when the run
# completes; cucumber args (feature paths, scenario ids as the reports print
# them) are passed on.
node -r ./tools/register.js tools/cli.ts run \
  --command "python3 harnesses/prrte/bridge.py --prefix=$prefix --agents=$agents" \
  --reports "$out" --expect "${PMIX_CONFORMANCE_EXPECT:-expectations/prrte.json}" -- "${parallel[@]}" "$@" || status=$?
echo "live run: $(( $(date +%s) - start )) s wall, $jobs at a time (exit $status)"
echo "reports in $out/: report.html (what decides the exit status first), summary.md, conformance.json, conformance.junit.xml, conformance.html, conformance.ndjson"
exit "$status"
