# spoor series against the ground truth of spoor gen --kind metrics: CSV and
# JSON lines (plain and gzip), ISO-8601 (with and without offset) and every
# epoch unit, several threads, a table split over two inputs, missing and
# non-numeric cells and malformed lines. Means, counts and extremes must be
# exact; deviations and correlations within 1e-9 (lib/series_check.py).
source "$(dirname "$0")/lib/common.sh"
CHECK="/usr/bin/python3 $(dirname "$0")/lib/series_check.py"
SECTIONS="metrics groups by_hour by_weekday corr pairs resample headroom"

series_json() { # OUT INPUT... [options]
  local out=$1
  shift
  "$SPOOR_BIN" series "$@" --time timestamp --group node --by hour,weekday --corr 0.7 --resample 1h \
    --target cpu_usage_rate=0.65 --format json --no-progress \
    --show metrics,groups,hour,weekday,corr,pairs,resample,headroom > "$out" 2> "$WORK/err" \
    || fail "spoor series $*: $(cat "$WORK/err")"
}

threads=1
for tf in iso iso-offset s ms us ns; do
  for ext in csv jsonl.gz; do
    f="$WORK/t-$tf.$ext"
    "$SPOOR_BIN" gen --kind metrics -o "$f" --rows 5000 --nodes 7 --time-format "$tf" --missing 0.03 \
      --bad-lines 3 --seed 5 > /dev/null
    threads=$((threads % 3 + 1)) # 2, 3, 1, 2, ...: every format meets several thread counts
    series_json "$WORK/out.json" "$f" --threads "$threads"
    $CHECK "$f.truth.json" "$WORK/out.json" $SECTIONS || fail "$tf $ext --threads $threads differs from the truth"
  done
done

# A table without gaps takes the co-moment path for whole batches.
"$SPOOR_BIN" gen --kind metrics -o "$WORK/full.csv" --rows 30000 --nodes 5 --seed 9 > /dev/null
series_json "$WORK/out.json" "$WORK/full.csv" --threads 2
$CHECK "$WORK/full.csv.truth.json" "$WORK/out.json" $SECTIONS || fail "a table without gaps differs from the truth"

# The unit guessed from the magnitude is said, and --time-unit overrides it.
"$SPOOR_BIN" series "$WORK/t-ms.csv" --time timestamp --no-progress 2>/dev/null | grep -q "in ms (guessed" \
  || fail "the guessed epoch unit is not reported"
series_json "$WORK/out.json" "$WORK/t-ms.csv" --time-unit ms
$CHECK "$WORK/t-ms.csv.truth.json" "$WORK/out.json" $SECTIONS || fail "--time-unit ms differs from the truth"

# One table in two files (the second with its own header) gives the same answers.
f="$WORK/t-iso.csv"
lines=$(wc -l < "$f")
head -n $((lines / 2)) "$f" > "$WORK/a.csv"
{ head -n 1 "$f"; tail -n +$((lines / 2 + 1)) "$f"; } > "$WORK/b.csv"
series_json "$WORK/out.json" "$WORK/a.csv" "$WORK/b.csv" --threads 2
$CHECK "$f.truth.json" "$WORK/out.json" $SECTIONS || fail "two inputs differ from the truth"

# The check can fail: another seed's table does not match this truth.
"$SPOOR_BIN" gen --kind metrics -o "$WORK/other.csv" --rows 5000 --nodes 7 --missing 0.03 --bad-lines 3 \
  --seed 6 > /dev/null
series_json "$WORK/out.json" "$WORK/other.csv"
if $CHECK "$f.truth.json" "$WORK/out.json" $SECTIONS 2> /dev/null; then
  fail "the checker accepts another table's answers"
fi

# The CSV of one section is plain CSV with the section's columns.
"$SPOOR_BIN" series "$f" --time timestamp --group node --resample 1h --show resample --format csv \
  --no-progress > "$WORK/r.csv" 2> /dev/null
[ "$(head -n 1 "$WORK/r.csv")" = "node,start,rows,cpu_usage_rate,memory_usage,load_1m,disk_io,net_rx" ] \
  || fail "resample CSV header: $(head -n 1 "$WORK/r.csv")"
want=$(/usr/bin/python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['resample']))" "$f.truth.json")
[ "$(($(wc -l < "$WORK/r.csv") - 1))" -eq "$want" ] || fail "resample CSV has not $want rows"

# A resample of 40 K rows is spelled in parts on the threads: the same bytes as
# on one thread, in JSON and CSV, and the truth's.
"$SPOOR_BIN" gen --kind metrics -o "$WORK/many.csv" --rows 40000 --nodes 20 --interval 3600 --seed 3 > /dev/null
for format in json csv; do
  for t in 1 2; do
    "$SPOOR_BIN" series "$WORK/many.csv" --time timestamp --group node --resample 1h --show resample \
      --format $format --threads $t --no-progress > "$WORK/many-$t.$format" 2> /dev/null
  done
  cmp -s "$WORK/many-1.$format" "$WORK/many-2.$format" || fail "--format $format differs between 1 and 2 threads"
done
$CHECK "$WORK/many.csv.truth.json" "$WORK/many-2.json" resample || fail "the 40 K-row resample differs from the truth"
# Sums, means, deviations and correlations are the same bytes on any number of
# threads: each batch's sums join the totals in input order. The table spans
# three 4 MiB batches; 90m resampling sums the hour x weekday profile per row,
# 1h from the resample buckets.
"$SPOOR_BIN" gen --kind metrics -o "$WORK/det.csv" --rows 120000 --nodes 30 --missing 0.03 --bad-lines 3 \
  --seed 4 > /dev/null
for resample in 1h 90m; do
  for t in 1 2 3; do
    "$SPOOR_BIN" series "$WORK/det.csv" --time timestamp --group node --by hour,weekday,hour-weekday \
      --corr 0.7 --resample $resample --target cpu_usage_rate=0.65 --format json --threads $t --no-progress \
      > "$WORK/det-$t.json" 2> /dev/null || fail "spoor series --threads $t --resample $resample failed"
  done
  for t in 2 3; do
    cmp -s "$WORK/det-1.json" "$WORK/det-$t.json" \
      || fail "--resample $resample: --threads $t differs from --threads 1"
  done
done
echo ok
