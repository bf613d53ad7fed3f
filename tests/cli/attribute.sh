# spoor attribute on a `spoor gen` trace: in self mode each call's kernel
# columns are the sidecar's self times and unattributed is dur minus them;
# CSV and JSONL agree; --by cat sums the functions; no matching call warns,
# and so do calls that no event overlaps;
# a bad --calls is a one-line error leaving no file; the default kernel
# events are the kernel-side cats and an enclosing event of the call's
# thread is its caller, never attributed (--events chooses others); the
# DataCrumbs sample when present.
source "$(dirname "$0")/lib/common.sh"

"$SPOOR_BIN" gen -o "$WORK/t.pfw" --size-mb 1 --seed 11 > /dev/null
SYS="cat = 'sys'"
"$SPOOR_BIN" attribute --no-progress --calls "$SYS" -o "$WORK/self.csv" "$WORK/t.pfw" || fail "attribute failed"
"$SPOOR_BIN" attribute --no-progress --calls "$SYS" -o "$WORK/self.jsonl" "$WORK/t.pfw" || fail "jsonl failed"
"$SPOOR_BIN" attribute --no-progress --calls "$SYS" --by cat -o "$WORK/cat.csv" "$WORK/t.pfw" || fail "--by cat failed"

/usr/bin/python3 - "$WORK" <<'PY' || fail "the dataset disagrees with the gen truth"
import csv, json, sys
from collections import defaultdict
work = sys.argv[1]
truth = json.load(open(f"{work}/t.pfw.truth.json"))
fixed = ["call_id", "ts", "dur", "name", "file", "size", "bandwidth"]
def num(v):
    return None if v in ("", None) else float(v)
rows = list(csv.DictReader(open(f"{work}/self.csv")))
header = list(rows[0].keys())
assert header[:7] == fixed and header[-2:] == ["unattributed", "coverage"], header
fns = header[7:-2]
assert fns == sorted(fns, key=lambda c: tuple(c.split(".", 1))), fns
by_id = {int(r["call_id"]): r for r in rows}
assert len(by_id) == len(truth["calls"]) == len(rows), (len(by_id), len(truth["calls"]))
for call_id, line, name, kernels in truth["calls"]:
    r = by_id[call_id]
    assert r["name"] == name, (call_id, r["name"], name)
    want = defaultdict(int)
    for _, fn, dur, self_ns in kernels:
        want[fn] += self_ns
    got = {c: int(r[c]) for c in fns if int(r[c])}
    assert got == dict(want), (call_id, got, dict(want))
    dur = int(r["dur"])
    assert int(r["unattributed"]) == dur - sum(got.values()), (call_id, r["unattributed"])
    assert abs(float(r["coverage"]) - sum(got.values()) / dur) < 1e-12
    if r["size"]:
        assert abs(float(r["bandwidth"]) - int(r["size"]) / 2**20 / (dur / 1e9)) < 1e-6 * float(r["bandwidth"]) + 1e-9
# JSONL: the same values, keys in the CSV's order.
lines = [json.loads(l) for l in open(f"{work}/self.jsonl")]
assert len(lines) == len(rows)
for j, r in zip(lines, rows):
    assert list(j.keys()) == header
    for k in header:
        v = j[k]
        assert (v is None and r[k] == "") or (isinstance(v, str) and v == r[k]) or num(r[k]) == v, (k, v, r[k])
# By cat: each layer is the sum of its functions.
for c, r in zip(csv.DictReader(open(f"{work}/cat.csv")), rows):
    layers = defaultdict(int)
    for fn in fns:
        layers[fn.split(".", 1)[0]] += int(r[fn])
    assert {k: int(c[k]) for k in layers} == layers, (c, layers)
PY

# Notebook mode counts whole durations of events of every process: never less.
"$SPOOR_BIN" attribute --no-progress --calls "$SYS" --compat notebook -o "$WORK/nb.csv" "$WORK/t.pfw"
[ "$(wc -l < "$WORK/nb.csv")" = "$(wc -l < "$WORK/self.csv")" ] || fail "--compat notebook has another row count"

# No call matching: a warning, and a dataset with its header only.
"$SPOOR_BIN" attribute --no-progress --calls "$SYS" --file '/nowhere/*' -o "$WORK/none.csv" "$WORK/t.pfw" \
  2> "$WORK/none.err" || fail "no matching call: not exit 0"
grep -q "warning: no call matches --calls and --file" "$WORK/none.err" || fail "no matching call: no warning"
[ "$(wc -l < "$WORK/none.csv")" = 1 ] || fail "no matching call: not a header only"

# Events, but none inside a call of its thread: every coverage is 0, and
# stderr says so; with --match pid the other thread's event counts, no warning.
printf '%s\n' '{"ts":0,"dur":10,"name":"read","cat":"sys","pid":1,"tid":1}' \
  '{"ts":2,"dur":5,"name":"k","cat":"kern","pid":1,"tid":2}' \
  '{"ts":100,"dur":5,"name":"k","cat":"kern","pid":1,"tid":1}' > "$WORK/apart.jsonl"
"$SPOOR_BIN" attribute --no-progress --calls "$SYS" -o "$WORK/apart.csv" --cache-dir "$WORK/cache" "$WORK/apart.jsonl" \
  2> "$WORK/apart.err" || fail "apart events: not exit 0"
grep -q "warning: none of the 2 events overlaps any of the 1 calls of its thread (--match tid)" "$WORK/apart.err" \
  || fail "apart events: no warning: $(cat "$WORK/apart.err")"
[ "$(tail -1 "$WORK/apart.csv" | cut -d, -f9)" = 0 ] || fail "apart events: coverage is not 0"
"$SPOOR_BIN" attribute --no-progress --calls "$SYS" --match pid -o "$WORK/apart.csv" --cache-dir "$WORK/cache" \
  "$WORK/apart.jsonl" 2> "$WORK/apart.err" || fail "apart events, --match pid: not exit 0"
[ ! -s "$WORK/apart.err" ] || fail "apart events, --match pid: a warning: $(cat "$WORK/apart.err")"
"$SPOOR_BIN" attribute --no-progress --calls "$SYS" --events "cat = 'nosuch'" -o "$WORK/apart.csv" \
  --cache-dir "$WORK/cache" "$WORK/apart.jsonl" 2> "$WORK/apart.err" || fail "no event: not exit 0"
grep -q "warning: no event matches --events" "$WORK/apart.err" || fail "no event: no warning"

# Callers are not kernel functions. A DataCrumbs-style thread: libc's read
# (cat c, a uprobe) encloses the system call, which encloses vfs_read; app's
# main encloses everything; a cat no list knows (mystery) sits inside the
# second call; another thread's libc write overlaps both calls.
cat > "$WORK/callers.pfw" <<'PFW'
[
{"pid": 1, "tid": 1, "name": "vfs_read", "cat": "vfs", "ph": "X", "ts": 20, "dur": 60000}
{"pid": 1, "tid": 1, "name": "read", "cat": "sys", "ph": "X", "ts": 10, "dur": 80000, "args": {"size_sum": 4096}}
{"pid": 1, "tid": 1, "name": "read", "cat": "c", "ph": "X", "ts": 0, "dur": 100000}
{"pid": 1, "tid": 1, "name": "malloc", "cat": "c", "ph": "X", "ts": 200, "dur": 10000}
{"pid": 1, "tid": 1, "name": "mark_page_accessed", "cat": "os_cache", "ph": "X", "ts": 310, "dur": 20000}
{"pid": 1, "tid": 1, "name": "probe", "cat": "mystery", "ph": "X", "ts": 350, "dur": 10000}
{"pid": 1, "tid": 1, "name": "read", "cat": "sys", "ph": "X", "ts": 300, "dur": 100000, "args": {"size_sum": 100}}
{"pid": 1, "tid": 2, "name": "write", "cat": "c", "ph": "X", "ts": 0, "dur": 500000}
{"pid": 1, "tid": 1, "name": "main", "cat": "app", "ph": "X", "ts": 0, "dur": 1000000}
PFW
run_callers() { # NAME ARGS...: attribute the callers trace into $WORK/NAME.jsonl, stderr in NAME.err
  local name=$1
  shift
  "$SPOOR_BIN" attribute --no-progress --cache-dir "$WORK/cache" -o "$WORK/$name.jsonl" "$@" "$WORK/callers.pfw" \
    2> "$WORK/$name.err" || fail "attribute $*: $(cat "$WORK/$name.err")"
}
run_callers default --calls "$SYS"
grep -q "^spoor attribute: note: events of cats c, mystery, app are not kernel-side and not attributed" \
  "$WORK/default.err" || fail "the left-out cats are not named: $(cat "$WORK/default.err")"
run_callers everything --calls "$SYS" --events "cat != 'sys'"
[ ! -s "$WORK/everything.err" ] || fail "--events: a note on stderr: $(cat "$WORK/everything.err")"
run_callers other_thread --calls "$SYS" --events "cat = 'c'" --match pid
run_callers libc --calls "cat = 'c' AND name = 'read'"
/usr/bin/python3 - "$WORK" <<'PY' || fail "callers were attributed"
import json, sys
work = sys.argv[1]
def rows(name):
    return [json.loads(l) for l in open(f"{work}/{name}.jsonl")]
# Default: vfs (60 of 80 us) and os_cache (20 of 100 us); c, app and mystery are no columns.
d = rows("default")
assert [k for k in d[0] if "." in k] == ["os_cache.mark_page_accessed", "vfs.vfs_read"], list(d[0])
assert [(r["coverage"], r["unattributed"]) for r in d] == [(0.75, 20000), (0.2, 80000)], d
# --events takes mystery, but c's read and app's main enclose a call of their thread: callers.
e = rows("everything")
assert "c.read" not in e[0] and "app.main" not in e[0], e[0]
assert [(r["coverage"], r["mystery.probe"]) for r in e] == [(0.75, 0), (0.3, 10000)], e
# The other thread's libc write is chosen by --events and seen with --match pid: it counts;
# the read it does not enclose still does not.
o = rows("other_thread")
assert "c.read" not in o[0] and [r["c.write"] for r in o] == [80000, 100000], o
# libc's read as the call: the system call inside it is kernel-side (80 of 100 us covered).
l = rows("libc")
assert len(l) == 1 and l[0]["sys.read"] > 0 and l[0]["coverage"] == 0.8, l
PY

# Errors: one line, exit 2, no output file.
expect_fail 2 "--calls: .*position" attribute --no-progress --calls "cat = = 'sys'" -o "$WORK/bad.csv" "$WORK/t.pfw"
[ ! -e "$WORK/bad.csv" ] || fail "a bad --calls left an output file"
expect_fail 2 "--time 'fast'" attribute --no-progress --calls "$SYS" --time fast -o "$WORK/bad.csv" "$WORK/t.pfw"
expect_fail 2 "--compat notebook fixes" attribute --no-progress --calls "$SYS" --compat notebook --time self -o "$WORK/bad.csv" "$WORK/t.pfw"
expect_fail 2 "--calls is required" attribute --no-progress -o "$WORK/bad.csv" "$WORK/t.pfw"
expect_fail 1 "nope.pfw" attribute --no-progress --calls "$SYS" -o "$WORK/bad.csv" "$WORK/nope.pfw"
[ ! -e "$WORK/bad.csv" ] || fail "a failed run left an output file"
ls -A "$WORK" | grep -q "tmp-" && fail "a failed run left a temporary file"

# -o NAME.html picks the HTML page, whose data are the CSV's rows
"$SPOOR_BIN" attribute --no-progress --calls "$SYS" -o "$WORK/self.html" "$WORK/t.pfw" || fail "attribute -o .html failed"
/usr/bin/python3 - "$WORK/self.html" "$WORK/self.csv" <<'PY' || fail "attribute -o NAME.html: the page's data differ from the CSV"
import csv, json, re, sys
page = open(sys.argv[1]).read()
data = json.loads(re.search(r'<script type="application/json" id="spoor-data">(.*?)</script>', page, re.S).group(1))
rows = list(csv.DictReader(open(sys.argv[2])))
calls = data["sheets"][0]
assert calls["key"] == "calls" and calls["rows"] == len(rows) and calls["every"] == 1, (calls["key"], calls["rows"])
for want, got in zip(rows, calls["data"]):
    assert want["call_id"] == str(got["call_id"]) and want["unattributed"] == str(got["unattributed"]), (want, got)
PY

# The DataCrumbs sample: its os_cache events all fall between system calls
# (checked with a script over the raw lines), so every read is unattributed.
if [ -d "${SPOOR_DATA:-}" ]; then
  "$SPOOR_BIN" attribute --no-progress --calls "cat = 'sys' AND name = 'read'" -o "$WORK/dc.jsonl" \
    --cache-dir "$WORK" "$SPOOR_DATA/pfw/datacrumbs-trace-2024.pfw.gz" || fail "attribute on the DataCrumbs sample failed"
  /usr/bin/python3 - "$WORK/dc.jsonl" <<'PY' || fail "the DataCrumbs dataset is inconsistent"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
assert len(rows) == 192, len(rows)
assert list(rows[0].keys())[7:] == ["unattributed", "coverage"], rows[0].keys()
for r in rows:
    assert r["unattributed"] == r["dur"] and r["coverage"] == 0, r
    assert r["file"] and r["size"] is not None, r
PY
fi
echo ok
