#!/usr/bin/env bash
# Which known-bad implementations (known-bad/*.ts) and deliberately broken
# engines (test/properties/broken/*.ts) each property test catches: runs the
# property's main test (the one that takes PMIX_CONFORMANCE_ADAPTER) against
# each, with the fixed default seed, and prints one line per implementation:
#
#   <implementation> <lifecycle> <elastic> <reservation>
#
# each column "caught" (the property failed), "passed" (it did not) or
# "error" (the run crashed before the property could judge). Not part of the
# test command: it takes a few minutes (two runs at a time; JOBS=<n> for more).
# SEEDS="1 2 3 4 5" runs each property once per seed instead of with the fixed
# default seed, and each column says how many of those runs caught it (k/n):
# how robustly a property catches it, not whether one seed happens to.
# PROPS="lifecycle elastic" runs only those properties (columns in that order).
# SET=good runs the known-goods (known-good/*.ts) the same way instead: each
# must pass every property.
#
#   bash test/properties/known-bad-coverage.sh [name-filter] > coverage.txt
set -uo pipefail
cd "$(dirname "$0")/../.."
export TS_NODE_TRANSPILE_ONLY=true
filter=${1:-}
jobs=${JOBS:-2}

export PATTERN_lifecycle='^reservations end exactly'
export PATTERN_elastic='^elastic DVM: campaigns'
export PATTERN_reservation='^node reservation and spawn targeting'

impls=()
if [ "${SET:-bad}" = good ]; then files=(known-good/*.ts); else files=(known-bad/*.ts test/properties/broken/*.ts); fi
for f in "${files[@]}"; do
  case $f in */wrap.ts | */child-tracking.ts | */declared.ts | known-good/good.ts) continue ;; esac
  [ -n "$filter" ] && [[ $f != *"$filter"* ]] && continue
  impls+=("${f%.ts}")
done

run_impl() {
  local impl=$1 line=$1 prop v out rc r seed caught n
  for prop in ${PROPS:-lifecycle elastic reservation}; do
    v="PATTERN_$prop"
    if [ -z "${SEEDS:-}" ]; then
      out=$(PMIX_CONFORMANCE_ADAPTER=$impl node --require ./tools/register.js --test \
        --test-name-pattern="${!v}" "test/properties/$prop.property.test.ts" 2>&1)
      rc=$?
      if [ $rc -eq 0 ]; then r=passed
      elif grep -q 'Property failed after' <<<"$out"; then r=caught
      else r=error; fi
    else
      caught=0 n=0
      for seed in $SEEDS; do
        n=$((n + 1))
        out=$(PMIX_PROPERTY_SEED=$seed PMIX_PROPERTY_END_ON_FAILURE=1 PMIX_CONFORMANCE_ADAPTER=$impl node --require ./tools/register.js --test \
          --test-name-pattern="${!v}" "test/properties/$prop.property.test.ts" 2>&1)
        grep -q 'Property failed after' <<<"$out" && caught=$((caught + 1))
      done
      r="$caught/$n"
    fi
    line="$line $r"
  done
  echo "$line"
}
export -f run_impl

printf '%s\n' "${impls[@]}" | xargs -P "$jobs" -I{} bash -c 'run_impl "$@"' _ {} | sort
