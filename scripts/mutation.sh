#!/usr/bin/env bash
# Mutation testing of reference/ with Stryker: how many deliberate bugs in the
# reference engine do the suite's tests catch? Two runs whose results add up:
#  1. the conformance scenarios (cucumber runner, stryker.config.json), on every mutant;
#  2. the engine's own unit, property and fuzz tests (tap runner,
#     stryker.properties.config.json), on the mutants the scenarios left alive
#     (MUTATION_PROPERTIES=all: on every mutant, which also measures them alone).
# Then tools/mutation-score.ts prints the score with the scenarios only, the
# properties only (when measured) and both, leaving out the mutants listed as
# equivalent in test/mutation/equivalent-mutants.json, and how many those are.
# The mutants still alive are listed in reports/mutation/survivors.md.
#
# Incremental: each run keeps its results (reports/mutation/*.incremental.json)
# and retests only mutants whose code or covering tests changed;
# MUTATION_FRESH=1 starts both over. The tap runner's tests are whole files,
# and Stryker does not retest a surviving mutant when a test file that
# already covered it only changed: after editing a unit or property test
# file, MUTATION_FRESH=properties starts the second run over. Slow (minutes to an hour, depending on the
# machine's load); runs niced (MUTATION_NICE, default 15); not part of the
# test command. Extra arguments go to both Stryker runs.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
export TS_NODE_TRANSPILE_ONLY=true
# A property that fails has killed its mutant: no time spent shrinking the counterexample.
export PMIX_PROPERTY_END_ON_FAILURE=1
# The fuzz at a sixth of its test-command size (it runs once per mutant it covers; 20,000 requests cost 4 s of an idle core).
export PMIX_FUZZ_REQUESTS="${PMIX_FUZZ_REQUESTS:-3000}"
out=reports/mutation
mkdir -p "$out"
incremental=(--incremental)
incremental2=(--incremental)
[ -n "${MUTATION_FRESH:-}" ] && incremental2+=(--force)
[ -n "${MUTATION_FRESH:-}" ] && [ "${MUTATION_FRESH}" != properties ] && incremental+=(--force)
run() { nice -n "${MUTATION_NICE:-15}" npx stryker run "$@"; }
started=$SECONDS

echo "== mutation run 1: the conformance scenarios (cucumber)"
run stryker.config.json "${incremental[@]}" --incrementalFile "$out/scenarios.incremental.json" "$@"
scenarios_s=$((SECONDS - started))

properties_args=()
if [ "${MUTATION_PROPERTIES:-survivors}" = all ]; then
  properties_args=(--properties-full)
  mutate=()
else
  mapfile -t ranges < <(node -r ./tools/register.js tools/mutation-score.ts ranges "$out/scenarios.json" | sort -u)
  mutate=(--mutate "$(IFS=,; echo "${ranges[*]}")")
  [ "${#ranges[@]}" -eq 0 ] && mutate=()
fi
if [ "${MUTATION_PROPERTIES:-survivors}" = all ] || [ "${#mutate[@]}" -gt 0 ]; then
  scope="on the mutants the scenarios left alive"
  [ "${MUTATION_PROPERTIES:-survivors}" = all ] && scope="on every mutant"
  echo "== mutation run 2: the unit, property and fuzz tests (tap), $scope"
  run stryker.properties.config.json "${incremental2[@]}" --incrementalFile "$out/properties.incremental.json" "${mutate[@]}" "$@"
  node -r ./tools/register.js tools/mutation-score.ts score "$out/scenarios.json" "$out/properties.json" "${properties_args[@]}" --survivors "$out/survivors.md"
else
  node -r ./tools/register.js tools/mutation-score.ts score "$out/scenarios.json" --survivors "$out/survivors.md"
fi
echo "mutation testing took $((SECONDS - started)) s (scenarios run ${scenarios_s} s), niced, with load average $(cut -d' ' -f1-3 /proc/loadavg) at the end"
