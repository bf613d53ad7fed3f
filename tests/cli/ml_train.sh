# train / eval / predict: usage errors, bad rows named and counted (--strict
# fails), dropped features named, the same seed gives the same model, eval's
# JSON carries the baselines, predict prints classes and actions, and on the
# iopattern dataset the models score as expected.
source "$(dirname "$0")/lib/common.sh"
EXPECT_MAX_LINES=3

for cmd in train eval predict; do
  "$SPOOR_BIN" $cmd --help | grep "usage: spoor $cmd" > /dev/null || fail "$cmd: no --help"
done
expect_fail 2 "needs one DATASET, --label and -o" train x.csv -o m.json
expect_fail 2 "expected mlp" train x.csv --label y --model forest -o m.json
expect_fail 2 "out of range" train x.csv --label y --dropout 2 -o m.json
expect_fail 2 "needs MODEL and DATASET" eval m.json
expect_fail 1 "$WORK/missing.csv" train "$WORK/missing.csv" --label y -o "$WORK/m.json"

# 120 rows: class by a and b, c constant, d = 2a (duplicate), one row lacks b.
awk 'BEGIN { srand(7); print "run,a,b,c,d,y";
  for (i = 0; i < 120; i++) { a = rand(); b = rand(); y = a < 0.5 ? "lo" : (b < 0.5 ? "mid" : "hi");
    printf "r%d,%.5f,%s,1,%.5f,%s\n", i % 6, a, i == 40 ? "" : sprintf("%.5f", b), 2 * a, y } }' > "$WORK/d.csv"
"$SPOOR_BIN" train "$WORK/d.csv" --label y --group run --epochs 20 -o "$WORK/m1.json" > "$WORK/out" 2> "$WORK/err" \
  || fail "train: $(cat "$WORK/err")"
grep -q "dropped feature 'c': constant" "$WORK/err" || fail "constant feature not named: $(cat "$WORK/err")"
grep -q "dropped feature 'd': duplicate of 'a'" "$WORK/err" || fail "duplicate not named: $(cat "$WORK/err")"
grep -q "d.csv:42: no numeric value for 'b' (skipped); skipped 1 rows" "$WORK/err" || fail "bad row not reported: $(cat "$WORK/err")"
grep -q "whole groups" "$WORK/out" || fail "--group did not hold out whole groups: $(cat "$WORK/out")"
grep -qE "^knn \(k=5\) +baseline" "$WORK/out" || fail "no baselines: $(cat "$WORK/out")"
expect_fail 1 "d.csv:42: no numeric value for 'b' (--strict)" train "$WORK/d.csv" --label y --strict -o "$WORK/m.json"
[ ! -e "$WORK/m.json" ] || fail "a failed train left a model behind"

# Same seed, same model; another seed, another model.
"$SPOOR_BIN" train "$WORK/d.csv" --label y --group run --epochs 20 -o "$WORK/m2.json" > /dev/null 2>&1
cmp -s "$WORK/m1.json" "$WORK/m2.json" || fail "same seed gave different models"
"$SPOOR_BIN" train "$WORK/d.csv" --label y --group run --epochs 20 --seed 2 -o "$WORK/m3.json" > /dev/null 2>&1
! cmp -s "$WORK/m1.json" "$WORK/m3.json" || fail "another seed gave the same model"
grep -q '"format": "spoor-model", "version": 1, "kind": "mlp"' "$WORK/m1.json" || fail "model header"
grep -q '"features": \["a", "b"\]' "$WORK/m1.json" || fail "model features"

"$SPOOR_BIN" eval "$WORK/m1.json" "$WORK/d.csv" --format json > "$WORK/eval.json" 2> /dev/null || fail "eval"
for m in mlp majority "rule (depth 2)" "knn (k=5)"; do
  grep -q "\"method\": \"$m\"" "$WORK/eval.json" || fail "eval json lacks $m"
done
"$SPOOR_BIN" train "$WORK/d.csv" --label y --model rule --actions ra_kb:lo=16,mid=64,hi=256 -o "$WORK/r.json" > /dev/null 2>&1 \
  || fail "train rule"
"$SPOOR_BIN" predict "$WORK/r.json" "$WORK/d.csv" > "$WORK/pred.csv" 2> /dev/null || fail "predict"
head -1 "$WORK/pred.csv" | grep -qx "line,predicted,ra_kb,p_lo,p_mid,p_hi" || fail "predict header: $(head -1 "$WORK/pred.csv")"
[ "$(wc -l < "$WORK/pred.csv")" -eq 120 ] || fail "predict rows"
grep -qE "^2,(lo,16|mid,64|hi,256)," "$WORK/pred.csv" || fail "predict row: $(sed -n 2p "$WORK/pred.csv")"
"$SPOOR_BIN" predict "$WORK/r.json" "$WORK/d.csv" --format jsonl -o "$WORK/pred.jsonl" 2> /dev/null || fail "predict jsonl"
[ "$(grep -c '"ra_kb":' "$WORK/pred.jsonl")" -eq 119 ] || fail "jsonl: $(head -1 "$WORK/pred.jsonl")"

# A dataset without a model feature, a label the model never saw.
cut -d, -f1,3- "$WORK/d.csv" > "$WORK/no_a.csv"
expect_fail 1 "no column 'a'" predict "$WORK/m1.json" "$WORK/no_a.csv"
sed 's/,lo$/,other/' "$WORK/d.csv" > "$WORK/other.csv"
expect_fail 1 "label 'other' is not one of the model's classes" eval "$WORK/m1.json" "$WORK/other.csv"
echo '{"format": "spoor-model", "version": 9}' > "$WORK/bad.json"
expect_fail 1 "bad.json: model: 'kind' missing" predict "$WORK/bad.json" "$WORK/d.csv"

# iopattern: a row-level split scores high; leave-one-run-out runs every model.
if [ -d "${SPOOR_DATA:-}" ]; then
  DATA=$SPOOR_DATA/iopattern/consolidated_dataset.csv
  F=trace_avg_sector_distance,trace_sector_jump_ratio,bw_mean_kbps
  "$SPOOR_BIN" train "$DATA" --label label --features "$F",iops_mean --group run_id --split rows --format json \
    --epochs 20 --lr 1e-2 \
    -o "$WORK/io.json" > "$WORK/io.out" 2> "$WORK/io.err" || fail "iopattern train"
  grep -q "dropped feature 'iops_mean': constant" "$WORK/io.err" || fail "iops_mean not dropped"
  grep -q '"evaluation": "held-out 173 of 864 rows (stratified rows' "$WORK/io.out" || fail "split: $(head -c 300 "$WORK/io.out")"
  awk -F'"accuracy": ' 'NF > 1 { split($2, a, ","); if (a[1] + 0 < 0.9) bad = 1; exit } END { exit bad }' "$WORK/io.out" \
    || fail "mlp accuracy below 0.9: $(cat "$WORK/io.out")"
  "$SPOOR_BIN" train "$DATA" --label label --features "$F" --group run_id --cv logo --model rule -o "$WORK/lr.json" \
    > "$WORK/logo.out" 2> /dev/null || fail "logo"
  grep -q "leave-one-group-out over 864 rows (18 folds" "$WORK/logo.out" || fail "logo: $(cat "$WORK/logo.out")"
fi
