# spoor index: builds the gzip checkpoint sidecar and reports it; plain files
# need none; errors name the file; usage errors exit 2.
source "$(dirname "$0")/lib/common.sh"

"$SPOOR_BIN" index --help | grep -q "usage: spoor index" || fail "no --help"
expect_fail 2 "no trace given" index
expect_fail 2 "unknown option" index --bogus x.gz
expect_fail 1 "spoor index: $WORK/missing.gz: no such file" index "$WORK/missing.gz"

# ~19 MB of random hex lines: gzip ~2.5:1, several 4 MiB checkpoints.
head -c 6000000 /dev/urandom | od -An -tx1 -w32 -v | awk '{print "{\"n\":" NR ",\"hex\":\"" $0 "\"}"}' > "$WORK/t.pfw"
gzip -c "$WORK/t.pfw" > "$WORK/t.pfw.gz"
"$SPOOR_BIN" index "$WORK/t.pfw.gz" "$WORK/t.pfw" > "$WORK/out" || fail "index failed"
line=$(grep "t.pfw.gz:" "$WORK/out")
[[ $line =~ :\ ([0-9]+)\ checkpoints,\ index\ .*\ \(([0-9.]+)%\ of ]] || fail "unexpected report: $line"
[ "${BASH_REMATCH[1]}" -ge 3 ] || fail "too few checkpoints: $line"
awk -v p="${BASH_REMATCH[2]}" 'BEGIN { exit !(p > 0 && p < 2) }' || fail "index not under 2%: $line"
[ -s "$WORK/t.pfw.gz.spoor-idx" ] || fail "no sidecar"
grep -q "t.pfw: not compressed; no index needed" "$WORK/out" || fail "plain file: $(cat "$WORK/out")"

# Damaged trace: no index, an error naming the damage.
head -c 3000000 "$WORK/t.pfw.gz" > "$WORK/cut.pfw.gz"
expect_fail 1 "cut.pfw.gz: truncated at byte 3000000; no index written" index "$WORK/cut.pfw.gz"
[ ! -e "$WORK/cut.pfw.gz.spoor-idx" ] || fail "index written for a damaged trace"

# A read-only directory: an error, nothing written.
mkdir "$WORK/ro" && cp "$WORK/t.pfw.gz" "$WORK/ro/" && chmod 555 "$WORK/ro"
expect_fail 1 "cannot write the checkpoint index (read-only directory)" index "$WORK/ro/t.pfw.gz"
chmod 755 "$WORK/ro"
[ ! -e "$WORK/ro/t.pfw.gz.spoor-idx" ] || fail "index written in a read-only directory"
echo ok
