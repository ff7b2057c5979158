#!/usr/bin/env bash
# The test command (npm test, and .ci/run): type-check, clause lint, the
# self-test against the known-bad and known-good implementations, unit and
# property tests, and the whole conformance suite against the reference engine
# (in process, over the wire, and through the Python template), with c8
# enforcing line coverage of reference/.
set -euo pipefail
cd "$(dirname "$0")/.."

# Each step says when it started and how long the one before it took, so a
# slow step shows in CI's log.
started=$SECONDS
last=$SECONDS
step() {
  printf '\n== [%ss, previous step %ss] %s\n' "$((SECONDS - started))" "$((SECONDS - last))" "$*"
  last=$SECONDS
}
trap 'printf "\n== test command: %ss in all\n" "$((SECONDS - started))"' EXIT

step "dependencies (npm ci when node_modules is missing or older than the lockfile)"
bash scripts/ensure-deps.sh

step "type-check (tsc --noEmit) while every TypeScript file is compiled once into the cache (tools/register.js) and the clause lint runs"
npx tsc --noEmit -p . &
typecheck=$!
node tools/register.js --warm
node -r ./tools/register.js tools/clause-lint.ts
wait "$typecheck" || { echo "type-check failed" >&2; exit 1; }

step "self-test: the suite must reject every known-bad implementation and pass every known-good one"
node -r ./tools/register.js tools/self-test.ts

step "unit and property tests, then the conformance suite (in-process and over the wire)"
bash scripts/run-tests.sh
