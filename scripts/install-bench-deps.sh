#!/usr/bin/env bash
# Installs what bench/ingest/run.sh compares spoor with: igzip (isal), hyperfine,
# Python with pandas and PyTorch, GNU time (peak RSS), Node.js with DuckDB's node API.
# Idempotent: installs only what is missing.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

packages=(
  isal              # igzip, the inflate floor
  hyperfine         # medians of repeated runs
  python3-pandas    # the Python peer (/usr/bin/python3)
  time              # /usr/bin/time -v for peak RSS
  nodejs npm        # the DuckDB peer
  python3-torch     # the PyTorch peer of spoor train (bench/ml)
  python3-sklearn   # reference depth-2 tree and logistic regression (bench/ml)
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# A Node.js from elsewhere (nodesource, nvm) is fine too.
if command -v node >/dev/null && command -v npm >/dev/null; then
  kept=()
  for p in "${missing[@]}"; do
    case $p in nodejs|npm) ;; *) kept+=("$p") ;; esac
  done
  missing=("${kept[@]}")
fi
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  echo "install-bench-deps: installing ${missing[*]}" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# DuckDB's node API, pinned by bench/ingest/package.json and package-lock.json.
if [ ! -d "$root/bench/ingest/node_modules/@duckdb/node-api" ]; then
  echo "install-bench-deps: npm install in bench/ingest" >&2
  (cd "$root/bench/ingest" && npm install --no-audit --no-fund --loglevel=error)
fi
