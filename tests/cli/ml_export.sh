# export-model: the fixed-point header builds freestanding (no float, no libc),
# and on every row of the iopattern dataset the float header agrees with
# spoor predict and the fixed-point header with the float one (>= 99.9 %),
# for every model kind.
source "$(dirname "$0")/lib/common.sh"
need_data
DATA=$SPOOR_DATA/iopattern/consolidated_dataset.csv
FEATURES=trace_avg_sector_distance,trace_sector_jump_ratio,bw_mean_kbps
CC=${CC:-cc}

"$SPOOR_BIN" export-model --help | grep "usage: spoor export-model" > /dev/null || fail "no --help"
expect_fail 2 "needs MODEL" export-model "$WORK/m.json"

# The feature columns of every row, by name, as numbers separated by spaces.
awk -F, -v want="$FEATURES" 'NR == 1 { n = split(want, w, ","); for (i = 1; i <= NF; i++) col[$i] = i; next }
  { line = ""; for (k = 1; k <= n; k++) line = line (k > 1 ? " " : "") $col[w[k]]; print line }' "$DATA" > "$WORK/x.txt"
[ "$(wc -l < "$WORK/x.txt")" -eq 864 ] || fail "feature extraction"

for model in mlp:32,16 logistic rule trees; do
  kind=${model%%:*}
  "$SPOOR_BIN" train "$DATA" --label label --features "$FEATURES" --group run_id --model "$model" \
    --epochs 10 --rounds 10 --actions readahead_kb:sequential=256,random=16,mixed=64 -o "$WORK/$kind.json" > /dev/null \
    || fail "train $model"
  "$SPOOR_BIN" export-model "$WORK/$kind.json" -o "$WORK/mf.h" --prefix mf || fail "export $kind"
  "$SPOOR_BIN" export-model "$WORK/$kind.json" -o "$WORK/mq.h" --prefix mq --fixed-point || fail "export fixed $kind"
  grep -q "mq_action\[3\] = {256LL, 16LL, 64LL}" "$WORK/mq.h" || fail "$kind: no action table"
  ! $CC -fpreprocessed -dD -E -P "$WORK/mq.h" | grep -qwE "float|double" || fail "$kind: fixed-point header uses a float type"
  $CC -std=c11 -Wall -Wextra -Werror -ffreestanding -nostdlib -mgeneral-regs-only -x c -c -o "$WORK/free.o" - \
    <<< "#include \"$WORK/mq.h\"
int classify(const long long *x); int classify(const long long *x) { return mq_predict_fixed(x); }" \
    || fail "$kind: fixed-point header does not build freestanding"
  $CC -std=c11 -O2 -Wall -Wextra -Werror -DFLOAT_HEADER="\"$WORK/mf.h\"" -DFIXED_HEADER="\"$WORK/mq.h\"" \
    -o "$WORK/check" "$(dirname "$0")/../ml/header_check.c" -lm || fail "$kind: header check does not build"
  "$WORK/check" < "$WORK/x.txt" > "$WORK/classes.txt"
  "$SPOOR_BIN" predict "$WORK/$kind.json" "$DATA" | tail -n +2 | cut -d, -f2 > "$WORK/spoor.txt"
  # Class indexes of the header against class names of spoor predict.
  paste -d' ' "$WORK/classes.txt" "$WORK/spoor.txt" | awk -v kind="$kind" '
    BEGIN { name[0] = "sequential"; name[1] = "random"; name[2] = "mixed" }
    { n++; if (name[$1] == $3) same_float++; if ($1 == $2) same_fixed++ }
    END {
      printf "%s: float header = spoor predict on %d/%d rows, fixed = float on %d/%d\n", kind, same_float, n, same_fixed, n
      if (n != 864 || same_float < n || same_fixed < 0.999 * n) exit 1
    }' || fail "$kind: predictions disagree"
done
