#!/bin/bash
# Memory stays bounded whatever the input's size: a plain or gzip trace is
# read under an address-space limit (ulimit -v) smaller than the trace, with
# a peak resident size far below it. An ASan build reserves terabytes of
# address space, so it cannot run under ulimit -v: there only the resident
# size is checked.
. "$(dirname "$0")/lib/common.sh"
cd "$WORK"
"$SPOOR_BIN" gen -o big.pfw --size-mb 200 --seed 8 --no-truth > /dev/null
gzip -1 -c big.pfw > big.pfw.gz
# peak_kb ARGS...: spoor ARGS' peak resident size in KiB (the run must succeed).
peak_kb() {
  /usr/bin/python3 -c 'import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "$SPOOR_BIN" "$@"
}
asan=false
grep -q __asan_init "$SPOOR_BIN" && asan=true
limit_kb=150000                 # the trace is 200 MB
max_rss_kb=$($asan && echo 250000 || echo 100000)
for input in big.pfw big.pfw.gz; do
  for threads in 1 2; do
    args=(stats --no-cache --no-index --threads "$threads" "$input")
    if ! $asan; then
      (ulimit -v $limit_kb; "$SPOOR_BIN" "${args[@]}" > /dev/null 2> err) \
        || fail "spoor ${args[*]} under ulimit -v $limit_kb: $(cat err)"
    fi
    kb=$(peak_kb "${args[@]}") || fail "spoor ${args[*]} failed"
    [ "$kb" -lt "$max_rss_kb" ] || fail "spoor ${args[*]}: peak resident size $kb KiB"
  done
done

# Served from a snapshot (written by sql), stats stays bounded too: a large
# snapshot's pages leave the process once checked and once served.
"$SPOOR_BIN" sql --no-progress big.pfw "SELECT count(*) FROM events" > /dev/null
[ -s big.pfw.spoor-snap ] || fail "sql wrote no snapshot"
snap_max_kb=$($asan && echo 250000 || echo 60000) # the snapshot is ~90 MB
kb=$(peak_kb stats --no-progress --threads 2 big.pfw) || fail "stats from the snapshot failed"
[ "$kb" -lt "$snap_max_kb" ] || fail "stats from a snapshot: peak resident size $kb KiB"
"$SPOOR_BIN" stats --no-progress --no-cache big.pfw > parsed.txt
"$SPOOR_BIN" stats --no-progress big.pfw > served.txt
diff parsed.txt served.txt > /dev/null || fail "stats from the snapshot differs from stats parsing the trace"
