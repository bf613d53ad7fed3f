# spoor export --to sqlite writes the database file itself (src/out/sqlite_file/);
# --via-sqlite writes the same database through SQLite's own API (rows
# inserted with their values bound, SQLite's affinities, CREATE INDEX). The
# two are compared by querying both with sqlite3, not by their bytes: the
# schema (every object's type, name, table and SQL), every row of every
# table (events, the lookups, meta) with each value's type, each index read
# in index order, and integrity_check. Inputs: every shared pfw trace on its
# own (source as a generated column), several together on two threads, with
# --where and --columns, and a trace of awkward values (an args key changing
# type between inputs, numbers in text, invalid UTF-8, NUL, names that clash,
# records that overflow their page).
source "$(dirname "$0")/lib/common.sh"
need_data

py=/usr/bin/python3
export_() { "$SPOOR_BIN" export --no-progress --no-cache "$@" 2>/dev/null; }

# both NAME EXPORT-ARGS...: the two databases agree.
both() {
  local name=$1
  shift
  rm -f "$WORK/own.db" "$WORK/api.db"
  export_ --to sqlite -o "$WORK/own.db" "$@" || fail "$name: export"
  export_ --to sqlite --via-sqlite -o "$WORK/api.db" "$@" || fail "$name: export --via-sqlite"
  "$py" - "$WORK/own.db" "$WORK/api.db" <<'PY' || fail "$name: the file writer's database differs from SQLite's"
import sqlite3, sys
own, api = (sqlite3.connect(p) for p in sys.argv[1:3])
def rows(sql):
    a, b = own.execute(sql).fetchall(), api.execute(sql).fetchall()
    if repr(a) != repr(b):   # repr: -0.0 is not 0.0
        diff = next((x, y) for x, y in zip(a + [None], b + [None]) if repr(x) != repr(y))
        sys.exit(f"{sql}\n  {len(a)} rows, {len(b)} through SQLite; first difference:\n  {diff[0]!r}\n  {diff[1]!r}")
    return a
for db in (own, api):
    assert db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
objects = rows("SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY type, name")
assert {o[1] for o in objects} >= {"events", "files", "hosts", "strings", "procs", "threads", "meta"}, objects
def q(name): return '"' + name.replace('"', '""') + '"'
for kind, name, table, sql in objects:
    if kind == "table":
        cols = [c[1] for c in own.execute(f"PRAGMA table_xinfo({q(name)})")]
        rows(f"SELECT rowid, {', '.join(f'typeof({q(c)}), {q(c)}' for c in cols)} FROM {q(name)} ORDER BY rowid")
    else:
        keys = ", ".join(q(c[2]) for c in own.execute(f"PRAGMA index_info({q(name)})"))
        rows(f"SELECT {keys}, rowid FROM {q(table)} INDEXED BY {q(name)} ORDER BY {keys}, rowid")
PY
}

for trace in "$SPOOR_DATA"/pfw/*.pfw "$SPOOR_DATA"/pfw/*.pfw.gz; do
  both "$(basename "$trace")" "$trace"
done

"$SPOOR_BIN" gen -o "$WORK/gen.pfw" --size-mb 4 --seed 9 --no-truth > /dev/null
several=("$WORK/gen.pfw" "$SPOOR_DATA/pfw/dftracer-cm1-2024-rank0.pfw.gz" "$SPOOR_DATA/pfw/datacrumbs-trace-2024.pfw.gz")
both "several inputs" --threads 2 "${several[@]}"
both "--where" --where "cat = 'POSIX' OR dur > 1ms" "${several[@]}"
both "--columns" --columns ts,name,fhash,size,no_such_key,file,host,line "${several[@]}"

# Awkward values, over two inputs: "mix" is an INTEGER column from the first
# (its later text, reals and numbers in text converted by affinity), "r" a
# REAL one, "t" a TEXT one that later gets numbers.
"$py" - "$WORK/odd1.pfw" "$WORK/odd2.pfw" <<'PY'
import json, sys
first = [{"mix": 7, "r": 1.5, "t": "x", "ts": 3, "Size": 1, "size": 2, "size.1": 3},
         {"mix": -9223372036854775808, "r": -0.0, "t": ""}, {"mix": 0, "r": 1e308, "t": "a\u0000b"},
         {"blob": "z" * 9000}]
second = [{"mix": "12"}, {"mix": " 12 "}, {"mix": "1e3"}, {"mix": 2.0}, {"mix": 2.5}, {"mix": "0x10"},
          {"mix": "abc"}, {"mix": 9.3e18}, {"mix": True}, {"r": 3}, {"r": "4.25"}, {"r": "nope"},
          {"t": 5}, {"t": 2.5}, {"t": 1e-7}, {"t": -0.0}, {"mix": -0.0}, {"r": -0.0}, {"mix": [1, 2]}, {"mix": {"k": 1}}]
for path, rows in zip(sys.argv[1:], (first, second)):
    with open(path, "wb") as f:
        f.write(b"[\n")
        for i, args in enumerate(rows):
            line = json.dumps({"pid": 1, "tid": i % 3, "name": "n%d" % (i % 4), "cat": "c", "ph": "X",
                               "ts": 100 + i, "dur": i, "args": args})
            f.write(line.encode() + b"\n")
        # invalid UTF-8 in a name and in an args value
        f.write(b'{"pid": 2, "tid": 1, "name": "bad\xff\xfe", "cat": "c\xc3", "ph": "i", "ts": 5, "args": {"t": "\xe2\x82"}}\n')
PY
both "awkward values" --threads 1 "$WORK/odd1.pfw" "$WORK/odd2.pfw"
both "awkward values, explicit columns" --threads 1 --columns ts,name,mix,r,t "$WORK/odd1.pfw" "$WORK/odd2.pfw"
echo ok
