# Sourced by the CLI tests: the binary, the shared data and a scratch folder.
set -euo pipefail
: "${SPOOR_BIN:?SPOOR_BIN is not set (run through ctest)}"
SPOOR_TMP=${SPOOR_TMP:-/tmp}
mkdir -p "$SPOOR_TMP"
WORK=$(mktemp -d "$SPOOR_TMP/cli-XXXXXX")
trap 'rm -rf "$WORK"' EXIT
export TMPDIR=$WORK # spoor's own temporaries (a default CSV's spill file) stay in the test's folder

# Exits 77 (skipped) with a reason when ../shared/data is absent.
need_data() {
  if [ ! -d "${SPOOR_DATA:-}" ]; then
    echo "skipped: shared data folder ${SPOOR_DATA:-(unset)} is absent"
    exit 77
  fi
}

fail() { echo "FAIL: $*" >&2; exit 1; }

# expect_fail CODE PATTERN ARGS...: spoor ARGS exits CODE with a short stderr
# (EXPECT_MAX_LINES lines, default 1) matching PATTERN.
expect_fail() {
  local code=$1 pattern=$2
  shift 2
  set +e
  "$SPOOR_BIN" "$@" > "$WORK/out" 2> "$WORK/err"
  local got=$?
  set -e
  [ "$got" -eq "$code" ] || fail "spoor $* exited $got, expected $code: $(cat "$WORK/err")"
  grep -q -- "$pattern" "$WORK/err" || fail "spoor $*: stderr lacks '$pattern': $(cat "$WORK/err")"
  [ "$(wc -l < "$WORK/err")" -le "${EXPECT_MAX_LINES:-1}" ] || fail "spoor $*: error is too long: $(cat "$WORK/err")"
}
