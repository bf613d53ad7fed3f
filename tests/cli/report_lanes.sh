# spoor report over raw traces (the MLPerf timeline pipeline's inputs):
# - process names, against a Python reading of the raw files: ps first, then
#   the trace's own process_name, then the most frequent COMM (ties: the first
#   by text), then a log's logger or file name; they show in the processes
#   sheet, the timeline's lanes and the I/O heatmap;
# - the CPU and GPU counter tracks (timeline_tracks, timeline_counters),
#   against a Python reading of the mpstat and pmon text: every level's
#   bucket means, widths halving, the coarsest within 2048 buckets, the finest
#   the coarsest at which no bucket holds two samples of a track; a GPU's
#   sample is the sum of its processes' sm, `-` none; the same bytes for 1 and
#   2 threads; counter samples are no timeline events and no calls;
# - log records and MLLOG intervals (tests/data/mllog/epoch.log) without a pid
#   on the run-wide phase lane;
# - the shared unet3d-pytorch files (copies), --align auto: the python process
#   of open.out named from its COMM, 37 CPU tracks, the calls on 2022-03-31
#   UTC beside mpstat's samples.
source "$(dirname "$0")/lib/common.sh"
need_data
FIXTURES=$(cd "$(dirname "$0")/../data" && pwd)
cd "$WORK"
R="--no-progress --no-cache"

# ---- names ----
cat > pids.out <<'EOF'
root         100  0.0  0.0  31952 18508 ?        Ss   Mar10   0:00 /usr/bin/python3 train.py --epochs 2
EOF
# bpftrace open.out rows: TIMESTAMP TIME PID COMM FUNC LAT PATH
{
  echo "1802596328388031  12:05:06  100      python         openat       13530  /data/a"
  for i in 1 2 3; do echo "180259632839${i}000  12:05:06  200      pt_data_worker openat       3487   /data/b$i"; done
  echo "1802596328400000  12:05:06  200      python         openat       3487   /data/c"
  for c in beta beta alpha alpha; do echo "1802596328410000  12:05:06  300      $c          vfs_open     3410   /data/d"; done
  echo "1802596328420000  12:05:06  600      renamed        openat       2839   /data/e"
} > open.out
cat > names.jsonl <<'EOF'
{"ts": 1000, "dur": 5, "name": "step", "cat": "log", "pid": 400, "logger": "trainer"}
{"ts": 2000, "dur": 5, "name": "step", "cat": "log", "pid": 500}
{"ts": 3000, "dur": 5, "name": "step", "cat": "log", "pid": 100, "logger": "ignored"}
EOF
cat > trace.pfw <<'EOF'
[
{"id":1,"name":"process_name","cat":"dftracer","pid":600,"tid":600,"ph":"M","args":{"name":"rank0"}}
{"id":2,"name":"read","cat":"POSIX","pid":600,"tid":600,"ts":100,"dur":10,"ph":"X","args":{"fname":"/data/e","size":4096}}
]
EOF
"$SPOOR_BIN" report $R --format json pids.out open.out names.jsonl trace.pfw -o names.json 2> names.err ||
    fail "report of the naming inputs failed: $(cat names.err)"
/usr/bin/python3 - pids.out open.out names.jsonl trace.pfw names.json <<'PY' || fail "process names disagree"
import json, os, sys
from collections import Counter, defaultdict
pids, opens, logs, pfw, rep = sys.argv[1:6]
votes = defaultdict(lambda: defaultdict(Counter))  # pid -> source rank -> name -> votes
for line in open(pids):
    f = line.split(None, 10)
    votes[int(f[1])][0][os.path.basename(f[10].split()[0])] += 1
for line in open(pfw):
    line = line.strip().rstrip(",")
    if line.startswith("{") and '"process_name"' in line:
        e = json.loads(line)
        votes[e["pid"]][1][e["args"]["name"]] += 1
for line in open(opens):
    f = line.split()
    votes[int(f[2])][2][f[3]] += 1
for line in open(logs):
    e = json.loads(line)
    votes[e["pid"]][3][e.get("logger", os.path.basename(logs))] += 1
want = {}
for pid, by in votes.items():
    rank = min(by)
    best = sorted(by[rank].items(), key=lambda kv: (-kv[1], kv[0]))[0]
    want[pid] = (best[0], ["ps", "trace", "comm", "log"][rank], best[1])
r = json.load(open(rep))
got = {p["pid"]: (p["name"], p["source"], p["votes"]) for p in r["processes"]}
assert got == want, (got, want)
assert [p["command"] for p in r["processes"] if p["pid"] == 100] == ["/usr/bin/python3 train.py --epochs 2"]
assert all(p["command"] is None for p in r["processes"] if p["pid"] != 100)
for l in r["timeline_lanes"]:
    assert l["name"] == (want[l["pid"]][0] if l["pid"] in want else None), l
assert {l["pid"] for l in r["timeline_lanes"]} >= {100, 200, 300, 400, 500, 600}
for h in r["io_heatmap"]:
    assert h["name"] == want[h["pid"]][0], h
assert r["io_heatmap"], "no I/O heatmap cells"
PY

# ---- counter tracks ----
cp "$SPOOR_DATA/bpftrace/unet3d-pytorch/cpu.out" cpu.out
cat > gpu.out <<'EOF'
#Date       Time        gpu        pid  type    sm   mem   enc   dec    fb   command
#YYYYMMDD   HH:MM:SS    Idx          #   C/G     %     %     %     %    MB   name
 20220331   12:05:10      0      41235     C    45    12     -     -  1234   python
 20220331   12:05:10      0      41236     C    20     3     -     -   100   python
 20220331   12:05:10      1          -     -     -     -     -     -     -   -
 20220331   12:05:11      0      41235     C    50    12     -     -  1234   python
 20220331   12:05:11      0      41236     C     -     3     -     -   100   python
 20220331   12:05:11      1      41240     C    70     9     -     -   900   python
 20220331   12:05:13      1      41240     C    65     9     -     -   900   python
EOF
"$SPOOR_BIN" report $R --format json --threads 2 cpu.out gpu.out -o counters.json || fail "report of mpstat and pmon failed"
"$SPOOR_BIN" report $R --format json --threads 1 cpu.out gpu.out -o counters1.json || fail "report --threads 1 failed"
cmp -s counters.json counters1.json || fail "the counter tracks differ between 1 and 2 threads"
/usr/bin/python3 - cpu.out gpu.out counters.json <<'PY' || fail "counter tracks disagree"
import calendar, json, sys
from collections import defaultdict
cpu, gpu, rep = sys.argv[1:4]
samples = defaultdict(list)  # track -> [(ts, hundredths of a percent)]
lines = open(cpu).read().split("\n")
month, day, year = (int(x) for x in lines[0].split()[3].split("/"))
header = None
for line in lines[1:]:
    f = line.split()
    if len(f) < 3 or f[0] == "Average:":
        continue
    if f[2] == "CPU":
        header = f
        continue
    if len(f) < len(header):
        continue  # a cut line
    h, m, s = (int(x) for x in f[0].split(":"))
    h = h % 12 + (12 if f[1] == "PM" else 0)
    ts = (calendar.timegm((year, month, day, 0, 0, 0)) + h * 3600 + m * 60 + s) * 10**9
    samples["cpu " + f[2]].append((ts, round((100 - float(f[header.index("%idle")])) * 100)))
per_gpu = defaultdict(lambda: None)
for line in open(gpu):
    if line.startswith("#"):
        continue
    f = line.split()
    d, t = f[0], f[1]
    ts = (calendar.timegm((int(d[:4]), int(d[4:6]), int(d[6:]), 0, 0, 0)) +
          sum(int(x) * k for x, k in zip(t.split(":"), (3600, 60, 1)))) * 10**9
    key = ("gpu " + f[2], ts)
    if f[5] != "-":
        per_gpu[key] = (per_gpu[key] or 0) + int(f[5]) * 100
    else:
        per_gpu[key] = per_gpu[key]
for (track, ts), v in sorted(per_gpu.items()):
    if v is not None:
        samples[track].append((ts, v))
assert samples["gpu 0"] == [(1648728310000000000, 6500), (1648728311000000000, 5000)], samples["gpu 0"]
assert [v for _, v in samples["gpu 1"]] == [7000, 6500]

r = json.load(open(rep))
tracks = r["timeline_tracks"]
names = [t["name"] for t in tracks]
want_order = ["cpu all", "gpu 0", "gpu 1"] + ["cpu %d" % i for i in range(36)]
assert names == want_order, names
for t in tracks:
    s = samples[t["name"]]
    assert t["samples"] == len(s) and t["first_ts"] == min(s)[0] and t["last_ts"] == max(s)[0], t
    assert t["group"] == ("" if t["name"] in ("cpu all", "gpu 0", "gpu 1") else "cpu")
    assert t["source"] == ("pmon" if t["name"].startswith("gpu") else "mpstat")
assert r["timeline"]["events"] == 0, "counter samples were placed as timeline events"
assert not r["layers"] and not r["top_functions"] and not r["latency"], "counter samples were counted as calls"

rows = r["timeline_counters"]
widths = sorted({row["width_ns"] for row in rows}, reverse=True)
assert [row["level"] for row in rows] == sorted(row["level"] for row in rows)
for i, w in enumerate(widths):
    assert {row["width_ns"] for row in rows if row["level"] == i} == {w}
    assert i == 0 or widths[i - 1] == 2 * w, widths
all_ts = [ts for s in samples.values() for ts, _ in s]
coarse = widths[0]
assert max(all_ts) // coarse - min(all_ts) // coarse + 1 <= 2048
fine = widths[-1]
def buckets(s, w):
    b = defaultdict(list)
    for ts, v in s:
        b[ts // w].append(v)
    return b
assert all(len(v) == 1 for s in samples.values() for v in buckets(s, fine).values()), "two samples in a finest bucket"
assert fine == coarse or any(len(v) > 1 for s in samples.values() for v in buckets(s, 2 * fine).values())
checked = 0
for row in rows:
    b = buckets(samples[names[row["track"]]], row["width_ns"])
    at, got = row["first"], []
    for gap, value, n in zip(row["gap"], row["value"], row["samples"]):
        at += gap
        got.append((at, value, n))
    want = [(k, sum(v) / len(v) / 100, len(v)) for k, v in sorted(b.items())]
    assert len(got) == len(want), (row["track"], row["level"], len(got), len(want))
    for (k1, v1, n1), (k2, v2, n2) in zip(got, want):
        assert k1 == k2 and n1 == n2 and abs(v1 - v2) <= 0.005 + 1e-9, (names[row["track"]], k1, v1, v2)
    checked += len(got)
assert checked > 1000 * 37, checked
PY

# ---- the run-wide phase lane: a log's records and MLLOG intervals, no pid ----
cp "$FIXTURES/mllog/epoch.log" mlperf.log
cp "$SPOOR_DATA/bpftrace/unet3d-pytorch/train.log" train.log
"$SPOOR_BIN" report $R --format json mlperf.log train.log -o phases.json || fail "report of the logs failed"
/usr/bin/python3 - phases.json train.log <<'PY' || fail "the run-wide phases disagree"
import json, sys
r = json.load(open(sys.argv[1]))
records = sum(1 for line in open(sys.argv[2]) if line[:4].isdigit())
lanes, strings = r["timeline_lanes"], [s["text"] for s in r["timeline_strings"]]
assert all(l["pid"] is None and l["kind"] == "phases" and l["name"] is None for l in lanes), lanes
spans = {}
for t in r["timeline_tiles"]:
    for ts, dur, name in zip(t["ts"], t["dur"], t["name"]):
        spans.setdefault(strings[name], []).append((t["start_ns"] + ts, dur))
assert spans["init"] == [(1648728300000000000, 5 * 10**9)], spans["init"]
assert spans["epoch"] == [(1648728305000000000, 35 * 10**9)], spans["epoch"]
assert spans["eval"] == [(1648728340000000000, 2 * 10**9)], spans["eval"]
assert len(spans["INFO"]) == records, (len(spans["INFO"]), records)
assert r["timeline"]["events"] == records + 6  # 3 intervals (the stops) and their 3 starts
PY

# ---- the shared unet3d-pytorch files ----
for f in bio.out open.out pids.out; do cp "$SPOOR_DATA/bpftrace/unet3d-pytorch/$f" "$f"; done
"$SPOOR_BIN" report $R --align auto --format json bio.out open.out cpu.out train.log pids.out -o unet.json 2> unet.err ||
    fail "report of the unet3d files failed: $(cat unet.err)"
/usr/bin/python3 - unet.json open.out <<'PY' || fail "the unet3d report's names disagree"
import json, sys
from collections import Counter
r = json.load(open(sys.argv[1]))
comm = Counter()
for line in open(sys.argv[2]):
    f = line.split()
    if len(f) >= 7:
        comm[(int(f[2]), f[3])] += 1
names = {p["pid"]: p for p in r["processes"]}
top = max(comm.items(), key=lambda kv: kv[1])[0]
assert names[top[0]]["name"] == top[1] == "python" and names[top[0]]["source"] == "comm", names[top[0]]
assert names[3691058]["source"] == "ps" and names[3691058]["command"] == "grep python"
assert len(r["timeline_tracks"]) == 37
# on one UTC line: the calls of 2022-03-31 within a minute of mpstat's samples
t, cpu = r["timeline"], r["timeline_tracks"][0]
day = 1648684800 * 10**9  # 2022-03-31T00:00:00Z
assert day <= t["first_ts"] and t["last_end"] < day + 86400 * 10**9, t
assert cpu["first_ts"] - 60 * 10**9 < t["first_ts"] and t["last_end"] < cpu["last_ts"] + 60 * 10**9, (t, cpu)
assert any(l["name"] == "python" and l["pid"] == top[0] for l in r["timeline_lanes"])
PY
echo "ok"
