# spoor sql end to end: every --format, -f, --param, the query on stdin, an
# error with its caret, --help, -o; counts equal spoor stats --format json.
source "$(dirname "$0")/lib/common.sh"
need_data

T=$SPOOR_DATA/pfw/dftracer-dlio-pytorch-2023.pfw.gz
T2=$SPOOR_DATA/pfw/dftracer-cm1-2024-rank0.pfw.gz
# Snapshots go to the scratch folder (the data folder is read-only).
mkdir -p "$WORK/cache"
SQL=(sql --no-progress --cache-dir "$WORK/cache")
sql() { "$SPOOR_BIN" "${SQL[@]}" "$@"; }

"$SPOOR_BIN" sql --help | grep -q "usage: spoor sql" || fail "--help"

# GROUP BY equals spoor stats, per (cat, name): count and dur sum.
"$SPOOR_BIN" stats --format json --no-progress "$T" "$T2" > "$WORK/stats.json"
sql "$T" "$T2" --format json \
  "SELECT coalesce(cat, '') AS cat, coalesce(name, '') AS name, count(*) AS count, sum(dur) AS dur_sum
   FROM events WHERE ph IS NOT 'M' GROUP BY cat, name" > "$WORK/sql.json" || fail "group by query"
/usr/bin/python3 - "$WORK/stats.json" "$WORK/sql.json" <<'PY' || fail "GROUP BY differs from spoor stats"
import json, sys
stats, rows = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
want = {(g["cat"], g["name"]): (g["count"], g.get("dur_sum")) for g in stats["by_name"]}
got = {(r["cat"], r["name"]): (r["count"], r["dur_sum"]) for r in rows}
assert got == want, set(got.items()) ^ set(want.items())
assert sum(r["count"] for r in rows) == stats["events"]
PY
events=$(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["events"])' "$WORK/stats.json")

# csv (RFC 4180 quoting), jsonl, table.
q="SELECT count(*) AS n, 'a,\"b\"' AS s FROM events WHERE ph IS NOT 'M'"
[ "$(sql "$T" "$T2" --format csv "$q")" = "$(printf 'n,s\n%s,"a,""b"""' "$events")" ] || fail "csv"
[ "$(sql "$T" "$T2" --format jsonl "$q")" = "{\"n\": $events, \"s\": \"a,\\\"b\\\"\"}" ] || fail "jsonl"
sql "$T" "$T2" "$q" > "$WORK/table.txt"
head -1 "$WORK/table.txt" | grep -q "^ *n  s$" || fail "table header: $(cat "$WORK/table.txt")"
grep -q "^ *$events  a,\"b\"$" "$WORK/table.txt" || fail "table row: $(cat "$WORK/table.txt")"

# -f with several statements, --param (an injection stays a value), -o.
cat > "$WORK/q.sql" <<'SQL'
-- opens, then everything matching :n
SELECT count(*) AS opens FROM events WHERE name = :n;
SELECT count(*) AS matched FROM events WHERE name = :evil;
SQL
sql "$T" -f "$WORK/q.sql" --param n=open64 --param "evil=x' OR 1=1 --" --format csv -o "$WORK/out.csv" \
  || fail "-f with --param"
opens=$(sql "$T" --format csv "SELECT count(*) FROM events WHERE +name = 'open64'" | tail -1)
[ "$opens" -gt 0 ] || fail "no open64 events"
[ "$(cat "$WORK/out.csv")" = "$(printf 'opens\n%s\n\nmatched\n0' "$opens")" ] || fail "-f output: $(cat "$WORK/out.csv")"
[ "$(sql "$T" --format csv --param n=42 "SELECT typeof(:n), :n + 1" | tail -1)" = "integer,43" ] || fail "integer param"

# The query on stdin.
[ "$(echo "SELECT count(*) FROM meta WHERE key = 'dialect';" | sql "$T" "$T2" --format csv | tail -1)" = 2 ] \
  || fail "stdin query"

# Errors: position and caret (exit 2); nothing written to -o; bad usage.
EXPECT_MAX_LINES=3 expect_fail 2 'no such column: nme at line 2, column 8' "${SQL[@]}" "$T" -o "$WORK/bad.csv" \
  "SELECT 1;
SELECT nme FROM events"
[ "$(sed -n 2p "$WORK/err")" = "SELECT nme FROM events" ] || fail "error line: $(cat "$WORK/err")"
[ "$(sed -n 3p "$WORK/err")" = "       ^" ] || fail "caret: $(cat "$WORK/err")"
[ ! -e "$WORK/bad.csv" ] || fail "-o written despite the error"
expect_fail 2 "parameter :x has no value" "${SQL[@]}" "$T" "SELECT :x"
expect_fail 2 "expected table, csv, json or jsonl" "${SQL[@]}" "$T" --format xml "SELECT 1"
expect_fail 2 "expected NAME=VALUE" "${SQL[@]}" "$T" --param novalue "SELECT 1"
expect_fail 2 "no trace given" "${SQL[@]}"
echo ok
