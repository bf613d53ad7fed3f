#!/usr/bin/env bash
# The bpftrace reader's throughput against the pfw reader's on the same byte
# volume: a bio.out-like table of BENCH_SIZE_MB made by repeating the shared
# bio.out with perturbed rows (later time stamps, other sectors and latencies,
# a negative latency now and then), and `spoor gen` of the same size (plain
# .pfw). `spoor stats --no-cache` on each, alternating, BENCH_RUNS rounds;
# prints the median seconds and MB/s of each and the ratio (target: the
# bpftrace reader at >= 50 % of pfw's bytes per second).
#
# usage: bench/ingest/bpftrace.sh
# env:   SPOOR  BENCH_OUT  BENCH_SIZE_MB=200  BENCH_RUNS=3  BENCH_THREADS=2
#        SPOOR_DATA (the shared data folder; default ../shared/data)  BENCH_KEEP
set -euo pipefail

source "$(dirname "$0")/../lib.sh"
size_mb=${BENCH_SIZE_MB:-200}
runs=${BENCH_RUNS:-3}
bio=${SPOOR_DATA:-$root/../shared/data}/bpftrace/unet3d-pytorch/bio.out
[ -f "$bio" ] || die "no $bio (set SPOOR_DATA)"

results_dir bpftrace
table=$out/bpftrace-bio.out
pfw=$out/bpftrace-peer.pfw
echo "bench: generating inputs ($size_mb MB each)" >&2
awk -v want=$((size_mb * 1000000)) 'NF == 11 { row[n++] = $0 }
  END {
    srand(7)
    for (k = 0; bytes < want; k++)
      for (i = 0; i < n && bytes < want; i++) {
        split(row[i], f, " ")
        lat = f[11] < 0 ? f[11] : int(f[11] * (0.5 + rand()))
        if (lat > 2147483647) lat = 2147483647
        if (rand() < 0.001) lat = -int(rand() * 2000000000)
        line = sprintf("%-16.0f  %s  %-7s  %-13s  %-7s  %-13s  %s  %s %-16.0f %-12s %d", f[1] + k * 1000000000000,
                       f[2], f[3], f[4], f[5], f[6], f[7], f[8], f[9] + k * 8, f[10], lat)
        print line
        bytes += length(line) + 1
      }
  }' "$bio" >"$table"
bytes=$(stat -c %s "$table")
"$spoor" gen -o "$pfw" --size-mb "$((bytes / 1000000))" --seed 2 --no-truth >/dev/null

# KEY FILE: one timed run of stats on FILE, seconds appended to $res/KEY.
run_once() {
  local start end
  start=$(date +%s.%N)
  "$spoor" stats --no-cache --no-progress --threads "$threads" "$2" >/dev/null 2>&1
  end=$(date +%s.%N)
  echo "$end - $start" | bc >>"$res/$1"
}
for _ in $(seq "$runs"); do
  run_once bpftrace "$table"
  run_once pfw "$pfw"
done
load_end
median() { sort -g "$res/$1" | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
tb=$(stat -c %s "$table") pb=$(stat -c %s "$pfw")
mt=$(median bpftrace) mp=$(median pfw)
awk -v tb="$tb" -v pb="$pb" -v mt="$mt" -v mp="$mp" -v runs="$runs" -v thr="$threads" 'BEGIN {
  rt = tb / mt / 1e6; rp = pb / mp / 1e6
  printf "| input | bytes | median s (%d runs, %d threads) | MB/s |\n|---|---|---|---|\n", runs, thr
  printf "| bio.out-like bpftrace table | %d | %.3f | %.0f |\n", tb, mt, rt
  printf "| spoor gen .pfw (plain) | %d | %.3f | %.0f |\n", pb, mp, rp
  printf "\nbpftrace / pfw bytes per second: %.0f %% (target >= 50 %%): %s\n", 100 * rt / rp, (rt / rp >= 0.5 ? "PASS" : "FAIL")
}' | tee "$res/summary.md"
echo "load: $(cat "$res/load_start") -> $(cat "$res/load_end")" >&2
[ -n "${BENCH_KEEP:-}" ] || rm -f "$table" "$pfw" # BENCH_KEEP=1 keeps them for a profiler
