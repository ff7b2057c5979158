#!/usr/bin/env bash
# The main job: run the whole conformance suite against an implementation and
# write the reports (report.html, summary.md, conformance.json,
# conformance.html, conformance.junit.xml, conformance.ndjson) to reports/.
# It is `pmix-conformance run` (tools/cli.ts), so both behave the same: the
# same checks before anything runs (an unknown tag or area, a scenario id
# that names nothing, an adapter that cannot load, a harness that cannot
# start: one line and exit 2), scenario ids exactly as the reports print them,
# the previous reports kept until the new run completes, and paths relative
# to the current directory.
#
#   bash scripts/conformance.sh [pmix-conformance run options] [feature paths or scenario ids] [-- cucumber options]
#
# Environment (each the same as the option in brackets):
#   PMIX_CONFORMANCE_ADAPTER   an adapter module            (--adapter)
#   PMIX_CONFORMANCE_COMMAND   a wire-protocol harness      (--command; with
#                              PMIX_CONFORMANCE_ADAPTER unset or adapters/subprocess)
#   PMIX_CONFORMANCE_EXPECT    an expectations file         (--expect)
#   PMIX_CONFORMANCE_REPORTS   the reports directory        (--reports; default reports)
# Exit status 0 only when every outcome matches the expectations; 1 when one
# does not; 2 when nothing could be run.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bash "$root/scripts/ensure-deps.sh"
args=(run --reports "${PMIX_CONFORMANCE_REPORTS:-reports}")
[ -n "${PMIX_CONFORMANCE_EXPECT:-}" ] && args+=(--expect "$PMIX_CONFORMANCE_EXPECT")
adapter="${PMIX_CONFORMANCE_ADAPTER:-}"
if [ -n "${PMIX_CONFORMANCE_COMMAND:-}" ] && { [ -z "$adapter" ] || [ "${adapter%.ts}" = adapters/subprocess ] || [ "${adapter%.ts}" = "$root/adapters/subprocess" ]; }; then
  args+=(--command "$PMIX_CONFORMANCE_COMMAND")
elif [ -n "$adapter" ]; then
  args+=(--adapter "$adapter")
fi
# The CLI hands cucumber the adapter it chose (above).
unset PMIX_CONFORMANCE_ADAPTER
export TS_NODE_TRANSPILE_ONLY=true
status=0
node -r "$root/tools/register.js" "$root/tools/cli.ts" "${args[@]}" "$@" || status=$?
exit "$status"
