#!/usr/bin/env bash
# Importance benchmark: `spoor importance` with every method (correlation,
# PCA, lasso with 5-fold CV, XGBoost gain, TreeSHAP, permutation) on a
# 10,000 x 200 dataset with three known informative features, against the
# 30 s target; and its correlation + PCA part against pandas/numpy doing the
# same (Debian's Python has no scikit-learn or xgboost to compare the rest
# with). Prints MEDIANS and RATIOS with PASS/FAIL, never one run's time.
#
# usage: bench/ml/importance.sh      (after `make build`; pandas and numpy from Debian: python3-pandas)
# env:   SPOOR=path/to/spoor  BENCH_OUT=dir  BENCH_RUNS=3
set -euo pipefail

source "$(dirname "$0")/../lib.sh"
runs=${BENCH_RUNS:-3}
need hyperfine

results_dir importance-results
data=$out/importance-10000x200.csv
echo "bench: generating $data" >&2
python3 "$here/make_dataset.py" 10000 200 regression 1 "$data"

imp="$(q "$spoor") importance $(q "$data") --target y --group run"
time_it all "$imp > /dev/null"
time_it corr_pca "$imp --methods corr,pca > /dev/null"
time_it read "$imp --methods corr --features io.x0 > /dev/null"

# pandas: the computation alone, median of the runs (the CSV read is timed apart).
for i in $(seq "$runs"); do
  /usr/bin/python3 "$here/importance_pandas.py" "$data" y "$res/pandas_pearson.csv" >>"$res/pandas_times"
done
"$spoor" importance "$data" --target y --group run --format json --corr-matrix "$res/spoor_pearson.csv" \
  >"$res/spoor.json" 2>/dev/null

load_end
python3 - "$res" "$runs" <<'PY'
import csv, json, statistics, sys
res, runs = sys.argv[1:3]
load_start, load_end = (open(f"{res}/{name}").read().strip() for name in ("load_start", "load_end"))
def median(key):
    return statistics.median(json.load(open(f"{res}/{key}.json"))["results"][0]["times"])
def pandas_median(field):
    return statistics.median(float(l.split()[field]) for l in open(f"{res}/pandas_times"))
all_s, corr_s, read_s = median("all"), median("corr_pca"), median("read")
pd_compute, pd_read = pandas_median(3), pandas_median(1)
spoor_corr = max(corr_s - read_s, 1e-3)  # the same two matrices and PCA, the read subtracted
rows = [
    ("`spoor importance`, all methods (read included)", all_s, "", "< 30 s", "PASS" if all_s < 30 else "FAIL"),
    ("`spoor importance --methods corr,pca`", corr_s, "", "", ""),
    ("reading the CSV into the dataset (spoor)", read_s, "", "", ""),
    ("pandas: CSV read", pd_read, "", "", ""),
    ("pandas + numpy: Pearson, Spearman, correlations with y, PCA", pd_compute,
     "spoor %.1fx faster" % (pd_compute / spoor_corr), "", "(for scale)"),
]
print(f"- machine: 2 cores; load average {load_start} at the start, {load_end} at the end; medians of {runs} runs")
print("- input: bench/ml/make_dataset.py 10000 200 regression 1 (y = 3 x0 + 2 x1 + x2 + noise; 197 noise features, a constant and a duplicate)")
print()
print("| measurement | median s | ratio | target | result |")
print("|---|---:|---:|---|---|")
for name, s, ratio, target, result in rows:
    print(f"| {name} | {s:.3f} | {ratio} | {target} | {result} |")
r = json.load(open(f"{res}/spoor.json"))
top = [f["name"] for f in r["features"][:3]]
ours = list(csv.reader(open(f"{res}/spoor_pearson.csv")))
theirs = list(csv.reader(open(f"{res}/pandas_pearson.csv")))
names = ours[0][1:]
index = {n: i for i, n in enumerate(theirs[0][1:])}
diff = max(abs(float(ours[a + 1][b + 1]) - float(theirs[index[names[a]] + 1][index[names[b]] + 1]))
           for a in range(len(names)) for b in range(len(names)))
checks = [
    ("consensus ranks io.x0, io.x1, io.x2 first", top == ["io.x0", "io.x1", "io.x2"]),
    ("the smallest set reaching 95% starts with them", r["cumulative"]["features"][:3] == top),
    ("Pearson matrix equals pandas' (max |difference| %.1e)" % diff, diff < 1e-5),
]
print()
print("| cross-check | result |")
print("|---|---|")
for name, ok in checks:
    print(f"| {name} | {'PASS' if ok else 'FAIL'} |")
failed = sum(not ok for _, ok in checks) + (all_s >= 30)
print()
print("all checks PASS" if not failed else f"{failed} check(s) FAILED")
PY
