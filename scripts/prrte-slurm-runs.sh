#!/usr/bin/env bash
# Several whole runs in the bridge's Slurm mode, one after another, and whether they agree
# (issue 26: the expectations rest on five agreeing runs):
#   bash scripts/prrte-slurm-runs.sh N PMIX_PREFIX [cucumber args...]
# scripts/prrte-runs.sh with PRRTE_RUNS_RM=slurm (see there): run k writes DIR/NAME-k/ and
# DIR/NAME-k.log (DIR is $PRRTE_SLURM_RUNS_DIR, default reports/prrte-slurm-runs; NAME is
# $PRRTE_RUNS_NAME, default w), then slurm_compare.py --agree writes DIR/agreement-NAME.md.
# A whole run takes about 30 min on a 2-core machine. To write the expectations from them:
#   python3 harnesses/prrte/slurm_expectations.py expectations/prrte-slurm.json \
#     reports/prrte-slurm-runs/NAME-*/conformance.json --note "..."
PRRTE_RUNS_RM=slurm exec bash "$(dirname "$0")/prrte-runs.sh" "$@"
