#!/usr/bin/env bash
# Attribution benchmark: `spoor attribute` against the DataCrumbs notebook's
# method (pandas, one boolean-mask query and group-by per call; notebook.py)
# on a `spoor gen` trace of the notebook's shape (>= 5 M events, the read calls
# on one training file: ~7,700). Also `spoor summary` against `spoor stats`,
# and against its figures computed in pandas (summary_pandas.py: the period and
# the layer breakdown without self time, timed once, its answers compared).
# Prints a markdown table of MEDIANS and RATIOS with PASS/FAIL
# (bench/attribute/report.py).
#
# The notebook method is timed once (its load takes ~25 s) on its first
# BENCH_NOTEBOOK_CALLS calls; its loop is extrapolated to every call by the
# mean time per call (the calls are alike). Its answers for those calls
# are compared with spoor's --compat notebook.
#
# usage: bench/attribute/run.sh     (after `make build`; python3-pandas for /usr/bin/python3)
# env:   SPOOR=path/to/spoor  BENCH_OUT=dir  BENCH_SIZE_MB=1000  BENCH_RUNS=3  BENCH_THREADS=2
#        BENCH_NOTEBOOK_CALLS=30
set -euo pipefail

source "$(dirname "$0")/../lib.sh"
size_mb=${BENCH_SIZE_MB:-1000}
runs=${BENCH_RUNS:-3}
nb_calls=${BENCH_NOTEBOOK_CALLS:-30}
need hyperfine
need_py pandas

results_dir attribute-results
trace=$out/attribute.pfw.gz
echo "bench: generating $trace ($size_mb MB)" >&2
"$spoor" gen -o "$trace" --size-mb "$size_mb" --seed 1 --no-truth >/dev/null
echo "$size_mb" >"$res/size_mb"
rm -f "$trace".spoor-*
file=/lus/datasets/unet3d/train/case_00021.npz
calls="cat = 'sys' AND name = 'read'"
attr="$(q "$spoor") attribute --no-progress --threads $threads --calls $(q "$calls") --file $(q "$file") $(q "$trace")"
cold="rm -f $(q "$trace").spoor-*"

# End to end from a cold trace (no index, no snapshot): parse + attribution.
time_it notebook_cold --prepare "$cold" "$attr --compat notebook --no-cache -o $(q "$res/notebook.csv")"
time_it self_cold --prepare "$cold" "$attr --no-cache -o $(q "$res/self.csv")"
peak notebook_cold "$cold; $attr --compat notebook --no-cache -o /dev/null"
peak self_cold "$cold; $attr --no-cache -o /dev/null"
# The attribution step alone: the table mapped from the snapshot (~ms).
"$spoor" sql --no-progress "$trace" "SELECT 1" >/dev/null
stat -c %s "$trace.spoor-snap" >"$res/table_bytes"
time_it notebook_step "$attr --compat notebook -o /dev/null"
time_it self_step "$attr -o /dev/null"
time_it open_only "$(q "$spoor") sql --no-progress $(q "$trace") 'SELECT 1' > /dev/null"
# summary in one pass, against stats (both cold), run alternately.
time_pair stats_cold summary_cold "$cold" \
  "$(q "$spoor") stats --no-progress --threads $threads --no-cache $(q "$trace")" \
  "$(q "$spoor") summary --no-progress --threads $threads --no-cache $(q "$trace")"
peak summary_cold "$cold; $(q "$spoor") summary --no-progress --threads $threads --no-cache $(q "$trace")"

echo "bench: the notebook's method in pandas (load ~25 s, $nb_calls calls)" >&2
"$py" "$here/notebook.py" "$trace" "$file" "$nb_calls" "$res/notebook_answers.json" >"$res/notebook_timing.json" \
  2>"$res/notebook.err" || echo "bench: notebook.py failed: $(tail -n 3 "$res/notebook.err")" >&2
echo "bench: the summary's figures in pandas (load ~25 s)" >&2
"$spoor" summary --format json --no-progress --threads "$threads" --no-cache "$trace" >"$res/summary.json"
"$py" "$here/summary_pandas.py" "$trace" "$res/summary_pandas_answers.json" >"$res/summary_pandas_timing.json" \
  2>"$res/summary_pandas.err" || echo "bench: summary_pandas.py failed: $(tail -n 3 "$res/summary_pandas.err")" >&2
load_end
"$py" "$here/report.py" "$res"
