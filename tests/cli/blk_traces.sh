# The block-layer readers (blkparse, ftrace, lttng) against an independent
# reading in Python (lib/blk_reference.py): handmade traces with
# out-of-order completions, two devices, a merge, a flush, a requeue, an
# unmatched issue and completion; the same with a cut last line; a real
# ftrace capture of direct I/O on this machine's disk (tests/data/blk), and
# the capture repeated into several chunks read with 1 and 3 threads; the
# gzipped captures of fio patterns and of fsync flushes (tests/data/blk/captured).
source "$(dirname "$0")/lib/common.sh"
DATA=$(cd "$(dirname "$0")/../data/blk" && pwd)
REF="$(dirname "$0")/lib/blk_reference.py"
COLUMNS=ts,dur,name,pid,tid,dev,sector,bytes,rwbs,comm,error,queue_depth,line

# check FORM FILE [spoor options]: events and skip counts as the reference has them.
check() {
  local form=$1 file=$2
  shift 2
  /usr/bin/python3 "$REF" "$form" "$file" "$WORK/ref.skips" > "$WORK/ref.csv" || fail "reference failed on $file"
  "$SPOOR_BIN" events --no-progress --no-cache --columns "$COLUMNS" "$@" "$file" > "$WORK/got.csv" 2> "$WORK/err" ||
    fail "spoor events failed on $file: $(cat "$WORK/err")"
  [ "$(wc -l < "$WORK/ref.csv")" -gt 1 ] || fail "$file: the reference found no request"
  diff "$WORK/ref.csv" "$WORK/got.csv" > "$WORK/diff" || fail "$file: events differ from the reference: $(head -5 "$WORK/diff")"
  "$SPOOR_BIN" stats --no-progress --no-cache "$file" 2> /dev/null > "$WORK/stats"
  grep -q "^dialect     $form:" "$WORK/stats" || fail "$file: not read as $form: $(grep dialect "$WORK/stats")"
  sed -n 's/^lines .*skipped [0-9,]* (\(.*\))$/\1/p' "$WORK/stats" | sed 's/, /\n/g' | awk 'NF' | sort > "$WORK/got.skips"
  sort -o "$WORK/ref.skips" "$WORK/ref.skips"
  diff "$WORK/ref.skips" "$WORK/got.skips" > "$WORK/diff" ||
    fail "$file: skips differ from the reference: $(cat "$WORK/diff")"
}

cp "$DATA"/*.txt "$WORK/"
check blkparse "$WORK/blkparse_edge.txt"
check ftrace "$WORK/ftrace_edge.txt"
check lttng "$WORK/lttng_edge.txt"
check ftrace "$WORK/ftrace_dd.txt"
[ "$(/usr/bin/python3 "$REF" ftrace "$WORK/ftrace_dd.txt" /dev/null | wc -l)" -gt 1000 ] ||
  fail "the real capture has too few requests"

# The captures of bench/capture/blk_capture.sh, read gzipped as committed:
# every request (latency, bytes, sector, queue depth, ...) and every skip as
# the reference has them. The fio runs were traced whole: nothing unmatched.
# Requeued requests are joined at their second issue.
cp "$DATA"/captured/*.gz "$WORK/"
while IFS=, read -r file _; do
  check ftrace "$WORK/$file"
  [ ! -s "$WORK/ref.skips" ] || fail "$file: skips in a whole fio run: $(cat "$WORK/ref.skips")"
  [ "$(grep -c ',fio,' "$WORK/got.csv")" -ge 1900 ] || fail "$file: fewer than 1900 of fio's requests"
done < <(tail -n +2 "$DATA/captured/manifest.csv")
[ "$(zcat "$WORK"/*-?.ftrace.txt.gz | grep -c ' block_rq_requeue: ')" -gt 100 ] || fail "the captures lost their requeues"
# An excerpt cut from a trace during fsyncs: flush requests joined, the empty
# writes the flush machinery ended counted apart, the cut edges unmatched.
check ftrace "$WORK/flushes-excerpt.ftrace.txt.gz"
printf '1 issue without completion\n8 completion without issue\n97 empty write finished by a flush\n' |
  cmp -s - "$WORK/ref.skips" || fail "the excerpt's skips: $(cat "$WORK/got.skips")"
names=$(tail -n +2 "$WORK/got.csv" | cut -d, -f3 | sort | uniq -c | awk '{ printf "%s %s; ", $2, $1 }')
[ "$names" = "discard 16; flush 80; read 1661; write 190; " ] || fail "the excerpt's requests: $names"

# The three forms of the same requests agree on everything but the time base
# and what each names the issuer.
for form in blkparse ftrace lttng; do
  "$SPOOR_BIN" events --no-progress --no-cache --columns dur,name,dev,sector,bytes,rwbs,error "$WORK/${form}_edge.txt" \
    2> /dev/null > "$WORK/$form.same"
done
cmp -s "$WORK/blkparse.same" "$WORK/ftrace.same" || fail "blkparse and ftrace forms of one trace differ"
cmp -s "$WORK/blkparse.same" "$WORK/lttng.same" || fail "blkparse and lttng forms of one trace differ"

# babeltrace2's --clock-date and --clock-seconds times: the same requests,
# the time of day shifted by the date's midnight (UTC), 2024-05-01 = 1714521600 s.
sed 's/^\[10:/[2024-05-01 10:/' "$DATA/lttng_edge.txt" > "$WORK/lttng_date.txt"
sed 's/^\[10:00:00\./[1714557600./' "$DATA/lttng_edge.txt" > "$WORK/lttng_seconds.txt"
"$SPOOR_BIN" events --no-progress --no-cache --columns ts,dur,sector "$DATA/lttng_edge.txt" 2> /dev/null > "$WORK/day.csv"
for form in date seconds; do
  "$SPOOR_BIN" events --no-progress --no-cache --columns ts,dur,sector "$WORK/lttng_$form.txt" 2> /dev/null |
    /usr/bin/python3 -c 'import sys
for i, l in enumerate(sys.stdin):
    c = l.rstrip("\n").split(",")
    print(",".join([str(int(c[0]) - 1714521600 * 10**9)] + c[1:]) if i else l, end="" if not i else "\n")' > "$WORK/$form.csv"
  cmp -s "$WORK/day.csv" "$WORK/$form.csv" || fail "babeltrace2 --clock-$form times: $(diff "$WORK/day.csv" "$WORK/$form.csv" | head -3)"
done

# A time of day that passes midnight goes on into the next day.
cat > "$WORK/midnight.txt" <<'BT'
[23:59:59.999999000] (+?.?????????) block_rq_issue: { cpu_id = 0 }, { dev = 8388608, sector = 8, nr_sector = 8, bytes = 4096, tid = 7, rwbs = 4, comm = "dd" }
[00:00:00.000001000] (+0.000002000) block_rq_complete: { cpu_id = 0 }, { dev = 8388608, sector = 8, nr_sector = 8, error = 0, rwbs = 4 }
[00:00:01.000000000] (+0.999999000) block_rq_issue: { cpu_id = 0 }, { dev = 8388608, sector = 16, nr_sector = 8, bytes = 4096, tid = 7, rwbs = 4, comm = "dd" }
[00:00:01.000003000] (+0.000003000) block_rq_complete: { cpu_id = 0 }, { dev = 8388608, sector = 16, nr_sector = 8, error = 0, rwbs = 4 }
BT
"$SPOOR_BIN" events --no-progress --no-cache --columns ts,dur "$WORK/midnight.txt" > "$WORK/midnight.csv"
printf 'ts,dur\n86399999999000,2000\n86401000000000,3000\n' | cmp -s - "$WORK/midnight.csv" ||
  fail "times past midnight: $(cat "$WORK/midnight.csv")"

# A cut last line (no newline, payload cut): skipped with its reason.
for form in blkparse ftrace lttng; do
  f="$WORK/${form}_edge.txt"
  # the last line a completion: without the summary, without the other event
  if [ $form = blkparse ]; then sed -i '/^$/,$d' "$f"; else sed -i '$d' "$f"; fi
  head -c -12 "$f" > "$WORK/${form}_cut.txt"
  check $form "$WORK/${form}_cut.txt"
  grep -q "$(tail -n 1 "$WORK/${form}_cut.txt" | cut -c 1-20)" "$WORK/${form}_cut.txt"
done

# --strict stops at the first request left unmatched.
EXPECT_MAX_LINES=3 expect_fail 1 "ftrace_edge.txt:15: completion without issue (--strict)" \
  stats --no-progress --no-cache --strict "$WORK/ftrace_edge.txt"
EXPECT_MAX_LINES=3 expect_fail 1 "blkparse_edge.txt:11: completion without issue (--strict)" \
  stats --no-progress --no-cache --strict "$WORK/blkparse_edge.txt"
head -n 6 "$WORK/lttng_edge.txt" > "$WORK/lttng_open.txt"
EXPECT_MAX_LINES=3 expect_fail 1 "lttng_open.txt:4: issue without completion (--strict)" \
  stats --no-progress --no-cache --strict "$WORK/lttng_open.txt"
"$SPOOR_BIN" stats --no-progress --no-cache --strict "$WORK/ftrace_dd.txt" > /dev/null ||
  fail "the real capture fails --strict"

# --input-format names each reader; the ftrace text is no blkparse output.
"$SPOOR_BIN" stats --no-progress --no-cache --input-format ftrace "$WORK/ftrace_edge.txt" 2> /dev/null |
  grep -q '^dialect     ftrace:' || fail "--input-format ftrace"
EXPECT_MAX_LINES=30 expect_fail 1 "skipped" stats --no-progress --no-cache --strict --input-format blkparse \
  "$WORK/ftrace_edge.txt"

# The capture repeated into a few chunks (shifted by a second each time), so
# that requests join across batches: the same as the reference, and the same
# for any --threads.
/usr/bin/python3 - "$WORK/ftrace_dd.txt" "$WORK/big.txt" <<'PY'
import re, sys
lines = [l for l in open(sys.argv[1]) if not l.startswith("#")]
with open(sys.argv[2], "w") as out:
    for k in range(26):
        for l in lines:
            out.write(re.sub(r" (\d+)\.(\d{6}): ", lambda m: " %d.%s: " % (int(m.group(1)) + k, m.group(2)), l, 1))
PY
[ "$(stat -c %s "$WORK/big.txt")" -gt 9000000 ] || fail "the repeated capture is too small to span chunks"
check ftrace "$WORK/big.txt" --threads 1
"$SPOOR_BIN" events --no-progress --no-cache --threads 3 --columns "$COLUMNS" "$WORK/big.txt" > "$WORK/three.csv"
cmp -s "$WORK/got.csv" "$WORK/three.csv" || fail "--threads 3 differs from --threads 1"
echo ok
