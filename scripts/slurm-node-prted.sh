#!/bin/sh
# PRRTE launch agent for the one-host Slurm cluster (scripts/slurm-cluster.sh):
#   prte --prtemca prte_launch_agent "$PWD/scripts/slurm-node-prted.sh prted" ...
# plm/slurm starts each daemon with `srun ... <launch agent> <prted args>`.
# Every slurmd of the cluster runs on this host, so every prted would report
# the same gethostname() (prrte src/util/proc_info.c) and PRRTE would see one
# node. This runs the command in a private UTS namespace (unshare -u; root only)
# whose hostname is the Slurm node the step landed on (SLURMD_NODENAME, set by
# slurmd in every task's environment). Network, PIDs and files stay shared.
set -eu
node="${SLURMD_NODENAME:?SLURMD_NODENAME is unset: not started by a Slurm step}"
[ $# -ge 1 ] || { echo "usage: $0 prted [args...]" >&2; exit 2; }
exec unshare -u -- sh -c 'hostname "$1" && shift && exec "$@"' sh "$node" "$@"
