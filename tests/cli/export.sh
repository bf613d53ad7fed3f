# spoor export end to end on the shared traces: every format reads back to
# what spoor itself says (stats counts and dur sums per cat/name, the rows of
# spoor events), --where applies, and a failed export leaves no OUT behind.
source "$(dirname "$0")/lib/common.sh"
need_data
py=/usr/bin/python3
data=$SPOOR_DATA/pfw
traces=("$data/dftracer-cm1-2024-rank0.pfw.gz" "$data/datacrumbs-trace-2024.pfw.gz" "$data/dftracer-dlio-pytorch-2023.pfw.gz")
export_() { "$SPOOR_BIN" export --no-progress --no-index "$@"; }
# SQLite's own consistency checks of a database we wrote.
check_db() {
  [ "$(sqlite3 "$2" "PRAGMA integrity_check; PRAGMA quick_check" | tr '\n' ' ')" = "ok ok " ] \
    || fail "$1: integrity_check: $(sqlite3 "$2" "PRAGMA integrity_check" | head -3)"
}
stats_json() { "$SPOOR_BIN" stats --no-progress --no-index --format json "$@"; }

# "cat name count dur_sum" per (cat, name), sorted, from spoor stats --format json.
groups_of_stats() {
  "$py" -c '
import json, sys
s = json.load(sys.stdin)
for g in sorted(s["by_name"], key=lambda g: (g["cat"], g["name"])):
    print(g["cat"], g["name"], g["count"], g.get("dur_sum", 0) if g["timed"] else 0, sep="|")
'
}

for trace in "${traces[@]}"; do
  base=$(basename "$trace")
  stats_json "$trace" 2>/dev/null | groups_of_stats > "$WORK/want"
  [ -s "$WORK/want" ] || fail "$base: no groups in spoor stats"

  # SQLite: the same groups through the sqlite3 CLI.
  export_ --to sqlite -o "$WORK/t.db" "$trace" 2>/dev/null || fail "$base: export --to sqlite failed"
  sqlite3 -separator '|' "$WORK/t.db" \
    "SELECT coalesce(cat, ''), name, count(*), coalesce(sum(dur), 0) FROM events WHERE ph IS NOT 'M'
     GROUP BY cat, name ORDER BY coalesce(cat, ''), name" > "$WORK/got"
  diff "$WORK/want" "$WORK/got" > "$WORK/diff" || fail "$base: sqlite groups differ from spoor stats: $(head "$WORK/diff")"
  rows=$(sqlite3 "$WORK/t.db" "SELECT sum(rows) FROM meta")
  [ "$(sqlite3 "$WORK/t.db" "SELECT count(*) FROM events")" = "$rows" ] || fail "$base: events count != meta rows"
  check_db "$base" "$WORK/t.db"

  # Every fixed column equals what spoor sql reads from the trace itself, row by row,
  # through the sqlite3 CLI and Python's sqlite3.
  cols="ts, dur, name, cat, pid, tid, ph, line, source, file, host"
  "$SPOOR_BIN" sql --no-progress --no-index --no-cache --format csv "$trace" "SELECT $cols FROM events" > "$WORK/sql.csv" 2>/dev/null
  sqlite3 -csv -header "$WORK/t.db" "SELECT $cols FROM events ORDER BY rowid" > "$WORK/db.csv"
  "$py" -c '
import csv, sqlite3, sys
a = list(csv.reader(open(sys.argv[1], newline="")))
b = list(csv.reader(open(sys.argv[2], newline="")))
assert len(a) > 1 and a == b, (len(a), len(b), next((x, y) for x, y in zip(a, b) if x != y))
n = sqlite3.connect(sys.argv[3]).execute("SELECT count(*) FROM events").fetchone()[0]
assert n == len(a) - 1, (n, len(a))
' "$WORK/sql.csv" "$WORK/db.csv" "$WORK/t.db" || fail "$base: sqlite rows differ from spoor sql"

  # The indexes serve their queries and give what a full scan gives.
  read -r lo hi < <(sqlite3 -separator ' ' "$WORK/t.db" \
    "SELECT min(ts) + (max(ts) - min(ts)) / 4, min(ts) + (max(ts) - min(ts)) / 2 FROM events")
  name=$(sqlite3 "$WORK/t.db" "SELECT name FROM events WHERE name IS NOT NULL LIMIT 1 OFFSET (SELECT count(*) / 2 FROM events)")
  read -r pid tid < <(sqlite3 -separator ' ' "$WORK/t.db" "SELECT pid, tid FROM events WHERE tid IS NOT NULL ORDER BY rowid DESC LIMIT 1")
  for where in "ts BETWEEN $lo AND $hi:events_ts" "name = '${name//\'/\'\'}':events_name" "pid = $pid AND tid = $tid:events_pid_tid"; do
    cond=${where%:*} index=${where##*:}
    sqlite3 "$WORK/t.db" "EXPLAIN QUERY PLAN SELECT * FROM events WHERE $cond" | grep -q "USING INDEX $index" \
      || fail "$base: '$cond' does not use $index"
    by_index=$(sqlite3 "$WORK/t.db" "SELECT count(*), total(rowid), total(line) FROM events WHERE $cond")
    by_scan=$(sqlite3 "$WORK/t.db" "SELECT count(*), total(rowid), total(line) FROM events NOT INDEXED WHERE $cond")
    [ "$by_index" = "$by_scan" ] && [ "${by_scan%%|*}" -gt 0 ] || fail "$base: '$cond': index gives $by_index, scan $by_scan"
  done

  # Perfetto: spoor stats of the exported file equals the original's.
  export_ --to perfetto -o "$WORK/t.json" "$trace" 2>/dev/null || fail "$base: export --to perfetto failed"
  "$py" -c 'import json, sys; assert isinstance(json.load(open(sys.argv[1])), list)' "$WORK/t.json" \
    || fail "$base: the perfetto output is not a JSON array"
  stats_json "$WORK/t.json" 2>/dev/null | groups_of_stats > "$WORK/got"
  diff "$WORK/want" "$WORK/got" > "$WORK/diff" || fail "$base: perfetto re-read differs: $(head "$WORK/diff")"

  # CSV and JSONL: the rows of spoor events, read back by Python.
  "$SPOOR_BIN" events --no-progress --no-index --format csv "$trace" > "$WORK/events.csv" 2>/dev/null
  export_ --to csv -o "$WORK/t.csv" "$trace" 2>/dev/null || fail "$base: export --to csv failed"
  "$py" -c '
import csv, sys
a = list(csv.reader(open(sys.argv[1], newline="")))
b = list(csv.reader(open(sys.argv[2], newline="")))
assert len(a) > 1 and a == b, (len(a), len(b))
' "$WORK/events.csv" "$WORK/t.csv" || fail "$base: csv export differs from spoor events"
  "$SPOOR_BIN" events --no-progress --no-index --format jsonl "$trace" > "$WORK/events.jsonl" 2>/dev/null
  export_ --to jsonl -o "$WORK/t.jsonl" "$trace" 2>/dev/null || fail "$base: export --to jsonl failed"
  "$py" -c '
import json, sys
a = [json.loads(l) for l in open(sys.argv[1])]
b = [json.loads(l) for l in open(sys.argv[2])]
assert len(a) > 1 and a == b, (len(a), len(b))
' "$WORK/events.jsonl" "$WORK/t.jsonl" || fail "$base: jsonl export differs from spoor events"
done

# --where, with resolved names, in every format.
trace=${traces[0]}
where="cat = 'POSIX' AND file LIKE '%.conf'"
want=$("$SPOOR_BIN" events --no-progress --no-index --format jsonl --where "$where" "$trace" | wc -l)
[ "$want" -gt 0 ] || fail "--where selects nothing; the test needs rows"
export_ --to sqlite -o "$WORK/w.db" --where "$where" "$trace" 2>/dev/null
[ "$(sqlite3 "$WORK/w.db" "SELECT count(*) FROM events WHERE cat = 'POSIX' AND file LIKE '%.conf'")" = "$want" ] \
  || fail "sqlite --where kept other rows"
[ "$(sqlite3 "$WORK/w.db" "SELECT count(*) FROM events")" = "$want" ] || fail "sqlite --where count"
[ "$(sqlite3 "$WORK/w.db" "SELECT count(*) FROM files")" -gt 0 ] || fail "sqlite --where lost the file lookups"
check_db "--where" "$WORK/w.db"
export_ --to perfetto -o "$WORK/w.json" --where "$where" "$trace" 2>/dev/null
got=$("$py" -c '
import json, sys
print(sum(1 for e in json.load(open(sys.argv[1])) if e["ph"] not in ("M", "C") and e["args"]["file"].endswith(".conf")))
' "$WORK/w.json")
[ "$got" = "$want" ] || fail "perfetto --where: $got events, expected $want"

# Several inputs on two threads (records encoded on the workers), args
# columns of the later inputs appearing mid-stream, with and without --where:
# a valid database holding what one thread writes.
"$SPOOR_BIN" gen -o "$WORK/gen.pfw.gz" --size-mb 12 --seed 3 --no-truth >/dev/null
several=("$WORK/gen.pfw.gz" "${traces[2]}" "${traces[1]}")
dump_db() { sqlite3 "$1" "SELECT * FROM events ORDER BY rowid; SELECT sql FROM sqlite_master" | md5sum; }
for where in "" "cat = 'POSIX' OR dur > 1000000"; do
  opt=()
  [ -z "$where" ] || opt=(--where "$where")
  export_ --threads 1 --to sqlite -o "$WORK/m1.db" "${opt[@]}" "${several[@]}" 2>/dev/null || fail "several inputs, 1 thread"
  export_ --threads 2 --to sqlite -o "$WORK/m2.db" "${opt[@]}" "${several[@]}" 2>/dev/null || fail "several inputs, 2 threads"
  check_db "several inputs on 2 threads ${where:+with --where}" "$WORK/m2.db"
  [ "$(sqlite3 "$WORK/m2.db" "SELECT count(DISTINCT source) FROM events")" = 3 ] || fail "several inputs: sources"
  [ "$(dump_db "$WORK/m1.db")" = "$(dump_db "$WORK/m2.db")" ] || fail "several inputs: 2 threads wrote other rows than 1 ${where:+(--where)}"
done
# The same bytes whatever the threads (over 65,536 rows, two threads sort the
# indexes; their b-trees are written in a fixed order).
export_ --threads 1 --to sqlite -o "$WORK/m0.db" "${several[@]}" 2>/dev/null
[ "$(sqlite3 "$WORK/m0.db" "SELECT count(*) FROM events")" -gt 65536 ] || fail "too few rows to sort the indexes on two threads"
for run in 1 2 3; do
  export_ --threads 2 --to sqlite -o "$WORK/m$run.db" "${several[@]}" 2>/dev/null
  cmp -s "$WORK/m0.db" "$WORK/m$run.db" || fail "export --to sqlite: run $run on 2 threads wrote other bytes than 1 thread"
done

# Records spilling to overflow pages in batches the workers encode (the
# splice goes through a buffer instead of onto the leaf): 11 MB, three chunks.
"$py" -c '
import json, sys
with open(sys.argv[1], "w") as f:
    f.write("[\n")
    for i in range(100000):
        blob = ("v%d" % i) * (1000 if i % 9973 == 0 else 1)
        f.write(json.dumps({"pid": 1, "tid": i % 7, "name": "n%d" % (i % 13), "cat": "c", "ph": "X",
                            "ts": i * 10, "dur": 5, "args": {"blob": blob}}) + "\n")
' "$WORK/big.pfw"
export_ --threads 1 --to sqlite -o "$WORK/b1.db" "$WORK/big.pfw" 2>/dev/null || fail "overflowing records, 1 thread"
export_ --threads 2 --to sqlite -o "$WORK/b2.db" "$WORK/big.pfw" 2>/dev/null || fail "overflowing records, 2 threads"
check_db "overflowing records on 2 threads" "$WORK/b2.db"
[ "$(sqlite3 "$WORK/b2.db" "SELECT count(*), sum(length(blob) > 4096), max(length(blob)) FROM events")" = "100000|10|6000" ] \
  || fail "overflowing records: $(sqlite3 "$WORK/b2.db" "SELECT count(*), sum(length(blob) > 4096), max(length(blob)) FROM events")"
[ "$(dump_db "$WORK/b1.db")" = "$(dump_db "$WORK/b2.db")" ] || fail "overflowing records: 2 threads wrote other rows than 1"

# --columns: the table has exactly those columns.
export_ --to sqlite -o "$WORK/c.db" --columns ts,name,size,file "$trace" 2>/dev/null
[ "$(sqlite3 "$WORK/c.db" "SELECT group_concat(name) FROM pragma_table_info('events')")" = "ts,name,size,file" ] \
  || fail "--columns did not shape the sqlite table"
check_db "--columns" "$WORK/c.db"
export_ --to sqlite -o "$WORK/none.db" --where "dur < 0 AND dur > 0" "$trace" 2>/dev/null
[ "$(sqlite3 "$WORK/none.db" "SELECT count(*) FROM events")" = 0 ] || fail "--where selecting nothing"
check_db "no rows" "$WORK/none.db"

# Failures leave no OUT (nor a temporary) behind, and keep an older OUT.
mkdir "$WORK/dest"
expect_fail 2 "expected csv, jsonl, sqlite or perfetto" export --to parquet -o "$WORK/dest/x" "$trace"
expect_fail 2 "--to FORMAT is required" export -o "$WORK/dest/x" "$trace"
expect_fail 2 "-o OUT is required" export --to csv "$trace"
expect_fail 2 "cannot hold a database" export --to sqlite -o - "$trace"
expect_fail 2 "expected ')'" export --to sqlite -o "$WORK/dest/x.db" --where "(dur > 1" "$trace"
head -c 3000 "$trace" > "$WORK/cut.pfw.gz"
for to in sqlite perfetto csv; do
  EXPECT_MAX_LINES=4 expect_fail 1 "cut.pfw.gz" export --no-progress --no-index --strict --to $to -o "$WORK/dest/x" "$WORK/cut.pfw.gz"
done
EXPECT_MAX_LINES=2 expect_fail 1 "nope.pfw" export --no-progress --no-index --to sqlite -o "$WORK/dest/x.db" "$trace" "$WORK/nope.pfw"
[ -z "$(ls -A "$WORK/dest")" ] || fail "a failed export left files: $(ls -A "$WORK/dest")"
chmod 555 "$WORK/dest"
if [ "$(id -u)" != 0 ]; then
  expect_fail 1 "cannot create" export --no-progress --to sqlite -o "$WORK/dest/x.db" "$trace"
fi
chmod 755 "$WORK/dest"
cp "$WORK/t.db" "$WORK/dest/keep.db"
EXPECT_MAX_LINES=4 expect_fail 1 "cut.pfw.gz" export --no-progress --no-index --strict --to sqlite -o "$WORK/dest/keep.db" "$WORK/cut.pfw.gz"
cmp -s "$WORK/t.db" "$WORK/dest/keep.db" || fail "a failed export changed the existing OUT"
[ "$(ls -A "$WORK/dest")" = "keep.db" ] || fail "a failed export left files: $(ls -A "$WORK/dest")"

"$SPOOR_BIN" export --help | grep -q "usage: spoor export" || fail "--help"
echo ok
