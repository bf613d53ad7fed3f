#!/usr/bin/env bash
# Attribution benchmark: `spoor attribute` against the DataCrumbs notebook's
# method (pandas, one boolean-mask query and group-by per call; notebook.py)
# on a `spoor gen` trace of the notebook's shape (>= 5 M events, the read calls
# on one training file: ~7,700). Also `spoor summary` against `spoor stats`.
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

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
spoor=${SPOOR:-$root/build/spoor}
out=${BENCH_OUT:-$root/bench/out}
size_mb=${BENCH_SIZE_MB:-1000}
runs=${BENCH_RUNS:-3}
threads=${BENCH_THREADS:-2}
nb_calls=${BENCH_NOTEBOOK_CALLS:-30}
py=/usr/bin/python3

die() { echo "bench: $*" >&2; exit 1; }
[ -x "$spoor" ] || die "no spoor binary at $spoor (run 'make build' or set SPOOR)"
command -v hyperfine >/dev/null || die "hyperfine is missing: run scripts/install-bench-deps.sh"
"$py" -c 'import pandas' 2>/dev/null || die "pandas is missing for $py: run scripts/install-bench-deps.sh"

mkdir -p "$out"
trace=$out/attribute.pfw.gz
res=$out/attribute-results
rm -rf "$res"
mkdir -p "$res"
cut -d' ' -f1-3 /proc/loadavg >"$res/load_start"
echo "bench: generating $trace ($size_mb MB)" >&2
"$spoor" gen -o "$trace" --size-mb "$size_mb" --seed 1 --no-truth >/dev/null
rm -f "$trace".spoor-*
file=/lus/datasets/unet3d/train/case_00021.npz
calls="cat = 'sys' AND name = 'read'"
q() { printf '%q' "$1"; }
attr="$(q "$spoor") attribute --no-progress --threads $threads --calls $(q "$calls") --file $(q "$file") $(q "$trace")"
cold="rm -f $(q "$trace").spoor-*"

# time_it KEY PREPARE COMMAND: RUNS runs after one warm-up, PREPARE before each.
time_it() {
  local key=$1 prepare=$2
  shift 2
  echo "bench: $key" >&2
  hyperfine --runs "$runs" --warmup 1 --prepare "$prepare" --export-json "$res/$key.json" --style none "$@" \
    >/dev/null 2>"$res/$key.err" || { echo "bench: $key failed: $(tail -n 3 "$res/$key.err")" >&2; rm -f "$res/$key.json"; }
}
# peak KEY COMMAND: the peak resident memory of one run, in KB.
peak() {
  local key=$1
  shift
  /usr/bin/time -f %M -o "$res/$key.rss" sh -c "$*" >/dev/null 2>&1 || echo "bench: $key failed" >&2
}

# End to end from a cold trace (no index, no snapshot): parse + attribution.
time_it notebook_cold "$cold" "$attr --compat notebook --no-cache -o $(q "$res/notebook.csv")"
time_it self_cold "$cold" "$attr --no-cache -o $(q "$res/self.csv")"
peak notebook_cold "$cold; $attr --compat notebook --no-cache -o /dev/null"
peak self_cold "$cold; $attr --no-cache -o /dev/null"
# The attribution step alone: the table mapped from the snapshot (~ms).
"$spoor" sql --no-progress "$trace" "SELECT 1" >/dev/null
stat -c %s "$trace.spoor-snap" >"$res/table_bytes"
time_it notebook_step : "$attr --compat notebook -o /dev/null"
time_it self_step : "$attr -o /dev/null"
time_it open_only : "$(q "$spoor") sql --no-progress $(q "$trace") 'SELECT 1' > /dev/null"
# summary in one pass, against stats (both cold).
time_it stats_cold "$cold" "$(q "$spoor") stats --no-progress --threads $threads --no-cache $(q "$trace") > /dev/null"
time_it summary_cold "$cold" "$(q "$spoor") summary --no-progress --threads $threads --no-cache $(q "$trace") > /dev/null"
peak summary_cold "$cold; $(q "$spoor") summary --no-progress --threads $threads --no-cache $(q "$trace")"

echo "bench: the notebook's method in pandas (load ~25 s, $nb_calls calls)" >&2
"$py" "$here/notebook.py" "$trace" "$file" "$nb_calls" "$res/notebook_answers.json" >"$res/notebook_timing.json" \
  2>"$res/notebook.err" || echo "bench: notebook.py failed: $(tail -n 3 "$res/notebook.err")" >&2
cut -d' ' -f1-3 /proc/loadavg >"$res/load_end"
"$py" "$here/report.py" "$res"
