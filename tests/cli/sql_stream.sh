# spoor sql's table format streams: column widths come from the first 4096
# rows, the first line shows before the result is read to its end, and a long
# result takes no more memory than the loaded table does; a later value
# wider than its column is printed whole, widening its own line only.
source "$(dirname "$0")/lib/common.sh"

"$SPOOR_BIN" gen -o "$WORK/t.pfw" --size-mb 24 --seed 5 --no-truth > /dev/null
SQL=(sql --no-progress --no-cache "$WORK/t.pfw")

# The first line: the header, at once.
first=$(timeout 60 "$SPOOR_BIN" "${SQL[@]}" "SELECT * FROM events" | head -1) || true
[[ "$first" =~ ^\ *ts\ +dur\ +name ]] || fail "the first line is not the header: '$first'"

# Peak memory: SELECT * (every row, ~45 MB of text) next to SELECT count(*)
# (the table alone). Buffering the table output took 2.5x; streaming ~1x.
/usr/bin/python3 - "$SPOOR_BIN" "$WORK/t.pfw" <<'PY' || fail "SELECT * holds the result in memory"
import os, resource, subprocess, sys
spoor, trace = sys.argv[1:]
# Under AddressSanitizer freed memory waits in a quarantine, resident: none here.
env = dict(os.environ, ASAN_OPTIONS=os.environ.get("ASAN_OPTIONS", "") + ":quarantine_size_mb=0")
def peak_kb(query):
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    out = subprocess.run([spoor, "sql", "--no-progress", "--no-cache", trace, query],
                         stdout=subprocess.PIPE, check=True, env=env).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return max(after, before), len(out)
base, _ = peak_kb("SELECT count(*) FROM events")
peak, size = peak_kb("SELECT * FROM events")
assert size > 30e6, size
assert peak < base * 1.4 + 16 * 1024, (base, peak)
PY

# Widths from the sample; the wider value after it is whole, on its own line.
"$SPOOR_BIN" "${SQL[@]}" "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000)
  SELECT i, CASE WHEN i = 4500 THEN 'a much longer value' ELSE 'x' END AS v, -i AS k FROM n" > "$WORK/wide.txt"
[ "$(wc -l < "$WORK/wide.txt")" = 5001 ] || fail "wide: not 5000 rows and a header"
[ "$(sed -n 1p "$WORK/wide.txt")" = "   i  v      k" ] || fail "wide: header '$(sed -n 1p "$WORK/wide.txt")'"
[ "$(sed -n 4500p "$WORK/wide.txt")" = "4499  x  -4499" ] || fail "wide: row 4499 '$(sed -n 4500p "$WORK/wide.txt")'"
[ "$(sed -n 4501p "$WORK/wide.txt")" = "4500  a much longer value  -4500" ] \
  || fail "wide: row 4500 '$(sed -n 4501p "$WORK/wide.txt")'"
[ "$(sed -n 5001p "$WORK/wide.txt")" = "5000  x  -5000" ] || fail "wide: row 5000 '$(sed -n 5001p "$WORK/wide.txt")'"
echo ok
