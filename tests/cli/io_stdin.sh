#!/bin/bash
# Standard input ("-") and FIFOs: streamed once, plain, gzip or zstd (told by
# magic bytes), with the answers of the file itself and no sidecar written
# anywhere; "- -" is an error; a FIFO with no writer is an error at once
# (never a hang), one with a writer is read like standard input.
. "$(dirname "$0")/lib/common.sh"
cd "$WORK"
"$SPOOR_BIN" gen -o t.pfw --size-mb 3 --seed 5 --no-truth
gzip -c t.pfw > t.pfw.gz
zstd -q -c t.pfw > t.pfw.zst
mkdir ref && cp t.pfw.gz ref/
"$SPOOR_BIN" stats --format csv --no-cache ref/t.pfw.gz > want.csv

check() { # NAME: out.csv equals want.csv
  cmp -s want.csv out.csv || fail "$1: $(diff want.csv out.csv | head -5)"
}
zcat t.pfw.gz | "$SPOOR_BIN" stats --format csv - > out.csv; check "zcat | stats -"
"$SPOOR_BIN" stats --format csv - < t.pfw.gz > out.csv; check "gzip on stdin"
cat t.pfw.zst | "$SPOOR_BIN" stats --format csv --threads 2 - > out.csv; check "zstd on stdin"
"$SPOOR_BIN" stats --format csv <(zcat t.pfw.gz) > out.csv; check "a pipe by name"

# The other readers of traces and tables take it too.
"$SPOOR_BIN" events ref/t.pfw.gz | sed 's#,ref/t.pfw.gz,#,-,#' > want-events.csv
zcat t.pfw.gz | "$SPOOR_BIN" events - > out-events.csv
cmp -s want-events.csv out-events.csv || fail "events -: differs"
want=$("$SPOOR_BIN" sql --no-cache ref/t.pfw.gz "select count(*), sum(dur) from events")
got=$(zcat t.pfw.gz | "$SPOOR_BIN" sql - "select count(*), sum(dur) from events")
[ "$want" = "$got" ] || fail "sql -: '$got', expected '$want'"
"$SPOOR_BIN" summary --no-cache ref/t.pfw.gz > want-summary.txt
"$SPOOR_BIN" summary - < t.pfw > out-summary.txt
diff <(tail -n +2 want-summary.txt) <(tail -n +2 out-summary.txt) > /dev/null || fail "summary -: differs"
[ "$("$SPOOR_BIN" cat --lines 5:6 - < t.pfw.gz)" = "$(sed -n 5,6p t.pfw)" ] || fail "cat -: differs"

# Streams leave nothing behind: no index, no snapshot, here or in ref/.
found=$(find . -name '*.spoor-*' ! -path './ref/*')
[ -z "$found" ] || fail "sidecars written for a stream: $found"

# Standard input twice, and a stream that has no index.
expect_fail 2 "standard input is given 2 times" stats - - < t.pfw
expect_fail 1 "a stream has no checkpoint index" index - < t.pfw.gz

# A FIFO with no writer: an error at once. With a writer: read like stdin.
mkfifo fifo
set +e
timeout 10 "$SPOOR_BIN" stats fifo > out 2> err
got=$?
set -e
[ "$got" -eq 1 ] || fail "a FIFO with no writer: exit $got (124 is a hang): $(cat err)"
grep -q "fifo: a FIFO with no writer" err || fail "a FIFO with no writer: $(cat err)"
exec 3<> fifo       # a writer that holds the FIFO open before spoor opens it
timeout 10 "$SPOOR_BIN" stats --format csv fifo > out.csv 2> err 3>&- &
reader=$!
cat t.pfw.gz >&3
exec 3>&-
wait "$reader" || fail "stats fifo with a writer failed: $(cat err)"
check "stats fifo"

# Other files that are not regular keep their error.
expect_fail 1 "/dev/null: not a regular file" stats /dev/null
expect_fail 1 "is a directory" stats ref

# The summary's second pass (rows too far out of start order, as in
# summary.sh) cannot reread a stream: a clear error, not a wrong answer.
"$SPOOR_BIN" gen -o one.pfw --size-mb 8 --procs 1 --no-truth > /dev/null
{ head -1 one.pfw; grep '"ph": "M"' one.pfw; tail -n +2 one.pfw | grep -v '"ph": "M"' | shuf --random-source=<(yes); } \
  > shuffled.pfw
expect_fail 2 "^spoor summary: -: rows came further out of time order than one pass holds, and a stream cannot be read again" \
  summary --no-progress - < shuffled.pfw
[ ! -s "$WORK/out" ] || fail "summary printed an answer after failing"
