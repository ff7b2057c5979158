#!/usr/bin/env bash
# Build PRRTE with ras/slurm's extensions (the jansson parser of `scontrol show
# job --json`), into its own prefix, against an openpmix already installed.
#   bash scripts/slurm-prrte-build.sh PRRTE_SRC PMIX_PREFIX PREFIX
#   bash scripts/slurm-prrte-build.sh --check PREFIX
# Why a second build: a PRRTE configured without jansson compiles
# ras_slurm_jansson_stub.c instead of ras_slurm_jansson.c (ras/slurm/Makefile.am),
# and then every extend/release/cancel is refused with PRTE_ERR_NOT_AVAILABLE
# before Slurm is asked anything (ras_slurm_modify_common.c,
# prte_ras_slurm_have_extensions). The ras/hosts install the bridge uses is left alone.
# PRRTE_SRC is a git checkout with config/oac populated (see scripts/prrte-build.sh);
# it is not touched: the same commit is cloned to PREFIX.src (config/oac copied in)
# and built there. Needs libjansson-dev besides PRRTE's usual build packages.
# JOBS (default 2) and NICE (default 10) set the make parallelism and niceness.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
inside() { case "$(cd "$1" && pwd)/" in "$repo"/*) return 0 ;; *) return 1 ;; esac; }
check() {
  local p="$1" so="$1/lib/prte/prte_mca_ras_slurm.so"
  for f in bin/prte bin/prted "lib/prte/prte_mca_ras_slurm.so"; do
    [ -e "$p/$f" ] || { echo "not a usable install: $p/$f is missing" >&2; return 1; }
  done
  if ! ldd "$so" | grep -q libjansson; then
    echo "$so is not linked with jansson: ras/slurm's extend/release/cancel would be refused" >&2; return 1
  fi
  echo "PRRTE (ras/slurm with extensions) at $p:"; cat "$p/pmix-conformance-sources.txt" 2>/dev/null || true
}
if [ "${1:-}" = "--check" ]; then check "${2:?PREFIX}"; exit; fi
[ $# -eq 3 ] || { sed -n 2,15p "$0" >&2; exit 2; }
src="$(cd "$1" && pwd)"; pmix="$(cd "$2" && pwd)"; prefix="$3"
if inside "$src"; then echo "refusing to build inside the repository: $src" >&2; exit 2; fi
mkdir -p "$prefix"; prefix="$(cd "$prefix" && pwd)"
if inside "$prefix"; then echo "refusing to install inside the repository: $prefix" >&2; exit 2; fi
[ -e /usr/include/jansson.h ] || { echo "jansson headers missing: apt-get install libjansson-dev" >&2; exit 2; }
[ -e "$src/config/oac/oac_init.m4" ] || { echo "$src/config/oac is empty (see scripts/prrte-build.sh)" >&2; exit 2; }
jobs="${JOBS:-2}"; nice="${NICE:-10}"
stage() { printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*"; }
commit="$(git -C "$src" rev-parse HEAD)"
work="$prefix.src"; log="$prefix.build.log"; : > "$log"
start=$(date +%s)
if [ ! -d "$work/.git" ]; then
  stage "clone $src ($commit) to $work"
  git clone -q --no-checkout "$src" "$work"
fi
git -C "$work" checkout -q --detach "$commit"
rm -rf "$work/config/oac"; cp -a "$src/config/oac" "$work/config/oac"
git -C "$work" submodule init -q  # autogen.pl checks the submodule is registered
cd "$work"
stage "autogen.pl (log: $log)"
[ -x configure ] || ./autogen.pl >>"$log" 2>&1 || { tail -30 "$log" >&2; exit 1; }
stage "configure --with-jansson --enable-slurm-extensions"
./configure --prefix="$prefix" --with-pmix="$pmix" --disable-debug \
  --with-jansson --enable-slurm-extensions >>"$log" 2>&1 || { tail -30 "$log" >&2; exit 1; }
grep -E 'PRTE_HAVE_SLURM_EXTENSIONS|slurm extensions' "$log" | tail -2 || true
stage "make -j$jobs (nice $nice) install"
nice -n "$nice" make -j"$jobs" install >>"$log" 2>&1 || { tail -40 "$log" >&2; exit 1; }
{
  echo "openpmix $(cat "$pmix/pmix-conformance-sources.txt" 2>/dev/null | awk '/^openpmix/{print $2}') (from $pmix)"
  echo "prrte $commit (ras/slurm with jansson)"
} > "$prefix/pmix-conformance-sources.txt"
check "$prefix"
stage "done in $(( $(date +%s) - start )) s"
