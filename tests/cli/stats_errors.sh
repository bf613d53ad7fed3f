# Bad input: one clear line naming file, line and problem; counts of what was
# skipped; --strict fails; nothing crashes; usage errors exit 2.
source "$(dirname "$0")/lib/common.sh"
# The skip report may precede the --strict error.
EXPECT_MAX_LINES=3

"$SPOOR_BIN" stats --help | grep -q "usage: spoor stats" || fail "no --help"
expect_fail 2 "no trace given" stats
expect_fail 2 "expected table, json or csv" stats --format xml x.pfw
expect_fail 2 "threads" stats --threads 0 x.pfw
expect_fail 1 "$WORK/missing.pfw" stats "$WORK/missing.pfw"
expect_fail 1 "$WORK" stats "$WORK"

# An empty file is a trace with no events.
: > "$WORK/empty.pfw"
"$SPOOR_BIN" stats --format json "$WORK/empty.pfw" > "$WORK/empty.json" || fail "empty file failed"
grep -q '"events": 0' "$WORK/empty.json" || fail "empty file has events"

# Garbage lines among good ones: skipped, counted, reported with file:line.
cat > "$WORK/bad.pfw" <<'PFW'
[
{"pid": 1, "tid": 1, "name": "read", "cat": "sys", "ph": "X", "ts": 10, "dur": 5}
this is not json
{"pid": 1, "tid": 1, "name": "write", "cat": "sys", "ph": "X", "ts": 20, "dur": 7}
{"pid": 1, "tid": 1, "name": "wr
PFW
"$SPOOR_BIN" stats --format json "$WORK/bad.pfw" > "$WORK/bad.json" 2> "$WORK/err" || fail "skips made stats fail"
grep -q '"events": 2' "$WORK/bad.json" || fail "good events lost: $(cat "$WORK/bad.json")"
grep -q '"skipped": 2' "$WORK/bad.json" || fail "skips not counted"
grep -q "bad.pfw:3: " "$WORK/err" || fail "no file:line for the garbage line: $(cat "$WORK/err")"
grep -q "skipped 2 of 5 lines" "$WORK/err" || fail "no skip summary: $(cat "$WORK/err")"
expect_fail 1 "bad.pfw:3: .*--strict" stats --strict "$WORK/bad.pfw"
echo ok
