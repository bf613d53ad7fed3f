#!/usr/bin/env bash
# spoor gen from the command line: usage errors, determinism, .gz equal to the
# plain trace, the truth sidecar, and no temporary files left behind.
set -euo pipefail

bin=${SPOOR_BIN:?SPOOR_BIN is not set}
tmp=${SPOOR_TMP:-/tmp}/cli-gen-$$
rm -rf "$tmp"
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }

# Usage errors: exit 2 and exactly one line on stderr.
expect_usage() {
  local rc=0
  "$bin" gen "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
  [ "$rc" -eq 2 ] || fail "gen $* exited $rc, want 2"
  [ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "gen $* printed $(wc -l <"$tmp/err") lines on stderr, want 1"
  [ ! -s "$tmp/out" ] || fail "gen $* printed on stdout"
}
expect_usage
expect_usage --size-mb 1
expect_usage -o "$tmp/x.pfw" --size-mb abc
expect_usage -o "$tmp/x.pfw" --size-mb -3
expect_usage -o "$tmp/x.pfw" --procs 0
expect_usage -o "$tmp/x.pfw" --seed 1x
expect_usage -o "$tmp/x.pfw" --level 10
expect_usage -o "$tmp/x.pfw" --bogus
expect_usage -o "$tmp/x.pfw" extra-arg
expect_usage -o
[ ! -e "$tmp/x.pfw" ] || fail "a usage error wrote a trace"

"$bin" gen --help | grep -q -- '--random-hashes' || fail "--help does not describe --random-hashes"

# Same seed, same bytes; another seed, other bytes.
"$bin" gen -o "$tmp/a.pfw" --size-mb 0.3 --seed 9 >/dev/null
"$bin" gen -o "$tmp/b.pfw" --size-mb 0.3 --seed 9 >/dev/null
"$bin" gen -o "$tmp/c.pfw" --size-mb 0.3 --seed 10 >/dev/null
cmp -s "$tmp/a.pfw" "$tmp/b.pfw" || fail "same seed gave different traces"
! cmp -s "$tmp/a.pfw" "$tmp/c.pfw" || fail "different seeds gave the same trace"
[ "$(head -n 1 "$tmp/a.pfw")" = "[" ] || fail "the first line is not ["
size=$(stat -c %s "$tmp/a.pfw")
[ "$size" -ge 300000 ] && [ "$size" -lt 400000 ] || fail "size $size is not about 0.3 MB"

# The truth sidecar agrees with the trace's own line count.
[ -s "$tmp/a.pfw.truth.json" ] || fail "no truth sidecar"
lines=$(wc -l <"$tmp/a.pfw")
grep -q "\"lines\": $lines," "$tmp/a.pfw.truth.json" || fail "truth line count differs from wc -l ($lines)"

# .gz output inflates to the plain bytes (several deflate blocks).
"$bin" gen -o "$tmp/d.pfw" --size-mb 2.2 --seed 4 --random-hashes --no-truth >/dev/null
"$bin" gen -o "$tmp/d.pfw.gz" --size-mb 2.2 --seed 4 --random-hashes --no-truth --level 1 >/dev/null
gzip -t "$tmp/d.pfw.gz" || fail "gzip -t rejects the output"
zcat "$tmp/d.pfw.gz" | cmp -s - "$tmp/d.pfw" || fail ".gz does not inflate to the plain trace"
[ ! -e "$tmp/d.pfw.truth.json" ] || fail "--no-truth wrote a sidecar"

# An unwritable destination: exit 1, one line naming it, nothing left behind.
rc=0
"$bin" gen -o "$tmp/missing/dir/e.pfw" --size-mb 0.1 2>"$tmp/err" >/dev/null || rc=$?
[ "$rc" -eq 1 ] || fail "unwritable destination exited $rc, want 1"
grep -q "missing/dir/e.pfw" "$tmp/err" || fail "the error does not name the file"
[ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "more than one error line"
if ls "$tmp" | grep -q '\.tmp\.'; then fail "temporary files left behind"; fi
# -o -: only the data on stdout (the report goes to stderr), and no truth
# sidecar named after "-" in the working directory, for every kind.
mkdir "$tmp/stdout" && cd "$tmp/stdout"
"$bin" gen -o - --size-mb 0.3 --seed 9 >"$tmp/s.pfw" 2>"$tmp/s.err" || fail "gen -o - failed"
cmp -s "$tmp/s.pfw" "$tmp/a.pfw" || fail "gen -o - wrote other bytes than gen -o FILE"
grep -q "^-: .* lines" "$tmp/s.err" || fail "gen -o - reported nothing on stderr: $(cat "$tmp/s.err")"
"$bin" gen --kind metrics -o - --rows 100 >"$tmp/m.csv" 2>/dev/null || fail "gen --kind metrics -o - failed"
! grep -q "bad lines\|ground truth" "$tmp/m.csv" || fail "the metrics report went to stdout"
"$bin" gen --kind cascade -o - --records 200 >"$tmp/c.jsonl" 2>"$tmp/c.err" || fail "gen --kind cascade -o - failed"
grep -q "^-: $(wc -l <"$tmp/c.jsonl") lines" "$tmp/c.err" || fail "gen --kind cascade -o - miscounts its lines: $(cat "$tmp/c.err")"
grep -q "records.*; [0-9.]* MB" "$tmp/c.err" && ! grep -q "18446744073709" "$tmp/c.err" ||
  fail "gen --kind cascade -o - misreports its size: $(cat "$tmp/c.err")"
[ -z "$(ls -A)" ] || fail "gen -o - left files in the working directory: $(ls -A)"
cd - >/dev/null

echo "gen_cli: ok"
