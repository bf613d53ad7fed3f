#!/usr/bin/env bash
# Series benchmark: `spoor series` on a node-metric table from
# `spoor gen --kind metrics` (BENCH_ROWS rows, 64 nodes, ISO-8601 times),
# against `spoor stats` on the same bytes (throughput ratio, target >= 0.5)
# and against python3-pandas doing the same profiles as a user's notebook
# (pandas_series.py: read_csv, to_datetime, group-bys by hour/weekday/node,
# pivot, corr, per-node hourly resample, headroom; target >= 20x). Prints a
# markdown table of MEDIANS and RATIOS with PASS/FAIL and peak RSS
# (bench/series/report.py), and checks that pandas and spoor agree.
#
# usage: bench/series/run.sh     (after `make build`; python3-pandas for /usr/bin/python3)
# env:   SPOOR=path/to/spoor  BENCH_OUT=dir  BENCH_ROWS=10000000  BENCH_RUNS=5  BENCH_PANDAS_RUNS=3
#        BENCH_THREADS=2
set -euo pipefail

source "$(dirname "$0")/../lib.sh"
rows=${BENCH_ROWS:-10000000}
runs=${BENCH_RUNS:-5}
pandas_runs=${BENCH_PANDAS_RUNS:-3}
need hyperfine
need_py pandas

results_dir series-results
table=$out/series-$rows.csv
if [ ! -s "$table" ]; then
  echo "bench: generating $table ($rows rows)" >&2
  "$spoor" gen --kind metrics -o "$table" --rows "$rows" --nodes 64 --seed 1 --no-truth >/dev/null
fi
stat -L -c %s "$table" >"$res/bytes"
echo "$rows" >"$res/rows"
nproc >"$res/cores"

stats="$(q "$spoor") stats --no-progress --no-cache --threads $threads --ts timestamp $(q "$table")"
series="$(q "$spoor") series --no-progress --threads $threads $(q "$table") --time timestamp --group node \
--by hour,weekday,hour-weekday --corr 0.7 --resample 1h --target cpu_usage_rate=0.65"

time_it stats "$stats > /dev/null"
time_it series "$series -o /dev/null"
time_it series_t1 "${series/--threads $threads/--threads 1} -o /dev/null"
peak stats "$stats"
peak series "$series -o /dev/null"
"$spoor" series --no-progress --threads "$threads" "$table" --time timestamp --group node --by hour,weekday \
  --corr 0.7 --resample 1h --target cpu_usage_rate=0.65 --format json -o "$res/answers.json" 2>/dev/null

echo "bench: pandas ($pandas_runs runs)" >&2
for i in $(seq "$pandas_runs"); do
  /usr/bin/time -f %M -o "$res/pandas.rss" "$py" "$here/pandas_series.py" "$table" >"$res/pandas-$i.json" \
    2>"$res/pandas.err" || echo "bench: pandas_series.py failed: $(tail -n 3 "$res/pandas.err")" >&2
done
load_end
"$py" "$here/report.py" "$res"
