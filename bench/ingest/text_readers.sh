#!/usr/bin/env bash
# Throughput of each text reader of issue 21 against the pfw reader (target:
# at least half of pfw's bytes per second). For each reader, an input of
# BENCH_SIZE_MB made by text_inputs.py (a real sample repeated with advancing
# times: the shared unet3d-pytorch files, the committed ftrace capture), and
# `spoor gen` .pfw of the same size; `spoor stats --no-cache` on the reader's
# input and on the .pfw, alternated (lib.sh's time_pair: one warm-up round,
# then BENCH_RUNS rounds), so that the machine's drift falls on both alike.
# The page cache is warm (the inputs were just written): this measures the
# parse, not the disk. Prints a markdown table of the medians and each
# reader's bytes per second as a share of pfw's from the same rounds.
#
# usage: bench/ingest/text_readers.sh [READER...]
#        (default all: bio open vfs_rw ps mpstat pmon pytext mllog ftrace blkparse lttng)
# env:   SPOOR  BENCH_OUT  BENCH_SIZE_MB=100  BENCH_RUNS=5  BENCH_THREADS=2
#        SPOOR_DATA (the shared data folder; default ../shared/data)
#        BENCH_KEEP=1 keeps the inputs (for a profiler)
set -euo pipefail

source "$(dirname "$0")/../lib.sh"
size_mb=${BENCH_SIZE_MB:-100}
runs=${BENCH_RUNS:-5}
data=${SPOOR_DATA:-$root/../shared/data}
[ -d "$data/bpftrace/unet3d-pytorch" ] || die "no $data/bpftrace/unet3d-pytorch (set SPOOR_DATA)"
readers=("$@")
[ ${#readers[@]} -gt 0 ] || readers=(bio open vfs_rw ps mpstat pmon pytext mllog ftrace blkparse lttng)

results_dir text_readers
pfw=$out/text-peer.pfw
"$spoor" gen -o "$pfw" --size-mb "$size_mb" --seed 2 --no-truth >/dev/null
stats="$(q "$spoor") stats --no-cache --no-progress --threads $threads"

# The median wall (WHAT 1) or CPU (user + system, WHAT 0) seconds of $res/KEY.times.
median() {
  awk -v wall="$2" '{ print wall ? $1 : $2 + $3 }' "$res/$1.times" | sort -g |
    awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

printf '| reader | dialect | MB | median s (%d rounds, %d threads) | MB/s | pfw MB/s (same rounds) | reader / pfw | CPU s: reader / pfw per byte |\n' \
  "$runs" "$threads" | tee "$res/summary.md"
echo "|---|---|---:|---:|---:|---:|---:|---:|" | tee -a "$res/summary.md"
for reader in "${readers[@]}"; do
  input=$out/text-input.$reader
  echo "bench: making the $reader input ($size_mb MB)" >&2
  "$py" "$here/text_inputs.py" "$reader" "$input" "$size_mb" "$data" "$root"
  time_pair "$reader" "pfw-$reader" : "$stats $(q "$input")" "$stats $(q "$pfw")"
  [ -s "$res/$reader.times" ] || die "$reader failed: $(tail -n 3 "$res/$reader.err")"
  dialect=$("$spoor" stats --no-cache --no-progress "$input" | awk '$1 == "dialect" { sub(/:.*/, "", $2); print $2 }')
  awk -v r="$reader" -v d="$dialect" -v b="$(stat -c %s "$input")" -v pb="$(stat -c %s "$pfw")" \
    -v t="$(median "$reader" 1)" -v pt="$(median "pfw-$reader" 1)" \
    -v c="$(median "$reader" 0)" -v pc="$(median "pfw-$reader" 0)" 'BEGIN {
      printf "| %s | %s | %.0f | %.3f | %.0f | %.0f | %.0f %% | %.2f |\n", r, d, b / 1e6, t, b / t / 1e6, pb / pt / 1e6,
             100 * (b / t) / (pb / pt), (c / b) / (pc / pb) }' | tee -a "$res/summary.md"
  [ -n "${BENCH_KEEP:-}" ] || rm -f "$input"
done
load_end
echo "load (1, 5, 15 min): $(cat "$res/load_start") at the start, $(cat "$res/load_end") at the end" | tee -a "$res/summary.md"
[ -n "${BENCH_KEEP:-}" ] || rm -f "$pfw"
