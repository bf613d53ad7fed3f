#!/bin/bash
# A trace that changes under spoor: cut short while it is read, plain or
# .gz, it is an error naming both sizes (exit 1), never a crash (SIGBUS,
# exit 135). (Bytes appended while it is read: test_io_plain.)
. "$(dirname "$0")/lib/common.sh"
cd "$WORK"
"$SPOOR_BIN" gen -o t.pfw --size-mb 64 --seed 4 --no-truth > /dev/null
"$SPOOR_BIN" gen -o r.pfw.gz --size-mb 64 --seed 4 --random-hashes --no-truth > /dev/null

# `spoor events --format jsonl` writes rows to stdout as it reads (a default
# CSV to a pipe waits for the end, for its header): a pipe that nobody
# drains holds it inside the first parts while the file is cut, then drains
# (the traces are larger than what the loader's slots read ahead: 24 MiB).
cut_while_read() { # FILE CUT THREADS
  local file=$1 cut=$2 threads=$3 size
  cp "$file" "cut-$file"
  size=$(stat -c %s "cut-$file")
  set +e
  "$SPOOR_BIN" events --format jsonl --threads "$threads" --no-cache --no-index "cut-$file" 2> err \
    | { dd bs=1 count=1 of=/dev/null 2> /dev/null; truncate -s "$cut" "cut-$file"; cat > /dev/null; }
  local got=${PIPESTATUS[0]}
  set -e
  [ "$got" -eq 1 ] || fail "$file cut to $cut while read ($threads threads): exit $got: $(head -3 err)"
  grep -q "^spoor events: cut-$file: shrank from $size to $cut bytes while being read$" err \
    || fail "$file cut while read ($threads threads): $(head -3 err)"
}
for threads in 1 2; do
  cut_while_read t.pfw 1000000 "$threads"
  cut_while_read r.pfw.gz 100000 "$threads"
done

