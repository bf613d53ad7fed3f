#!/usr/bin/env bash
# Report benchmark: `spoor report --format html` on a 1 GB generated trace
# against `spoor stats` on the same file, both cold (the page cache dropped
# before every run when this runs as root; else warm, and the report says so)
# and alternated run by run (target: report <= 2 x stats); the page's size
# (target: about 20 MB at most) and its load time in headless Chromium, until
# every chart has drawn (target: under 2 s, load_time.mjs); and, for scale,
# the notebook way on a prefix of the trace: pandas computing the layer
# breakdown alone (bench/attribute/summary_pandas.py), with no charts at all.
# Prints a markdown table of medians and ratios with PASS/FAIL (report.py).
#
# usage: bench/report/run.sh     (after `make build` and scripts/install-deps.sh)
# env:   SPOOR=path/to/spoor  BENCH_OUT=dir  BENCH_SIZE_MB=1024  BENCH_RUNS=3
#        BENCH_THREADS=2  BENCH_PANDAS_MB=100  SPOOR_CHROMIUM=/usr/bin/chromium
set -euo pipefail

source "$(dirname "$0")/../lib.sh"
size=${BENCH_SIZE_MB:-1024}
runs=${BENCH_RUNS:-3}
pandas_mb=${BENCH_PANDAS_MB:-100}
chromium=${SPOOR_CHROMIUM:-/usr/bin/chromium}
need node
need_py pandas
[ -x "$chromium" ] || die "no Chromium at $chromium: run scripts/install-deps.sh"
[ -d "$root/web/node_modules/playwright-core" ] || die "playwright-core is missing: run scripts/install-deps.sh"

results_dir report-results
trace=$out/report-$size.pfw.gz
if [ ! -s "$trace" ]; then
  echo "bench: generating $trace ($size MB)" >&2
  "$spoor" gen -o "$trace" --size-mb "$size" --seed 1 --no-truth >/dev/null
fi
rm -f "$trace".spoor-*
stat -c %s "$trace" >"$res/trace_bytes"
small=$out/report-$pandas_mb.pfw.gz
[ -s "$small" ] || "$spoor" gen -o "$small" --size-mb "$pandas_mb" --seed 1 --no-truth >/dev/null
rm -f "$small".spoor-*

drop='true'
echo warm >"$res/cache"
if [ -w /proc/sys/vm/drop_caches ]; then
  drop='sync; echo 3 > /proc/sys/vm/drop_caches'
  echo cold >"$res/cache"
fi
run_spoor="$(q "$spoor")"
common="--no-progress --threads $threads --no-cache"
page=$res/report.html
time_pair stats report "$drop" \
  "$run_spoor stats $common $(q "$trace")" \
  "$run_spoor report $common --format html -o $(q "$page") $(q "$trace")"
peak stats "$run_spoor stats $common $(q "$trace")"
peak report "$run_spoor report $common --format html -o $(q "$page") $(q "$trace")"
stat -c %s "$page" >"$res/page_bytes"

echo "bench: the page in Chromium, $runs loads" >&2
SPOOR_WEB=$root/web node "$here/load_time.mjs" "$chromium" "$page" "$runs" >"$res/load.json" 2>"$res/load.err" ||
  echo "bench: load_time.mjs failed: $(tail -n 3 "$res/load.err")" >&2

time_pair report_small stats_small "$drop" \
  "$run_spoor report $common --format html -o $(q "$res/small.html") $(q "$small")" \
  "$run_spoor stats $common $(q "$small")"
echo "bench: pandas on $pandas_mb MB" >&2
"$py" "$root/bench/attribute/summary_pandas.py" "$small" "$res/pandas_answers.json" >"$res/pandas.json" \
  2>"$res/pandas.err" || echo "bench: summary_pandas.py failed: $(tail -n 3 "$res/pandas.err")" >&2
echo "$size $pandas_mb" >"$res/sizes"
load_end
"$py" "$here/report.py" "$res"
