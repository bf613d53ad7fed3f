# One CLI: `spoor --help` gives every command (every tools/spoor/cmd_*.c) a
# one-line description; `spoor help CMD` is `spoor CMD --help`; `spoor
# version` and --version; for every command an unknown option, one without
# its value and a bare run are one line starting `spoor CMD:`, exit 2; the
# helps list --threads at most once and only the reading options that act;
# errors name the option as typed (gen --kind, series --time, lifecycle
# --entity, train's old --test); the old spellings still work (train --test,
# --depth; export-model --c-header; lifecycle --ts-unit); --cache-dir DIR is
# created.
source "$(dirname "$0")/lib/common.sh"
SRC=$(cd "$(dirname "$0")/../.." && pwd)

usage_error() { # PATTERN ARGS...: exit 2, one line, starting "spoor CMD: ", matching PATTERN
  local pattern=$1
  shift
  expect_fail 2 "$pattern" "$@"
  grep -q "^spoor $1: " "$WORK/err" || fail "spoor $*: the error does not start 'spoor $1: ': $(cat "$WORK/err")"
}

"$SPOOR_BIN" --help > "$WORK/help"
cmds=$(ls "$SRC"/tools/spoor/cmd_*.c | sed 's|.*/cmd_||; s|\.c$||; s|_|-|g')
[ "$(echo "$cmds" | wc -l)" -ge 16 ] || fail "too few commands found in $SRC/tools/spoor"
for cmd in $cmds; do
  grep -Eq "^  $cmd +[a-z].{15,}" "$WORK/help" || fail "spoor --help: no description of $cmd"
  "$SPOOR_BIN" "$cmd" --help > "$WORK/own" || fail "$cmd --help failed"
  "$SPOOR_BIN" help "$cmd" > "$WORK/via" || fail "spoor help $cmd failed"
  cmp -s "$WORK/own" "$WORK/via" || fail "spoor help $cmd differs from spoor $cmd --help"
  grep -q "^usage: spoor $cmd" "$WORK/own" || fail "$cmd --help: no usage line"
  [ "$(grep -c -- '--threads' "$WORK/own")" -le 1 ] || fail "$cmd --help lists --threads twice"
  usage_error "unknown option '--no-such-option'" "$cmd" --no-such-option
  usage_error "unknown option '--no-such-option'" "$cmd" --no-such-option=3
  usage_error "unknown option '-Z'" "$cmd" -Z
  usage_error "--help'" "$cmd" < /dev/null
done
usage_error "--format needs a value" stats --format
usage_error "-o needs a value" events x.pfw -o
expect_fail 2 "'nosuch' is not a command" help nosuch
for v in version --version; do
  "$SPOOR_BIN" $v | grep -Eqx "spoor [0-9]+\.[0-9]+\.[0-9]+" || fail "spoor $v"
done

# Only the reading options that act: datasets keep no snapshot and have no
# dialect or field options; series streams (no snapshot) and names its time
# field itself.
for cmd in train eval predict importance series; do
  "$SPOOR_BIN" $cmd --help > "$WORK/own"
  grep -Eq -- "--no-cache|--cache-dir|--dialect|--ts-unit|--ts/" "$WORK/own" && fail "$cmd --help lists options that do nothing"
  usage_error "unknown option '--no-cache'" $cmd --no-cache
done
"$SPOOR_BIN" stats --help | grep -q -- "--cache-dir" || fail "stats --help lacks --cache-dir"

# Errors name what the user typed.
usage_error "unknown kind 'bogus'" gen --kind bogus -o "$WORK/x"
"$SPOOR_BIN" gen --kind metrics -o "$WORK/m.csv" --rows 100 > /dev/null
expect_fail 2 "no column 'nosuch' (--time)" series "$WORK/m.csv" --time nosuch
"$SPOOR_BIN" gen --kind cascade -o "$WORK/c.jsonl" --records 200 > /dev/null
expect_fail 2 "no field 'nosuch' (--entity)" lifecycle "$WORK/c.jsonl" --entity nosuch --stage action --time at \
  --stages taskPlanned,taskFinished --delay d=taskFinished-taskPlanned

# The clearer names and the old spellings give the same bytes.
/usr/bin/python3 -c '
import random
random.seed(1)
print("a,b,label")
for i in range(200):
    a, b = random.random(), random.random()
    print(f"{a:.4f},{b:.4f},", "x" if a > 0.5 else "y", sep="")' > "$WORK/ds.csv"
train() { "$SPOOR_BIN" train "$WORK/ds.csv" --label label --model trees --rounds 3 "$@" > /dev/null; }
train --test-frac 0.3 --max-depth 2 -o "$WORK/new.json" || fail "train --test-frac --max-depth"
train --test 0.3 --depth 2 -o "$WORK/old.json" || fail "train --test --depth"
train --test 0.3 --depth 2 --output "$WORK/long.json" || fail "train --output"
cmp -s <(grep -v train_ms "$WORK/new.json") <(grep -v train_ms "$WORK/old.json") || fail "train: the old spellings differ"
[ -s "$WORK/long.json" ] || fail "train --output wrote nothing"
usage_error "--test '2': out of range" train "$WORK/ds.csv" --label label --test 2 -o "$WORK/x.json"
usage_error "--cv '1': expected" train "$WORK/ds.csv" --label label --cv 1 -o "$WORK/x.json"
"$SPOOR_BIN" export-model "$WORK/new.json" -o "$WORK/new.h" || fail "export-model -o"
"$SPOOR_BIN" export-model "$WORK/new.json" --c-header "$WORK/old.h" || fail "export-model --c-header"
cmp -s "$WORK/new.h" "$WORK/old.h" || fail "export-model: -o and --c-header differ"
lc=(lifecycle --preset cascade-tasks --format csv --no-cache "$WORK/c.jsonl")
cmp -s <("$SPOOR_BIN" "${lc[@]}" --time-unit us) <("$SPOOR_BIN" "${lc[@]}" --ts-unit us) \
  || fail "lifecycle: --time-unit and --ts-unit differ"

# --cache-dir: made with its parents; a path it cannot be is a one-line error.
"$SPOOR_BIN" gen -o "$WORK/t.pfw" --size-mb 0.2 --no-truth > /dev/null
"$SPOOR_BIN" sql --no-progress --cache-dir "$WORK/cache/a/b" "$WORK/t.pfw" "SELECT 1" > /dev/null 2> "$WORK/err" \
  || fail "sql --cache-dir failed"
ls "$WORK"/cache/a/b/*.spoor-snap > /dev/null 2>&1 || fail "--cache-dir: no snapshot in the new directory: $(cat "$WORK/err")"
[ ! -s "$WORK/err" ] || fail "--cache-dir: a warning: $(cat "$WORK/err")"
: > "$WORK/plain"
usage_error "--cache-dir: .*plain: cannot create the directory" stats --cache-dir "$WORK/plain/x" "$WORK/t.pfw"
echo ok
