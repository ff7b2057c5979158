#!/usr/bin/env bash
# Unit and property tests (node:test) and the cucumber suite. Line coverage of
# reference/ (>= 90%, c8) is measured over what exercises the engine in this
# process tree: its own unit, property and fuzz tests and the suite in
# process. Everything else runs outside c8, whose per-process coverage files
# were a third of this script's time.
set -euo pipefail
cd "$(dirname "$0")/.."
export TS_NODE_TRANSPILE_ONLY=true
mapfile -t engine_tests < <(find test/reference test/properties test/fuzz -name '*.test.ts' | sort)
mapfile -t other_tests < <(find test -name '*.test.ts' | grep -v -e '^test/reference/' -e '^test/properties/' -e '^test/fuzz/' | sort)

# Most of these wait on child processes, so three files at a time.
node --require ./tools/register.js --test --test-concurrency=3 "${other_tests[@]}"

npx c8 --include 'reference/**' --reporter text-summary --reporter text --check-coverage --lines 90 \
  bash -c 'node --require ./tools/register.js --test "$@" && node node_modules/@cucumber/cucumber/bin/cucumber.js' -- "${engine_tests[@]}"

# The same suite over the wire: the reference engine as a protocol server, driven by the subprocess adapter.
site_runs=reports/site-runs # their message streams feed the conformance site below
mkdir -p "$site_runs"
PMIX_CONFORMANCE_ADAPTER=adapters/subprocess npx cucumber-js --format summary --format "message:$site_runs/wire.ndjson"
# The Python implementer's template over the wire: what it declares must pass, the rest must be skipped (never failed or errored).
PMIX_CONFORMANCE_ADAPTER=adapters/subprocess PMIX_CONFORMANCE_COMMAND="python3 harnesses/python/harness.py" npx cucumber-js --format summary --format "message:$site_runs/python.ndjson"
# The conformance site (docs/site.md) from those two runs: reports/site/index.html.
for run in wire python; do node -r ./tools/register.js tools/report.ts --ndjson "$site_runs/$run.ndjson" --out "$site_runs/$run" >/dev/null; done
node -r ./tools/register.js tools/cli.ts site --out reports/site "$site_runs/wire/conformance.json" "$site_runs/python/conformance.json"

# ---- PRRTE bridge (harnesses/prrte; the live run is scripts/prrte-run.sh) ----
# Its Python unit tests need nothing; its C agents are compiled and unit-tested
# only where a PMIx is installed (PMIX_PREFIX=<prefix>, or pkg-config pmix).
python3 harnesses/prrte/test_bridge.py
if [ -n "${PMIX_PREFIX:-}" ] && [ -f "$PMIX_PREFIX/include/pmix.h" ]; then
  make -s -C harnesses/prrte/agents PMIX_PREFIX="$PMIX_PREFIX" OUT="${TMPDIR:-/tmp}/pmix-prrte-agents-ci" all check
elif command -v pkg-config >/dev/null 2>&1 && pkg-config --exists pmix; then
  make -s -C harnesses/prrte/agents OUT="${TMPDIR:-/tmp}/pmix-prrte-agents-ci" all check
else
  echo "PRRTE bridge C agents: skipped: no PMIx installed (set PMIX_PREFIX or install pmix with pkg-config)"
fi
# ---- end PRRTE bridge ----
