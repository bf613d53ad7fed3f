# Sourced by the CLI tests: the binary, the shared data and a scratch folder.
set -euo pipefail
: "${SPOOR_BIN:?SPOOR_BIN is not set (run through ctest)}"
SPOOR_TMP=${SPOOR_TMP:-/tmp}
mkdir -p "$SPOOR_TMP"
WORK=$(mktemp -d "$SPOOR_TMP/cli-XXXXXX")
trap 'rm -rf "$WORK"' EXIT

# Exits 77 (skipped) with a reason when ../shared/data is absent.
need_data() {
  if [ ! -d "${SPOOR_DATA:-}" ]; then
    echo "skipped: shared data folder ${SPOOR_DATA:-(unset)} is absent"
    exit 77
  fi
}

fail() { echo "FAIL: $*" >&2; exit 1; }
