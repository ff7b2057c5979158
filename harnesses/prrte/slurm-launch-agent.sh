#!/bin/sh
# PRRTE's launch agent in the bridge's Slurm mode (slurm_mode.py): plm/slurm
# starts every daemon as `srun ... <this> --ctl=DIR prted <args>`. As
# scripts/slurm-node-prted.sh, it runs prted in a private UTS namespace named
# after the Slurm node (SLURMD_NODENAME), so each daemon is a distinct PRRTE
# node on this one host; and, as launch-agent.sh does for the ordinary bridge,
# it takes the bridge's control directory (--ctl=DIR; PRRTE passes no
# environment of the bridge's) for the daemon faults (faults.py):
#   DIR/<node>.fail   exit 1 instead of starting the daemon (it fails to start)
#   DIR/<node>.log    written at every launch (the daemon was launched)
#   DIR/<node>.pid    the pid that becomes the prted
set -eu
ctl=""
case "${1:-}" in --ctl=*) ctl="${1#--ctl=}"; shift ;; esac
node="${SLURMD_NODENAME:?SLURMD_NODENAME is unset: not started by a Slurm step}"
[ $# -ge 1 ] || { echo "usage: $0 [--ctl=DIR] prted [args...]" >&2; exit 2; }
if [ -n "$ctl" ]; then
  printf 'launch: %s\n' "$*" >> "$ctl/$node.log"
  if [ -e "$ctl/$node.fail" ]; then
    echo "slurm-launch-agent: refusing to start the daemon of $node (test control)" >> "$ctl/$node.log"
    exit 1
  fi
  echo $$ > "$ctl/$node.pid"
fi
exec unshare -u -- sh -c 'hostname "$1" && shift && exec "$@"' sh "$node" "$@"
