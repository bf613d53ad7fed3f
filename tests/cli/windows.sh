# spoor windows against a brute-force reading in Python
# (lib/windows_reference.py over lib/blk_reference.py's request rows): a
# handmade ftrace trace (two devices, completions out of issue order, a
# request exactly on a window border, an empty window, a window of
# completions only, a discard and a flush
# left out, sequential, backward and far requests) and the real capture of
# tests/data/blk, per device and not, with several widths; bad options and a
# trace that is not a block trace; the CSV of two labelled traces fed to
# spoor train; and the real captures of fio patterns (tests/data/blk/captured),
# each labelled with its run, concatenated and scored leave-one-run-out.
source "$(dirname "$0")/lib/common.sh"
DATA=$(cd "$(dirname "$0")/../data/blk" && pwd)
LIB="$(dirname "$0")/lib"

# check FILE EVERY_NS BY_DEV [RUN_ID LABEL]: every column as the reference has it.
check() {
  local file=$1 every=$2 by_dev=$3
  shift 3
  local opts=(--every "${every}ns")
  [ "$by_dev" = 1 ] && opts+=(--by dev)
  [ $# -gt 0 ] && opts+=(--run-id "$1" --label "$2")
  /usr/bin/python3 "$LIB/blk_reference.py" ftrace "$file" /dev/null > "$WORK/requests.csv" ||
    fail "reference reader failed on $file"
  "$SPOOR_BIN" windows --no-progress "${opts[@]}" --format csv -o "$WORK/got.csv" "$file" 2> "$WORK/err" ||
    fail "spoor windows failed on $file: $(cat "$WORK/err")"
  /usr/bin/python3 "$LIB/windows_reference.py" "$WORK/requests.csv" "$every" "$by_dev" "$WORK/got.csv" \
    "$@" > "$WORK/ref.out" 2>&1 || fail "$file --every ${every}ns by_dev=$by_dev: $(cat "$WORK/ref.out")"
}

cat > "$WORK/edge.txt" <<'TRACE'
# tracer: nop
#
#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION
             fio-100     [000] ..... 1000.000000: block_rq_issue: 8,0 R 4096 () 100 + 8 be,0,4 [fio]
             fio-100     [000] ..... 1000.000001: block_rq_issue: 8,0 W 8192 () 5000 + 16 be,0,4 [fio]
              cp-102     [001] ..... 1000.000002: block_rq_issue: 8,16 R 131072 () 0 + 256 be,0,4 [cp]
             fio-100     [000] ..... 1000.000003: block_rq_issue: 8,0 R 4096 () 108 + 8 be,0,4 [fio]
          <idle>-0       [000] ..s1. 1000.000004: block_rq_complete: 8,0 R () 108 + 8 be,0,4 [0]
          <idle>-0       [000] ..s1. 1000.000005: block_rq_complete: 8,0 R () 100 + 8 be,0,4 [0]
          <idle>-0       [001] ..s1. 1000.000006: block_rq_complete: 8,16 R () 0 + 256 be,0,4 [0]
             fio-100     [000] ..... 1000.000007: block_rq_issue: 8,0 D 1048576 () 90000 + 2048 be,0,4 [fio]
          <idle>-0       [000] ..s1. 1000.000008: block_rq_complete: 8,0 W () 5000 + 16 be,0,4 [0]
          <idle>-0       [000] ..s1. 1000.000009: block_rq_complete: 8,0 D () 90000 + 2048 be,0,4 [0]
             fio-100     [000] ..... 1000.000010: block_rq_issue: 8,0 R 4096 () 9000 + 8 be,0,4 [fio]
              cp-102     [001] ..... 1000.000011: block_rq_issue: 8,16 W 4096 () 1 + 8 be,0,4 [cp]
    kworker/0:1H-104     [000] ..... 1000.000012: block_rq_issue: 8,0 FWS 0 () 0 + 0 be,0,4 [kworker/0:1H]
          <idle>-0       [000] ..s1. 1000.000013: block_rq_complete: 8,0 R () 9000 + 8 be,0,4 [0]
          <idle>-0       [001] ..s1. 1000.000014: block_rq_complete: 8,16 W () 1 + 8 be,0,4 [0]
          <idle>-0       [000] ..s1. 1000.000015: block_rq_complete: 8,0 FWS () 18446744073709551615 + 0 be,0,4 [0]
             fio-100     [000] ..... 1000.000031: block_rq_issue: 8,0 W 4096 () 5016 + 8 be,0,4 [fio]
             fio-100     [001] ..... 1000.000032: block_rq_issue: 8,0 W 4096 () 5010 + 8 be,0,4 [fio]
          <idle>-0       [000] ..s1. 1000.000040: block_rq_complete: 8,0 W () 5010 + 8 be,0,4 [0]
          <idle>-0       [000] ..s1. 1000.000041: block_rq_complete: 8,0 W () 5016 + 8 be,0,4 [0]
TRACE
for every in 10000 1000 3000 7000 1000000000; do
  check "$WORK/edge.txt" "$every" 1
  check "$WORK/edge.txt" "$every" 0
done
check "$WORK/edge.txt" 10000 1 run7 sequential

# The border and the empty window, spelled out: at 10 us, the read issued at
# exactly 10 us opens window 1, window 2 (20-30 us) makes no row, and window
# 4 holds only completions (latencies count where they complete).
"$SPOOR_BIN" windows --no-progress --every 10us --format csv "$WORK/edge.txt" > "$WORK/out.csv"
[ "$(cut -d, -f1 "$WORK/out.csv" | tr '\n' ' ')" = "window 0 1 3 4 " ] ||
  fail "windows at 10us: $(cut -d, -f1 "$WORK/out.csv" | tr '\n' ' ')"
[ "$(awk -F, 'NR == 3 { print $3 }' "$WORK/out.csv")" = 1 ] || fail "window 1 should hold one read: $(sed -n 3p "$WORK/out.csv")"
# Sequential, then a backward step of 14 sectors, in issue order (completed
# the other way round): queue depths 1 and 2; their latencies, 10 and 8 us,
# in window 4: p50 8000 and p99 10000 rounded down to 5 significant bits.
grep -q '^3,1000000030000,.*,2,8192,4096,4096,200000,819200000,0,0,0,0,7,0,0.5,1.5$' "$WORK/out.csv" ||
  fail "window 3's writes: $(sed -n 4p "$WORK/out.csv")"
grep -q '^4,1000000040000,.*,0,0,0,0,0,0,2,9000,7936,9728,0,0,0,0$' "$WORK/out.csv" ||
  fail "window 4's write completions: $(sed -n 5p "$WORK/out.csv")"

cp "$DATA/ftrace_dd.txt" "$WORK/"
for every in 50000000 7000000 1000000; do
  check "$WORK/ftrace_dd.txt" "$every" 1
  check "$WORK/ftrace_dd.txt" "$every" 0
done

# The formats of the report model carry the same rows.
"$SPOOR_BIN" windows --no-progress --every 1ms --format jsonl "$WORK/ftrace_dd.txt" > "$WORK/out.jsonl"
"$SPOOR_BIN" windows --no-progress --every 1ms --format csv "$WORK/ftrace_dd.txt" > "$WORK/out.csv"
[ "$(wc -l < "$WORK/out.jsonl")" -eq "$(($(wc -l < "$WORK/out.csv") - 1))" ] || fail "jsonl and csv rows differ"
"$SPOOR_BIN" windows --no-progress --every 1ms "$WORK/ftrace_dd.txt" > "$WORK/out.txt"
grep -q "read_latency_p99" "$WORK/out.txt" || fail "no table"

# Bad options and inputs: one clear line each.
expect_fail 2 "--every DUR is required" windows "$WORK/edge.txt"
expect_fail 2 "--every '0s': rounds to 0 ns" windows --every 0s "$WORK/edge.txt"
expect_fail 2 "--every '0.1ns': rounds to 0 ns" windows --every 0.1ns "$WORK/edge.txt"
expect_fail 2 "--every '5': a number needs a unit" windows --every 5 "$WORK/edge.txt"
expect_fail 2 "--every '2.5x': unknown unit" windows --every 2.5x "$WORK/edge.txt"
for bad in abc -1s; do
  expect_fail 2 "--every '$bad': not a duration" windows --every "$bad" "$WORK/edge.txt"
done
expect_fail 2 "--every '106752d': too long" windows --every 106752d "$WORK/edge.txt"
expect_fail 2 "--by wants dev, not 'cpu'" windows --every 1s --by cpu "$WORK/edge.txt"
expect_fail 2 "no block trace given" windows --every 1s
printf 'ts,dur,name\n1,2,read\n' > "$WORK/table.csv"
expect_fail 1 "table.csv: not a block-layer trace (read as csv); windows reads blkparse, ftrace or lttng" \
  windows --no-progress --every 1s "$WORK/table.csv"

# Two labelled traces, one CSV, spoor train: the capture (sequential reads)
# and the same requests scattered over the disk.
awk '/block_rq_(issue|complete)/ { for (i = 1; i < NF; i++) if ($(i + 1) == "+") $i = ($i * 7919) % 1073741824 } 1' \
  "$WORK/ftrace_dd.txt" > "$WORK/scattered.txt"
"$SPOOR_BIN" windows --no-progress --every 1ms --run-id a --label sequential --format csv "$WORK/ftrace_dd.txt" \
  > "$WORK/train.csv"
"$SPOOR_BIN" windows --no-progress --every 1ms --run-id b --label scattered --format csv "$WORK/scattered.txt" |
  tail -n +2 >> "$WORK/train.csv"
grep -q ',b,scattered,' "$WORK/train.csv" || fail "the scattered windows are missing"
"$SPOOR_BIN" train "$WORK/train.csv" --label label --group run_id --model logistic -o "$WORK/model.json" \
  > "$WORK/train.out" 2>&1 || fail "spoor train failed on the windows: $(tail -5 "$WORK/train.out")"
[ -s "$WORK/model.json" ] || fail "spoor train saved no model"
# The captures of bench/capture/blk_capture.sh (gzipped, 2 s each): every
# window of each, with its run id and label, as the reference has it; then the
# nine runs' windows in one CSV (the header once), as the script makes it,
# scored by spoor train leave-one-run-out: an accuracy, consistent with its
# confusion matrix, over every window and the nine runs as folds.
header=
while IFS=, read -r file _ label run_id _; do
  cp "$DATA/captured/$file" "$WORK/"
  check "$WORK/$file" 250000000 0 "$run_id" "$label"
  [ -n "$header" ] || { header=1; head -n 1 "$WORK/got.csv" > "$WORK/runs.csv"; }
  tail -n +2 "$WORK/got.csv" >> "$WORK/runs.csv"
done < <(tail -n +2 "$DATA/captured/manifest.csv")
cp "$DATA/captured/flushes-excerpt.ftrace.txt.gz" "$WORK/"
check "$WORK/flushes-excerpt.ftrace.txt.gz" 50000000 1
runs=$(/usr/bin/python3 - "$WORK/runs.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
labels = {}
for r in rows:
    labels.setdefault(r["run_id"], set()).add(r["label"])
assert all(len(v) == 1 and r.startswith(next(iter(v)) + "-") for r, v in labels.items()), labels
print(len(rows), len(labels), " ".join(sorted({next(iter(v)) for v in labels.values()})))
PY
) || fail "the runs' windows: $runs"
[ "${runs#* }" = "9 mixed random sequential" ] || fail "the runs' windows: $runs"
[ "${runs%% *}" -ge 60 ] || fail "too few windows: $runs"
"$SPOOR_BIN" train "$WORK/runs.csv" --label label --features 'read_*,write_*' --group run_id --cv logo \
  --model logistic --format json -o "$WORK/runs.json" > "$WORK/train.json" 2> "$WORK/err" ||
  fail "spoor train on the captures' windows: $(tail -3 "$WORK/err")"
/usr/bin/python3 - "$WORK/train.json" "${runs%% *}" <<'PY' || fail "spoor train's evaluation: $(head -c 600 "$WORK/train.json")"
import json, sys
out, rows = json.load(open(sys.argv[1])), int(sys.argv[2])
assert "over %d rows (9 folds, whole groups" % rows in out["evaluation"], out["evaluation"]
assert sorted(out["classes"]) == ["mixed", "random", "sequential"], out["classes"]
model = next(m for m in out["methods"] if m["role"] == "model")
acc, confusion = model["accuracy"], model["confusion"]
assert isinstance(acc, float) and 0 <= acc <= 1, acc
assert sum(map(sum, confusion)) == rows == model["rows"], (confusion, rows)
assert abs(acc - sum(confusion[i][i] for i in range(3)) / rows) < 1e-6, (acc, confusion)
# The inputs are fixed and logistic regression has no seed: it scored 0.91.
# Above chance by a wide margin, not to the last window.
assert acc > 0.5, acc
PY
echo ok
