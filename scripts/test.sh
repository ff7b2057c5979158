#!/usr/bin/env bash
# The test command (npm test, and .ci/run): type-check, clause lint, unit and
# property tests, and the whole conformance suite against the reference
# engine, with c8 enforcing line coverage of reference/.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh

# Each step says how long the one before it took, so a slow step shows in CI's log.
started=$SECONDS
last=$SECONDS
step() {
  printf '\n== [%ss, previous step %ss] %s\n' "$((SECONDS - started))" "$((SECONDS - last))" "$*"
  last=$SECONDS
}
trap 'printf "\n== test command: %ss in all\n" "$((SECONDS - started))"' EXIT

step "type-check (tsc --noEmit)"
npx tsc --noEmit -p .

step "clause lint"
node -r ./tools/register.js tools/clause-lint.ts

step "self-test: the suite must reject every known-bad implementation"
node -r ./tools/register.js tools/self-test.ts

step "unit and property tests, then the conformance suite (in-process and over the wire), under c8 (reference/ lines >= 90%)"
export TS_NODE_TRANSPILE_ONLY=true
npx c8 --include 'reference/**' --reporter text-summary --reporter text \
  --check-coverage --lines 90 \
  bash scripts/run-tests.sh
