# A default CSV has every args column, however late in the rows it first
# appears: a DataCrumbs-shaped trace whose I/O calls (size_sum, fhash) come
# after 1,500 other events, written by export and events to a file, to stdout
# redirected to a file, to a pipe, through batches on two threads and with
# --where. Rows written before a column appeared get an empty cell for it,
# quoted line breaks and all; nothing is left in $TMPDIR.
source "$(dirname "$0")/lib/common.sh"
py=/usr/bin/python3

"$py" - "$WORK/dc.pfw" <<'PY'
import json, sys
with open(sys.argv[1], "w") as f:
    f.write("[\n")
    for i in range(6000):
        e = {"id": i, "name": "read" if i % 3 else "open", "cat": "sys", "pid": 7, "tid": 7,
             "ts": 1000 + i * 10, "dur": 5000, "ph": "X", "args": {"hhash": 2**100 + 1}}
        if i < 1500:
            e["cat"] = "app"
            if i % 100 == 7:
                e["args"]["note"] = "a, \"quoted\"\nline %d" % i
        else:
            e["args"]["size_sum"] = i * 4096
            e["args"]["fhash"] = 2**90 + i % 11
        if i == 5999:
            e["args"]["last"] = "z"
        f.write(json.dumps(e) + "\n")
PY

# check CSV WHERE_PY: rows of equal width, the late columns there with every value.
check() {
  "$py" - "$1" "$2" <<'PY' || fail "$1: $(head -c 300 "$1")"
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
head, body = rows[0], rows[1:]
keep = eval("lambda i: " + sys.argv[2])
want = [i for i in range(6000) if keep(i)]
assert len(body) == len(want), ("rows", len(body), len(want))
bad = [r for r in body if len(r) != len(head)]
assert not bad, ("widths", len(head), bad[:2])
for col in ("size_sum", "fhash", "note", "last", "hhash"):
    assert col in head, ("no column", col, head)
col = {c: head.index(c) for c in head}
for i, r in zip(want, body):
    assert r[col["line"]] == str(i + 2), ("line", i, r)
    assert r[col["size_sum"]] == (str(i * 4096) if i >= 1500 else ""), ("size_sum", i, r)
    assert r[col["fhash"]] == (str(2**90 + i % 11) if i >= 1500 else ""), ("fhash", i, r)
    assert r[col["note"]] == ("a, \"quoted\"\nline %d" % i if i < 1500 and i % 100 == 7 else ""), ("note", i, r)
    assert r[col["last"]] == ("z" if i == 5999 else ""), ("last", i, r)
PY
}

all=True
sel='i % 2 == 1 or i >= 5000'
where="line % 2 = 1 OR line >= 5002"
for threads in 1 2; do
  t=(--threads "$threads")
  "$SPOOR_BIN" export --to csv -o "$WORK/x.csv" "${t[@]}" "$WORK/dc.pfw" 2> "$WORK/err" || fail "export: $(cat "$WORK/err")"
  check "$WORK/x.csv" "$all"
  [ ! -s "$WORK/err" ] || fail "export says: $(cat "$WORK/err")"
  "$SPOOR_BIN" export --to csv -o - "${t[@]}" "$WORK/dc.pfw" > "$WORK/stdout.csv"
  cmp -s "$WORK/x.csv" "$WORK/stdout.csv" || fail "export -o - differs from -o FILE"
  "$SPOOR_BIN" events -o "$WORK/e.csv" "${t[@]}" "$WORK/dc.pfw"
  cmp -s "$WORK/x.csv" "$WORK/e.csv" || fail "events -o FILE differs from export"
  "$SPOOR_BIN" events "${t[@]}" "$WORK/dc.pfw" | cat > "$WORK/pipe.csv"
  cmp -s "$WORK/x.csv" "$WORK/pipe.csv" || fail "events to a pipe differs from export"
  "$SPOOR_BIN" export --to csv -o "$WORK/w.csv" --where "$where" "${t[@]}" "$WORK/dc.pfw"
  check "$WORK/w.csv" "$sel"
  "$SPOOR_BIN" events --where "$where" "${t[@]}" "$WORK/dc.pfw" > "$WORK/w2.csv"
  cmp -s "$WORK/w.csv" "$WORK/w2.csv" || fail "events --where to stdout differs from export"
done

# A column seen only in the first 1,000 rows and one seen only later: the
# output does not depend on the hold, only on the rows.
"$SPOOR_BIN" events --where "line >= 1502" "$WORK/dc.pfw" > "$WORK/late.csv"
head -1 "$WORK/late.csv" | grep -q '^ts,dur,name,cat,pid,tid,ph,line,source,file,host,fhash,hhash,id,size_sum,last$' \
  || fail "late-only header: $(head -1 "$WORK/late.csv")"

# The other outputs have every column too: the database's table, perfetto's
# args, spoor sql's CSV.
"$SPOOR_BIN" export --to sqlite -o "$WORK/x.db" "$WORK/dc.pfw"
got=$(sqlite3 "$WORK/x.db" "SELECT count(size_sum), count(fhash), count(note), count(last) FROM events")
[ "$got" = "4500|4500|15|1" ] || fail "sqlite: $got"
"$SPOOR_BIN" export --to perfetto -o "$WORK/x.json" "$WORK/dc.pfw"
got=$("$py" -c 'import json, sys
ev = [e.get("args", {}) for e in json.load(open(sys.argv[1]))]
print(sum("size_sum" in a for a in ev), sum("fhash" in a for a in ev), sum("last" in a for a in ev))' "$WORK/x.json")
[ "$got" = "4500 4500 1" ] || fail "perfetto: $got"
"$SPOOR_BIN" sql --no-cache --format csv "$WORK/dc.pfw" "SELECT * FROM events" > "$WORK/sql.csv"
cols() { head -1 "$1" | tr , '\n' | sort | tr '\n' ,; }
[ "$(cols "$WORK/sql.csv")" = "$(cols "$WORK/x.csv")" ] || fail "sql columns: $(head -1 "$WORK/sql.csv")"

# A spill file that cannot be made is an error naming where, with no output
# left half-written (-o FILE keeps no temporary; it needs no spill).
TMPDIR=$WORK/nowhere expect_fail 1 "cannot create a temporary file in $WORK/nowhere for the CSV rows: No such file" \
  events "$WORK/dc.pfw"
[ ! -s "$WORK/out" ] || fail "a failed spill wrote rows: $(head -c 200 "$WORK/out")"
TMPDIR=$WORK/nowhere "$SPOOR_BIN" events -o "$WORK/nospill.csv" "$WORK/dc.pfw" || fail "-o FILE needed a spill"
cmp -s "$WORK/x.csv" "$WORK/nospill.csv" || fail "-o FILE without a spill differs"

# The spill files have no name or lose it at once: nothing stays in TMPDIR.
leftover=$(find "$WORK" -name 'spoor-rows-*' | head -1)
[ -z "$leftover" ] || fail "left behind: $leftover"
echo ok
