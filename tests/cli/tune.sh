# spoor tune --replay on the real captures (tests/data/blk/captured) and the
# handmade two-device traces: a model trained as bench/capture/blk_capture.sh
# trains one (spoor windows per run, --group run_id) with a readahead_kb
# action; every window's row must be spoor windows' row of the same trace
# (window, start, dev, reads) with the class spoor predict gives it there,
# and the decision and readahead_kb columns must be what an independent
# writing of the policy (lib/tune_policy.py) makes of the classes, under the
# defaults and under tighter bounds and hysteresis. Then the errors, each one
# line: a model with a feature that is no window column, a model without the
# readahead_kb action, a bad device, --every 0, a missing trace; and applying
# without root (setpriv to nobody) against this machine's real sysfs file.
source "$(dirname "$0")/lib/common.sh"
DATA=$(cd "$(dirname "$0")/../data/blk" && pwd)
POLICY="$(dirname "$0")/lib/tune_policy.py"
ACTIONS=sequential=1024,random=16,mixed=128

# The training windows: each capture cut on its own with its run id and label.
first=1
while IFS=, read -r f _ label run_id _; do
  "$SPOOR_BIN" windows --no-progress --every 250ms --by dev --run-id "$run_id" --label "$label" --format csv \
    "$DATA/captured/$f" | if [ $first = 1 ]; then cat; else tail -n +2; fi
  first=0
done < <(tail -n +2 "$DATA/captured/manifest.csv") > "$WORK/windows.csv"
[ "$(wc -l < "$WORK/windows.csv")" -gt 50 ] || fail "too few training windows"
for kind in rule trees; do
  "$SPOOR_BIN" train "$WORK/windows.csv" --label label --features 'read_*,write_*' --group run_id --model $kind \
    --actions "readahead_kb:$ACTIONS" -o "$WORK/$kind.json" > /dev/null 2>&1 || fail "spoor train --model $kind failed"
done

# check MODEL TRACE EVERY POLICY_ARGS...: tune's rows against windows, predict and the policy.
check() {
  local model=$1 trace=$2 every=$3 hysteresis=$4 min_kb=$5 max_kb=$6 min_requests=$7 initial_kb=$8
  "$SPOOR_BIN" windows --no-progress --every "$every" --by dev --format csv "$trace" > "$WORK/w.csv" 2> /dev/null
  "$SPOOR_BIN" predict "$model" "$WORK/w.csv" > "$WORK/p.csv" 2> /dev/null
  "$SPOOR_BIN" tune --no-progress --model "$model" --replay "$trace" --every "$every" --hysteresis "$hysteresis" \
    --min-kb "$min_kb" --max-kb "$max_kb" --min-requests "$min_requests" --initial-kb "$initial_kb" \
    --format csv > "$WORK/t.csv" 2> "$WORK/err" || fail "spoor tune --replay $trace failed: $(cat "$WORK/err")"
  /usr/bin/python3 - "$WORK/w.csv" "$WORK/p.csv" "$WORK/t.csv" "$trace" << 'PY' || fail "$trace: tune and windows/predict differ"
import csv, sys
w, p, t = (list(csv.DictReader(open(x, newline=""))) for x in sys.argv[1:4])
want = [(r["window"], r["start"], r["dev"], r["read_requests"], q["predicted"]) for r, q in zip(w, p)]
got = [(r["window"], r["start"], r["dev"], r["reads"], r["class"]) for r in t]
if len(w) != len(p) or not want or want != got:
    diff = next((f"row {i}: windows/predict {a}, tune {b}" for i, (a, b) in enumerate(zip(want, got)) if a != b),
                f"{len(want)} windows, {len(got)} tune rows")
    sys.exit(f"{sys.argv[4]}: {diff}")
PY
  /usr/bin/python3 "$POLICY" "$WORK/t.csv" "$ACTIONS" "$hysteresis" "$min_kb" "$max_kb" "$min_requests" \
    "$initial_kb" || fail "$trace: decisions differ from the policy's"
}

decisions=''
for trace in "$DATA"/captured/*.ftrace.txt.gz; do
  for kind in rule trees; do
    check "$WORK/$kind.json" "$trace" 250ms 2 16 4096 16 128
    decisions+=$(cut -d, -f7 "$WORK/t.csv" | tail -n +2 | sort -u)$'\n'
    check "$WORK/$kind.json" "$trace" 100ms 3 64 512 60 4096
    decisions+=$(cut -d, -f7 "$WORK/t.csv" | tail -n +2 | sort -u)$'\n'
  done
done
# The checks saw every decision (the 7th field: dev "M,N" holds a comma), and a bound: mixed's 128 within [64, 512], sequential's 1024 cut to 512.
for d in idle wait keep set; do
  grep -qx "$d" <<< "$decisions" || fail "no '$d' decision in any replay: the policy check is too weak"
done
"$SPOOR_BIN" tune --no-progress --model "$WORK/rule.json" --replay "$DATA/captured/sequential-1.ftrace.txt.gz" \
  --every 100ms --max-kb 512 --format csv | grep -q ',set,512$' || fail "--max-kb 512 did not bound sequential's 1024"

# Two devices, three formats: a policy each, and --device keeps one device's rows.
for trace in "$DATA"/ftrace_edge.txt "$DATA"/blkparse_edge.txt "$DATA"/lttng_edge.txt; do
  check "$WORK/rule.json" "$trace" 2us 1 16 4096 1 128
  [ "$(cut -d, -f3,4 "$WORK/t.csv" | tail -n +2 | sort -u | wc -l)" -eq 2 ] || fail "$trace: not two devices"
  "$SPOOR_BIN" tune --no-progress --model "$WORK/rule.json" --replay "$trace" --every 2us --hysteresis 1 \
    --min-requests 1 --device 8:16 --format csv > "$WORK/one.csv" 2> /dev/null
  diff <(grep -E '^[^,]*,[^,]*,"8,16"' "$WORK/t.csv") <(tail -n +2 "$WORK/one.csv") > /dev/null ||
    fail "$trace: --device 8:16 rows are not the 8,16 rows of all devices"
done

# JSON lines: the same rows.
"$SPOOR_BIN" tune --no-progress --model "$WORK/rule.json" --replay "$DATA/captured/mixed-1.ftrace.txt.gz" \
  --every 250ms --format jsonl > "$WORK/t.jsonl"
"$SPOOR_BIN" tune --no-progress --model "$WORK/rule.json" --replay "$DATA/captured/mixed-1.ftrace.txt.gz" \
  --every 250ms --format csv > "$WORK/t.csv"
/usr/bin/python3 - "$WORK/t.jsonl" "$WORK/t.csv" << 'PY' || fail "jsonl rows differ from csv rows"
import csv, json, sys
j = [json.loads(l) for l in open(sys.argv[1])]
c = list(csv.DictReader(open(sys.argv[2], newline="")))
assert len(j) == len(c) > 0 and all(str(a[k]) == b[k] for a, b in zip(j, c) for k in b), (j[:2], c[:2])
PY

# Errors: one line each, nonzero.
"$SPOOR_BIN" train "$WORK/windows.csv" --label label --features 'read_*,window' --group run_id --model rule \
  --actions "readahead_kb:$ACTIONS" -o "$WORK/not_window.json" > /dev/null 2>&1
"$SPOOR_BIN" train "$WORK/windows.csv" --label label --features 'read_*,write_*' --group run_id --model rule \
  -o "$WORK/no_action.json" > /dev/null 2>&1
"$SPOOR_BIN" train "$WORK/windows.csv" --label label --features 'read_*,write_*' --group run_id --model rule \
  --actions "nr_requests:$ACTIONS" -o "$WORK/other_action.json" > /dev/null 2>&1
TRACE=$DATA/captured/random-1.ftrace.txt.gz
expect_fail 2 "not_window.json: feature 'window' is not a window column" \
  tune --model "$WORK/not_window.json" --replay "$TRACE"
expect_fail 2 "no_action.json: no readahead_kb action" tune --model "$WORK/no_action.json" --replay "$TRACE"
expect_fail 2 "other_action.json: no readahead_kb action.*it has nr_requests" \
  tune --model "$WORK/other_action.json" --replay "$TRACE"
expect_fail 2 "no block device 'no-such-disk'" tune --model "$WORK/rule.json" --device no-such-disk --dry-run
expect_fail 2 "no block device '4095:1048575'" tune --model "$WORK/rule.json" --device 4095:1048575 --dry-run
expect_fail 2 "no request of device 9,9 in the trace" \
  tune --no-progress --model "$WORK/rule.json" --replay "$TRACE" --device 9:9
expect_fail 2 "\-\-every '0': a number needs a unit" tune --model "$WORK/rule.json" --replay "$TRACE" --every 0
expect_fail 2 "\-\-every '0s': rounds to 0 ns" tune --model "$WORK/rule.json" --replay "$TRACE" --every 0s
expect_fail 2 "needs --device DEV" tune --model "$WORK/rule.json"
expect_fail 2 "\-\-model FILE is required" tune --replay "$TRACE"
expect_fail 2 "\-\-min-kb 600 is above --max-kb 500" tune --model "$WORK/rule.json" --replay "$TRACE" \
  --min-kb 600 --max-kb 500
expect_fail 1 "$WORK/missing.txt" tune --model "$WORK/rule.json" --replay "$WORK/missing.txt"
expect_fail 1 "not a block-layer trace" tune --no-progress --model "$WORK/rule.json" --replay "$WORK/windows.csv"

# Applying without root: the clear line, against this machine's real sysfs
# file, and nothing traced or set. As nobody when the test runs as root.
disk=''
for f in /sys/block/*/queue/read_ahead_kb; do
  [ -f "$f" ] && { disk=$(basename "$(dirname "$(dirname "$f")")"); break; }
done
[ -n "$disk" ] || fail "no /sys/block/*/queue/read_ahead_kb on this machine"
before=$(cat "/sys/block/$disk/queue/read_ahead_kb")
as_user=()
[ "$(id -u)" = 0 ] && as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups)
set +e
"${as_user[@]}" "$SPOOR_BIN" tune --model /dev/stdin --device "$disk" --every 500ms --duration 1s \
  < "$WORK/rule.json" > "$WORK/out" 2> "$WORK/err"
code=$?
set -e
[ $code = 1 ] || fail "apply without root exited $code: $(cat "$WORK/err")"
[ "$(cat "$WORK/err")" = "spoor tune: applying readahead to /sys/block/$disk/queue/read_ahead_kb needs root (or --dry-run to print only)" ] ||
  fail "apply without root: $(cat "$WORK/err")"
[ "$(cat "/sys/block/$disk/queue/read_ahead_kb")" = "$before" ] || fail "the readahead of $disk changed"
# --dry-run without root: tracefs is what it lacks then.
set +e
"${as_user[@]}" "$SPOOR_BIN" tune --model /dev/stdin --device "$disk" --dry-run --duration 1s \
  < "$WORK/rule.json" > "$WORK/out" 2> "$WORK/err"
code=$?
set -e
[ $code = 1 ] && [ "$(wc -l < "$WORK/err")" = 1 ] && grep -Eq "needs root|tracefs is not mounted" "$WORK/err" ||
  fail "dry run without root exited $code: $(cat "$WORK/err")"
echo "ok"
