#!/usr/bin/env bash
# Installs the Debian packages spoor needs to build, test and benchmark, and
# the npm packages pinned in web/package-lock.json (ECharts, inlined into HTML
# reports at build; playwright-core, which drives Chromium in the browser test).
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
  nodejs npm                            # web/: npm ci installs ECharts and playwright-core
  chromium                              # the browser test opens every HTML report kind headless
  linux-headers-amd64                   # kernel/: the module builds against Debian's stock kernel
  qemu-system-x86 busybox-static cpio   # tests/vm: that kernel booted with a busybox initramfs (the
                                        # kernel itself is fetched with apt-get download, unpacked with dpkg-deb)
)

# shellcheck source=debian_packages.sh
. "$(dirname "$0")/debian_packages.sh"
apt_install_missing install-deps "${packages[@]}"

# npm ci wipes and reinstalls node_modules, so it runs only when the lock
# changed since the last install (a stamp of its hash inside node_modules):
# with the packages in place, no network is needed.
web=$(cd "$(dirname "$0")/../web" && pwd)
stamp=$web/node_modules/.spoor-lock.sha256
lock_sum=$(sha256sum < "$web/package-lock.json")
if [ "$(cat "$stamp" 2>/dev/null)" != "$lock_sum" ]; then
  echo "install-deps: npm ci in $web" >&2
  (cd "$web" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
  echo "$lock_sum" > "$stamp"
fi
