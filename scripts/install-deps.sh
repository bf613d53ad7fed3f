#!/usr/bin/env bash
# Installs the Debian packages spoor needs to build, test and benchmark.
# Idempotent: does nothing when everything is already installed.
set -euo pipefail

packages=(
  build-essential cmake pkg-config      # toolchain
  clang libclang-rt-14-dev              # libFuzzer targets and sanitizers
  libisal-dev isal                      # gzip inflate (ISA-L) and igzip, the benchmark floor
  zlib1g-dev libzstd-dev zstd           # gzip index building, zstd traces
  libcmocka-dev libcjson-dev            # unit tests; cJSON also reads spoor model files and is the reference parser in differential tests
  libsqlite3-dev sqlite3                # spoor sql (virtual tables), export --to sqlite; the CLI for round-trip tests
  libedit-dev                           # line editing in the interactive sql shell
  liblapacke-dev libopenblas-dev        # ml: PCA (LAPACKE on OpenBLAS)
  libxgboost-dev                        # ml: boosted trees and TreeSHAP (XGBoost C API)
  python3                               # round-trip tests read exports back with Python's csv/json/sqlite3
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
echo "install-deps: installing ${missing[*]}" >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
