# spoor summary: per-cat counts and dur sums equal the ground truth of a
# `spoor gen` trace; the same bytes in every format whether the rows come in
# order or shuffled (the replay with threads held whole, said on stderr), with 1 or 2 threads,
# and from a snapshot; on the shared samples it runs, its JSON parses, its
# event count equals `spoor stats`, and --threads 1 and 2 give the same bytes;
# --where summarises the matching events only; --help and one-line usage errors.
source "$(dirname "$0")/lib/common.sh"

"$SPOOR_BIN" summary --help | grep -q "usage: spoor summary" || fail "no --help"
expect_fail 2 "no trace given" summary
expect_fail 2 "expected table, json or csv" summary --format xml x.pfw
expect_fail 2 "expected a count" summary --top many x.pfw
expect_fail 1 "$WORK/missing.pfw" summary "$WORK/missing.pfw"

"$SPOOR_BIN" gen -o "$WORK/gen.pfw" --size-mb 3 --procs 3 > /dev/null || fail "spoor gen failed"
"$SPOOR_BIN" summary --format json --no-progress --no-cache "$WORK/gen.pfw" > "$WORK/gen.json" \
  || fail "summary of the gen trace failed"
/usr/bin/python3 - "$WORK/gen.pfw.truth.json" "$WORK/gen.json" <<'PY' || fail "gen trace differs from its truth"
import json, sys
from collections import defaultdict
truth, got = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
count, dur = defaultdict(int), defaultdict(int)
for g in truth["groups"]:
    if "dur_sum" in g:              # metadata groups (FH, HH) have no dur
        count[g["cat"]] += g["count"]
        dur[g["cat"]] += g["dur_sum"]
layers = {l["cat"]: l for l in got["layers"]}
assert set(layers) == set(count), set(layers) ^ set(count)
for cat in count:
    assert layers[cat]["count"] == count[cat], (cat, layers[cat]["count"], count[cat])
    assert layers[cat]["dur_sum"] == dur[cat], (cat, layers[cat]["dur_sum"], dur[cat])
    assert layers[cat]["time"] <= dur[cat] and layers[cat]["self"] <= dur[cat], cat
assert got["events"] == truth["events"] and got["processes"] == truth["processes"]
assert got["threads"] == truth["threads"] and got["files"] == truth["files"]
# The kernel layers sit inside the system calls: their shares are of a parent.
assert layers["vfs"]["parent"] == "sys", layers["vfs"]
assert 0 < layers["vfs"]["parent_share"] <= 1
PY

# -o writes the file whole; csv has its header and a row per layer.
"$SPOOR_BIN" summary --format csv -o "$WORK/gen.csv" --no-progress --no-cache "$WORK/gen.pfw" > "$WORK/stdout" \
  || fail "summary -o failed"
[ ! -s "$WORK/stdout" ] || fail "summary -o also wrote to stdout"
head -1 "$WORK/gen.csv" | grep -q "^section,label,count,time_ns," || fail "no CSV header"
[ "$(grep -c '^layer,' "$WORK/gen.csv")" -eq 6 ] || fail "CSV layers: $(grep '^layer,' "$WORK/gen.csv")"

# Shuffled rows (metadata first, so that every hash resolves in order; 8 MB,
# so that threads outgrow their window and the summary reads twice): same
# answer, every format, any threads; and the same from a snapshot.
"$SPOOR_BIN" gen -o "$WORK/one.pfw" --size-mb 8 --procs 1 --no-truth > /dev/null || fail "spoor gen failed"
{ head -1 "$WORK/one.pfw"; grep '"ph": "M"' "$WORK/one.pfw"; tail -n +2 "$WORK/one.pfw" | grep -v '"ph": "M"' | shuf --random-source=<(yes); } \
  > "$WORK/shuffled.pfw"
# The second pass is said on stderr, and only when it happens.
for fmt in table json csv; do
  "$SPOOR_BIN" summary --format $fmt --no-progress --no-cache "$WORK/one.pfw" > "$WORK/one.$fmt" 2> "$WORK/one.err" \
    || fail "summary $fmt failed"
  ! grep -q "reading the input again" "$WORK/one.err" || fail "a second pass over rows in order: $(cat "$WORK/one.err")"
  for threads in 1 2; do
    "$SPOOR_BIN" summary --format $fmt --threads $threads --no-progress --no-cache "$WORK/shuffled.pfw" \
      > "$WORK/shuffled.$fmt" 2> "$WORK/shuffled.err" || fail "summary of the shuffled trace failed"
    cmp -s "$WORK/one.$fmt" "$WORK/shuffled.$fmt" || fail "shuffled rows change the $fmt summary ($threads threads)"
    grep -q "^spoor summary: note: .*reading the input again, per thread$" "$WORK/shuffled.err" \
      || fail "no note of the second pass: $(cat "$WORK/shuffled.err")"
  done
done
"$SPOOR_BIN" summary --no-progress "$WORK/one.pfw" > /dev/null || fail "summary failed"
[ ! -e "$WORK/one.pfw.spoor-snap" ] || fail "summary wrote a snapshot: it streams"
"$SPOOR_BIN" sql --no-progress "$WORK/one.pfw" "SELECT 1" > /dev/null || fail "sql (writing the snapshot) failed"
[ -f "$WORK/one.pfw.spoor-snap" ] || fail "no snapshot written"
"$SPOOR_BIN" summary --format json --no-progress "$WORK/one.pfw" > "$WORK/snap.json" || fail "summary from the snapshot failed"
cmp -s "$WORK/one.json" "$WORK/snap.json" || fail "the summary from the snapshot differs"

# --where: only the matching events are summarised, named in the output; a
# filter every event passes changes nothing else; the layer counts equal
# stats --where's; a bad filter is a one-line usage error.
W="cat IN ('sys', 'vfs') AND pid % 2 = 1"
"$SPOOR_BIN" summary --format json --no-progress --no-cache --where "$W" "$WORK/gen.pfw" > "$WORK/where.json" \
  || fail "summary --where failed"
"$SPOOR_BIN" stats --format json --no-progress --no-cache --where "$W" "$WORK/gen.pfw" > "$WORK/where_stats.json" \
  || fail "stats --where failed"
"$SPOOR_BIN" summary --format json --no-progress --no-cache --where "line > 0" "$WORK/gen.pfw" > "$WORK/all.json" \
  || fail "summary --where 'line > 0' failed"
/usr/bin/python3 - "$WORK/where.json" "$WORK/where_stats.json" "$WORK/gen.json" "$WORK/all.json" "$W" <<'PY' \
  || fail "summary --where is wrong"
import json, sys
got, stats, plain, every = (json.load(open(p)) for p in sys.argv[1:5])
assert got["where"] == sys.argv[5] and "where" not in plain, (got.get("where"), plain.get("where"))
assert {l["cat"] for l in got["layers"]} == {"sys", "vfs"}, got["layers"]
per_cat = {g["cat"]: g["count"] for g in stats["by_cat"]}
assert {l["cat"]: l["count"] for l in got["layers"]} == per_cat, (got["layers"], per_cat)
assert got["events"] == stats["events"] < plain["events"]
assert got["processes"] < plain["processes"], (got["processes"], plain["processes"])
assert every.pop("where") == "line > 0" and every == plain
PY
"$SPOOR_BIN" summary --no-progress --no-cache --where "$W" "$WORK/gen.pfw" | head -1 \
  | grep -q "^where       $W (only matching events are summarised)$" || fail "the summary table does not name the filter"
expect_fail 2 "^spoor summary: --where: " summary --where "cat IN (" "$WORK/gen.pfw"

need_data
for f in "$SPOOR_DATA"/pfw/*.pfw "$SPOOR_DATA"/pfw/*.pfw.gz; do
  name=$(basename "$f")
  for fmt in table csv; do
    "$SPOOR_BIN" summary --format $fmt --no-progress --no-cache "$f" > "$WORK/out.$fmt" || fail "$name: $fmt failed"
  done
  grep -q "^layer " "$WORK/out.table" || fail "$name: no layer table"
  head -1 "$WORK/out.csv" | grep -q "^section,label," || fail "$name: no CSV header"
  for threads in 1 2; do
    "$SPOOR_BIN" summary --format json --threads $threads --no-progress --no-cache "$f" > "$WORK/t$threads.json" \
      || fail "$name: json failed"
  done
  cmp -s "$WORK/t1.json" "$WORK/t2.json" || fail "$name: --threads 1 and 2 differ"
  "$SPOOR_BIN" stats --format json --no-progress --no-cache "$f" > "$WORK/stats.json" || fail "$name: stats failed"
  /usr/bin/python3 - "$WORK/t1.json" "$WORK/stats.json" "$f" <<'PY' || fail "$name: summary disagrees with stats"
import gzip, json, sys
got, stats = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
for key in ("events", "processes", "threads", "files", "hosts"):
    assert got[key] == stats[key], (key, got[key], stats[key])
# A profile counter (ph C with freq and time) is freq calls; any other event one.
extra = 0
for line in (gzip.open if sys.argv[3].endswith(".gz") else open)(sys.argv[3], "rt"):
    if '"C"' in line and '"freq"' in line:
        a = json.loads(line.strip().rstrip(","))["args"]
        extra += a["freq"] - 1
assert sum(l["count"] for l in got["layers"]) == stats["events"] + extra
PY
done
