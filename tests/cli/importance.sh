# spoor importance: every method ranks the known informative features of a
# generated dataset first, in every output format; usage and input errors are
# one clear line; on the shared I/O-pattern dataset the constant columns are
# named and dropped.
source "$(dirname "$0")/lib/common.sh"
here=$(cd "$(dirname "$0")" && pwd)
gen="$here/../../bench/ml/make_dataset.py"

"$SPOOR_BIN" importance --help | grep -q "usage: spoor importance" || fail "no --help"
python3 "$gen" 600 12 regression 3 "$WORK/reg.csv"
python3 "$gen" 900 12 classification 4 "$WORK/cls.csv"

expect_fail 2 "expected one DATASET and --target" importance "$WORK/reg.csv"
expect_fail 2 "methods 'corr,bogus'" importance "$WORK/reg.csv" --target y --methods corr,bogus
expect_fail 2 "expected table, json, csv or html" importance "$WORK/reg.csv" --target y --format xml
expect_fail 2 "cumulative '1.5'" importance "$WORK/reg.csv" --target y --cumulative 1.5
expect_fail 2 "needs the corr method" importance "$WORK/reg.csv" --target y --methods lasso --corr-matrix "$WORK/m.csv"
EXPECT_MAX_LINES=3 expect_fail 1 "$WORK/missing.csv" importance "$WORK/missing.csv" --target y
EXPECT_MAX_LINES=3 expect_fail 2 "nosuch" importance "$WORK/reg.csv" --target nosuch

# Regression: every method puts io.x0 > io.x1 > io.x2 first; the twins are dropped and named.
"$SPOOR_BIN" importance "$WORK/reg.csv" --target y --group run --rounds 30 --format json --corr-matrix "$WORK/corr.csv" \
  > "$WORK/reg.json" 2> "$WORK/reg.err" || fail "regression run failed: $(cat "$WORK/reg.err")"
grep -q "dropped feature noise.const (constant)" "$WORK/reg.err" || fail "constant not named: $(cat "$WORK/reg.err")"
grep -q "dropped feature noise.dup (duplicate of io.x0" "$WORK/reg.err" || fail "duplicate not named"
grep -q "target y holds numbers: regression" "$WORK/reg.err" || fail "task decision not said"
python3 - "$WORK/reg.json" "$WORK/corr.csv" <<'PY' || fail "regression ranking or matrix wrong"
import csv, json, sys
r = json.load(open(sys.argv[1]))
assert r["task"] == "regression", r["task"]
feats = r["features"]
assert [f["name"] for f in feats[:3]] == ["io.x0", "io.x1", "io.x2"], [f["name"] for f in feats[:3]]
for m in ["pearson", "spearman", "lasso", "gain", "shap", "permutation"]:
    top = sorted(feats, key=lambda f: -abs(f[m]))[:3]
    assert {f["name"] for f in top} == {"io.x0", "io.x1", "io.x2"}, (m, top)
assert all(f["lasso"] == 0 for f in feats[3:]), "lasso kept a noise feature"
assert r["cumulative"]["features"][:3] == ["io.x0", "io.x1", "io.x2"]
assert r["layers"][0]["layer"] == "io" and r["layers"][0]["consensus"] > 0.8, r["layers"]
assert r["heldout"]["grouped"] and r["heldout"]["score"] > 0.8, r["heldout"]
assert {d["name"] for d in r["dropped"]} == {"noise.const", "noise.dup"}
m = list(csv.reader(open(sys.argv[2])))
n = len(m) - 1
assert n == len(feats) and m[0][1:] == [row[0] for row in m[1:]]
for a in range(n):
    assert float(m[a + 1][a + 1]) == 1
    for b in range(n):
        assert m[a + 1][b + 1] == m[b + 1][a + 1]
PY

# Classification: three classes from text labels; the same order on top.
"$SPOOR_BIN" importance "$WORK/cls.csv" --target y --format csv --rounds 30 --methods corr,lasso,trees,shap,permutation \
  > "$WORK/cls.csv.out" 2> "$WORK/cls.err" || fail "classification run failed: $(cat "$WORK/cls.err")"
grep -q "target y holds text: classification over 3 classes" "$WORK/cls.err" || fail "class task: $(cat "$WORK/cls.err")"
head -1 "$WORK/cls.csv.out" | grep -qx "rank,feature,layer,consensus,cumulative,in_set,pearson,spearman,lasso,gain,shap,permutation" \
  || fail "csv header: $(head -1 "$WORK/cls.csv.out")"
[ "$(sed -n 2,4p "$WORK/cls.csv.out" | cut -d, -f2 | tr '\n' ' ')" = "io.x0 io.x1 io.x2 " ] \
  || fail "classification order: $(sed -n 2,4p "$WORK/cls.csv.out")"

# The same seed gives the same bytes; the table names the set and the layers.
"$SPOOR_BIN" importance "$WORK/cls.csv" --target y --format csv --rounds 30 --methods corr,lasso,trees,shap,permutation \
  2>/dev/null | cmp -s - "$WORK/cls.csv.out" || fail "not deterministic"
"$SPOOR_BIN" importance "$WORK/reg.csv" --target y --methods corr,lasso --cumulative 0.9 2>/dev/null > "$WORK/table"
grep -q "smallest set reaching 90% of the consensus: 3 of 12 features: io.x0, io.x1, io.x2" "$WORK/table" \
  || fail "cumulative set: $(grep smallest "$WORK/table")"
grep -Eq "^io +3 " "$WORK/table" || fail "no layer totals"

# The shared I/O-pattern dataset: its known constant columns are named.
need_data
data="$SPOOR_DATA/iopattern/consolidated_dataset.csv"
"$SPOOR_BIN" importance "$data" --target label --group run_id --features 'trace_*,bw_*,lat_*,iops_*,run_*,iodepth' \
  --rounds 30 --format json > "$WORK/io.json" 2> "$WORK/io.err" || fail "iopattern run failed: $(cat "$WORK/io.err")"
grep -q "dropped feature iops_mean (constant)" "$WORK/io.err" || fail "iops_mean not named: $(cat "$WORK/io.err")"
grep -q "dropped feature trace_avg_request_size_kb (constant)" "$WORK/io.err" || fail "avg request size not named"
python3 - "$WORK/io.json" <<'PY' || fail "iopattern report wrong"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["rows"] == 864 and r["task"] == "classification" and len(r["classes"]) == 3, r
assert r["heldout"]["grouped"], r["heldout"]
names = {f["name"] for f in r["features"]}
assert "iops_mean" not in names and "trace_sector_jump_ratio" in names
PY
echo ok
