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
build() {  # $1 source dir, rest: extra configure args
  local src="$1"; shift
  ( cd "$src"
    [ -x configure ] || ./autogen.pl
    ./configure --prefix="$prefix" --disable-debug "$@"
    nice -n "$nice" make -j"$jobs"
    make install ) > "$src.build.log" 2>&1 || { echo "build of $src failed; see $src.build.log" >&2; tail -20 "$src.build.log" >&2; exit 1; }
}
build "$pmix_src"
build "$prrte_src" --with-pmix="$prefix"
{
  echo "openpmix ${OPENPMIX_COMMIT:-$(git -C "$pmix_src" rev-parse HEAD 2>/dev/null || echo unknown)}"
  echo "prrte ${PRRTE_COMMIT:-$(git -C "$prrte_src" rev-parse HEAD 2>/dev/null || echo unknown)}"
} > "$prefix/pmix-conformance-sources.txt"
check "$prefix"
