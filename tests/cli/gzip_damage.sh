# A corrupt gzip member adds no invented rows: damage at several offsets (deflate
# data, the trailer's CRC, its ISIZE; a middle member, the last one, a
# single-member file) drops the member's lines with a warning naming its bytes,
# the rest is read, no row that is not in the original appears, the counts of
# hosts, processes and threads do not grow, and --strict fails.
source "$(dirname "$0")/lib/common.sh"
# The skip report may precede the --strict error.
EXPECT_MAX_LINES=3

"$SPOOR_BIN" gen -o "$WORK/t.pfw" --size-mb 2 --procs 3 --no-truth > /dev/null
split -l 2000 -d -a 2 "$WORK/t.pfw" "$WORK/part."
# Members of 2000 lines each (as `cat a.gz b.gz` makes them); offs[k] is where
# member k starts on disk.
offs=(0)
parts=("$WORK"/part.*)
: > "$WORK/mm.pfw.gz"
for p in "${parts[@]}"; do
  gzip -c "$p" >> "$WORK/mm.pfw.gz"
  offs+=("$(stat -c %s "$WORK/mm.pfw.gz")")
done
last=$(( ${#parts[@]} - 1 ))
[ "$last" -ge 4 ] || fail "too few members: ${#parts[@]}"
gzip -c "$WORK/t.pfw" > "$WORK/one.pfw.gz"

# damaged SRC DST OFFSET...: a copy of SRC with the bytes at OFFSET flipped.
damaged() {
  local src=$1 dst=$2 b
  shift 2
  cp "$src" "$dst"
  for at in "$@"; do
    b=$(od -An -tu1 -j "$at" -N1 "$dst" | tr -d ' ')
    printf "$(printf '\\%03o' $(( b ^ 65 )))" | dd of="$dst" bs=1 seek="$at" conv=notrunc status=none
  done
}
run() { "$SPOOR_BIN" "$@" --no-cache --no-index; }
# The counts that must not grow, one per line.
counts() { run stats --format json "$1" | grep -E '^  "(events|metadata_events|files|hosts|processes|threads)":'; }
rows() { run events --columns ts,dur,name,cat,pid,tid "$1" | sort; }
rows "$WORK/t.pfw" > "$WORK/clean.rows"
counts "$WORK/t.pfw" > "$WORK/clean.counts"

# No row that is not in the original; no count above the original's.
only_true_rows() {
  rows "$1" > "$WORK/got.rows" 2> /dev/null
  local extra
  extra=$(comm -13 "$WORK/clean.rows" "$WORK/got.rows" | head -3)
  [ -z "$extra" ] || fail "$1: rows not in the original: $extra"
  counts "$1" 2> /dev/null | paste - "$WORK/clean.counts" | while read -r k got k2 want; do
    [ "${got%,}" -le "${want%,}" ] || fail "$1: $k $got, more than the original's $want"
  done
}

# without K...: the plain trace without parts K... (in $WORK/without.pfw).
without() {
  : > "$WORK/without.pfw"
  for i in "${!parts[@]}"; do
    case " $* " in *" $i "*) ;; *) cat "${parts[$i]}" >> "$WORK/without.pfw" ;; esac
  done
}

# The damage in a member's trailer (CRC, ISIZE) leaves the decoded lines whole:
# the result is exactly that of the trace without the member.
for k in 2 "$last"; do
  without "$k"
  counts "$WORK/without.pfw" > "$WORK/want.counts"
  lines=$(wc -l < "${parts[$k]}")
  for field in crc isize; do
    [ "$field" = crc ] && at=$(( offs[k + 1] - 7 )) || at=$(( offs[k + 1] - 2 ))
    f="$WORK/$field$k.pfw.gz"
    damaged "$WORK/mm.pfw.gz" "$f" "$at"
    counts "$f" > "$WORK/got.counts" 2> "$WORK/err"
    diff "$WORK/want.counts" "$WORK/got.counts" > /dev/null ||
      fail "$field damage in member $k: $(paste "$WORK/want.counts" "$WORK/got.counts")"
    grep -q "warning: $f: corrupt gzip member at bytes ${offs[k]}-${offs[k + 1]} (checksum mismatch): dropped $lines lines" "$WORK/err" ||
      fail "$field damage in member $k: no warning naming its bytes: $(cat "$WORK/err")"
    grep -q "skipped $lines of [0-9]* lines ($lines corrupt gzip member)" "$WORK/err" ||
      fail "$field damage in member $k: no skip report: $(cat "$WORK/err")"
    only_true_rows "$f"
    expect_fail 1 "corrupt gzip member: bytes ${offs[k]}-${offs[k + 1]}, checksum mismatch (--strict)" stats --strict --no-cache "$f"
  done
done

# `spoor cat` numbers lines as the loader does (true after a whole dropped
# member) and says where lines were dropped.
f="$WORK/crc2.pfw.gz"
"$SPOOR_BIN" cat --no-index --lines 6001:6002 "$f" > "$WORK/cat.out" 2> "$WORK/err"
sed -n 6001,6002p "$WORK/t.pfw" | cmp -s - "$WORK/cat.out" || fail "cat after a dropped member: $(head -c 300 "$WORK/cat.out")"
"$SPOOR_BIN" cat --no-index --lines 4000:4001 "$f" > "$WORK/cat.out" 2> "$WORK/err"
sed -n 4000p "$WORK/t.pfw" | cmp -s - "$WORK/cat.out" || fail "cat printed a dropped line"
grep -q "$f:4001: 2000 lines of a corrupt gzip member at bytes ${offs[2]}-${offs[3]} (checksum mismatch) were dropped here" "$WORK/err" ||
  fail "cat: no word of the dropped lines: $(cat "$WORK/err")"

# Damaged deflate data in a middle member, in the last one, in two members, and
# a damaged member header: the member goes, the rest is read.
mid() { echo $(( (offs[$1] + offs[$1 + 1]) / 2 )) $(( (offs[$1] + offs[$1 + 1]) / 2 + 9 )); }
damaged "$WORK/mm.pfw.gz" "$WORK/mid.pfw.gz" $(mid 2)
damaged "$WORK/mm.pfw.gz" "$WORK/last.pfw.gz" $(mid "$last")
damaged "$WORK/mm.pfw.gz" "$WORK/two.pfw.gz" $(mid 1) $(mid 3)
damaged "$WORK/mm.pfw.gz" "$WORK/header.pfw.gz" $(( offs[2] + 1 ))
for f in mid last two header; do
  only_true_rows "$WORK/$f.pfw.gz"
  run stats --format json "$WORK/$f.pfw.gz" > "$WORK/out.json" 2> "$WORK/err"
  grep -q "warning: .*corrupt gzip member at bytes [0-9]*-[0-9]* (" "$WORK/err" || fail "$f: no warning: $(cat "$WORK/err")"
  expect_fail 1 "corrupt gzip member" stats --strict --no-cache "$WORK/$f.pfw.gz"
done
grep -q "corrupt gzip member at bytes ${offs[2]}-${offs[3]} (" <(run stats "$WORK/mid.pfw.gz" 2>&1) ||
  fail "mid: the warning does not name member 2's bytes"
grep -q "corrupt gzip member at bytes ${offs[last]}-${offs[last + 1]} (" <(run stats "$WORK/last.pfw.gz" 2>&1) ||
  fail "last: the warning does not name the last member's bytes"
grep -q "corrupt gzip member at bytes ${offs[1]}-${offs[2]} (.*and 1 more damaged stretches" <(run stats "$WORK/two.pfw.gz" 2>&1) ||
  fail "two: the warning does not name both"
# Everything else is read: every row of the members before and after the
# damaged ones (and the one after each, whose first line a drop may take).
for f_keep in "mid:2 3" "last:$last" "two:1 2 3 4" "header:2 3"; do
  f=${f_keep%%:*}
  without ${f_keep#*:}
  rows "$WORK/without.pfw" > "$WORK/want.rows"
  rows "$WORK/$f.pfw.gz" > "$WORK/got.rows" 2> /dev/null
  missing=$(comm -23 "$WORK/want.rows" "$WORK/got.rows" | head -3)
  [ -z "$missing" ] || fail "$f: rows of undamaged members are missing: $missing"
done

# Standard input is a gzip stream too (read once, never re-read): the same rows,
# counts and warning as the file, for damage in a trailer, in deflate data (the
# next member is searched for in what the stream still holds) and in a header.
for f in crc2 mid two header; do
  rows "$WORK/$f.pfw.gz" > "$WORK/want.rows" 2> "$WORK/want.err"
  "$SPOOR_BIN" events --columns ts,dur,name,cat,pid,tid - < "$WORK/$f.pfw.gz" 2> "$WORK/err" | sort > "$WORK/got.rows"
  cmp -s "$WORK/want.rows" "$WORK/got.rows" || fail "$f on stdin: rows differ from the file's: $(diff "$WORK/want.rows" "$WORK/got.rows" | head -3)"
  warning=$(grep -o 'corrupt gzip member at bytes .*' "$WORK/want.err")
  grep -qF -- "warning: -: $warning" "$WORK/err" || fail "$f on stdin: not the file's warning ($warning): $(cat "$WORK/err")"
done
expect_fail 1 "corrupt gzip member: bytes ${offs[2]}-${offs[3]}, checksum mismatch (--strict)" stats --strict - < "$WORK/crc2.pfw.gz"
# A member the stream's 1 MiB read window slides through, its deflate data
# damaged past the slide: the search for the next member starts inside the
# damaged member, behind what a stream still holds (from there, the search
# goes on in what it holds). Members of stored blocks, to place the damage.
/usr/bin/python3 - "$WORK/t.pfw" "$WORK/slide.pfw.gz" <<'PY'
import struct, sys, zlib
lines = open(sys.argv[1], 'rb').read().splitlines(keepends=True)
BLOCK, SLIDE = 1 << 15, 1 << 20
out, bad = bytearray(), None
for i in range(0, len(lines), 2000):
    data, start = b''.join(lines[i:i + 2000]), len(out)
    out += b'\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff'
    for j in range(0, len(data), BLOCK):
        block = data[j:j + BLOCK]
        if bad is None and len(out) > SLIDE + 100:
            assert start < SLIDE - 100, 'the damaged member starts after the slide'
            bad = len(out) + 3      # NLEN: no longer the complement of LEN
        out += bytes([j + BLOCK >= len(data)]) + struct.pack('<HH', len(block), len(block) ^ 0xffff) + block
    out += struct.pack('<II', zlib.crc32(data), len(data))
out[bad] ^= 0xff
open(sys.argv[2], 'wb').write(out)
PY
f=slide
rows "$WORK/$f.pfw.gz" > "$WORK/want.rows" 2> "$WORK/want.err"
grep -q "corrupt gzip member at bytes [0-9]*-[0-9]* (corrupt deflate data)" "$WORK/want.err" || fail "slide: $(cat "$WORK/want.err")"
"$SPOOR_BIN" events --columns ts,dur,name,cat,pid,tid - < "$WORK/$f.pfw.gz" 2> "$WORK/err" | sort > "$WORK/got.rows"
cmp -s "$WORK/want.rows" "$WORK/got.rows" || fail "$f on stdin: rows differ from the file's: $(cat "$WORK/err")"
warning=$(grep -o 'corrupt gzip member at bytes .*' "$WORK/want.err")
grep -qF -- "warning: -: $warning" "$WORK/err" || fail "$f on stdin: not the file's warning ($warning): $(cat "$WORK/err")"
only_true_rows "$WORK/$f.pfw.gz"

# A single-member file: the member is the whole file, and so is what is dropped.
size=$(stat -c %s "$WORK/one.pfw.gz")
for at in $(( size / 3 )) $(( size - 7 )) $(( size - 2 )); do
  damaged "$WORK/one.pfw.gz" "$WORK/one-bad.pfw.gz" "$at"
  run stats --format json "$WORK/one-bad.pfw.gz" > "$WORK/out.json" 2> "$WORK/err" || fail "single member: stats failed: $(cat "$WORK/err")"
  grep -q '^  "events": 0,' "$WORK/out.json" || fail "single member damaged at $at: events read: $(grep events "$WORK/out.json")"
  grep -q "corrupt gzip member at bytes 0-$size (" "$WORK/err" || fail "single member: no warning: $(cat "$WORK/err")"
  expect_fail 1 "corrupt gzip member: bytes 0-$size" stats --strict --no-cache "$WORK/one-bad.pfw.gz"
done
echo ok
