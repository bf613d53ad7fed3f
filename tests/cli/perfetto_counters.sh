# spoor export --to perfetto's counter tracks end to end: exact samples on a
# handmade trace, the bucket bound by default, bytes that add up to what
# spoor summary says per layer, the samples read back as metadata rows (never
# calls), --no-counters, and the option errors.
source "$(dirname "$0")/lib/common.sh"
py=/usr/bin/python3
export_() { "$SPOOR_BIN" export --no-progress --no-cache "$@"; }

# pid 1: a read of 1000 B in [0, 1 ms), a write of 3000 B in [0.5, 2.5 ms);
# pid 2: an open in [0.1, 0.2 ms).
cat > "$WORK/t.json" <<'EOF'
[
{"ph":"X","name":"read","cat":"POSIX","pid":1,"tid":1,"ts":0,"dur":1000,"args":{"ret":1000,"count":1000}},
{"ph":"X","name":"write","cat":"POSIX","pid":1,"tid":2,"ts":500,"dur":2000,"args":{"size":3000}},
{"ph":"X","name":"open","cat":"POSIX","pid":2,"tid":3,"ts":100,"dur":100}
]
EOF
export_ --to perfetto --counter-every 1ms -o "$WORK/t.out.json" "$WORK/t.json"
got=$("$py" -c '
import json, sys
for e in json.load(open(sys.argv[1])):
    if e["ph"] == "C":
        assert e["cat"] == "spoor.counter", e
        (k, v), = e["args"].items()
        print(e["pid"], e["name"], k, e["ts"], v)
' "$WORK/t.out.json" | sort -k1,1n -k2,3 -k4,4n | tr '\n' ';')
want="1 POSIX busy threads 0 1.5;1 POSIX busy threads 1000 1;1 POSIX busy threads 2000 0.5;1 POSIX busy threads 3000 0;"
want+="1 POSIX bytes/s read 0 1000000;1 POSIX bytes/s read 1000 0;"
want+="1 POSIX bytes/s write 0 750000;1 POSIX bytes/s write 1000 1500000;1 POSIX bytes/s write 2000 750000;1 POSIX bytes/s write 3000 0;"
want+="2 POSIX busy threads 0 0.1;2 POSIX busy threads 1000 0;"
[ "$got" = "$want" ] || fail "samples: $got"

# Read back: the same calls, the samples as metadata rows.
"$SPOOR_BIN" stats --no-progress --no-cache "$WORK/t.out.json" > "$WORK/stats" 2>&1
grep -q "^events *3 (+ 12 metadata)" "$WORK/stats" || fail "read back: $(cat "$WORK/stats")"
got=$("$SPOOR_BIN" sql --no-progress --no-cache --format csv "$WORK/t.out.json" \
  "SELECT ph, count(*) FROM events WHERE cat = 'spoor.counter' GROUP BY ph" | tail -n +2)
[ "$got" = "M,12" ] || fail "counter rows read back as: $got"

# --no-counters: the events alone.
export_ --to perfetto --no-counters -o "$WORK/plain.json" "$WORK/t.json"
! grep -q '"ph":"C"' "$WORK/plain.json" || fail "--no-counters wrote counters"
[ "$(grep -c '"ph":"X"' "$WORK/plain.json")" = 3 ] || fail "--no-counters lost events"

# A generated run: by default a power of two of ns, at most 2048 buckets;
# per layer the bytes of the samples (bytes/s x width) are spoor summary's.
"$SPOOR_BIN" gen -o "$WORK/g.pfw.gz" --size-mb 4 --seed 5 --no-truth > /dev/null
export_ --to perfetto -o "$WORK/g.json" "$WORK/g.pfw.gz"
"$SPOOR_BIN" summary --no-progress --no-cache --format json "$WORK/g.pfw.gz" > "$WORK/summary.json"
"$py" - "$WORK/g.json" "$WORK/summary.json" <<'EOF' || fail "generated run: counters disagree with the summary"
import json, sys
from decimal import Decimal
ev = json.load(open(sys.argv[1]), parse_float=Decimal)
samples = [e for e in ev if e["ph"] == "C"]
assert samples, "no counter samples"
ns = sorted({int(Decimal(e["ts"]) * 1000) for e in samples})
width = min(b - a for a, b in zip(ns, ns[1:]))
assert width & (width - 1) == 0, width                  # a power of two
assert all(t % width == 0 for t in ns), "a sample off a bucket's start"
assert (ns[-1] - ns[0]) // width <= 2048, (ns[-1] - ns[0]) // width
bytes_of = {}
for e in samples:
    (k, v), = e["args"].items()
    if k != "threads":
        cat = e["name"][: -len(" bytes/s")]
        bytes_of[cat] = bytes_of.get(cat, 0) + v * width / Decimal(10**9)
want = {l["cat"]: l["bytes"] for l in json.load(open(sys.argv[2]))["layers"] if l["bytes"]}
got = {c: round(b) for c, b in bytes_of.items()}
assert got == want, (got, want)
EOF
# ... and the calls read back are the original's.
groups() { "$SPOOR_BIN" stats --no-progress --no-cache --format json "$1" \
  | "$py" -c 'import json, sys; print(sorted((g["cat"], g["name"], g["count"]) for g in json.load(sys.stdin)["by_name"]))'; }
[ "$(groups "$WORK/g.json")" = "$(groups "$WORK/g.pfw.gz")" ] || fail "the generated run read back differs"

# Option errors; a width too narrow for the run leaves no output.
expect_fail 2 "counter buckets of 1 ns: the run spans more buckets than 1048576; choose a wider --counter-every" \
  export --no-progress --no-cache --to perfetto --counter-every 1ns -o "$WORK/narrow.json" "$WORK/t.json"
[ ! -e "$WORK/narrow.json" ] || fail "a refused export left its output"
expect_fail 2 "--counter-every goes with --to perfetto" export --to csv --counter-every 1s -o "$WORK/x.csv" "$WORK/t.json"
expect_fail 2 "--no-counters goes with --to perfetto" export --to jsonl --no-counters -o "$WORK/x.jsonl" "$WORK/t.json"
expect_fail 2 "--counter-every and --no-counters exclude each other" \
  export --to perfetto --counter-every 1s --no-counters -o "$WORK/x.json" "$WORK/t.json"
expect_fail 2 "--counter-every '1.5x': unknown unit" \
  export --to perfetto --counter-every 1.5x -o "$WORK/x.json" "$WORK/t.json"
expect_fail 2 "--counter-every '100': a number needs a unit" \
  export --to perfetto --counter-every 100 -o "$WORK/x.json" "$WORK/t.json"
echo ok
