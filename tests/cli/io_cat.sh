# spoor cat: raw lines A..B of plain and gzip traces, with and without the
# checkpoint index, matching sed; usage errors exit 2, file errors exit 1.
source "$(dirname "$0")/lib/common.sh"

"$SPOOR_BIN" cat --help | grep -q "usage: spoor cat" || fail "no --help"
expect_fail 2 "no trace given" cat --lines 1:2
expect_fail 2 "--lines A:B is required" cat x.pfw
expect_fail 2 "not 5:3" cat x.pfw --lines 5:3
expect_fail 2 "not 0:3" cat x.pfw --lines 0:3
expect_fail 2 "not a:b" cat x.pfw --lines a:b
expect_fail 2 "one trace at a time" cat x.pfw y.pfw --lines 1:2
expect_fail 1 "spoor cat: $WORK/missing.gz: no such file" cat "$WORK/missing.gz" --lines 1:2
expect_fail 1 "spoor cat: $WORK: is a directory" cat "$WORK" --lines 1:2

head -c 8000000 /dev/urandom | od -An -tx1 -w32 -v | awk '{print "{\"n\":" NR ",\"hex\":\"" $0 "\"}"}' > "$WORK/t.pfw"
printf 'last line without newline' >> "$WORK/t.pfw"
gzip -c "$WORK/t.pfw" > "$WORK/t.pfw.gz"
total=$(($(wc -l < "$WORK/t.pfw") + 1))

check() { # file, range, sed range
  "$SPOOR_BIN" cat "$1" --lines "$2" > "$WORK/got" || fail "cat $1 --lines $2 failed"
  sed -n "$3p" "$WORK/t.pfw" > "$WORK/want"
  cmp -s "$WORK/got" "$WORK/want" || fail "cat $1 --lines $2 differs from sed -n $3p"
}

for f in "$WORK/t.pfw" "$WORK/t.pfw.gz"; do
  check "$f" 1:3 1,3
  check "$f" 123456:123460 123456,123460
  check "$f" 200000: '200000,$'
  check "$f" :5 1,5
  check "$f" 77 77,77
  check "$f" "$total:" "$total,\$"
done
[ ! -e "$WORK/t.pfw.gz.spoor-idx" ] || fail "cat wrote an index"
"$SPOOR_BIN" index "$WORK/t.pfw.gz" > /dev/null
for r in 1:3 123456:123460 200000: :5 77 "$total:"; do
  check "$WORK/t.pfw.gz" "$r" "$(echo "$r" | sed 's/^:/1:/; s/:$/:$/; s/^\([0-9]*\)$/\1:\1/; s/:/,/')"
done
"$SPOOR_BIN" cat "$WORK/t.pfw.gz" --lines $((total + 5)): > "$WORK/got" || fail "past the end failed"
[ ! -s "$WORK/got" ] || fail "lines past the end printed something"

# A truncated trace: the lines before the cut, then a warning.
head -c 2000000 "$WORK/t.pfw.gz" > "$WORK/cut.pfw.gz"
"$SPOOR_BIN" cat "$WORK/cut.pfw.gz" --lines 1: > "$WORK/got" 2> "$WORK/err" || fail "truncated cat failed"
grep -q "cut.pfw.gz: truncated at byte 2000000" "$WORK/err" || fail "no truncation warning"
cmp -s "$WORK/got" <(head -c "$(wc -c < "$WORK/got")" "$WORK/t.pfw") || fail "truncated output differs"

need_data
cm1="$SPOOR_DATA/pfw/dftracer-cm1-2024-rank0.pfw.gz"
[ "$("$SPOOR_BIN" cat "$cm1" --lines 8793:)" = "]" ] || fail "cm1 final ] missing"
"$SPOOR_BIN" cat "$cm1" --lines 100:110 | cmp -s - <(zcat "$cm1" | sed -n 100,110p) || fail "cm1 lines differ"
echo ok
