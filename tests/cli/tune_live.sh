# spoor tune live on this machine, in dry run only (the disk is not ours to
# tune): as root with tracefs at /sys/kernel/tracing, the disk under the
# test's folder traced for 2.2 s in windows of 200 ms while dd reads a file
# there with direct I/O. Rows must come one per window as windows close (an
# idle window too), numbered from 0 with starts 200 ms apart, the disk's
# reads counted, the tracefs instance gone after, the readahead untouched;
# SIGTERM and a closed output must end a run cleanly too. Where it cannot run
# (not root, no tracefs) it says so and is skipped, not passed: the VM test
# (tests/vm) is where tune applies for real.
source "$(dirname "$0")/lib/common.sh"
DATA=$(cd "$(dirname "$0")/../data/blk" && pwd)
TRACEFS=/sys/kernel/tracing
[ "$(id -u)" = 0 ] || { echo "skipped: live tracing needs root"; exit 77; }
[ "$(stat -f -c %T "$TRACEFS" 2> /dev/null)" = tracefs ] || { echo "skipped: no tracefs at $TRACEFS"; exit 77; }
devno=$(stat -c '%Hd:%Ld' "$WORK")
sys=$(readlink -f "/sys/dev/block/$devno" 2> /dev/null) || { echo "skipped: $WORK is on no block device"; exit 77; }
[ -f "$sys/partition" ] && sys=$(dirname "$sys")
[ -f "$sys/queue/read_ahead_kb" ] && [ -z "$(ls "$sys/slaves" 2> /dev/null)" ] ||
  { echo "skipped: $WORK is not on a plain disk"; exit 77; }
disk=$(basename "$sys")
IFS=: read -r major minor < "$sys/dev"
before=$(cat "$sys/queue/read_ahead_kb")
# Whatever happens to the test, the runs it started end and leave no instance
# (tune removes its own; this is for one that crashed).
started=()
cleanup() {
  for pid in "${started[@]}"; do
    kill "$pid" 2> /dev/null || true
    local dir=$TRACEFS/instances/spoor-tune-$pid
    [ -d "$dir" ] && { echo 0 > "$dir/tracing_on"; echo 0 > "$dir/events/enable"; rmdir "$dir"; }
  done
  rm -rf "$WORK"
}
trap cleanup EXIT

"$SPOOR_BIN" windows --no-progress --every 250ms --by dev --label sequential --run-id s --format csv \
  "$DATA/captured/sequential-1.ftrace.txt.gz" > "$WORK/w.csv"
"$SPOOR_BIN" windows --no-progress --every 250ms --by dev --label random --run-id r --format csv \
  "$DATA/captured/random-1.ftrace.txt.gz" | tail -n +2 >> "$WORK/w.csv"
"$SPOOR_BIN" train "$WORK/w.csv" --label label --features 'read_*,write_*' --model rule \
  --actions readahead_kb:sequential=1024,random=16 -o "$WORK/m.json" > /dev/null 2>&1

dd if=/dev/zero of="$WORK/data" bs=1M count=16 oflag=direct status=none
"$SPOOR_BIN" tune --model "$WORK/m.json" --device "$devno" --every 200ms --duration 2200ms --dry-run \
  --format csv > "$WORK/rows.csv" 2> "$WORK/err" &
tune=$!
started+=($tune)
sleep 0.5
dd if="$WORK/data" of=/dev/null bs=64k iflag=direct status=none
sleep 0.5
rows_midway=$(wc -l < "$WORK/rows.csv")   # rows come as windows close, not at the end
wait $tune || fail "spoor tune live exited $?: $(cat "$WORK/err")"
[ "$rows_midway" -ge 3 ] || fail "only $rows_midway lines after 1 s: rows are not written as windows close"
/usr/bin/python3 - "$WORK/rows.csv" "$major,$minor" << 'PY' || fail "live rows are wrong: $(cat "$WORK/rows.csv")"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
assert 9 <= len(rows) <= 11, f"{len(rows)} windows in 2.2 s of 200 ms"
assert [int(r["window"]) for r in rows] == list(range(len(rows))), "windows not numbered from 0"
starts = [int(r["start"]) for r in rows]
assert all(b - a == 200_000_000 for a, b in zip(starts, starts[1:])), "starts not 200 ms apart"
assert all(r["dev"] == sys.argv[2] for r in rows), "another device"
assert all(r["class"] in ("sequential", "random") and r["decision"] in ("idle", "wait", "keep", "set")
           for r in rows)
assert sum(int(r["reads"]) for r in rows) >= 256, "dd's 256 reads of 64 KiB are not counted"
assert any(int(r["reads"]) == 0 and r["decision"] == "idle" for r in rows), "no idle window"
PY
grep -q "^spoor tune: tracing $disk ($major:$minor), readahead $before KiB, dry run" "$WORK/err" ||
  fail "no start line: $(cat "$WORK/err")"
ls "$TRACEFS/instances" | grep -q '^spoor-tune-' && fail "a tracefs instance is left: $(ls "$TRACEFS/instances")"
[ "$(cat "$sys/queue/read_ahead_kb")" = "$before" ] || fail "the dry run changed $disk's readahead"

# SIGTERM: the instance goes, the exit is clean.
"$SPOOR_BIN" tune --model "$WORK/m.json" --device "$disk" --dry-run --format jsonl > "$WORK/rows.jsonl" 2> "$WORK/err" &
tune=$!
started+=($tune)
sleep 1
ls "$TRACEFS/instances" | grep -q "^spoor-tune-$tune\$" || fail "no instance spoor-tune-$tune while tracing"
kill -TERM $tune
wait $tune || fail "spoor tune exited $? on SIGTERM: $(cat "$WORK/err")"
[ -d "$TRACEFS/instances/spoor-tune-$tune" ] && fail "SIGTERM left the instance spoor-tune-$tune"
# A closed output (| head) ends it cleanly too.
{ "$SPOOR_BIN" tune --model "$WORK/m.json" --device "$disk" --dry-run --every 100ms --duration 10s --format csv \
  2> /dev/null && echo 0 > "$WORK/code" || echo $? > "$WORK/code"; } | head -n 2 > /dev/null
[ "$(cat "$WORK/code")" = 1 ] || fail "a closed output: exit $(cat "$WORK/code"), not 1 (the write failed)"
ls "$TRACEFS/instances" | grep -q '^spoor-tune-' && fail "a closed output left an instance: $(ls "$TRACEFS/instances")"
echo "ok"
