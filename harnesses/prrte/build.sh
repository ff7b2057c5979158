#!/usr/bin/env bash
# Build openpmix and prrte from source trees you already have, into a prefix
# outside this repository. Nothing is fetched and nothing is written inside
# the repository: the sources and the build stay where you put them.
#
#   bash harnesses/prrte/build.sh --openpmix SRC --prrte SRC --oac SRC --prefix DIR [--work DIR]
#
# Each SRC is a source tree (a git checkout) or a bare git directory (its
# HEAD is exported into --work). --oac is the open-mpi/oac tree that both
# projects use as their config/oac submodule (needed when the source tree is a
# bare clone without submodules). Needs: autoconf automake libtool flex
# pkg-config libevent-dev libhwloc-dev zlib1g-dev (Debian package names).
set -euo pipefail

openpmix='' prrte='' oac='' prefix='' work=''
while [ $# -gt 0 ]; do
  case "$1" in
    --openpmix) openpmix=$2; shift 2 ;;
    --prrte) prrte=$2; shift 2 ;;
    --oac) oac=$2; shift 2 ;;
    --prefix) prefix=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    *) echo "build.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
[ -n "$openpmix" ] && [ -n "$prrte" ] && [ -n "$prefix" ] || { echo "build.sh: --openpmix, --prrte and --prefix are required (see --help)" >&2; exit 2; }
repo=$(cd "$(dirname "$0")/../.." && pwd)
work=${work:-$(dirname "$prefix")/src}
case "$(realpath -m "$prefix")/" in "$repo"/*) echo "build.sh: --prefix must be outside the repository" >&2; exit 2 ;; esac
case "$(realpath -m "$work")/" in "$repo"/*) echo "build.sh: --work must be outside the repository" >&2; exit 2 ;; esac
mkdir -p "$work" "$prefix"

# A bare git directory is exported; a work tree is used as it is.
tree() { # name src
  local name=$1 src=$2 out="$work/$1"
  if [ -d "$src/.git" ] || [ -f "$src/configure.ac" ]; then echo "$src"; return; fi
  rm -rf "$out" && mkdir -p "$out"
  git --git-dir="$src" archive HEAD | tar -x -C "$out"
  git --git-dir="$src" rev-parse HEAD > "$out/.source-commit"
  echo "$out"
}
ompix=$(tree openpmix "$openpmix")
oprrte=$(tree prrte "$prrte")
for t in "$ompix" "$oprrte"; do
  if [ ! -f "$t/config/oac/oac_init.m4" ] && [ -n "$oac" ]; then
    rm -rf "$t/config/oac" && mkdir -p "$t/config/oac"
    if [ -d "$oac/.git" ]; then cp -r "$oac"/. "$t/config/oac/"; else git --git-dir="$oac" archive HEAD | tar -x -C "$t/config/oac"; fi
  fi
done

jobs=${JOBS:-2}
echo "== openpmix ($ompix) -> $prefix"
( cd "$ompix" && ./autogen.pl && ./configure --prefix="$prefix" --disable-debug --disable-man-pages && nice -n 10 make -j"$jobs" && make install ) > "$work/openpmix-build.log" 2>&1 \
  || { echo "openpmix build failed; see $work/openpmix-build.log" >&2; tail -20 "$work/openpmix-build.log" >&2; exit 1; }
echo "== prrte ($oprrte) -> $prefix"
( cd "$oprrte" && ./autogen.pl && ./configure --prefix="$prefix" --with-pmix="$prefix" --disable-debug --disable-man-pages && nice -n 10 make -j"$jobs" && make install ) > "$work/prrte-build.log" 2>&1 \
  || { echo "prrte build failed; see $work/prrte-build.log" >&2; tail -20 "$work/prrte-build.log" >&2; exit 1; }
{
  echo "openpmix $(cat "$ompix/.source-commit" 2>/dev/null || git -C "$ompix" rev-parse HEAD)"
  echo "prrte $(cat "$oprrte/.source-commit" 2>/dev/null || git -C "$oprrte" rev-parse HEAD)"
} > "$prefix/pmix-conformance-sources.txt"
echo "built: $prefix (sources: $(tr '\n' ' ' < "$prefix/pmix-conformance-sources.txt"))"
