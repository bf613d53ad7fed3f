#!/usr/bin/env bash
# Installs what bench/ingest/run.sh compares spoor with: igzip (isal), hyperfine,
# Python with pandas and PyTorch, GNU time (peak RSS), Node.js with DuckDB's node API;
# and fio, which bench/capture/blk_capture.sh runs while it traces the disk.
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
  fio               # the I/O patterns of bench/capture/blk_capture.sh (real block traces)
)

# shellcheck source=debian_packages.sh
. "$root/scripts/debian_packages.sh"
apt_install_missing install-bench-deps "${packages[@]}"

# DuckDB's node API, pinned by bench/ingest/package.json and package-lock.json.
if [ ! -d "$root/bench/ingest/node_modules/@duckdb/node-api" ]; then
  echo "install-bench-deps: npm install in bench/ingest" >&2
  (cd "$root/bench/ingest" && npm install --no-audit --no-fund --loglevel=error)
fi
