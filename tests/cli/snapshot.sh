# The snapshot sidecar through the binary: only a whole-table load (spoor sql)
# writes TRACE.spoor-snap, streams (stats, events, export) never do; stats,
# events and sql from it are byte-identical to a parse (--no-cache) for any
# --threads, stderr included; a stale, damaged or option-mismatched snapshot is
# reparsed and rewritten (sql checks the columns its query names); a read-only
# directory warns once; --cache-dir serves it.
source "$(dirname "$0")/lib/common.sh"
need_data

run() { "$SPOOR_BIN" "$@" --no-progress; }
snap_is_used() { # TRACE: the snapshot is read (its atime is not needed: it must not change)
  local before after
  before=$(stat -c %Y.%i "$1.spoor-snap")
  run stats "$1" > /dev/null 2>&1
  after=$(stat -c %Y.%i "$1.spoor-snap")
  [ "$before" = "$after" ]
}

query="SELECT cat, name, count(*), sum(dur), max(line) FROM events GROUP BY 1, 2"
cp "$SPOOR_DATA"/pfw/* "$WORK/"
"$SPOOR_BIN" gen -o "$WORK/gen.pfw.gz" --size-mb 12 --seed 3 --no-truth > /dev/null
for f in "$WORK"/*.pfw "$WORK"/*.pfw.gz; do
  run stats --no-cache --format json "$f" > "$WORK/stats.ref" 2> "$WORK/stats.err.ref"
  run events --no-cache --format jsonl "$f" > "$WORK/events.ref" 2> "$WORK/events.err.ref"
  run sql --no-cache "$f" "$query" > "$WORK/sql.ref" 2> "$WORK/sql.err.ref"
  [ ! -e "$f.spoor-snap" ] || fail "$f: --no-cache wrote a snapshot"
  run stats "$f" > /dev/null 2>&1
  run events --format jsonl "$f" > /dev/null 2>&1
  run export --to csv -o "$WORK/export.csv" "$f" > /dev/null 2>&1
  [ -s "$WORK/export.csv" ] || fail "$f: spoor export failed"
  [ ! -e "$f.spoor-snap" ] || fail "$f: a streaming command (stats, events, export) wrote a snapshot"
  run sql "$f" "$query" > "$WORK/got" 2> "$WORK/got.err"
  [ -s "$f.spoor-snap" ] || fail "$f: spoor sql wrote no snapshot"
  cmp -s "$WORK/sql.ref" "$WORK/got" || fail "$f: sql while writing the snapshot differs"
  for threads in 1 2 3; do
    run stats --format json --threads "$threads" "$f" > "$WORK/got" 2> "$WORK/got.err"
    cmp -s "$WORK/stats.ref" "$WORK/got" || fail "$f: stats from the snapshot differs (--threads $threads)"
    cmp -s "$WORK/stats.err.ref" "$WORK/got.err" || fail "$f: stats stderr from the snapshot differs"
    run events --format jsonl --threads "$threads" "$f" > "$WORK/got" 2> "$WORK/got.err"
    cmp -s "$WORK/events.ref" "$WORK/got" || fail "$f: events from the snapshot differs (--threads $threads)"
    cmp -s "$WORK/events.err.ref" "$WORK/got.err" || fail "$f: events stderr from the snapshot differs"
    run sql --threads "$threads" "$f" "$query" > "$WORK/got" 2> "$WORK/got.err"
    cmp -s "$WORK/sql.ref" "$WORK/got" || fail "$f: sql from the snapshot differs (--threads $threads)"
    cmp -s "$WORK/sql.err.ref" "$WORK/got.err" || fail "$f: sql stderr from the snapshot differs"
  done
  snap_is_used "$f" || fail "$f: the snapshot was not used"
done

g="$WORK/gen.pfw.gz"
run stats --format json "$g" > "$WORK/ref"
# stale: touched, then another read option
touch -d '2001-01-01' "$g"
run stats --format json "$g" > "$WORK/got"; cmp -s "$WORK/ref" "$WORK/got" || fail "touched trace: wrong answer"
run sql "$g" "SELECT 1" > /dev/null
snap_is_used "$g" || fail "touched trace: snapshot not rewritten"
run stats --format json --ts-unit ms "$g" > "$WORK/ms"
cmp -s "$WORK/ref" "$WORK/ms" && fail "--ts-unit ms gave the snapshot's (us) answer"
# damaged: a flipped byte in the middle; a query reading every column rewrites it
snap_id() { stat -c %i.%Y.%s "$g.spoor-snap"; }
flip() { printf '\x5a' | dd of="$g.spoor-snap" bs=1 seek="$1" conv=notrunc status=none; }
flip $(($(stat -c %s "$g.spoor-snap") / 2))
run stats --format json "$g" > "$WORK/got"; cmp -s "$WORK/ref" "$WORK/got" || fail "damaged snapshot: wrong answer"
before=$(snap_id)
run sql "$g" "SELECT * FROM events LIMIT 1" > /dev/null
[ "$before" != "$(snap_id)" ] || fail "damaged snapshot: not rewritten"
snap_is_used "$g" || fail "damaged snapshot: the rewritten one is not used"
# A damaged dur column: sql checks only the columns a query names, so a query
# without dur is served by the snapshot and one with dur reparses and rewrites.
dur_at=$(python3 -c 'import struct,sys; b=open(sys.argv[1],"rb").read(); d=struct.unpack_from("<Q",b,56)[0]; print(struct.unpack_from("<Q",b,d+2*24+8)[0]+4000)' "$g.spoor-snap")
flip "$dur_at"
want=$(run sql --no-cache "$g" "SELECT count(*), min(ts), sum(dur) FROM events")
before=$(snap_id)
[ "$(run sql "$g" "SELECT count(*), min(ts) FROM events")" = "$(run sql --no-cache "$g" "SELECT count(*), min(ts) FROM events")" ] \
  || fail "damaged dur: a query without dur answers wrong"
[ "$before" = "$(snap_id)" ] || fail "damaged dur: a query without dur rewrote the snapshot"
[ "$(run sql "$g" "SELECT count(*), min(ts), sum(dur) FROM events")" = "$want" ] || fail "damaged dur: sum(dur) is wrong"
[ "$before" != "$(snap_id)" ] || fail "damaged dur: a query reading dur did not rewrite the snapshot"

# read-only directory: one warning, right answer; --cache-dir serves it
mkdir "$WORK/ro" "$WORK/cache"
cp "$g" "$WORK/ro/t.pfw.gz"
chmod 555 "$WORK/ro"
trap 'chmod 755 "$WORK/ro"; rm -rf "$WORK"' EXIT
run sql "$WORK/ro/t.pfw.gz" "SELECT 1" > /dev/null 2> "$WORK/err"
[ "$(grep -c 'read-only directory' "$WORK/err")" = 1 ] || fail "read-only directory: expected one warning: $(cat "$WORK/err")"
run sql --cache-dir "$WORK/cache" "$WORK/ro/t.pfw.gz" "SELECT 1" > /dev/null 2>&1
ls "$WORK/cache"/*.spoor-snap > /dev/null 2>&1 || fail "--cache-dir: no snapshot in the cache directory"
run stats --format json --cache-dir "$WORK/cache" "$WORK/ro/t.pfw.gz" > "$WORK/got" 2> /dev/null
diff <(grep -v '"path"' "$WORK/ref") <(grep -v '"path"' "$WORK/got") > /dev/null || fail "--cache-dir: wrong answer"
echo ok
