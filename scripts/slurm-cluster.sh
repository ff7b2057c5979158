#!/usr/bin/env bash
# A real Slurm cluster on this one host, for the PRRTE bridge's Slurm mode
# (docs/prrte-slurm.md): slurmctld and one slurmd per simulated node, all on
# 127.0.0.1, each slurmd on its own port (Slurm's multiple-slurmd build, made by
# scripts/slurm-build.sh).
#   bash scripts/slurm-cluster.sh start     write the configuration, start the daemons, wait until the nodes are idle
#   bash scripts/slurm-cluster.sh stop      scontrol shutdown, then wait for (or kill, by pid file) every daemon
#   bash scripts/slurm-cluster.sh status    sinfo and the daemons' pids
#   bash scripts/slurm-cluster.sh env       the export lines a client shell needs (eval "$(... env)")
#   bash scripts/slurm-cluster.sh shape NODES   only NODES (comma list) take work: the others are
#                                               drained, these resumed (a scenario's startup + pool)
# Settings (environment):
#   SLURM_PREFIX   the Slurm install (required: scripts/slurm-build.sh SRC PREFIX makes one)
#   SLURM_STATE    configuration, key, spool, logs, pid files (default /tmp/pmix-slurm; never the repository)
#   SLURM_STARTUP  startup node names (default n1,n2,n3): what the DVM's own allocation is made of
#   SLURM_POOL     scheduler-pool node names (default s1,s2,s3,s4,s5,s6): idle nodes an extend is granted from
#   SLURM_CPUS     CPUs (= PRRTE slots) per node: a number for all (default 4), or NAME=N,... with
#                  4 for the nodes not named (config_overrides lets them exceed the real cores)
#   SLURM_AUTH     none (default: auth/none + cred/none) or slurm (auth/slurm + cred/slurm with a
#                  key file beside slurm.conf; only if Slurm was built with libjwt)
#   SLURM_PROCTRACK linuxproc (default: a process tree, which a daemonized prted leaves) or cgroup
#                  (cgroup v1 freezer: Slurm finds and kills a step's daemonized processes)
#   SLURM_PORT     slurmctld's port (default 16817); slurmd ports follow from SLURM_PORT+184 (17001, ...)
# One partition, "pmix", holds every node. Pool nodes have Weight=1 and startup
# nodes Weight=100, so a request by count (an expander's `salloc --nodes=N`)
# takes idle pool nodes first, and the startup allocation names its nodes (-w).
# Authentication is auth/none: every daemon and client runs as root on this one
# host, so a credential would prove nothing here, and auth/slurm needs a Slurm
# built with libjwt (see scripts/slurm-build.sh), munge a running munged.
set -euo pipefail
prefix="${SLURM_PREFIX:-}"
state="${SLURM_STATE:-/tmp/pmix-slurm}"
startup="${SLURM_STARTUP:-n1,n2,n3}"
pool="${SLURM_POOL:-s1,s2,s3,s4,s5,s6}"
cpus="${SLURM_CPUS:-4}"
ctld_port="${SLURM_PORT:-16817}"
auth="${SLURM_AUTH:-none}"
proctrack="${SLURM_PROCTRACK:-linuxproc}"
repo="$(cd "$(dirname "$0")/.." && pwd)"
conf="$state/etc/slurm.conf"

case "$(mkdir -p "$state" && cd "$state" && pwd)/" in
  "$repo"/*) echo "SLURM_STATE must be outside the repository: $state" >&2; exit 2 ;;
esac

export PATH="$prefix/bin:$prefix/sbin:$PATH" SLURM_CONF="$conf"
nodes() { echo "$startup,$pool" | tr ',' '\n' | grep -v '^$'; }
cpus_of() {  # SLURM_CPUS is a number, or NAME=N,... (4 for the others)
  case "$cpus" in
    *=*) local v; v=$(echo ",$cpus," | sed -n "s/.*,$1=\([0-9]*\),.*/\1/p"); echo "${v:-4}" ;;
    *) echo "$cpus" ;;
  esac
}

write_conf() {
  mkdir -p "$state/etc" "$state/ctld" "$state/log" "$state/run"
  local port=$((ctld_port + 184)) lines="" n
  for n in $(nodes); do
    local weight=1
    case ",$startup," in *",$n,"*) weight=100 ;; esac
    lines+="NodeName=$n NodeHostname=localhost NodeAddr=127.0.0.1 Port=$port CPUs=$(cpus_of "$n") RealMemory=1000 Weight=$weight State=UNKNOWN"$'\n'
    port=$((port + 1))
  done
  cat > "$conf" <<EOF
# Written by scripts/slurm-cluster.sh: a one-host test cluster, one slurmd per node.
ClusterName=pmixconf
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/$auth
CredType=cred/$auth
StateSaveLocation=$state/ctld
SlurmdSpoolDir=$state/spool/%n
SlurmctldPidFile=$state/run/slurmctld.pid
SlurmdPidFile=$state/run/slurmd.%n.pid
SlurmctldLogFile=$state/log/slurmctld.log
SlurmdLogFile=$state/log/slurmd.%n.log
SlurmctldDebug=info
SlurmdDebug=info
SlurmdParameters=config_overrides
ProctrackType=proctrack/$proctrack
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
SlurmdTimeout=60
InactiveLimit=0
KillWait=5
MinJobAge=30
SchedulerType=sched/backfill
$lines
PartitionName=pmix Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
  # proctrack/cgroup on this host's cgroup v1 freezer: a step's processes are
  # found (and killed) even when they daemonize, as prted does
  printf 'CgroupPlugin=cgroup/v1\nCgroupMountpoint=/sys/fs/cgroup\nConstrainCores=no\nConstrainRAMSpace=no\nConstrainDevices=no\n' \
    > "$state/etc/cgroup.conf"
  if [ "$auth" = slurm ] && [ ! -s "$state/etc/slurm.key" ]; then
    (umask 077; dd if=/dev/urandom of="$state/etc/slurm.key" bs=1024 count=1 2>/dev/null)
  fi
  [ ! -e "$state/etc/slurm.key" ] || chmod 600 "$state/etc/slurm.key"
}

pidof_file() { [ -s "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null && cat "$1"; }

start() {
  [ -n "$prefix" ] || { echo "slurm-cluster.sh: SLURM_PREFIX is not set: the Slurm install to use (scripts/slurm-build.sh SRC PREFIX makes one)" >&2; exit 2; }
  "$(dirname "$0")/slurm-build.sh" --check "$prefix" >/dev/null
  [ -e "$prefix/lib/slurm/auth_$auth.so" ] || { echo "this Slurm has no auth/$auth plugin" >&2; exit 1; }
  if pidof_file "$state/run/slurmctld.pid" >/dev/null; then
    echo "slurmctld already runs (pid $(cat "$state/run/slurmctld.pid")); stop it first" >&2; exit 1
  fi
  rm -rf "$state/ctld" "$state/spool" "$state/run"
  write_conf
  local n
  for n in $(nodes); do mkdir -p "$state/spool/$n"; done
  slurmctld -c -i
  for n in $(nodes); do slurmd -N "$n" -c; done
  local count; count=$(nodes | wc -l)
  for _ in $(seq 1 60); do
    if [ "$(sinfo -h -N -t idle -o '%N' 2>/dev/null | sort -u | wc -l)" -eq "$count" ]; then
      sinfo; return 0
    fi
    sleep 1
  done
  echo "not every node became idle within 60 s:" >&2; sinfo -N >&2 || true
  tail -5 "$state/log/slurmctld.log" >&2 || true
  exit 1
}

stop() {
  [ -f "$conf" ] || { echo "no cluster configuration at $conf"; return 0; }
  scontrol shutdown >/dev/null 2>&1 || true
  local f pid
  for f in "$state"/run/*.pid; do
    [ -e "$f" ] || continue
    pid=$(pidof_file "$f") || continue
    for _ in $(seq 1 20); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
    if kill -0 "$pid" 2>/dev/null; then echo "killing $(basename "$f" .pid) (pid $pid)"; kill -9 "$pid" || true; fi
  done
  echo "stopped"
}

status() {
  local f pid
  for f in "$state"/run/*.pid; do
    [ -e "$f" ] || continue
    if pid=$(pidof_file "$f"); then echo "$(basename "$f" .pid): pid $pid"; else echo "$(basename "$f" .pid): not running"; fi
  done
  sinfo -N -l || true
}

shape() {
  local want=",${1:?shape needs a comma list of nodes},"
  local n
  for n in $(nodes); do
    case "$want" in
      *",$n,"*) scontrol update nodename="$n" state=resume >/dev/null 2>&1 || true ;;  # refused when not drained
      *) scontrol update nodename="$n" state=drain reason="not in this scenario" ;;
    esac
  done
  sinfo -N -h -o '%N %T' | sort -u | tr '\n' ' '; echo
}

case "${1:-}" in
  start) start ;;
  shape) shape "${2:-}" ;;
  stop) stop ;;
  status) status ;;
  env) printf 'export PATH=%q SLURM_CONF=%q\n' "$prefix/bin:$prefix/sbin:\$PATH" "$conf" | sed 's/\\\$PATH/$PATH/' ;;
  *) sed -n 2,24p "$0" >&2; exit 2 ;;
esac
