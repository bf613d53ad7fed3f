#!/usr/bin/env bash
# Export benchmark: `spoor export` of a ~1 M-event trace to each format, against
# a cold `spoor stats` of the same .pfw.gz (the parse alone). Prints a markdown
# table of MEDIANS and RATIOS with PASS/FAIL against the target
# (sqlite < 2x the cold parse); never a single run's time.
#
# usage: bench/export/run.sh            (after `make build` and scripts/install-bench-deps.sh)
# env:   SPOOR=path/to/spoor  BENCH_OUT=dir  BENCH_SIZE_MB=180  BENCH_RUNS=5  BENCH_THREADS=2
#        BENCH_PANDAS=1 (also time pandas read_json + to_sql on the first 20 MB)
set -euo pipefail

source "$(dirname "$0")/../lib.sh"
size_mb=${BENCH_SIZE_MB:-180}
runs=${BENCH_RUNS:-5}
need hyperfine

results_dir export-results
trace=$out/export.pfw.gz
echo "$size_mb" >"$res/size_mb"
echo "bench: generating the input ($size_mb MB)" >&2
"$spoor" gen -o "$trace" --size-mb "$size_mb" --seed 1 --no-truth >/dev/null
cold="rm -f $(q "$trace").spoor-*"   # every row runs cold: no index or snapshot

common="--no-progress --threads $threads"
time_it parse --prepare "$cold" "$(q "$spoor") stats $common $(q "$trace") > /dev/null"
# A fresh output file each run: replacing an existing one makes ext4 flush the
# new data at the rename (~40 ms for 150 MB), for spoor as for any tool.
for to in sqlite csv jsonl perfetto; do
  time_it "export_$to" --prepare "$cold; rm -f $(q "$out/export.$to")" \
    "$(q "$spoor") export $common --to $to -o $(q "$out/export.$to") $(q "$trace")"
done
# The Perfetto export without its counter tracks: their cost.
time_it export_perfetto_no_counters --prepare "$cold; rm -f $(q "$out/export.perfetto")" \
  "$(q "$spoor") export $common --to perfetto --no-counters -o $(q "$out/export.perfetto") $(q "$trace")"
"$spoor" stats $common --format json "$trace" >"$res/stats.json" 2>/dev/null
stat -c %s "$out/export.sqlite" >"$res/sqlite_bytes"
sqlite3 "$out/export.sqlite" "SELECT count(*) FROM events" >"$res/sqlite_rows"
if [ "${BENCH_PANDAS:-0}" = 1 ] && "$py" -c 'import pandas' 2>/dev/null; then
  echo "bench: pandas read + to_sql (first 20 MB)" >&2
  for i in 1 2 3; do
    "$py" "$here/pandas_to_sql.py" "$trace" 20 "$out/pandas.sqlite" >"$res/pandas_$i.json" 2>"$res/pandas.err" \
      || { echo "bench: pandas failed: $(tail -n 1 "$res/pandas.err")" >&2; rm -f "$res/pandas_$i.json"; }
  done
fi
load_end
"$py" "$here/report.py" "$res"
