# spoor events writes the same bytes for any --threads, whether the filter
# runs on the workers (fixed columns) or in input order (file, line), on plain
# and gzip inputs, as CSV and JSONL.
source "$(dirname "$0")/lib/common.sh"

"$SPOOR_BIN" gen -o "$WORK/t.pfw" --size-mb 12 --seed 11 --no-truth > /dev/null
gzip -c "$WORK/t.pfw" > "$WORK/t.pfw.gz"
wheres=(
  ""
  "cat = 'sys' AND name IN ('read', 'write') AND dur > 2us"
  "file LIKE '%.h5' OR line BETWEEN 1000 AND 1010"
)
for f in t.pfw t.pfw.gz; do
  for where in "${wheres[@]}"; do
    for format in csv jsonl; do
      args=(--no-progress --format "$format")
      [ -n "$where" ] && args+=(--where "$where")
      "$SPOOR_BIN" events "${args[@]}" --threads 1 "$WORK/$f" > "$WORK/ref" || fail "$f: spoor events failed"
      rows=$(wc -l < "$WORK/ref")
      [ "$rows" -gt 10 ] || fail "$f --where \"$where\": only $rows lines, the test needs more"
      for threads in 2 3; do
        "$SPOOR_BIN" events "${args[@]}" --threads "$threads" "$WORK/$f" > "$WORK/got" || fail "$f: spoor events failed"
        cmp -s "$WORK/ref" "$WORK/got" || fail "$f $format --where \"$where\": --threads $threads differs from --threads 1"
      done
    done
  done
done
# Two inputs come out one after the other, in the order given.
"$SPOOR_BIN" events --no-progress --columns source,line "$WORK/t.pfw" "$WORK/t.pfw.gz" > "$WORK/two"
first=$(sed -n 2p "$WORK/two") last=$(tail -n 1 "$WORK/two")
[ "$first" = "$WORK/t.pfw,2" ] || fail "first row of two inputs is '$first'"
[ "${last%%,*}" = "$WORK/t.pfw.gz" ] || fail "last row of two inputs is '$last'"
echo ok
