#!/usr/bin/env bash
# Build openpmix and prrte from source trees you already have, outside this
# repository, and install them into one prefix the bridge can use.
#   bash scripts/prrte-build.sh OPENPMIX_SRC PRRTE_SRC PREFIX
#   bash scripts/prrte-build.sh --check PREFIX      (an existing install: just check it)
# The sources are git checkouts (with their config/oac submodule populated) of
# github.com/openpmix/openpmix and github.com/openpmix/prrte; this script never
# fetches anything, and refuses paths inside the repository. It records the
# commits it built in PREFIX/pmix-conformance-sources.txt (from git, or
# OPENPMIX_COMMIT / PRRTE_COMMIT for trees made with git archive; the bridge reports
# them as its version). Needs: autoconf automake libtool flex libevent-dev
# libhwloc-dev zlib1g-dev pkg-config. JOBS (default 2) and NICE (default 10)
# set the make parallelism and niceness.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
inside() { case "$(cd "$1" && pwd)/" in "$repo"/*) return 0 ;; *) return 1 ;; esac; }
check() {
  local p="$1"
  for f in bin/prte bin/prted include/pmix.h lib/libpmix.so; do
    [ -e "$p/$f" ] || { echo "not a usable install: $p/$f is missing" >&2; return 1; }
  done
  echo "PRRTE install at $p:"; cat "$p/pmix-conformance-sources.txt" 2>/dev/null || echo "(commits not recorded)"
}
if [ "${1:-}" = "--check" ]; then check "${2:?PREFIX}"; exit; fi
[ $# -eq 3 ] || { sed -n 2,13p "$0" >&2; exit 2; }
pmix_src="$(cd "$1" && pwd)"; prrte_src="$(cd "$2" && pwd)"; prefix="$3"
for d in "$pmix_src" "$prrte_src"; do
  if inside "$d"; then echo "refusing to build inside the repository: $d" >&2; exit 2; fi
done
mkdir -p "$prefix"; prefix="$(cd "$prefix" && pwd)"
if inside "$prefix"; then echo "refusing to install inside the repository: $prefix" >&2; exit 2; fi
jobs="${JOBS:-2}"; nice="${NICE:-10}"
# A checkout's config/oac submodule must be populated before autogen.pl runs;
# the pinned oac commit may not be where the submodule points, so say how.
need_oac() {
  local src="$1"
  if [ ! -e "$src/config/oac/oac_init.m4" ] && [ ! -x "$src/configure" ]; then
    echo "$src/config/oac is empty: populate the submodule first, e.g." >&2
    echo "  git -C $src submodule update --init   (or, if the pinned commit is missing:" >&2
    echo "  git clone <open-mpi/oac> $src/config/oac && git -C $src submodule init)" >&2
    exit 2
  fi
}
# Progress, so a 10-minute build does not look hung: each stage as it starts,
# and every 30 s the directory make is in (from the log).
stage() { printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*"; }
ticker() {
  local log="$1"
  while sleep 30; do
    local at; at=$(grep -o "Making [a-z]* in [^ ]*" "$log" 2>/dev/null | tail -1 || true)
    stage "  … still going${at:+ ($at)}"
  done
}
build() {  # $1 source dir, rest: extra configure args
  local src="$1"; shift
  local name; name="$(basename "$src")"
  local log="$src.build.log"
  need_oac "$src"
  : > "$log"
  ticker "$log" & local tick=$!
  trap 'kill $tick 2>/dev/null || true' RETURN
  ( cd "$src"
    if [ ! -x configure ]; then stage "$name: autogen.pl (log: $log)" >&3; ./autogen.pl; fi
    stage "$name: configure --prefix=$prefix (log: $log)" >&3
    ./configure --prefix="$prefix" --disable-debug "$@"
    stage "$name: make -j$jobs" >&3
    nice -n "$nice" make -j"$jobs"
    stage "$name: make install" >&3
    make install ) 3>&1 >> "$log" 2>&1 || { kill $tick 2>/dev/null || true; echo "build of $src failed; see $log" >&2; tail -20 "$log" >&2; exit 1; }
  stage "$name: installed into $prefix"
}
build "$pmix_src"
build "$prrte_src" --with-pmix="$prefix"
{
  echo "openpmix ${OPENPMIX_COMMIT:-$(git -C "$pmix_src" rev-parse HEAD 2>/dev/null || echo unknown)}"
  echo "prrte ${PRRTE_COMMIT:-$(git -C "$prrte_src" rev-parse HEAD 2>/dev/null || echo unknown)}"
} > "$prefix/pmix-conformance-sources.txt"
check "$prefix"
