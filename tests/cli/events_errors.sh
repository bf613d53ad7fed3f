# spoor events usage errors: one line, the position in --where, exit code 2;
# unknown columns are warnings with a suggestion.
source "$(dirname "$0")/lib/common.sh"

"$SPOOR_BIN" gen -o "$WORK/t.pfw" --size-mb 1 --seed 2 --no-truth > /dev/null

expect_usage() { # expected stderr line, args...
  local want=$1
  shift
  local code=0
  "$SPOOR_BIN" events --no-progress "$@" > "$WORK/out" 2> "$WORK/err" || code=$?
  [ "$code" = 2 ] || fail "spoor events $*: exit $code, expected 2"
  [ "$(cat "$WORK/err")" = "$want" ] || fail "spoor events $*: stderr '$(cat "$WORK/err")', expected '$want'"
  [ ! -s "$WORK/out" ] || fail "spoor events $*: wrote output on a usage error"
}

expect_usage "spoor events: --where: expected a value at position 16, found end of expression" \
  --where "cat = 'sys' AND" "$WORK/t.pfw"
expect_usage "spoor events: --where: unterminated string starting at position 8" --where "name = 'read" "$WORK/t.pfw"
expect_usage "spoor events: --where: expected ')' at position 11, found end of expression" --where "(dur > 5us" "$WORK/t.pfw"
expect_usage "spoor events: --where: unknown unit 'sec' after a number at position 8 (expected ns, us, ms or s)" \
  --where "dur > 5sec" "$WORK/t.pfw"
expect_usage "spoor events: --columns: empty column name at position 4" --columns "ts,,name" "$WORK/t.pfw"
expect_usage "spoor events: --format 'xml': expected csv or jsonl" --format xml "$WORK/t.pfw"
expect_usage "spoor events: --where given twice" --where "dur > 1" --where "dur > 2" "$WORK/t.pfw"
expect_usage "spoor events: no trace given; see 'spoor events --help'" --where "dur > 1"

"$SPOOR_BIN" events --help | grep -q "^usage: spoor events" || fail "--help does not print the usage"

# A column no input has: null everywhere, a warning naming the likely one.
"$SPOOR_BIN" events --no-progress --where "fil = 'x' OR nmae = 'read'" "$WORK/t.pfw" > "$WORK/out" 2> "$WORK/err" \
  || fail "an unknown column failed the run"
[ "$(wc -l < "$WORK/out")" = 1 ] || fail "rows matched a condition on unknown columns"
grep -q "unknown column 'fil' at position 1: no input has it, so it is null in every row (did you mean 'file'?)" "$WORK/err" \
  || fail "no warning for 'fil': $(cat "$WORK/err")"
grep -q "unknown column 'nmae' at position 14.*did you mean 'name'" "$WORK/err" || fail "no warning for 'nmae'"
"$SPOOR_BIN" events --no-progress --where "hhsah IS NOT NULL" "$WORK/t.pfw" > /dev/null 2> "$WORK/err"
grep -q "unknown column 'hhsah'.*did you mean 'hhash'" "$WORK/err" || fail "no suggestion from args keys: $(cat "$WORK/err")"
"$SPOOR_BIN" events --no-progress --columns ts,fil "$WORK/t.pfw" > /dev/null 2> "$WORK/err"
grep -q "^spoor events: warning: --columns: unknown column 'fil': no input has it, so it is null (did you mean 'file'?)$" \
  "$WORK/err" || fail "no warning for --columns fil: $(cat "$WORK/err")"
echo ok
