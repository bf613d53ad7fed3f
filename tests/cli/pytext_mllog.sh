# The plain Python logging reader (pytext) and the MLPerf log reader (mllog)
# against references written here in Python: a copy of the shared train.log
# (with --utc-offset Europe/Berlin); a 9 MB log of multi-line records read on
# two threads, so chunk borders fall inside records whose continuation lines
# must stay with them; the pylog k=v logs still sniffed as pylog; MLLOG lines
# mixed into a Python log, with a start never stopped and a stop never started.
source "$(dirname "$0")/lib/common.sh"
need_data
py=/usr/bin/python3
cp "$SPOOR_DATA/bpftrace/unet3d-pytorch/train.log" "$WORK/train.log"

cat > "$WORK/ref.py" <<'PY'
import sys, re, datetime, zoneinfo
path, zone = sys.argv[1], sys.argv[2]
stamp = re.compile(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d),(\d{3}):([A-Z]+):(?:([^: ]+):)? ?(.*)$")
out, cur = [], None
for line in open(path).read().split("\n"):
    m = stamp.match(line)
    if m:
        if cur: out.append(cur)
        local = datetime.datetime.strptime(m[1], "%Y-%m-%d %H:%M:%S")
        tz = datetime.timezone.utc if zone == "-" else zoneinfo.ZoneInfo(zone)
        ns = int(local.replace(tzinfo=tz).timestamp()) * 10**9 + int(m[2]) * 10**6
        cur = [ns, m[3], m[4] or "", m[5]]
    elif cur:
        cur[3] += "\n" + line
if cur: out.append(cur)
for r in out:
    print(repr((r[0], r[1], r[2], r[3].rstrip("\n \t"))))
PY
cat > "$WORK/got.py" <<'PY'
import sys, csv
for r in csv.DictReader(open(sys.argv[1], newline="")):
    print(repr((int(r["ts"]), r["level"], r.get("logger", ""), r["message"])))
PY
compare() { # FILE ZONE [spoor options]
  local file=$1 zone=$2
  shift 2
  "$SPOOR_BIN" events --no-cache --no-progress "$@" -o "$WORK/got.csv" "$file" 2> "$WORK/stderr"
  "$py" "$WORK/got.py" "$WORK/got.csv" > "$WORK/got.txt"
  "$py" "$WORK/ref.py" "$file" "$zone" > "$WORK/want.txt"
  [ -s "$WORK/want.txt" ] || fail "$file: the reference has no rows"
  cmp -s "$WORK/got.txt" "$WORK/want.txt" || fail "$file $zone: $(diff "$WORK/got.txt" "$WORK/want.txt" | head -5)"
}
compare "$WORK/train.log" -
compare "$WORK/train.log" Europe/Berlin --utc-offset Europe/Berlin
"$SPOOR_BIN" stats --no-cache "$WORK/train.log" | grep -q "dialect *python-logging" || fail "train.log is not sniffed as pytext"

# Long records: every record has 0-6 continuation lines, 9 MB in all.
"$py" - "$WORK/long.log" <<'PY'
import sys, random
random.seed(7)
out, n, size = [], 0, 0
while size < 9_000_000:
    t = 1648728000 + n // 10
    line = "2022-03-31 %02d:%02d:%02d,%03d:%s:%s record %d" % (t // 3600 % 24, t // 60 % 60, t % 60, n % 1000,
        random.choice(["INFO", "WARNING", "ERROR"]), random.choice(["", "trainer:", "io.loader:"]) + " ", n)
    lines = [line] + ["  continuation %d of record %d: x=%d" % (k, n, random.randrange(10**9)) for k in range(random.randrange(7))]
    out.extend(lines)
    size += sum(len(l) + 1 for l in lines)
    n += 1
open(sys.argv[1], "w").write("\n".join(out) + "\n")
PY
compare "$WORK/long.log" - --threads 2
[ ! -s "$WORK/stderr" ] || fail "long.log: $(cat "$WORK/stderr")"

# A k=v log stays pylog's.
printf '2024-05-01 12:00:00,123:INFO:cascade.gateway:4711:action=taskPlanned;at=42\n' > "$WORK/kv.log"
"$SPOOR_BIN" stats --no-cache "$WORK/kv.log" | grep -q "^dialect *pylog" || fail "a k=v log is no longer pylog's"

# Lines before the first record; --strict.
{ printf 'orphan line\n'; head -3 "$WORK/train.log"; } > "$WORK/orphan.log"
EXPECT_MAX_LINES=3 expect_fail 1 "orphan.log:1: continuation line with no record before it" events --no-cache --strict "$WORK/orphan.log"

# MLLOG lines in a Python log: events, stops made intervals, unmatched ones counted.
cat > "$WORK/mlperf.log" <<'EOF2'
2022-03-31 12:05:09,000:INFO: starting
:::MLLOG {"namespace": "", "time_ms": 1648728309000, "event_type": "INTERVAL_START", "key": "init_start", "value": null, "metadata": {"file": "main.py", "lineno": 10}}
:::MLLOG {"namespace": "", "time_ms": 1648728310500, "event_type": "INTERVAL_END", "key": "init_stop", "value": null, "metadata": {"file": "main.py", "lineno": 20}}
2022-03-31 12:05:10,600:INFO: :::MLLOG {"namespace": "", "time_ms": 1648728310600, "event_type": "INTERVAL_START", "key": "run_start", "value": null, "metadata": {}}
:::MLLOG {"namespace": "", "time_ms": 1648728310700, "event_type": "INTERVAL_START", "key": "block_start", "value": null, "metadata": {"first_epoch_num": 1, "epoch_count": 2}}
:::MLLOG {"namespace": "", "time_ms": 1648728310800, "event_type": "INTERVAL_START", "key": "epoch_start", "value": null, "metadata": {"epoch_num": 1}}
:::MLLOG {"namespace": "", "time_ms": 1648728344886, "event_type": "POINT_IN_TIME", "key": "train_loss", "value": 0.91, "metadata": {"epoch_num": 1}}
:::MLLOG {"namespace": "", "time_ms": 1648728344887, "event_type": "INTERVAL_END", "key": "epoch_stop", "value": null, "metadata": {"epoch_num": 1}}
:::MLLOG {"namespace": "", "time_ms": 1648728344888, "event_type": "INTERVAL_START", "key": "eval_start", "value": null, "metadata": {"epoch_num": 1}}
:::MLLOG {"namespace": "", "time_ms": 1648728346577, "event_type": "INTERVAL_END", "key": "eval_stop", "value": null, "metadata": {"epoch_num": 1}}
:::MLLOG {"namespace": "", "time_ms": 1648728346578, "event_type": "INTERVAL_START", "key": "epoch_start", "value": null, "metadata": {"epoch_num": 2}}
:::MLLOG {"namespace": "", "time_ms": 1648728380264, "event_type": "INTERVAL_END", "key": "block_stop", "value": null, "metadata": {"first_epoch_num": 1}}
:::MLLOG {"namespace": "", "time_ms": 1648728390000, "event_type": "INTERVAL_END", "key": "eval_stop", "value": null, "metadata": {"epoch_num": 5}}
:::MLLOG {"namespace": "", "time_ms": 1648728400000, "event_type": "INTERVAL_END", "key": "run_stop", "value": null, "metadata": {"status": "success"}}
:::MLLOG {"broken
EOF2
"$SPOOR_BIN" events --no-cache -o "$WORK/ml.csv" "$WORK/mlperf.log" 2> "$WORK/stderr"
"$py" - "$WORK/mlperf.log" "$WORK/ml.csv" <<'PY' || fail "mllog: $(cat "$WORK/ml.csv")"
import sys, csv, json
recs = []
for i, line in enumerate(open(sys.argv[1]), 1):
    if ":::MLLOG " not in line: continue
    try: recs.append((i, json.loads(line.split(":::MLLOG ", 1)[1])))
    except ValueError: pass
open_, want_x, paired = {}, [], set()
for i, r in recs:
    k, md = r["key"], r["metadata"]
    num = md.get("epoch_num", md.get("first_epoch_num"))
    if k.endswith("_start"): open_[(k[:-6], num)] = (r["time_ms"], i)
    elif k.endswith("_stop") and (k[:-5], num) in open_:
        t, _ = open_.pop((k[:-5], num))
        want_x.append((k[:-5], t * 10**6, (r["time_ms"] - t) * 10**6, i))
        paired.add(i)
want_i = sorted((r["key"], r["time_ms"] * 10**6, i) for i, r in recs if i not in paired)
rows = list(csv.DictReader(open(sys.argv[2])))
got_i = sorted((r["name"], int(r["ts"]), int(r["line"])) for r in rows if r["ph"] == "i")
got_x = sorted((r["name"], int(r["ts"]), int(r["dur"]), int(r["line"])) for r in rows if r["ph"] == "X")
assert got_i == want_i, (got_i, want_i)
assert got_x == sorted(want_x), (got_x, want_x)
assert [r["epoch_num"] for r in rows if r["ph"] == "X" and r["name"] == "epoch"] == ["1"]
assert len(open_) == 1  # epoch 2 never stopped
PY
for want in "1 MLLOG start without stop" "1 MLLOG stop without start" "1 MLLOG text is not a JSON object"; do
  grep -q "$want" "$WORK/stderr" || fail "mllog: no '$want' in $(cat "$WORK/stderr")"
done
grep -v broken "$WORK/mlperf.log" > "$WORK/whole.log"
EXPECT_MAX_LINES=3 expect_fail 1 "whole.log:13: MLLOG stop without start (--strict)" events --no-cache --strict "$WORK/whole.log"
echo ok
