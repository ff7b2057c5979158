#!/usr/bin/env bash
# Unit/property tests (node:test) and the cucumber suite, in one process tree so c8 sees both.
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t tests < <(find test -name '*.test.ts' | sort)
node --require ts-node/register/transpile-only --test "${tests[@]}"
npx cucumber-js
# The same suite over the wire: the reference engine as a protocol server, driven by the subprocess adapter.
PMIX_CONFORMANCE_ADAPTER=adapters/subprocess npx cucumber-js --format summary
# The Python implementer's template over the wire: what it declares must pass, the rest must be skipped (never failed or errored).
PMIX_CONFORMANCE_ADAPTER=adapters/subprocess PMIX_CONFORMANCE_COMMAND="python3 harnesses/python/harness.py" npx cucumber-js --format summary
