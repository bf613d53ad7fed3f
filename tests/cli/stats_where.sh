# spoor stats --where counts only the matching events: per (cat, name) the
# counts and dur sums equal those of the rows spoor events writes for the same
# filter, for a filter run on the workers and one that needs input order
# (file, line), with 1 or 2 threads; the outputs name the filter; a bad
# filter is a one-line usage error; an unknown args column warns.
source "$(dirname "$0")/lib/common.sh"

"$SPOOR_BIN" gen -o "$WORK/t.pfw" --size-mb 4 --procs 3 --seed 7 --no-truth > /dev/null
run() { "$SPOOR_BIN" "$@" --no-progress --cache-dir "$WORK/cache"; }

check() { # WHERE: stats --where agrees with events --where, for 1 and 2 threads
  run events --where "$1" --columns cat,name,dur,ph --format jsonl "$WORK/t.pfw" > "$WORK/rows.jsonl" \
    || fail "events --where '$1' failed"
  for threads in 1 2; do
    run stats --threads $threads --format json --where "$1" "$WORK/t.pfw" > "$WORK/stats$threads.json" \
      || fail "stats --where '$1' failed"
  done
  cmp -s "$WORK/stats1.json" "$WORK/stats2.json" || fail "stats --where '$1': --threads 1 and 2 differ"
  /usr/bin/python3 - "$WORK/rows.jsonl" "$WORK/stats1.json" "$1" <<'PY' || fail "stats --where '$1' != events --where"
import json, sys
from collections import Counter, defaultdict
rows = [json.loads(l) for l in open(sys.argv[1])]
stats = json.load(open(sys.argv[2]))
assert stats["where"] == sys.argv[3], stats.get("where")
events = [r for r in rows if r["ph"] != "M"]
assert stats["events"] == len(events) and stats["metadata_events"] == len(rows) - len(events)
assert 0 < len(events), "the filter matches nothing: a weak test"
count, dur = Counter(), defaultdict(int)
for r in events:
    count[(r["cat"] or "", r["name"] or "")] += 1
    dur[(r["cat"] or "", r["name"] or "")] += r["dur"] or 0
got = {(g["cat"], g["name"]): (g["count"], g.get("dur_sum", 0)) for g in stats["by_name"]}
assert got == {k: (count[k], dur[k]) for k in count}, (got, count)
PY
}
check "cat = 'sys' AND name IN ('read', 'write') AND dur >= 10us"
check "file GLOB '*' OR line % 7 = 0"

# Unfiltered: every event, and no "where".
run stats --format json "$WORK/t.pfw" > "$WORK/all.json"
grep -q '"where"' "$WORK/all.json" && fail "an unfiltered stats names a filter"
all=$(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["events"])' "$WORK/all.json")
some=$(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["events"])' "$WORK/stats1.json")
[ "$some" -lt "$all" ] || fail "the filter kept every event ($some of $all)"

# The table says so on its first line.
run stats --where "cat = 'sys'" "$WORK/t.pfw" > "$WORK/table.txt"
head -1 "$WORK/table.txt" | grep -q "^where       cat = 'sys' (only matching events are counted)$" \
  || fail "the table does not name the filter: $(head -1 "$WORK/table.txt")"

expect_fail 2 "^spoor stats: --where: .*position" stats --where "cat = = 'x'" "$WORK/t.pfw"
run stats --where "nosuch_key = 1" "$WORK/t.pfw" > /dev/null 2> "$WORK/err"
grep -q "spoor stats: warning: --where: unknown column 'nosuch_key'" "$WORK/err" || fail "no unknown-column warning"
echo ok
