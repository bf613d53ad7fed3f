#!/usr/bin/env bash
# Windows benchmark: `spoor windows --every 2.5s` on an ftrace block trace of
# BENCH_REQUESTS requests (a committed real capture repeated, make_trace.py),
# against `spoor stats` on the same file (target: windows <= 1.5x stats),
# runs alternated; and against the Python a user writes for it
# (pandas_windows.py) on a prefix of BENCH_PY_REQUESTS requests, spoor on the
# same prefix. Prints medians and ratios (report.py).
#
# usage: bench/windows/run.sh     (after `make build`; python3-pandas for /usr/bin/python3)
# env:   SPOOR=path/to/spoor  BENCH_OUT=dir  BENCH_REQUESTS=10000000
#        BENCH_PY_REQUESTS=1000000  BENCH_RUNS=5  BENCH_THREADS=2
set -euo pipefail

source "$(dirname "$0")/../lib.sh"
requests=${BENCH_REQUESTS:-10000000}
py_requests=${BENCH_PY_REQUESTS:-1000000}
runs=${BENCH_RUNS:-5}
need_py pandas
capture=$root/tests/data/blk/captured/mixed-1.ftrace.txt.gz

results_dir windows-results
trace=$out/windows-$requests.ftrace.txt
small=$out/windows-$py_requests.ftrace.txt
for pair in "$trace $requests" "$small $py_requests"; do
  set -- $pair
  [ -s "$1" ] || { echo "bench: making $1 ($2 requests)" >&2; "$py" "$here/make_trace.py" "$capture" "$2" "$1"; }
done
stat -L -c %s "$trace" >"$res/bytes"
echo "$requests" >"$res/requests"

common="--no-progress --threads $threads"  # windows keeps no snapshot: stats is told not to either
time_pair stats windows "" "$(q "$spoor") stats $common --no-cache $(q "$trace")" \
  "$(q "$spoor") windows $common --every 2.5s $(q "$trace") -o /dev/null"
peak stats_rss "$(q "$spoor") stats $common --no-cache $(q "$trace")"
peak windows_rss "$(q "$spoor") windows $common --every 2.5s $(q "$trace") -o /dev/null"

# The Python pipeline on the prefix (pandas_windows.py: a regex per line, a
# dict for the join, pandas group-bys), spoor on the same prefix.
python_windows="$py $(q "$here/pandas_windows.py") $(q "$small") 2500000000"
time_pair spoor_small python "" "$(q "$spoor") windows $common --every 2.5s $(q "$small") -o /dev/null" \
  "$python_windows"
load_end
"$py" "$here/report.py" "$res"
