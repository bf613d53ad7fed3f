#!/bin/bash
# A stale sidecar is never trusted: after a same-size rewrite in place whose
# mtime is put back (touch -r, cp -p, rsync -t, tar x), the snapshot and the
# checkpoint index are rebuilt (the fingerprint holds the inode change time)
# and the answers are the new file's.
. "$(dirname "$0")/lib/common.sh"
cd "$WORK"

# A .gz of stored 1 MB members: its size does not depend on the bytes, and
# changing bytes in a middle member leaves the first and last members (whose
# ends the fingerprint also checks) as they were.
cat > stored_gz.py <<'PY'
import struct, zlib
MEMBER = 1000000
def member(data):
    out = bytearray(b'\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff')
    for i in range(0, len(data), 65535):
        block = data[i:i + 65535]
        out += bytes([i + 65535 >= len(data)]) + struct.pack('<HH', len(block), len(block) ^ 0xffff) + block
    return bytes(out + struct.pack('<II', zlib.crc32(data), len(data)))
def stored_gz(text):
    return b''.join(member(text[i:i + MEMBER]) for i in range(0, len(text), MEMBER))
PY
# rewrite TEXT OUT: writes into OUT, in place (the same inode), TEXT with
# every event name from its first MB to its last whole MB turned into Zs of
# the same length; as stored gzip when OUT ends in .gz. In a .gz, the lines
# that start before a checkpoint and end after it change too: a stale index
# would give their first bytes from its snapshot.
rewrite() {
  /usr/bin/python3 - "$@" <<'PY'
import re, sys
sys.path.insert(0, '.')
from stored_gz import stored_gz, MEMBER
src, out = sys.argv[1], sys.argv[2]
text = open(src, 'rb').read()
lo, hi = MEMBER, (len(text) // MEMBER - 1) * MEMBER
body = re.sub(rb'"name": "([^"]*)"', lambda m: b'"name": "' + b'Z' * len(m.group(1)) + b'"', text[lo:hi])
text = text[:lo] + body + text[hi:]
open(out, 'r+b').write(stored_gz(text) if out.endswith('.gz') else text)
PY
}
zs() { "$SPOOR_BIN" sql --no-progress "$1" "SELECT count(*) FROM events WHERE name GLOB 'ZZ*'" | tail -1 | tr -d ' '; }

# The snapshot: sql writes it, then sql and stats would answer from it.
"$SPOOR_BIN" gen -o t.pfw --size-mb 3 --seed 6 --no-truth > /dev/null
cp -p t.pfw orig.pfw
[ "$(zs t.pfw)" = 0 ] || fail "before: $(zs t.pfw)"
[ -f t.pfw.spoor-snap ] || fail "no snapshot written"
sleep 0.01   # a rewrite in the same clock tick as the write would keep its ctime
rewrite orig.pfw t.pfw
touch -r orig.pfw t.pfw
[ "$(stat -c %s.%Y t.pfw)" = "$(stat -c %s.%Y orig.pfw)" ] || fail "the rewrite changed size or mtime"
[ "$(zs t.pfw)" -gt 1000 ] || fail "sql answered from the stale snapshot: $(zs t.pfw)"
"$SPOOR_BIN" stats --format csv t.pfw > after.csv
grep -q ',ZZ' after.csv || fail "stats answered from the stale snapshot"

# The checkpoint index of a .gz.
"$SPOOR_BIN" gen -o g.pfw --size-mb 12 --seed 7 --no-truth > /dev/null
/usr/bin/python3 -c "from stored_gz import stored_gz; open('g.pfw.gz', 'wb').write(stored_gz(open('g.pfw', 'rb').read()))"
cp -p g.pfw.gz orig.pfw.gz
"$SPOOR_BIN" stats --no-cache --format csv g.pfw.gz > /dev/null
[ -f g.pfw.gz.spoor-idx ] || fail "no index written"
sleep 0.01
rewrite g.pfw g.pfw.gz
touch -r orig.pfw.gz g.pfw.gz
[ "$(stat -c %s.%Y g.pfw.gz)" = "$(stat -c %s.%Y orig.pfw.gz)" ] || fail "the .gz rewrite changed size or mtime"
cmp -s <(head -c 4096 g.pfw.gz) <(head -c 4096 orig.pfw.gz) && cmp -s <(tail -c 4096 g.pfw.gz) <(tail -c 4096 orig.pfw.gz) \
  || fail "the .gz rewrite changed its first or last 4 KiB"
"$SPOOR_BIN" stats --no-cache --threads 2 --format csv g.pfw.gz > after-gz.csv 2> err || fail "stats after the .gz rewrite: $(cat err)"
[ ! -s err ] || fail "stats after the .gz rewrite warned: $(cat err)"
"$SPOOR_BIN" events --no-cache g.pfw.gz | grep -c ',ZZ' > count || true
[ "$(cat count)" -eq "$(grep -c '"name": "ZZ' <(zcat g.pfw.gz))" ] || fail "events of the rewritten .gz: $(cat count) Z names"
