#!/usr/bin/env bash
# Lifecycle benchmark: `spoor lifecycle --preset cascade-tasks` on 10 M records
# of a generated cascade scheduler log (spoor gen --kind cascade), against
# `spoor stats` on the same bytes (target: >= 50 % of its throughput) and
# against pandas doing the same pivot and group-bys (pandas_lifecycle.py;
# target: >= 20x faster). Also the Python-logging form of the same log.
# Prints a markdown table of MEDIANS and RATIOS with PASS/FAIL
# (bench/lifecycle/report.py).
#
# pandas needs ~1.9 GB of memory per million records (10 M: ~19 GB on a shared
# 24 GB machine), so it runs on two prefixes of the log (BENCH_PANDAS_RECORDS,
# default 1 M and 2 M records); its time is extrapolated linearly to the whole
# log, and the report shows both sizes so the linearity can be checked. Its
# answers (total per worker and per mode, the slowest tasks) are compared with
# spoor's on the largest prefix.
#
# usage: bench/lifecycle/run.sh     (after `make build`; python3-pandas for /usr/bin/python3)
# env:   SPOOR=path/to/spoor  BENCH_OUT=dir  BENCH_RECORDS=10000000  BENCH_RUNS=3  BENCH_THREADS=2
#        BENCH_PANDAS_RECORDS="1000000 2000000"
set -euo pipefail

source "$(dirname "$0")/../lib.sh"
records=${BENCH_RECORDS:-10000000}
runs=${BENCH_RUNS:-3}
pandas_records=${BENCH_PANDAS_RECORDS:-1000000 2000000}
need hyperfine
need_py pandas

results_dir lifecycle-results
log=$out/cascade.jsonl
pylog=$out/cascade.log
echo "bench: generating $log and $pylog ($records records each)" >&2
"$spoor" gen --kind cascade -o "$log" --records "$records" --seed 1 --no-truth >"$res/gen.txt"
"$spoor" gen --kind cascade -o "$pylog" --records "$records" --seed 1 --no-truth >/dev/null
rm -f "$log".spoor-* "$pylog".spoor-*
stat -c %s "$log" >"$res/log_bytes"
stat -c %s "$pylog" >"$res/pylog_bytes"
run_spoor="$(q "$spoor")"
common="--no-progress --threads $threads --no-cache"

for form in log pylog; do
  f=$log
  [ $form = pylog ] && f=$pylog
  time_it "stats_$form" "$run_spoor stats $common $(q "$f") > /dev/null"
  time_it "lifecycle_$form" "$run_spoor lifecycle $common --preset cascade-tasks $(q "$f") > /dev/null"
  peak "lifecycle_$form" "$run_spoor lifecycle $common --preset cascade-tasks $(q "$f")"
done
peak stats_log "$run_spoor stats $common $(q "$log")"

# pandas on prefixes of the log, once each (its runs are long and alike).
for n in $pandas_records; do
  head -n "$n" "$log" >"$out/cascade-$n.jsonl"
  echo "bench: pandas on $n records" >&2
  "$py" "$here/pandas_lifecycle.py" "$out/cascade-$n.jsonl" "$res/pandas-$n.json" || echo "bench: pandas failed" >&2
  "$spoor" lifecycle $common --preset cascade-tasks --format csv "$out/cascade-$n.jsonl" >"$res/spoor-$n.csv"
  time_it "lifecycle_$n" "$run_spoor lifecycle $common --preset cascade-tasks $(q "$out/cascade-$n.jsonl") > /dev/null"
  rm -f "$out/cascade-$n.jsonl"
done
echo "$pandas_records" >"$res/pandas_sizes"
echo "$records" >"$res/records"
load_end
"$py" "$here/report.py" "$res"
