#!/usr/bin/env bash
# SQL benchmark: `spoor sql` answering the stats question (count and sum of
# dur per cat, name) against `spoor stats`, a cold parse, the snapshot
# re-open, and DuckDB over the same lines. Prints a markdown table of MEDIANS
# and RATIOS with PASS/FAIL (bench/sql/report.py); never a single run's time.
#
# Input: `spoor gen --size-mb 200 --seed 1` as .pfw.gz in bench/out/
# (git-ignored). The page cache is warm throughout.
#
# usage: bench/sql/run.sh     (after `make build` and scripts/install-bench-deps.sh)
# env:   SPOOR=path/to/spoor  BENCH_OUT=dir  BENCH_SIZE_MB=200  BENCH_RUNS=5  BENCH_THREADS=2
set -euo pipefail

source "$(dirname "$0")/../lib.sh"
size_mb=${BENCH_SIZE_MB:-200}
runs=${BENCH_RUNS:-5}
need hyperfine node
[ -d "$root/bench/ingest/node_modules/@duckdb/node-api" ] || die "DuckDB is missing: run scripts/install-bench-deps.sh"

results_dir sql-results
trace=$out/sql.pfw.gz

echo "bench: generating $trace ($size_mb MB)" >&2
"$spoor" gen -o "$trace" --size-mb "$size_mb" --seed 1 --no-truth >/dev/null
rm -f "$trace".spoor-*
"$spoor" index "$trace" >/dev/null   # every row below reads with the checkpoint index

query="SELECT cat, name, count(*), sum(dur) FROM events GROUP BY 1, 2"
sql="$(q "$spoor") sql --threads $threads $(q "$trace") $(q "$query")"

time_it stats "$(q "$spoor") stats --threads $threads $(q "$trace") > /dev/null"
time_it stats_cold "$(q "$spoor") stats --no-cache --threads $threads $(q "$trace") > /dev/null"
time_it sql_cold "$sql --no-cache > /dev/null"
"$spoor" sql --threads "$threads" "$trace" "SELECT 1" >/dev/null   # writes the snapshot
time_it sql_snapshot "$sql > /dev/null"
# The same through SQLite's VDBE (--no-native), and the re-open alone.
time_it sql_snapshot_sqlite "$sql --no-native > /dev/null"
time_it sql_cold_sqlite "$sql --no-native --no-cache > /dev/null"
time_it sql_open "$(q "$spoor") sql --threads $threads $(q "$trace") 'SELECT 1' > /dev/null"
# Native and SQLite print the same bytes for the benchmark query.
cmp <("$spoor" sql --format csv "$trace" "$query") <("$spoor" sql --no-native --format csv "$trace" "$query") \
  && echo same >"$res/native_same" || echo differ >"$res/native_same"

# The same answer from the sorter: GROUP BY +cat, +name hides the columns,
# so rows come unsorted and SQLite sorts them (does handing them sorted pay?).
time_it sql_sorter "$(q "$spoor") sql --no-native --threads $threads $(q "$trace") $(q "SELECT cat, name, count(*), sum(dur) FROM events GROUP BY +cat, +name") > /dev/null"

# Same groups from both, counted before timing.
"$spoor" sql --format json "$trace" "SELECT coalesce(cat, '') AS cat, coalesce(name, '') AS name, count(*) AS n, sum(dur) AS dur_sum FROM events WHERE ph IS NOT 'M' GROUP BY cat, name" >"$res/spoor_groups.json"
"$spoor" stats --format json "$trace" >"$res/stats_groups.json"

# DuckDB: its own timer (inside node), several runs each.
for mode in cold warm; do
  echo "bench: duckdb $mode" >&2
  for i in $(seq 3); do node "$here/duckdb_sql.mjs" "$trace" "$threads" "$mode"; done >"$res/duckdb_$mode.jsonl"
done

load_end
python3 "$here/report.py" "$res" --trace "$trace" --runs "$runs" --threads "$threads"
