# Honest models, on datasets made for each case: a feature that is the label
# in another form and a feature constant within every run are dropped (kept
# with --keep-leaky, still warned about); a random row split warns about a
# column that looks like a group id; a grouped hold-out that leaves a class
# out of its test part falls back to leave-one-group-out; logistic regression
# reports its iterations and final loss; export-model --fixed-point states its
# stack use and refuses more than 1 KiB unless --static-buffers.
source "$(dirname "$0")/lib/common.sh"

# 6 runs of 30 windows, two runs per class. a and b carry the class with
# noise; code is 1/2/3 by class (the label spelled as a number); depth is a
# run setting (constant within each run, differing between runs of a class);
# one is 1 everywhere (constant, not a property of any run).
awk 'BEGIN { srand(3); print "run_id,a,b,code,depth,one,label";
  split("seq seq rnd rnd mix mix", cls, " "); split("1 1 2 2 3 3", code, " ");
  for (r = 1; r <= 6; r++) for (w = 0; w < 30; w++) {
    c = cls[r]; a = (c == "seq" ? 0 : c == "rnd" ? 1 : 2) + rand() * 1.2; b = rand();
    printf "run%d,%.5f,%.5f,%d,%d,1,%s\n", r, a, b, code[r], 4 * r, c } }' > "$WORK/runs.csv"

"$SPOOR_BIN" train "$WORK/runs.csv" --label label --group run_id --cv logo --model rule -o "$WORK/m.json" \
  > "$WORK/out" 2> "$WORK/err" || fail "train: $(cat "$WORK/err")"
grep -q "dropped feature 'code': its values match the classes one to one" "$WORK/err" || fail "one-to-one: $(cat "$WORK/err")"
grep -q "dropped feature 'depth': constant within every group" "$WORK/err" || fail "group-constant: $(cat "$WORK/err")"
grep -q '"features": \["a", "b"\]' "$WORK/m.json" || fail "leaky features in the model: $(grep features "$WORK/m.json")"
! grep -q "looks like a group id" "$WORK/err" || fail "grouped split warned about a group id"

"$SPOOR_BIN" train "$WORK/runs.csv" --label label --group run_id --cv logo --model rule --keep-leaky \
  -o "$WORK/k.json" > /dev/null 2> "$WORK/err" || fail "train --keep-leaky"
grep -q "feature 'code' leaks: .*; kept (--keep-leaky)" "$WORK/err" || fail "--keep-leaky warning: $(cat "$WORK/err")"
grep -q '"features": \["a", "b", "code", "depth"\]' "$WORK/k.json" || fail "--keep-leaky dropped a feature"

"$SPOOR_BIN" train "$WORK/runs.csv" --label label --group run_id --cv logo --model rule --keep-redundant \
  --features a,one -o "$WORK/o.json" > /dev/null 2> "$WORK/err" || fail "train --keep-redundant"
! grep -q "'one'" "$WORK/err" || fail "a feature constant everywhere called a group property: $(cat "$WORK/err")"

# Without --group: depth is an ordinary feature, but run_id looks like a group id.
"$SPOOR_BIN" train "$WORK/runs.csv" --label label --model rule -o "$WORK/r.json" > /dev/null 2> "$WORK/err" \
  || fail "train rows"
! grep -q "'depth'" "$WORK/err" || fail "depth flagged without groups: $(cat "$WORK/err")"
grep -q "rows are split at random, yet 'run_id' looks like a group id (6 values repeated over 180 rows)" "$WORK/err" \
  || fail "no group-id warning: $(cat "$WORK/err")"
# window_id numbers the windows of each run (0..29 in every run): an ordinal
# within groups, not a group id; run_id still is one.
awk -F, 'BEGIN { OFS = "," } NR == 1 { print $0, "window_id"; next } { print $0, (NR - 2) % 30 }' "$WORK/runs.csv" \
  > "$WORK/windows.csv"
"$SPOOR_BIN" train "$WORK/windows.csv" --label label --features a,b --model rule -o "$WORK/w.json" > /dev/null \
  2> "$WORK/err" || fail "train windows"
! grep -q "'window_id' looks like a group id" "$WORK/err" || fail "window_id named a group id: $(cat "$WORK/err")"
grep -q "'run_id' looks like a group id (6 values repeated over 180 rows)" "$WORK/err" \
  || fail "run_id not named beside window_id: $(cat "$WORK/err")"
"$SPOOR_BIN" train "$WORK/runs.csv" --label label --group run_id --split rows --model rule -o "$WORK/r.json" \
  > /dev/null 2> "$WORK/err" || fail "train --split rows"
grep -q "warning: --split rows splits rows at random although --group run_id groups them" "$WORK/err" \
  || fail "--split rows: $(cat "$WORK/err")"

# A held-out 20 % of whole runs holds 2 of the 6, so at most 2 of 3 classes.
"$SPOOR_BIN" train "$WORK/runs.csv" --label label --group run_id --model rule -o "$WORK/h.json" \
  > "$WORK/out" 2> "$WORK/err" || fail "grouped hold-out: $(cat "$WORK/err")"
grep -q "the held-out groups have no '[a-z]*' row; scoring by leave-one-group-out instead" "$WORK/err" \
  || fail "no fallback warning: $(cat "$WORK/err")"
grep -q "^leave-one-group-out over 180 rows (6 folds.*; instead of a held-out split whose groups had no" "$WORK/out" \
  || fail "fallback not reported: $(head -2 "$WORK/out")"
EXPECT_MAX_LINES=4 expect_fail 2 "no split to save" train "$WORK/runs.csv" --label label --group run_id --model rule \
  --save-split "$WORK/s.csv" -o "$WORK/h.json"

# Logistic regression: trained to convergence, iterations and loss reported.
"$SPOOR_BIN" train "$WORK/runs.csv" --label label --group run_id --cv logo --model logistic --format json \
  -o "$WORK/l.json" > "$WORK/out" 2> /dev/null || fail "logistic"
grep -qE '"fit": \{"iterations": [0-9]+, "final_loss": [0-9.e-]+, "final_gradient": [0-9.e-]+, "converged": true\}' \
  "$WORK/out" || fail "logistic fit not reported: $(head -c 300 "$WORK/out")"
grep -qE '"l2": 0.0001, "max_iter": 10000, "iterations": [0-9]+' "$WORK/l.json" || fail "logistic log not saved"
"$SPOOR_BIN" train "$WORK/runs.csv" --label label --group run_id --cv logo --model logistic --max-iter 1 \
  -o "$WORK/l.json" > "$WORK/out" 2> "$WORK/err" || fail "logistic --max-iter 1"
grep -q "did not converge in 1 iterations" "$WORK/err" || fail "no convergence warning: $(cat "$WORK/err")"
grep -q "^NOT converged in 1 L-BFGS iterations: final loss" "$WORK/out" || fail "report: $(head -3 "$WORK/out")"

# Stack: 2 -> 128 -> 64 -> 3 keeps (2 + 128 + 64 + 3) * 8 + 12 = 1588 bytes of locals.
"$SPOOR_BIN" train "$WORK/runs.csv" --label label --group run_id --cv logo --model mlp:128,64 --epochs 1 \
  -o "$WORK/big.json" > /dev/null 2>&1 || fail "train big mlp"
expect_fail 2 "q_predict_fixed would keep 1588 bytes on the stack, over 1024" \
  export-model "$WORK/big.json" --fixed-point --prefix q -o "$WORK/q.h"
[ ! -e "$WORK/q.h" ] || fail "a refused export left a header"
expect_fail 2 "static-buffers is for --fixed-point" export-model "$WORK/big.json" --static-buffers -o "$WORK/f.h"
"$SPOOR_BIN" export-model "$WORK/big.json" --fixed-point --static-buffers --prefix q -o "$WORK/q.h" > "$WORK/out" \
  || fail "--static-buffers"
grep -q "q_predict_fixed keeps 28 bytes of locals on the stack (its arrays are static)" "$WORK/out" \
  || fail "stack not stated: $(cat "$WORK/out")"
grep -q "#define Q_STACK_BYTES 28$" "$WORK/q.h" || fail "header lacks Q_STACK_BYTES"
grep -q "static long long a0\[128\];" "$WORK/q.h" || fail "buffers not static"
"$SPOOR_BIN" export-model "$WORK/m.json" --fixed-point --prefix q -o "$WORK/r.h" > "$WORK/out" || fail "rule export"
grep -q "q_predict_fixed keeps 12 bytes of locals on the stack$" "$WORK/out" || fail "rule stack: $(cat "$WORK/out")"

# importance applies the same leak check: drops code and depth (warned),
# keeps them with --keep-leaky; eval warns about a model's leaky feature.
"$SPOOR_BIN" importance "$WORK/runs.csv" --target label --group run_id --methods corr --format csv \
  > "$WORK/imp.csv" 2> "$WORK/err" || fail "importance: $(cat "$WORK/err")"
grep -q "warning: dropped feature code (its values match the classes one to one.*--keep-leaky keeps it" "$WORK/err" \
  || fail "importance one-to-one: $(cat "$WORK/err")"
grep -q "warning: dropped feature depth (constant within every group" "$WORK/err" \
  || fail "importance group-constant: $(cat "$WORK/err")"
! grep -q ",code,\|,depth," "$WORK/imp.csv" || fail "importance ranked a leaky feature: $(cat "$WORK/imp.csv")"
"$SPOOR_BIN" importance "$WORK/runs.csv" --target label --group run_id --methods corr --format csv --keep-leaky \
  > "$WORK/imp.csv" 2> "$WORK/err" || fail "importance --keep-leaky: $(cat "$WORK/err")"
grep -q "warning: feature code leaks: .*; kept (--keep-leaky)" "$WORK/err" || fail "importance kept: $(cat "$WORK/err")"
grep -q ",code," "$WORK/imp.csv" || fail "importance --keep-leaky dropped code"
"$SPOOR_BIN" eval "$WORK/k.json" "$WORK/runs.csv" --group run_id > /dev/null 2> "$WORK/err" || fail "eval"
grep -q "spoor eval: warning: feature 'code' leaks: .*; kept (the model uses it" "$WORK/err" \
  || fail "eval leak warning: $(cat "$WORK/err")"
"$SPOOR_BIN" eval "$WORK/m.json" "$WORK/runs.csv" --group run_id > /dev/null 2> "$WORK/err" || fail "eval m"
! grep -q "leaks" "$WORK/err" || fail "eval warned about a model without leaky features: $(cat "$WORK/err")"
