#!/usr/bin/env bash
# Build Slurm (>= 24.05) from a source tree you already have, outside this
# repository, for the one-host Slurm mode of the PRRTE bridge (docs/prrte-slurm.md).
#   bash scripts/slurm-build.sh SLURM_SRC PREFIX
#   bash scripts/slurm-build.sh --check PREFIX      (an existing install: just check it)
# SLURM_SRC is a checkout of github.com/SchedMD/slurm at a release tag (e.g.
# slurm-24-11-6-1, the version PRRTE's contrib/slurmswarm pins); this script
# never fetches anything and refuses paths inside the repository.
# Configured with --enable-multiple-slurmd (one slurmd per simulated node on
# this host, each on its own port) and with libjson-c, whose serializer/json
# plugin is what `scontrol show job --json` needs: PRRTE's ras/slurm parses that
# output for every extend/release (its AGENTS.md; the v0.0.41 schema is 24.05+).
# Authentication: the cluster uses auth/none + cred/none (one host, everything
# as root). auth/slurm and cred/slurm are only built when libjwt is found
# (src/plugins/auth/Makefile.am: `if WITH_JWT SUBDIRS += jwt slurm`), auth/munge
# when libmunge is, and munge also needs a running munged.
# Debian 12 packages: build-essential libjson-c-dev; libjansson-dev is for PRRTE's
# ras/slurm (scripts/slurm-prrte-build.sh), not for Slurm.
# JOBS (default 2) and NICE (default 10) set the make parallelism and niceness.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
inside() { case "$(cd "$1" && pwd)/" in "$repo"/*) return 0 ;; *) return 1 ;; esac; }
check() {
  local p="$1"
  for f in sbin/slurmctld sbin/slurmd bin/salloc bin/srun bin/scontrol bin/sinfo \
           lib/slurm/serializer_json.so lib/slurm/auth_none.so lib/slurm/cred_none.so \
           lib/slurm/select_cons_tres.so; do
    [ -e "$p/$f" ] || { echo "not a usable Slurm install: $p/$f is missing" >&2; return 1; }
  done
  echo "Slurm install at $p (auth plugins: $(cd "$p/lib/slurm" && ls auth_*.so | sed 's/auth_//;s/\.so//' | tr '\n' ' '))"; cat "$p/pmix-conformance-sources.txt" 2>/dev/null || echo "(commit not recorded)"
}
if [ "${1:-}" = "--check" ]; then check "${2:?PREFIX}"; exit; fi
[ $# -eq 2 ] || { sed -n 2,15p "$0" >&2; exit 2; }
src="$(cd "$1" && pwd)"; prefix="$2"
if inside "$src"; then echo "refusing to build inside the repository: $src" >&2; exit 2; fi
mkdir -p "$prefix"; prefix="$(cd "$prefix" && pwd)"
if inside "$prefix"; then echo "refusing to install inside the repository: $prefix" >&2; exit 2; fi
[ -x "$src/configure" ] || { echo "$src has no configure script: not a Slurm source tree" >&2; exit 2; }
if ! pkg-config --exists json-c 2>/dev/null && [ ! -e /usr/include/json-c/json.h ]; then
  echo "libjson-c headers are missing (apt-get install libjson-c-dev): without them" >&2
  echo "serializer/json is not built and scontrol --json, which PRRTE's ras/slurm needs, fails" >&2
  exit 2
fi
jobs="${JOBS:-2}"; nice="${NICE:-10}"
stage() { printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*"; }
log="$src.build.log"; : > "$log"
start=$(date +%s)
cd "$src"
stage "configure (log: $log)"
./configure --prefix="$prefix" --sysconfdir="$prefix/etc" \
  --enable-multiple-slurmd --with-json --disable-debug --disable-static >>"$log" 2>&1 \
  || { tail -30 "$log" >&2; exit 1; }
stage "make -j$jobs (nice $nice)"
nice -n "$nice" make -j"$jobs" >>"$log" 2>&1 || { tail -40 "$log" >&2; exit 1; }
stage "make install"
nice -n "$nice" make -j"$jobs" install >>"$log" 2>&1 || { tail -40 "$log" >&2; exit 1; }
commit="$(git -C "$src" rev-parse HEAD 2>/dev/null || echo "${SLURM_COMMIT:-unknown}")"
tag="$(git -C "$src" describe --tags --exact-match 2>/dev/null || echo "")"
{
  echo "slurm $commit ${tag}"
  echo "built $(date -u +%Y-%m-%dT%H:%M:%SZ) in $(( $(date +%s) - start )) s with make -j$jobs (nice $nice)"
} > "$prefix/pmix-conformance-sources.txt"
check "$prefix"
stage "done in $(( $(date +%s) - start )) s"
