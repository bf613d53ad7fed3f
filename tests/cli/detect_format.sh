# Text no reader knows (garbage) fails with one line and exit 1 instead of
# being read as a one-column CSV whose header is the first record; real CSV
# still reads; the text tools' outputs each go to their own reader.
source "$(dirname "$0")/lib/common.sh"
need_data

U=$SPOOR_DATA/bpftrace/unet3d-pytorch
for pair in bio.out:bpftrace-bio open.out:bpftrace-open cpu.out:mpstat train.log:python-logging pids.out:ps; do
  f=${pair%%:*} want=${pair#*:}
  "$SPOOR_BIN" stats --no-cache "$U/$f" > "$WORK/$f.stats" 2> "$WORK/err" || fail "$f: $(cat "$WORK/err")"
  grep -q "^dialect *$want" "$WORK/$f.stats" || fail "$f is not read as $want: $(grep '^dialect' "$WORK/$f.stats")"
done
# (each reader's own test: bpftrace.sh, mpstat_pmon.sh, pytext_mllog.sh, blk_traces.sh.)
printf 'qwe rty uiop\nasdf ghjkl, zx\n%%$#@ !\n' > "$WORK/garbage.txt"
expect_fail 1 "garbage.txt: could not detect the format" events "$WORK/garbage.txt"
expect_fail 1 "garbage.txt: could not detect the format" stats --ts at "$WORK/garbage.txt"

# Naming the format still reads the text as asked (its first line as the header).
"$SPOOR_BIN" stats --input-format csv --format json "$WORK/garbage.txt" > "$WORK/forced.json" 2> /dev/null \
  || fail "--input-format csv failed"
grep -q '"events": 1' "$WORK/forced.json" || fail "forced CSV: $(cat "$WORK/forced.json")"

# CSV with ';', tabs, quotes, and one named column are still found.
printf 'ts;name;dur\n1000;read;5\n2000;write;7\n' > "$WORK/semi.csv"
printf 'ts\tname\tdur\n1000\tread\t5\n2000\twrite\t7\n' > "$WORK/tab.csv"
printf 'ts,name,dur,path\n1000,read,5,"/a, b"\n2000,write,7,"/c"\n' > "$WORK/quoted.csv"
printf 'ts\n1000\n2000\n' > "$WORK/one.csv"
for f in semi tab quoted one; do
  "$SPOOR_BIN" stats --format json "$WORK/$f.csv" > "$WORK/$f.json" 2> "$WORK/err" || fail "$f.csv: $(cat "$WORK/err")"
  grep -q '"dialect": "csv"' "$WORK/$f.json" || fail "$f.csv not read as CSV: $(cat "$WORK/$f.json")"
  grep -q '"events": 2' "$WORK/$f.json" || fail "$f.csv lost a record: $(cat "$WORK/$f.json")"
done
echo ok
