#!/usr/bin/env bash
# ML benchmark and acceptance on the iopattern dataset (864 rows):
#  - spoor's MLP against PyTorch (torch_mlp.py): the same rows (spoor train
#    --save-split), network, settings and early stopping, one thread each;
#    training time (the loop only) and test accuracy per seed, and wall time
#    of the whole command;
#  - the MLP on all 864 rows for 60 epochs (target < 1 s);
#  - the source pipeline reproduced (its 5 inputs built with spoor sql as its
#    script built them, a stratified random 80/20 split) per seed;
#  - leave-one-run-out accuracy of every model and baseline, beside
#    scikit-learn's depth-2 tree and converged logistic regression
#    (sklearn_ref.py) for the rule and logistic models;
#  - fixed-point against floating-point header predictions on every row, the
#    inference cost of each per window, and the fixed-point function's stack.
# Prints markdown tables of MEDIANS and RATIOS with PASS/FAIL (report.py).
#
# usage: bench/ml/run.sh   (after `make build`; python3-torch and python3-sklearn
#        for /usr/bin/python3: scripts/install-bench-deps.sh)
# env:   SPOOR=path/to/spoor  BENCH_OUT=dir  BENCH_SEEDS="1 2 3 4 5"  SPOOR_DATA=../shared/data
set -euo pipefail

source "$(dirname "$0")/../lib.sh"
seeds=${BENCH_SEEDS:-1 2 3 4 5}
data=${SPOOR_DATA:-$root/../shared/data}/iopattern/consolidated_dataset.csv
features=trace_avg_sector_distance,trace_sector_jump_ratio,bw_mean_kbps
[ -f "$data" ] || die "no dataset at $data (set SPOOR_DATA)"
need_py torch
need_py sklearn

results_dir ml-results
results=$res/results.jsonl
now() { date +%s%N; }
# record KEY JSON: one result line.
record() { printf '{"key": "%s", "data": %s}\n' "$1" "$(tr -d '\n' <<< "$2")" >> "$results"; }

for seed in $seeds; do
  echo "bench: mlp vs pytorch, seed $seed" >&2
  t0=$(now)
  "$spoor" train "$data" --label label --features "$features" --group run_id --split rows --seed "$seed" \
    --save-split "$res/split$seed.csv" --format json -o "$res/mlp$seed.json" > "$res/spoor$seed.json"
  t1=$(now)
  "$py" "$here/torch_mlp.py" "$data" "$res/split$seed.csv" "$features" label "$seed" > "$res/torch$seed.json"
  t2=$(now)
  record spoor_mlp "$(sed "1s/^{/{\"seed\": $seed, \"wall_ms\": $(( (t1 - t0) / 1000000 )), /" "$res/spoor$seed.json")"
  record torch_mlp "$(sed "s/^{/{\"seed\": $seed, \"wall_ms\": $(( (t2 - t1) / 1000000 )), /" "$res/torch$seed.json")"

  echo "bench: 864 rows x 60 epochs, run $seed" >&2
  "$spoor" train "$data" --label label --features "$features" --val 0 --cv 2 --seed "$seed" --format json \
    -o "$res/all.json" > "$res/all$seed.json"
  record mlp_864 "$(cat "$res/all$seed.json")"
done

echo "bench: the source pipeline's 5 inputs" >&2
"$spoor" sql --no-cache "$data" --format csv -o "$res/source_inputs.csv" \
  "SELECT trace_avg_sector_distance * 512 AS sector_distance_bytes, trace_sector_jump_ratio AS jump_ratio,
          CASE WHEN trace_avg_request_size_kb > 0 THEN trace_avg_request_size_kb * 1024
               ELSE bw_mean_kbps * 1024 / iops_mean END AS avg_io_size_bytes,
          1 - trace_sector_jump_ratio AS sequential_ratio, iops_mean, label, run_id FROM events"
for seed in $seeds; do
  "$spoor" train "$res/source_inputs.csv" --label label --keep-redundant --split rows --group run_id --seed "$seed" \
    --features sector_distance_bytes,jump_ratio,avg_io_size_bytes,sequential_ratio,iops_mean \
    --format json -o "$res/source$seed.json" > "$res/source_eval$seed.json"
  record source_pipeline "$(sed "1s/^{/{\"seed\": $seed, /" "$res/source_eval$seed.json")"
done

for model in mlp trees logistic rule; do
  echo "bench: leave-one-run-out, $model" >&2
  "$spoor" train "$data" --label label --features "$features" --group run_id --cv logo --model "$model" \
    --format json -o "$res/logo_$model.json" > "$res/logo_eval_$model.json"
  record "logo_$model" "$(cat "$res/logo_eval_$model.json")"
done

echo "bench: scikit-learn's depth-2 tree and logistic regression, leave-one-run-out" >&2
record sklearn_ref "$("$py" "$here/sklearn_ref.py" "$data" "$features" label run_id 1e-4)"

echo "bench: fixed-point against floating-point headers" >&2
awk -F, -v want="$features" 'NR == 1 { n = split(want, w, ","); for (i = 1; i <= NF; i++) col[$i] = i; next }
  { line = ""; for (k = 1; k <= n; k++) line = line (k > 1 ? " " : "") $col[w[k]]; print line }' "$data" > "$res/x.txt"
for model in mlp trees logistic rule; do
  m=$res/logo_$model.json
  "$spoor" export-model "$m" -o "$res/mf.h" --prefix mf > /dev/null
  stack=$("$spoor" export-model "$m" -o "$res/mq.h" --prefix mq --fixed-point | sed 's/.* keeps \([0-9]*\) bytes.*/\1/')
  cc -std=c11 -O2 -DFLOAT_HEADER="\"$res/mf.h\"" -DFIXED_HEADER="\"$res/mq.h\"" -o "$res/check" \
    "$root/tests/ml/header_check.c" -lm
  "$res/check" < "$res/x.txt" > "$res/classes_$model.txt"
  agree=$(awk '$1 == $2 { n++ } END { print n + 0 }' "$res/classes_$model.txt")
  "$spoor" predict "$m" "$data" | tail -n +2 | cut -d, -f2 > "$res/spoor_$model.txt"
  same=$(paste -d' ' "$res/classes_$model.txt" "$res/spoor_$model.txt" |
    awk 'BEGIN { c["sequential"] = 0; c["random"] = 1; c["mixed"] = 2 } c[$3] == $1 { n++ } END { print n + 0 }')
  for run in 1 2 3 4 5; do
    "$res/check" bench 2000 < "$res/x.txt" > "$res/ns_$model$run.txt"
    record "header_$model" "{\"rows\": $(wc -l < "$res/x.txt"), \"fixed_agrees\": $agree, \"float_agrees_spoor\": $same,
      \"fixed_stack\": $stack,
      \"float_ns\": $(awk '/float_ns/ { print $2 }' "$res/ns_$model$run.txt"),
      \"fixed_ns\": $(awk '/fixed_ns/ { print $2 }' "$res/ns_$model$run.txt")}"
  done
done

load_end
"$py" "$here/report.py" "$res"
