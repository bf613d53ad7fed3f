# spoor report: on a `spoor gen` trace its numbers equal `spoor stats` and
# `spoor summary` (--format json) for the same input: the overview, the
# layers, top files and functions; the read/write/metadata/other split, the
# access sizes and the latency bins add up to the summary's and stats'
# counts, bytes and durs; every timeline level's counts add up to the events
# and its busy ns to their durs, the tiles to the events within the budget;
# the same bytes for 1 and 2 threads and from a snapshot; -o writes the file
# alone; a table of the small sheets; an HTML page for -o NAME.html (json
# when asked), never to a terminal, its timeline sheets whole; a shuffled trace (summary's second
# pass) gives the same report; --help and one-line usage errors; the shared
# samples run and agree with stats.
source "$(dirname "$0")/lib/common.sh"

"$SPOOR_BIN" report --help | grep -q "usage: spoor report" || fail "no --help"
expect_fail 2 "no trace given" report
expect_fail 2 "expected json, table or html" report --format csv x.pfw
expect_fail 1 "$WORK/missing.pfw" report "$WORK/missing.pfw"

"$SPOOR_BIN" gen -o "$WORK/gen.pfw" --size-mb 3 --procs 3 --no-truth > /dev/null || fail "spoor gen failed"
run() { "$SPOOR_BIN" "$@" --no-progress --no-cache "$WORK/gen.pfw"; }
run report --format json --threads 2 > "$WORK/report.json" || fail "report failed"
run report --format json --threads 1 > "$WORK/report1.json" || fail "report --threads 1 failed"
cmp -s "$WORK/report.json" "$WORK/report1.json" || fail "report differs between 1 and 2 threads"
run stats --format json > "$WORK/stats.json" || fail "stats failed"
run summary --format json > "$WORK/summary.json" || fail "summary failed"

/usr/bin/python3 - "$WORK/report.json" "$WORK/stats.json" "$WORK/summary.json" <<'PY' || fail "report disagrees"
import json, sys
from collections import defaultdict
rep, stats, summ = (json.load(open(p)) for p in sys.argv[1:4])
o = rep["overview"]
for key in ("events", "metadata_events", "first_ts", "last_end", "processes", "threads", "files", "hosts"):
    assert o[key] == stats[key], (key, o[key], stats[key])
assert o["job_time"] == stats["span"] and o["skipped_lines"] == 0
assert rep["inputs"] == stats["inputs"], (rep["inputs"], stats["inputs"])
for key in ("compute_time",):
    assert o[key] == summ[key], key
assert o["io_processes"] == summ["imbalance"]["processes"] and o["slowest_pid"] == summ["imbalance"]["slowest_pid"]

# Layers: the summary's, and the split adds up to them.
layers = {l["cat"]: l for l in summ["layers"]}
assert [l["cat"] for l in rep["layers"]] == [l["cat"] for l in summ["layers"]]
for l in rep["layers"]:
    s = layers[l["cat"]]
    for key in ("count", "time", "self", "dur_sum", "bytes", "parent", "parent_share"):
        assert l[key] == s[key], (l["cat"], key, l[key], s[key])
    kinds = ("read", "write", "metadata", "other")
    assert sum(l[k + "_count"] for k in kinds) == l["count"], l
    assert sum(l[k + "_dur"] for k in kinds) == l["dur_sum"], l
assert rep["top_files"] == summ["top_files"] and rep["top_functions"] == summ["top_functions"]
assert {l["cat"]: l["read_count"] for l in rep["layers"]}["sys"] > 0

# Distributions: access sizes add up to the summary's sized events and bytes,
# latency bins to stats' timed events per (cat, name), each dur in its bin.
sized, nbytes = defaultdict(int), defaultdict(int)
for b in rep["access_sizes"]:
    sized[b["cat"]] += b["count"]
    nbytes[b["cat"]] += b["bytes"]
    assert b["from_bytes"] * 2 == b["to_bytes"] or b["from_bytes"] == 0
for cat, s in layers.items():
    assert sized[cat] == s["sized"] and nbytes[cat] == s["bytes"], (cat, sized[cat], s)
timed = defaultdict(int)
for b in rep["latency"]:
    timed[(b["cat"], b["name"])] += b["count"]
for g in stats["by_name"]:
    assert timed[(g["cat"], g["name"])] == g["timed"], g
    lo = [b for b in rep["latency"] if (b["cat"], b["name"]) == (g["cat"], g["name"])]
    assert lo[0]["from_ns"] <= g["dur_min"] and g["dur_max"] < lo[-1]["to_ns"], (g, lo)

# Over time: bandwidth adds up to the sized bytes; at most 256 columns.
assert sum(b["bytes"] for b in rep["bandwidth"]) == sum(s["bytes"] for s in layers.values())
width = rep["over_time"]["bandwidth_bucket_ns"]
assert len({b["t"] for b in rep["bandwidth"]}) <= 256 and all(b["t"] % width == 0 for b in rep["bandwidth"])
hm = rep["io_heatmap"]
assert len({h["t"] for h in hm}) <= 256 and all(h["io_ns"] > 0 or h["events"] > 0 for h in hm)
assert len({h["pid"] for h in hm}) == summ["imbalance"]["processes"]

# The timeline: every level adds up to the events and their durs.
t = rep["timeline"]
lanes = rep["timeline_lanes"]
dur_sum = sum(g["dur_sum"] for g in stats["by_cat"] if "dur_sum" in g)
assert t["events"] == stats["events"] and t["thread_lanes"]
assert t["first_ts"] == stats["first_ts"] and t["last_end"] == stats["last_end"]
levels = defaultdict(lambda: {"proc": [0, 0], "thread": [0, 0], "width": None})
for row in rep["timeline_cells"]:
    lv = levels[row["level"]]
    assert lv["width"] in (None, row["width_ns"])
    lv["width"] = row["width_ns"]
    part = lv["proc" if lanes[row["lane"]]["tid"] is None else "thread"]
    assert len(row["gap"]) == len(row["count"]) == len(row["busy"]) == len(row["key"])
    assert row["gap"][0] == 0 and all(g > 0 for g in row["gap"][1:])
    part[0] += sum(row["count"])
    part[1] += sum(row["busy"])
    assert all(0 <= k < len(rep["timeline_strings"]) for k in row["key"])
assert len(levels) == t["levels"] >= 1
for n, lv in levels.items():
    assert lv["proc"] == [t["events"], dur_sum] == lv["thread"], (n, lv, t["events"], dur_sum)
widths = [levels[n]["width"] for n in sorted(levels)]
assert widths[-1] == t["finest_ns"] and all(a == 2 * b for a, b in zip(widths, widths[1:])), widths
coarse = widths[0]
assert (t["last_end"] - 1) // coarse - t["first_ts"] // coarse + 1 <= t["columns"]
kept = events = 0
for tile in rep["timeline_tiles"]:
    assert lanes[tile["lane"]]["tid"] is not None
    assert tile["kept"] == len(tile["ts"]) == len(tile["dur"]) <= t["tile_events"]
    assert tile["events"] == tile["kept"] + tile["omitted"]
    assert tile["dur"] == sorted(tile["dur"], reverse=True)
    assert all(0 <= ts < t["tile_ns"] for ts in tile["ts"])
    kept += tile["kept"]
    events += tile["events"]
assert events == t["events"] and kept == t["kept"] <= 150000 and t["omitted"] == events - kept
PY

# -o: the file alone; a table of the small sheets; the same from a snapshot.
run report -o "$WORK/out.json" > "$WORK/stdout" || fail "report -o failed"
[ ! -s "$WORK/stdout" ] || fail "report -o also wrote to stdout"
cmp -s "$WORK/out.json" "$WORK/report.json" || fail "report -o differs from stdout"
run report --format table > "$WORK/report.txt" || fail "report --format table failed"
grep -q "^layers " "$WORK/report.txt" && grep -q "^overview" "$WORK/report.txt" || fail "no table: $(head "$WORK/report.txt")"
run report -o "$WORK/page.html" || fail "report -o page.html failed"
grep -q '<script type="application/json" id="spoor-data">' "$WORK/page.html" || fail "-o page.html wrote no page"
run report --format json -o "$WORK/asked.html" || fail "report --format json -o asked.html failed"
cmp -s "$WORK/asked.html" "$WORK/report.json" || fail "--format json -o NAME.html wrote no JSON"
script -qec "$SPOOR_BIN report --no-progress --no-cache --format html $WORK/gen.pfw" /dev/null > "$WORK/tty" 2>&1 &&
    fail "report --format html wrote to a terminal"
grep -q "not text for a terminal" "$WORK/tty" || fail "no word of the terminal: $(cat "$WORK/tty")"
# a trace whose tiles pass the 2,000 rows other sheets are sampled to
"$SPOOR_BIN" gen -o "$WORK/tiles.pfw" --size-mb 20 --procs 3 --no-truth > /dev/null || fail "spoor gen failed"
"$SPOOR_BIN" report --no-progress --no-cache "$WORK/tiles.pfw" -o "$WORK/page.html" || fail "report -o page.html failed"
"$SPOOR_BIN" report --no-progress --no-cache "$WORK/tiles.pfw" -o "$WORK/tiles.json" || fail "report failed"
/usr/bin/python3 - "$WORK/page.html" "$WORK/tiles.json" <<'PY' || fail "the page's timeline sheets are not the JSON's"
import json, re, sys
page = open(sys.argv[1]).read()
data = json.loads(re.search(r'id="spoor-data">(.*?)</script>', page, re.S).group(1))
rep = json.load(open(sys.argv[2]))
sheets = {s["key"]: s for s in data["sheets"]}
assert len(rep["timeline_tiles"]) > 2000
for key in ("timeline_lanes", "timeline_strings", "timeline_cells", "timeline_tiles"):
    assert sheets[key]["every"] == 1 and sheets[key]["data"] == rep[key], key
for key in ("access_sizes_chart", "latency_chart", "io_heatmap_chart"):
    assert not sheets[key]["json"] and key not in rep, key
PY
! grep -q timeline "$WORK/report.txt" || fail "the timeline is in the table"
"$SPOOR_BIN" sql --no-progress "$WORK/gen.pfw" "SELECT 1" > /dev/null || fail "sql (writing the snapshot) failed"
"$SPOOR_BIN" report --no-progress "$WORK/gen.pfw" > "$WORK/snap.json" || fail "report from the snapshot failed"
cmp -s "$WORK/snap.json" "$WORK/report.json" || fail "the report from the snapshot differs"

# A shuffled trace: the summary reads it twice (said on stderr), the report
# is the same as for the ordered one.
"$SPOOR_BIN" gen -o "$WORK/one.pfw" --size-mb 8 --procs 1 --no-truth > /dev/null || fail "spoor gen failed"
{ head -1 "$WORK/one.pfw"; grep '"ph": "M"' "$WORK/one.pfw"; tail -n +2 "$WORK/one.pfw" | grep -v '"ph": "M"' | shuf --random-source=<(yes); } \
  > "$WORK/shuffled.pfw"
"$SPOOR_BIN" report --no-progress --no-cache "$WORK/one.pfw" > "$WORK/one.json" || fail "report failed"
"$SPOOR_BIN" report --no-progress --no-cache "$WORK/shuffled.pfw" > "$WORK/shuffled.json" 2> "$WORK/err" \
  || fail "report of the shuffled trace failed"
grep -q "^spoor report: note: .*read the input again" "$WORK/err" || fail "no note of the second pass: $(cat "$WORK/err")"
/usr/bin/python3 - "$WORK/one.json" "$WORK/shuffled.json" <<'PY' || fail "the shuffled trace gives another report"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
a.pop("inputs"), b.pop("inputs")
a["overview"].pop("dialect"), b["overview"].pop("dialect")
assert a == b
PY

need_data
for f in "$SPOOR_DATA"/pfw/*.pfw.gz; do
  name=$(basename "$f")
  "$SPOOR_BIN" report --no-progress --no-cache "$f" > "$WORK/s.json" || fail "$name: report failed"
  "$SPOOR_BIN" stats --format json --no-progress --no-cache "$f" > "$WORK/s_stats.json" || fail "$name: stats failed"
  /usr/bin/python3 - "$WORK/s.json" "$WORK/s_stats.json" <<'PY' || fail "$name: report disagrees with stats"
import json, sys
rep, stats = (json.load(open(p)) for p in sys.argv[1:3])
for key in ("events", "processes", "threads", "files", "hosts"):
    assert rep["overview"][key] == stats[key], key
assert rep["timeline"]["kept"] + rep["timeline"]["omitted"] == rep["timeline"]["events"]
PY
done
