# The output of spoor stats is identical for any --threads, on plain and gzip
# inputs, with and without the checkpoint index.
source "$(dirname "$0")/lib/common.sh"

"$SPOOR_BIN" gen -o "$WORK/t.pfw" --size-mb 24 --seed 7 --no-truth > /dev/null
"$SPOOR_BIN" gen -o "$WORK/t.pfw.gz" --size-mb 24 --seed 7 --no-truth > /dev/null
for f in t.pfw t.pfw.gz; do
  rm -f "$WORK/$f.spoor-idx"
  "$SPOOR_BIN" stats --format json --threads 1 "$WORK/$f" | grep -v '"path"' > "$WORK/ref.json"
  [ "$f" = t.pfw ] || [ -f "$WORK/$f.spoor-idx" ] || fail "first scan of $f wrote no index"
  for threads in 2 3 4; do
    "$SPOOR_BIN" stats --format json --threads "$threads" "$WORK/$f" | grep -v '"path"' > "$WORK/got.json"
    cmp -s "$WORK/ref.json" "$WORK/got.json" || fail "$f: --threads $threads differs from --threads 1"
  done
done
cmp -s <("$SPOOR_BIN" stats --format csv "$WORK/t.pfw") <("$SPOOR_BIN" stats --format csv "$WORK/t.pfw.gz") \
  || fail "plain and gzip copies of one trace differ"
echo ok
