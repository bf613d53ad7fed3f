#!/bin/bash
# The standard Chrome trace layouts: an object with "traceEvents" (the
# PyTorch profiler's, with members before the events and events over several
# lines; Perfetto's JSON export, one event per line) and a whole trace as a
# one-line array. Every event kind and its args are read, the document's own
# members become metadata rows, B/E pairs are one row each (also across
# chunks, line per event, streaming or whole-table), and a large one-line
# trace (and its .gz) is read in bounded memory. Also DFTracer 2023 lines split by a raw newline in
# a file name, at chunk boundaries: joined, none skipped.
. "$(dirname "$0")/lib/common.sh"
cd "$WORK"
gen=$(dirname "$0")/lib/chrome_traces.py
/usr/bin/python3 "$gen" layouts .

for f in torch perfetto array; do
  "$SPOOR_BIN" events --no-cache --format jsonl "$f.json" > "$f.out" 2> "$f.err" || fail "$f: $(cat "$f.err")"
  [ ! -s "$f.err" ] || fail "$f: stderr: $(cat "$f.err")"
  /usr/bin/python3 - "$f" <<'PY' || fail "$f: rows differ from the reference"
import json, sys
name = sys.argv[1]
rows = [json.loads(l) for l in open(name + ".out")]
expected = [json.loads(l) for l in open("expected.jsonl")]
# one column "value": a number beside strings is kept as its text
doc = {"torch": {"schemaVersion": "1", "deviceProperties": [{"id": 0, "name": "GPU 0"}],
                 "distributedInfo": {"backend": "nccl", "rank": 0}, "traceName": "rank0.json"},
       "perfetto": {"displayTimeUnit": "ns", "metadata": {"trace-config": "x", "clock": [1, 2]}},
       "array": {}}[name]
def norm(v):
    if isinstance(v, str) and v[:1] in "[{":
        return json.loads(v)
    return v
events = [r for r in rows if r["name"] not in doc or r["ph"] != "M"]
members = {r["name"]: norm(r["value"]) for r in rows if r["name"] in doc and r["ph"] == "M"}
assert members == doc, (members, doc)
assert len(events) == len(expected), (len(events), len(expected))
for i, (got, want) in enumerate(zip(events, expected)):
    for k, v in want.items():
        g = got.get(k, got.get("args." + k))
        if isinstance(v, bool):
            v = int(v)
        assert norm(g) == v, (i, k, g, v)
PY
done
# gzip: the same rows; no checkpoint index (its lines would be events)
gzip -k torch.json
"$SPOOR_BIN" events --no-cache --format jsonl torch.json.gz > torch.gz.out
cmp -s <(sed 's/"source":"torch.json.gz"/"source":"torch.json"/' torch.gz.out) torch.out || fail "torch.json.gz differs"
"$SPOOR_BIN" stats --no-cache perfetto.json > stats.out
grep -q "displayTimeUnit is a display hint only" stats.out || fail "assumed does not say displayTimeUnit is a hint: $(cat stats.out)"
grep -q "^dialect *chrome: ts in us, dur in us" stats.out || fail "perfetto.json: $(cat stats.out)"

# B/E spans over several chunks: one row per pair, whole-table (sql) and
# streaming (stats, events); unmatched ones counted as skipped.
read -r pairs durs e_alone b_open < <(/usr/bin/python3 "$gen" spans spans.pfw 60000)
for threads in 1 2; do
  "$SPOOR_BIN" sql --no-cache --threads $threads spans.pfw \
    "SELECT count(*), sum(dur), sum(ph = 'X'), sum(ret IS NOT NULL AND pad IS NOT NULL) FROM events" > sql.out 2> err
  [ "$(tail -n 1 sql.out | awk '{print $1, $2, $3, $4}')" = "$pairs $durs $pairs $pairs" ] \
    || fail "spans --threads $threads: $(cat sql.out), expected $pairs pairs, dur $durs"
  grep -q "skipped $((e_alone + b_open)) of .* ($e_alone E without B, $b_open B without E)" err \
    || fail "spans unmatched: $(cat err)"
  "$SPOOR_BIN" events --no-cache --threads $threads --format csv --columns dur spans.pfw 2> /dev/null > ev.csv
  [ "$(tail -n +2 ev.csv | awk '{s += $1; n++} END {printf "%d %.0f", n, s}')" = "$pairs $durs" ] \
    || fail "spans events --threads $threads: $(tail -n +2 ev.csv | awk '{s += $1; n++} END {printf "%d %.0f", n, s}')"
done
EXPECT_MAX_LINES=3 expect_fail 1 "spans.pfw:2: E without B (--strict)" stats --no-cache --strict spans.pfw

# A malformed event inside a one-line array: named by its number and byte.
/usr/bin/python3 -c '
s = "[" + ",".join("{\"name\":\"a\",\"ph\":\"X\",\"ts\":%d,\"dur\":1,\"pid\":1,\"tid\":1}" % i for i in range(5)) + "]"
bad = s.replace("\"ts\":3,", "\"ts\":\"x3\",")
open("bad.json", "w").write(bad)
print(bad.index("{\"name\":\"a\",\"ph\":\"X\",\"ts\":\"x3\""))' > bad.byte
"$SPOOR_BIN" stats --no-cache bad.json > /dev/null 2> bad.err
grep -q "bad.json: event 4 (byte $(cat bad.byte)): invalid ts" bad.err || fail "bad event message: $(cat bad.err)"
EXPECT_MAX_LINES=3 expect_fail 1 "bad.json: event 4 (byte $(cat bad.byte)): invalid ts" stats --no-cache --strict bad.json

# A large one-line array, plain and gzip, under a memory limit it does not fit in.
sum=$(/usr/bin/python3 "$gen" big big.json 1200000)
gzip -1 -c big.json > big.json.gz
asan=false
grep -q __asan_init "$SPOOR_BIN" && asan=true
limit_kb=100000                 # the trace is ~140 MB on one line
for input in big.json big.json.gz; do
  for threads in 1 2; do
    args=(stats --no-cache --no-index --threads "$threads" "$input")
    if ! $asan; then
      (ulimit -v $limit_kb; "$SPOOR_BIN" "${args[@]}" > out 2> err) \
        || fail "spoor ${args[*]} under ulimit -v $limit_kb: $(cat err)"
    else
      "$SPOOR_BIN" "${args[@]}" > out 2> err || fail "spoor ${args[*]}: $(cat err)"
    fi
    [ ! -s err ] || fail "spoor ${args[*]}: $(cat err)"
    grep -q "^events *1,200,000 " out || fail "spoor ${args[*]}: $(grep events out)"
  done
done
# no checkpoint index from reading it (its line numbers would be events);
# one built by spoor index (lines) keeps its line numbers
"$SPOOR_BIN" stats --no-cache big.json.gz > /dev/null
[ ! -e big.json.gz.spoor-idx ] || fail "an index was written for a JSON document"
"$SPOOR_BIN" index big.json.gz > /dev/null
cp big.json.gz.spoor-idx idx.before
"$SPOOR_BIN" stats --no-cache big.json.gz > /dev/null
cmp -s idx.before big.json.gz.spoor-idx || fail "reading a JSON document rewrote its index"
"$SPOOR_BIN" sql --no-cache --threads 2 big.json.gz "SELECT count(*), sum(dur), count(DISTINCT line) FROM events WHERE s = 'a},{b'" > sql.out
[ "$(tail -n 1 sql.out | awk '{print $1, $2, $3}')" = "1200000 $sum 1200000" ] || fail "big.json.gz: $(cat sql.out)"

# DFTracer 2023: raw newlines in file names, three at 4 MiB chunk boundaries.
read -r n raw < <(/usr/bin/python3 "$gen" rawnl raw.pfw)
gzip -1 -c raw.pfw > raw.pfw.gz
for input in raw.pfw raw.pfw.gz; do
  for threads in 1 2; do
    "$SPOOR_BIN" stats --no-cache --no-index --threads "$threads" "$input" > out 2> err
    [ ! -s err ] || fail "$input --threads $threads: $(cat err)"
    [ "$(awk '/^events/ {gsub(",", "", $2); print $2}' out)" = "$n" ] || fail "$input --threads $threads: $(grep -E 'events|lines' out)"
  done
done
"$SPOOR_BIN" sql --no-cache raw.pfw "SELECT count(*) FROM events WHERE fname LIKE '/p/y%' || char(10) || '/rest'" > raw.out
[ "$(tail -n 1 raw.out | tr -d ' ')" = "$raw" ] || fail "raw newlines kept in names: $(cat raw.out), expected $raw"
