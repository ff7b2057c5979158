#!/usr/bin/env bash
# The live run in the bridge's Slurm mode (issue 26; docs/prrte-slurm.md, "The
# Slurm mode"): the suite against PRRTE allocating through a real Slurm
# (ras/slurm), one scenario at a time.
#   bash scripts/prrte-slurm-run.sh PMIX_PREFIX [cucumber args...]
# PMIX_PREFIX: the openpmix+prrte install the agents are built against (the
# argument, or $PRRTE_PREFIX; e.g. the one scripts/prrte-build.sh made). The DVM itself is the
# Slurm-enabled PRRTE, $PRRTE_SLURM_PREFIX (scripts/slurm-prrte-build.sh), on
# the Slurm at $SLURM_PREFIX (scripts/slurm-build.sh); both required, no path
# is assumed. Without either it says so and exits 3, running nothing.
# One worker only: every scenario reshapes the one cluster (scripts/slurm-cluster.sh,
# state in $SLURM_STATE, default /tmp/pmix-slurm), which this script starts
# when it is not running and then stops at the end (a running one is used and
# left running). SLURM_PROCTRACK=cgroup makes the cluster use proctrack/cgroup
# (the bridge then starts prte with --leave-session-attached).
# Reports go to $PRRTE_REPORTS (default reports/prrte-slurm/); outcomes are
# judged against $PMIX_CONFORMANCE_EXPECT, default expectations/prrte-slurm.json
# (written from whole runs of this mode by harnesses/prrte/slurm_expectations.py,
# classed by verdicts_slurm.py), else, in a tree without it,
# expectations/prrte.json: the ras/hosts expectations. To see the verdicts that
# differ from ras/hosts: harnesses/prrte/slurm_compare.py --causes REPORTS/conformance.json.
set -euo pipefail
cd "$(dirname "$0")/.."
prefix="${PRRTE_PREFIX:-}"
if [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; then prefix="$1"; shift; fi
if [ "${1:-}" = "--jobs" ]; then
  [ "${2:-}" = 1 ] || { echo "the Slurm mode runs one scenario at a time (every worker would need a Slurm cluster of its own): --jobs 1 only" >&2; exit 2; }
  shift 2
fi
export SLURM_PREFIX="${SLURM_PREFIX:-}"
export PRRTE_SLURM_PREFIX="${PRRTE_SLURM_PREFIX:-}"
export SLURM_STATE="${SLURM_STATE:-/tmp/pmix-slurm}"
missing=""
[ -n "$SLURM_PREFIX" ] || missing+="SLURM_PREFIX is not set: the Slurm install to use (scripts/slurm-build.sh SRC PREFIX makes one)"$'\n'
[ -n "$PRRTE_SLURM_PREFIX" ] || missing+="PRRTE_SLURM_PREFIX is not set: the Slurm-enabled PRRTE install (scripts/slurm-prrte-build.sh makes one)"$'\n'
[ -z "$SLURM_PREFIX" ] || { [ -x "$SLURM_PREFIX/bin/salloc" ] && [ -x "$SLURM_PREFIX/sbin/slurmctld" ]; } ||
  missing+="no Slurm at SLURM_PREFIX=$SLURM_PREFIX (bin/salloc, sbin/slurmctld): build it with scripts/slurm-build.sh SRC $SLURM_PREFIX"$'\n'
[ -z "$PRRTE_SLURM_PREFIX" ] || [ -x "$PRRTE_SLURM_PREFIX/bin/prte" ] ||
  missing+="no Slurm-enabled PRRTE at PRRTE_SLURM_PREFIX=$PRRTE_SLURM_PREFIX (bin/prte): build it with scripts/slurm-prrte-build.sh PRRTE_SRC PMIX_PREFIX $PRRTE_SLURM_PREFIX"$'\n'
if [ -n "$missing" ]; then
  printf 'skipped: the Slurm mode cannot run here:\n%s' "$missing" >&2
  exit 3
fi
eval "$(bash scripts/slurm-cluster.sh env)"
started=""
if ! scontrol ping 2>/dev/null | grep -q UP; then
  bash scripts/slurm-cluster.sh start >/dev/null
  started=1
fi
cleanup() {
  if [ -n "$started" ]; then bash scripts/slurm-cluster.sh stop >/dev/null || true; rm -f "$SLURM_STATE/bridge-shape.json"; fi
}
trap cleanup EXIT
export PRRTE_BRIDGE_RM=slurm
# A scenario's start reshapes the cluster (a restart when its slots differ)
# and waits for salloc and every srun-launched daemon; a grow Slurm queues is
# cancelled by the bridge after PRRTE_BRIDGE_SLURM_GROW_S (15 s). Every
# request is answered within the runner's timeout, set here above both.
export PMIX_CONFORMANCE_TIMEOUT_MS="${PMIX_CONFORMANCE_TIMEOUT_MS:-45000}"
export PRRTE_BRIDGE_CALL_S="${PRRTE_BRIDGE_CALL_S:-20}"
export PRRTE_REPORTS="${PRRTE_REPORTS:-reports/prrte-slurm}"
expect=expectations/prrte.json
[ -f expectations/prrte-slurm.json ] && expect=expectations/prrte-slurm.json
export PMIX_CONFORMANCE_EXPECT="${PMIX_CONFORMANCE_EXPECT:-$expect}"
echo "Slurm mode: $(sinfo --version), PRRTE $PRRTE_SLURM_PREFIX, cluster state $SLURM_STATE, judged against $PMIX_CONFORMANCE_EXPECT" >&2
bash scripts/prrte-run.sh "$prefix" --jobs 1 "$@"
