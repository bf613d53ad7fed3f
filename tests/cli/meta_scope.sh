# Metadata belongs to the input that defined it, from its line on: two ranks
# whose FH/HH hashes collide, a hash redefined later in one file, a hash used
# before its definition and one defined only by the other rank. Every
# consumer (events, stats, summary, sql, the SQLite and Perfetto exports)
# answers per input and per line, and an input's answers do not change with
# the other files on the command line. Then ranks 0, 3 and 4 of a real run
# against a json reference, and a trace large enough to span chunks.
source "$(dirname "$0")/lib/common.sh"

A=$WORK/rank_a.pfw
B=$WORK/rank_b.pfw
m() { echo "{\"id\":0,\"name\":\"$1\",\"cat\":\"dftracer\",\"pid\":$2,\"tid\":$2,\"ph\":\"M\",\"args\":{\"name\":\"$3\",\"value\":$4}}"; }
r() { echo "{\"id\":1,\"name\":\"read\",\"cat\":\"POSIX\",\"pid\":$1,\"tid\":$1,\"ts\":$2,\"dur\":5,\"ph\":\"X\",\"args\":{$3}}"; }
{
  echo "["                                      # 1
  m HH 100 nodeA 1                              # 2
  m FH 100 /a/one 11                            # 3
  m FH 100 /a/two 12                            # 4
  r 100 1000 '"hhash":1,"fhash":11'             # 5  /a/one nodeA
  r 100 1010 '"fhash":12'                       # 6  /a/two
  r 100 1020 '"fhash":13'                       # 7  13 not defined yet: null
  r 100 1030 '"fhash":13,"fname":"/a/own"'      # 8  not defined yet: its own fname
  m FH 100 /a/three 13                          # 9
  r 100 1040 '"fhash":13'                       # 10 /a/three
  r 100 1050 '"fhash":21'                       # 11 only rank b defines 21: null
  m FH 100 /a/two-again 12                      # 12 a redefinition
  r 100 1060 '"fhash":12'                       # 13 /a/two-again
  m FH 100 /a/one 11                            # 14 a repeat, not a redefinition
  r 100 1070 '"hhash":1,"fhash":11'             # 15 /a/one nodeA
  m PR 100 rank '"0"'                           # 16
  echo "]"
} > "$A"
{
  echo "["                                      # 1
  m HH 200 nodeB 1                              # 2
  m FH 200 /b/one 11                            # 3 collides with rank a's 11
  m FH 200 /b/x 21                              # 4
  r 200 2000 '"hhash":1,"fhash":11'             # 5 /b/one nodeB
  r 200 2010 '"fhash":12'                       # 6 12 is rank a's: null
  r 200 2020 '"fhash":21'                       # 7 /b/x
  echo '{"id":2,"name":"process_name","cat":"dftracer","pid":200,"tid":200,"ph":"M","args":{"name":"Rank B"}}'
  echo "]"
} > "$B"

cat > "$WORK/want_a.csv" <<EOF
$A,5,/a/one,nodeA
$A,6,/a/two,
$A,7,,
$A,8,/a/own,
$A,10,/a/three,
$A,11,,
$A,13,/a/two-again,
$A,15,/a/one,nodeA
EOF
cat > "$WORK/want_b.csv" <<EOF
$B,5,/b/one,nodeB
$B,6,,
$B,7,/b/x,
EOF
ev() { "$SPOOR_BIN" events --no-progress --no-cache --columns source,line,file,host --where "ph = 'X'" "$@" | tail -n +2; }
ev "$A" > "$WORK/a.csv" 2> "$WORK/a.err"
diff "$WORK/want_a.csv" "$WORK/a.csv" || fail "rank a alone: file/host per line differ"
ev "$B" > "$WORK/b.csv"
diff "$WORK/want_b.csv" "$WORK/b.csv" || fail "rank b alone: file/host differ"
cat "$WORK/want_a.csv" "$WORK/want_b.csv" > "$WORK/want_ab.csv"
cat "$WORK/want_b.csv" "$WORK/want_a.csv" > "$WORK/want_ba.csv"
for threads in 1 2; do
  ev --threads $threads "$A" "$B" > "$WORK/ab.csv"
  diff "$WORK/want_ab.csv" "$WORK/ab.csv" || fail "a b (--threads $threads): an input's answers changed with the other file"
  ev --threads $threads "$B" "$A" > "$WORK/ba.csv"
  diff "$WORK/want_ba.csv" "$WORK/ba.csv" || fail "b a (--threads $threads): an input's answers changed with the other file"
done
# --where on the resolved name, and the redefinition reported on stderr.
[ "$("$SPOOR_BIN" events --no-progress --no-cache --where "file = '/a/one'" "$B" "$A" | tail -n +2 | wc -l)" = 2 ] \
  || fail "file = '/a/one' matched rows of rank b"
grep -q "rank_a.pfw: 1 metadata definitions give a hash another meaning" "$WORK/a.err" \
  || fail "the redefinition is not reported: $(cat "$WORK/a.err")"

# stats and summary count paths: rank a's 5 paths and its 2 hashes without one
# (13 before its definition, 21), rank b's 2 paths and its unnamed 12.
st() { "$SPOOR_BIN" stats --no-progress --no-cache --format json "$@"; }
json() { /usr/bin/python3 -c "import json,sys; d=json.load(sys.stdin); print($1)"; }
[ "$(st "$A" | json 'd["files"], d["hosts"], [i["redefined"] for i in d["inputs"]]')" = "7 1 [1]" ] \
  || fail "stats of rank a: $(st "$A" | json 'd["files"], d["hosts"]')"
[ "$(st "$B" "$A" | json 'd["files"], d["hosts"], [i["redefined"] for i in d["inputs"]]')" = "10 2 [0, 1]" ] \
  || fail "stats of ranks b and a: $(st "$B" "$A" | json 'd["files"], d["hosts"]')"
"$SPOOR_BIN" stats --no-progress --no-cache "$A" | grep -q "^redefined   1 hash definitions" \
  || fail "the stats table lacks the redefined line"
[ "$("$SPOOR_BIN" summary --no-progress --no-cache --format json "$B" "$A" | json 'd["files"], d["hosts"]')" = "10 2" ] \
  || fail "summary counts files or hosts across inputs"

# sql: events resolved per input, the lookups with their input and line.
q() { "$SPOOR_BIN" sql --no-progress --format csv --cache-dir "$WORK/cache" "$@" 2>/dev/null | tail -n +2; }
got=$(q "$A" "$B" "SELECT group_concat(file, ';') FROM (SELECT file FROM events WHERE fhash = '11' ORDER BY source, line)")
[ "$got" = "/a/one;/a/one;/b/one" ] || fail "sql events: fhash 11 resolved to $got"
got=$(q "$A" "$B" "SELECT group_concat(name || '@' || line, ';') FROM (SELECT * FROM files WHERE hash = '12' ORDER BY source, line)")
[ "$got" = "/a/two@4;/a/two-again@12" ] || fail "sql files of hash 12: $got"
got=$(q "$A" "$B" "SELECT value FROM meta WHERE key = 'redefined' ORDER BY source")
[ "$(echo $got)" = "1 0" ] || fail "sql meta redefined: $got"
# Served from the snapshots the sql runs wrote: the same answers.
ls "$WORK/cache" | grep -q . || fail "sql wrote no snapshot"
"$SPOOR_BIN" events --no-progress --cache-dir "$WORK/cache" --columns source,line,file,host --where "ph = 'X'" \
  "$A" "$B" 2> "$WORK/snap.err" | tail -n +2 > "$WORK/snap.csv"
diff "$WORK/want_ab.csv" "$WORK/snap.csv" || fail "events from the snapshots differ"
grep -q "rank_a.pfw: 1 metadata definitions" "$WORK/snap.err" || fail "the snapshot lost the redefinition count"

# The SQLite export: per-input lookups, resolved events.
"$SPOOR_BIN" export --no-progress --no-cache --to sqlite -o "$WORK/ab.db" "$A" "$B"
got=$(sqlite3 "$WORK/ab.db" "SELECT group_concat(path, ';') FROM (SELECT path FROM files WHERE hash = '11' ORDER BY source, line)")
[ "$got" = "/a/one;/b/one" ] || fail "sqlite files of hash 11: $got"
got=$(sqlite3 "$WORK/ab.db" "SELECT group_concat(ifnull(file, '-'), ';') FROM (SELECT file FROM events WHERE fhash = '12' ORDER BY source, line)")
[ "$got" = "/a/two;/a/two-again;-" ] || fail "sqlite events of fhash 12: $got"
[ "$(sqlite3 "$WORK/ab.db" "SELECT group_concat(redefined, ',') FROM meta")" = "1,0" ] || fail "sqlite meta redefined"
# Perfetto: each rank's process gets its own name.
"$SPOOR_BIN" export --no-progress --no-cache --to perfetto -o "$WORK/ab.json" "$A" "$B"
got=$(/usr/bin/python3 -c "
import json,sys
ev = json.load(open(sys.argv[1]))
print(sorted({(e['pid'], e['args']['name']) for e in ev if e.get('name') == 'process_name'}))" "$WORK/ab.json")
[ "$got" = "[(100, 'rank 0'), (200, 'Rank B')]" ] || fail "perfetto process names: $got"

# Ranks 0, 3 and 4 of one run: their FH hashes collide, and some are
# redefined within a file. Each row's file against a reference that keeps
# one map per file; rank 3's rows are the same alone and with the others.
need_data
R0=$SPOOR_DATA/pfw/dftracer-cm1-2024-rank0.pfw.gz
R3=$SPOOR_DATA/pfw/dftracer-cm1-2024-rank3.pfw.gz
R4=$SPOOR_DATA/pfw/dftracer-cm1-2024-rank4.pfw.gz
"$SPOOR_BIN" events --no-progress --cache-dir "$WORK/cache" --format jsonl --columns source,line,file,host \
  --where "fhash IS NOT NULL" "$R0" "$R3" "$R4" > "$WORK/ranks.jsonl" 2> "$WORK/ranks.err"
/usr/bin/python3 - "$WORK/ranks.jsonl" "$R0" "$R3" "$R4" <<'PY' || fail "ranks 0/3/4: resolved files differ from the reference"
import gzip, json, sys
want, files = [], set()
for path in sys.argv[2:]:
    fh, hh = {}, {}
    for no, line in enumerate(gzip.open(path, "rt"), 1):
        line = line.strip().rstrip(",")
        if line in ("", "[", "]"):
            continue
        e = json.loads(line)
        a = e.get("args", {})
        if e.get("ph") == "M" and e.get("name") in ("FH", "HH"):
            (fh if e["name"] == "FH" else hh)[str(a["value"])] = a["name"]
        if "fhash" in a:
            want.append({"source": path, "line": no, "file": fh.get(str(a["fhash"]), a.get("fname")),
                         "host": hh.get(str(a.get("hhash")), a.get("hostname"))})
            files.add(want[-1]["file"] or (path, str(a["fhash"])))
got = [json.loads(l) for l in open(sys.argv[1])]
assert len(want) > 10000, len(want)
assert got == want, next((g, w) for g, w in zip(got, want) if g != w) if len(got) == len(want) else (len(got), len(want))
print("ok ranks 0/3/4:", len(got), "rows")
# stats counts paths: each row's file, or (input, hash) for a hash without one.
open(sys.argv[1] + ".files", "w").write(str(len(files)))
PY
got=$(st "$R0" "$R3" "$R4" | json 'd["files"]')
[ "$got" = "$(cat "$WORK/ranks.jsonl.files")" ] || fail "ranks 0/3/4: stats counts $got files, the reference $(cat "$WORK/ranks.jsonl.files")"
"$SPOOR_BIN" events --no-progress --no-cache --format jsonl --columns source,line,file,host \
  --where "fhash IS NOT NULL" "$R3" > "$WORK/r3.jsonl"
grep -F "\"$R3\"" "$WORK/ranks.jsonl" | cmp -s - "$WORK/r3.jsonl" || fail "rank 3's files change with ranks 0 and 4 beside it"
for rank in rank0 rank3 rank4; do
  grep -q "$rank.pfw.gz: [1-9][0-9]* metadata definitions give a hash another meaning" "$WORK/ranks.err" \
    || fail "$rank: its redefinitions are not reported: $(cat "$WORK/ranks.err")"
done
# The redefinitions counted: FH/HH/SH definitions that change the hash's path.
want=$(/usr/bin/python3 - "$R0" "$R3" "$R4" <<'PY'
import gzip, json, sys
counts = []
for path in sys.argv[1:]:
    now, n = {}, 0
    for line in gzip.open(path, "rt"):
        line = line.strip().rstrip(",")
        if not line.startswith("{"):
            continue
        e = json.loads(line)
        if e.get("ph") == "M" and e.get("name") in ("FH", "HH", "SH"):
            key = (e["name"], str(e["args"]["value"]))
            n += key in now and now[key] != e["args"]["name"]
            now[key] = e["args"]["name"]
    counts.append(n)
print(counts)
PY
)
got=$(st "$R0" "$R3" "$R4" | json '[i["redefined"] for i in d["inputs"]]')
[ "$got" = "$want" ] || fail "ranks 0/3/4 redefinitions: $got, the reference $want"

# A trace over several chunks: a definition at the top, a redefinition and a
# hash first used before its definition deep inside; --threads 1 and 2 agree
# with the reference.
/usr/bin/python3 - "$WORK/big.pfw" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write("[\n")
    f.write('{"id":0,"name":"FH","cat":"dftracer","pid":1,"tid":1,"ph":"M","args":{"name":"/first","value":7}}\n')
    pad = "x" * 120
    for i in range(60000):
        if i == 25000:
            f.write('{"id":0,"name":"FH","cat":"dftracer","pid":1,"tid":1,"ph":"M","args":{"name":"/second","value":7}}\n')
        if i == 45000:
            f.write('{"id":0,"name":"FH","cat":"dftracer","pid":1,"tid":1,"ph":"M","args":{"name":"/late","value":8}}\n')
        h = 8 if i % 1000 == 0 else 7
        f.write('{"id":%d,"name":"read","cat":"POSIX","pid":1,"tid":1,"ts":%d,"dur":1,"ph":"X","args":{"fhash":%d,"pad":"%s"}}\n' % (i, i, h, pad))
    f.write("]\n")
PY
for threads in 1 2; do
  "$SPOOR_BIN" events --no-progress --no-cache --threads $threads --columns file --where "ph = 'X'" "$WORK/big.pfw" \
    | tail -n +2 | sort | uniq -c | awk '{print $2 "=" $1}' | tr '\n' ' ' > "$WORK/big.$threads"
done
# /first: rows 0..24999 with hash 7 (24975); /second: the rest (34965);
# hash 8 rows before 45000 have no name (45), after it /late (15).
want="=45 /first=24975 /late=15 /second=34965 "
[ "$(cat "$WORK/big.1")" = "$want" ] || fail "chunked trace, --threads 1: $(cat "$WORK/big.1")"
[ "$(cat "$WORK/big.2")" = "$want" ] || fail "chunked trace, --threads 2: $(cat "$WORK/big.2")"
# stats: /first, /second, /late and hash 8 before its definition.
for threads in 1 2; do
  [ "$(st --threads $threads "$WORK/big.pfw" | json 'd["files"], [i["redefined"] for i in d["inputs"]]')" = "4 [1]" ] \
    || fail "chunked trace, stats --threads $threads: $(st --threads $threads "$WORK/big.pfw" | json 'd["files"]')"
done
echo ok
