#!/usr/bin/env bash
# Two builds of spoor on the same inputs, alternating run by run: is the new
# one slower? For each reading command and input, RUNS rounds of old then new
# (time_pair), and the median of new/old per round by wall and by CPU, with the
# peak RSS of each. Used when a change touches the read path ("no command gets
# slower"); the figures go in docs/perf.md.
#
# usage: BASELINE=path/to/old/spoor bench/ingest/compare.sh
# env:   SPOOR (the new build, default build/spoor)  BENCH_OUT  BENCH_SIZE_MB=210
#        BENCH_RUNS=9  BENCH_THREADS=2
set -euo pipefail

source "$(dirname "$0")/../lib.sh"
size_mb=${BENCH_SIZE_MB:-210}
runs=${BENCH_RUNS:-9}
old=${BASELINE:?set BASELINE to the spoor binary to compare against}
[ -x "$old" ] || die "no baseline binary at $old"

results_dir compare
gz=$out/compare-random.pfw.gz
plain=$out/compare.pfw
real=$out/compare.pfw.gz
echo "bench: generating inputs ($size_mb MB each)" >&2
"$spoor" gen -o "$gz" --size-mb "$size_mb" --random-hashes --seed 1 --no-truth >/dev/null
"$spoor" gen -o "$plain" --size-mb "$size_mb" --seed 2 --no-truth >/dev/null
"$spoor" gen -o "$real" --size-mb "$size_mb" --seed 2 --no-truth >/dev/null

# KEY PREPARE OLD_COMMAND NEW_COMMAND ARGS: the two builds' runs of spoor ARGS
# alternating, then the peak RSS of each.
compare_cmds() {
  local key=$1 prepare=$2 old_cmd=$3 new_cmd=$4 args=$5
  time_pair "old_$key" "new_$key" "$prepare" "$old_cmd" "$new_cmd"
  peak "old_$key" "$old_cmd"
  peak "new_$key" "$new_cmd"
  echo "$args" >"$res/$key.cmd"
  echo "$key" >>"$res/order"
}
# KEY PREPARE ARGS...: spoor ARGS by the old and the new build.
compare() {
  local key=$1 prepare=$2
  shift 2
  local args
  args=$(printf '%q ' "$@")
  compare_cmds "$key" "$prepare" "$(q "$old") $args" "$(q "$spoor") $args" "$*"
}
no_idx="rm -f $(q "$gz.spoor-idx") $(q "$real.spoor-idx")"
compare gz_t1_cold "$no_idx" stats --no-cache --threads 1 "$gz"
compare gz_tn_cold "$no_idx" stats --no-cache --threads "$threads" "$gz"
# Each build reads its own copy with its own index: the sidecar's format may
# differ between them, and each would rebuild the other's.
cp "$gz" "$out/compare-old.pfw.gz"
cp "$gz" "$out/compare-new.pfw.gz"
"$old" index "$out/compare-old.pfw.gz" >/dev/null
"$spoor" index "$out/compare-new.pfw.gz" >/dev/null
compare_cmds gz_tn_indexed true \
  "$(q "$old") stats --no-cache --threads $threads $(q "$out/compare-old.pfw.gz")" \
  "$(q "$spoor") stats --no-cache --threads $threads $(q "$out/compare-new.pfw.gz")" \
  "stats --no-cache --threads $threads compare-random.pfw.gz (indexed; a copy per build)"
compare real_tn_cold "$no_idx" stats --no-cache --threads "$threads" "$real"
compare plain_t1 true stats --no-cache --threads 1 "$plain"
compare plain_tn true stats --no-cache --threads "$threads" "$plain"
compare plain_summary true summary --no-cache --threads "$threads" "$plain"
compare plain_events true events --no-cache --threads "$threads" --where "dur > 1ms" -o /dev/null "$plain"
compare plain_export true export --no-cache --threads "$threads" --to csv -o /dev/null "$plain"
load_end

"$py" "$here/compare_report.py" "$res" --runs "$runs"
