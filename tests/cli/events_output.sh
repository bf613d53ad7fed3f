# spoor events -o: the file appears complete or not at all; a failed run
# leaves neither a partial file nor a temporary, and keeps an older file.
source "$(dirname "$0")/lib/common.sh"

"$SPOOR_BIN" gen -o "$WORK/t.pfw.gz" --size-mb 4 --seed 5 --no-truth > /dev/null
mkdir "$WORK/out"
only_entries() { # expected listing of $WORK/out (dotfiles included)
  local got
  got=$(ls -A "$WORK/out" | tr '\n' ' ')
  [ "$got" = "$1" ] || fail "output folder holds '$got', expected '$1'"
}

"$SPOOR_BIN" events --no-progress -o "$WORK/out/e.csv" "$WORK/t.pfw.gz" || fail "spoor events -o failed"
only_entries "e.csv "
cmp -s "$WORK/out/e.csv" <("$SPOOR_BIN" events --no-progress "$WORK/t.pfw.gz") || fail "-o and stdout differ"

# A missing second input fails the run after rows were written.
if "$SPOOR_BIN" events --no-progress -o "$WORK/out/bad.csv" "$WORK/t.pfw.gz" "$WORK/nope.pfw" 2> "$WORK/err"; then
  fail "a missing input did not fail"
fi
grep -q "nope.pfw" "$WORK/err" || fail "the error does not name the missing input: $(cat "$WORK/err")"
only_entries "e.csv "

# A truncated gzip with --strict fails too, and the older file survives.
head -c 200000 "$WORK/t.pfw.gz" > "$WORK/cut.pfw.gz"
cp "$WORK/out/e.csv" "$WORK/before.csv"
if "$SPOOR_BIN" events --no-progress --strict -o "$WORK/out/e.csv" "$WORK/cut.pfw.gz" 2> "$WORK/err"; then
  fail "--strict on a truncated gzip did not fail"
fi
only_entries "e.csv "
cmp -s "$WORK/out/e.csv" "$WORK/before.csv" || fail "a failed run changed the existing output"
# Without --strict it is a warning, and the recovered rows are written.
"$SPOOR_BIN" events --no-progress -o "$WORK/out/cut.csv" "$WORK/cut.pfw.gz" 2> "$WORK/err" || fail "truncated input failed without --strict"
grep -q "truncated" "$WORK/err" || fail "no warning about the truncated input"
[ "$(wc -l < "$WORK/out/cut.csv")" -gt 100 ] || fail "no rows recovered from the truncated input"

# The format follows the file name unless --format says otherwise.
"$SPOOR_BIN" events --no-progress --where "dur > 1ms" -o "$WORK/out/e.jsonl" "$WORK/t.pfw.gz"
/usr/bin/python3 -c '
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
assert rows and all(r["dur"] > 1000000 for r in rows), len(rows)
' "$WORK/out/e.jsonl" || fail "-o e.jsonl is not JSON lines of the matching rows"
"$SPOOR_BIN" events --no-progress --format csv --where "dur > 1ms" -o "$WORK/out/forced.jsonl" "$WORK/t.pfw.gz"
head -c 3 "$WORK/out/forced.jsonl" | grep -q '^ts,' || fail "--format csv did not win over the file name"
rm "$WORK/out/forced.jsonl" "$WORK/out/e.jsonl" "$WORK/out/cut.csv"

# A folder as the output is an error before anything is read.
if "$SPOOR_BIN" events --no-progress -o "$WORK/out" "$WORK/t.pfw.gz" 2> "$WORK/err"; then
  fail "-o FOLDER did not fail"
fi
grep -q "is a directory" "$WORK/err" || fail "unexpected error for -o FOLDER: $(cat "$WORK/err")"
only_entries "e.csv "

# A FIFO (like /dev/null) is written in place, not replaced by a renamed file.
mkfifo "$WORK/fifo"
wc -l < "$WORK/fifo" > "$WORK/fifo_lines" &
"$SPOOR_BIN" events --no-progress --format csv -o "$WORK/fifo" "$WORK/t.pfw.gz" || fail "-o FIFO failed"
wait
[ -p "$WORK/fifo" ] || fail "-o FIFO replaced the FIFO"
[ "$(cat "$WORK/fifo_lines")" -gt 100 ] || fail "-o FIFO: the reader got $(cat "$WORK/fifo_lines") lines"
"$SPOOR_BIN" gen -o "$WORK/fifo" --size-mb 1 > /dev/null &
cat "$WORK/fifo" > /dev/null
wait
[ -p "$WORK/fifo" ] || fail "spoor gen -o FIFO replaced the FIFO"
[ ! -e "$WORK/fifo.truth.json" ] || fail "spoor gen -o FIFO wrote a truth sidecar beside it"
echo ok
