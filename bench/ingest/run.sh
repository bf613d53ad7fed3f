#!/usr/bin/env bash
# Ingest benchmark: how fast `spoor stats` reads a trace, against the floors
# (igzip, zcat, wc -l) and the peers a user would reach for (Python + pandas,
# DuckDB). Prints a markdown table of MEDIANS and RATIOS with PASS/FAIL against
# the targets; never a single run's time.
#
# Inputs, made by `spoor gen` in bench/out/ (git-ignored), each >= 200 MB
# uncompressed: a .pfw.gz with --random-hashes (gzip ~3.5:1, so inflate is the
# hard part), a plain .pfw (parsing is), and that same trace gzip'ed (~16:1,
# as real traces compress 14-28:1). The page cache is warm throughout.
#
# usage: bench/ingest/run.sh            (after `make build` and scripts/install-bench-deps.sh)
# env:   SPOOR=path/to/spoor  BENCH_OUT=dir  BENCH_SIZE_MB=210  BENCH_RUNS=5
#        BENCH_PY_PREFIX_MB=20  BENCH_THREADS=2
#        BENCH_RSS_MB=4096     size of the plain trace whose peak RSS is measured
#                              (made in BENCH_OUT, deleted after; 0 skips it)
set -euo pipefail

source "$(dirname "$0")/../lib.sh"
size_mb=${BENCH_SIZE_MB:-210}
rss_mb=${BENCH_RSS_MB:-4096}
runs=${BENCH_RUNS:-5}
py_prefix_mb=${BENCH_PY_PREFIX_MB:-20}
need igzip hyperfine zcat node /usr/bin/time
need_py pandas
[ -d "$here/node_modules/@duckdb/node-api" ] || die "DuckDB is missing: run scripts/install-bench-deps.sh"

results_dir results
gz=$out/ingest-random.pfw.gz
plain=$out/ingest.pfw
real=$out/ingest.pfw.gz

echo "bench: generating inputs ($size_mb MB each)" >&2
"$spoor" gen -o "$gz" --size-mb "$size_mb" --random-hashes --seed 1 >"$res/gen-gz.txt"
"$spoor" gen -o "$plain" --size-mb "$size_mb" --seed 2 >"$res/gen-plain.txt"
"$spoor" gen -o "$real" --size-mb "$size_mb" --seed 2 >"$res/gen-real.txt"
rm -f "$gz.spoor-idx" "$real.spoor-idx"

drop_index="rm -f $(q "$gz.spoor-idx")"

# Floors.
time_it igzip "igzip -d -c $(q "$gz") > /dev/null"
time_it zcat "zcat $(q "$gz") > /dev/null"
time_it wc "wc -l $(q "$plain") > /dev/null"
time_it igzip_real "igzip -d -c $(q "$real") > /dev/null"

# spoor on the .gz: cold (no index) with 1 and N threads, then with the index.
time_it spoor_gz_t1_cold --prepare "$drop_index" "$(q "$spoor") stats --no-cache --threads 1 $(q "$gz") > /dev/null"
time_it spoor_gz_tn_cold --prepare "$drop_index" "$(q "$spoor") stats --no-cache --threads $threads $(q "$gz") > /dev/null"
"$spoor" stats --no-cache --threads "$threads" "$gz" >/dev/null 2>&1 || true   # leaves the index behind
if [ ! -s "$gz.spoor-idx" ] && "$spoor" index --help >/dev/null 2>&1; then
  "$spoor" index "$gz" >/dev/null 2>&1 || true
fi
if [ -s "$gz.spoor-idx" ]; then
  stat -c %s "$gz.spoor-idx" >"$res/index_bytes"
  time_it spoor_gz_tn_indexed "$(q "$spoor") stats --no-cache --threads $threads $(q "$gz") > /dev/null"
fi
stat -c %s "$gz" >"$res/gz_bytes"
stat -c %s "$real" >"$res/real_bytes"
time_it spoor_real_tn_cold --prepare "rm -f $(q "$real.spoor-idx")" \
  "$(q "$spoor") stats --no-cache --threads $threads $(q "$real") > /dev/null"

# spoor on the plain file.
time_it spoor_plain_t1 "$(q "$spoor") stats --no-cache --threads 1 $(q "$plain") > /dev/null"
time_it spoor_plain_tn "$(q "$spoor") stats --no-cache --threads $threads $(q "$plain") > /dev/null"

# What spoor counted, for the cross-checks against the ground truth and DuckDB.
"$spoor" stats --no-cache --threads "$threads" --format json "$gz" >"$res/spoor_gz.json" 2>"$res/spoor_gz.err" || true
"$spoor" stats --no-cache --threads "$threads" --format json "$plain" >"$res/spoor_plain.json" 2>"$res/spoor_plain.err" || true
"$spoor" stats --no-cache --threads "$threads" --format json "$real" >"$res/spoor_real.json" 2>"$res/spoor_real.err" || true

# Peak memory: cold and indexed .gz, plain.
peak_rss() {
  local key=$1
  shift
  if /usr/bin/time -v "$@" >/dev/null 2>"$res/$key.time"; then
    sed -n 's/.*Maximum resident set size (kbytes): //p' "$res/$key.time" >"$res/$key.rss_kb"
  fi
}
rm -f "$gz.spoor-idx"
peak_rss rss_gz_cold "$spoor" stats --no-cache --threads "$threads" "$gz"
peak_rss rss_gz_indexed "$spoor" stats --no-cache --threads "$threads" "$gz"
peak_rss rss_plain "$spoor" stats --no-cache --threads "$threads" "$plain"
# ... and of a plain trace far larger than that: memory must not grow with
# the input (inputs are read in bounded windows, never mapped whole).
if [ "$rss_mb" -gt 0 ]; then
  big=$out/ingest-rss.pfw
  echo "bench: peak RSS on a $rss_mb MB plain trace" >&2
  "$spoor" gen -o "$big" --size-mb "$rss_mb" --seed 3 --no-truth >/dev/null
  echo "$rss_mb" >"$res/rss_big_mb"
  peak_rss rss_big_t1 "$spoor" stats --no-cache --threads 1 "$big"
  peak_rss rss_big_tn "$spoor" stats --no-cache --threads "$threads" "$big"
  rm -f "$big"
fi

# Uncompressed size of the .gz, for throughput and the Python extrapolation.
igzip -d -c "$gz" | wc -c >"$res/gz_raw_bytes"
stat -c %s "$plain" >"$res/plain_bytes"

# Python + pandas on a prefix of each input (in-process time, interpreter start-up excluded).
echo "bench: python + pandas (first $py_prefix_mb MB)" >&2
for i in 1 2 3; do
  "$py" "$here/pandas_groupby.py" "$real" "$py_prefix_mb" >"$res/pandas_real_$i.json"
  "$py" "$here/pandas_groupby.py" "$gz" "$py_prefix_mb" >"$res/pandas_$i.json"
  "$py" "$here/pandas_groupby.py" "$plain" "$py_prefix_mb" >"$res/pandas_plain_$i.json"
done

# DuckDB with the same thread count, the same group-by, on the same .gz.
echo "bench: duckdb" >&2
node "$here/duckdb_groupby.mjs" "$gz" "$threads" >"$res/duckdb_counts.json"
runs=3 time_it duckdb "node $(q "$here/duckdb_groupby.mjs") $(q "$gz") $threads > /dev/null"

"$py" "$here/report.py" "$res" --threads "$threads" --runs "$runs" \
  --truth "$gz.truth.json" --truth-plain "$plain.truth.json"
