#!/usr/bin/env bash
# Install the locked dependencies when they are missing or older than the lockfile,
# so the README's commands work on a fresh clone.
set -euo pipefail
cd "$(dirname "$0")/.."
stamp=node_modules/.package-lock.json
if [ ! -f "$stamp" ] || [ package-lock.json -nt "$stamp" ]; then
  echo "installing dependencies (npm ci)…"
  npm ci --no-audit --no-fund --loglevel=error
fi
