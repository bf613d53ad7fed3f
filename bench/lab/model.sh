#!/usr/bin/env bash
# From labelled traces to the module's model header: spoor windows on each
# trace of a capture (its manifest.csv: file, label, run_id, ...), the
# windows the module would classify kept, spoor train scored leave-one-run-out,
# and the model exported in fixed point. Used by bench/lab/run.sh and by the
# VM pattern test (tests/vm/patterns.sh), which trains on tests/data/vmlab.
#
#   model.sh CAPTURE OUT SPOOR_BIN [--every W] [--min-requests N] [--model KIND]
#            [--features LIST] [--actions CLASS=KB,...]
#
# Writes OUT/windows.csv, OUT/train.txt (the leave-one-run-out scores of each
# method, also printed), OUT/model.json and OUT/model.h (prefix spoor_model).
# The model is trees by default: its fixed-point header takes every split the
# float model takes (docs/cli.md, export-model), so the module decides as
# spoor predict does; the rule is exact too, and smaller.
set -euo pipefail
die() { echo "lab model: $*" >&2; exit 1; }
[ $# -ge 3 ] || die "usage: model.sh CAPTURE OUT SPOOR_BIN [--every W] [--min-requests N] [--model KIND] [--features LIST] [--actions CLASS=KB,...]"
capture=$1 out=$2 spoor=$3
shift 3
# The window features that do not depend on time: request sizes and where
# requests fall. Rates and latencies depend on how fast QEMU runs on the host
# (TCG, shared cores), so a model on them would learn the host's load.
features=read_size_mean,read_size_median,read_distance_mean,read_jump_ratio,read_sequential_ratio
every=500ms min_requests=16 model=trees actions=sequential=1024,random=16,mixed=128
while [ $# -gt 0 ]; do
  [ $# -ge 2 ] || die "$1 needs a value"
  case $1 in
    --every) every=$2 ;; --min-requests) min_requests=$2 ;; --model) model=$2 ;;
    --features) features=$2 ;; --actions) actions=$2 ;;
    *) die "unknown option '$1'" ;;
  esac
  shift 2
done
[[ $min_requests =~ ^[0-9]+$ ]] || die "--min-requests wants a whole number, not '$min_requests'"
[ -f "$capture/manifest.csv" ] || die "$capture has no manifest.csv"
[ -x "$spoor" ] || die "no spoor binary at $spoor"
mkdir -p "$out"

# One windows CSV: each trace cut on its own (its windows start at its first
# request), with its run id and label, the header once. A window with fewer
# reads than the module's min_requests is idle to the module (never
# classified, readahead_policy.h): it is left out of training too.
first=1
while IFS=, read -r file label run_id _; do
  "$spoor" windows --no-progress --every "$every" --by dev --run-id "$run_id" --label "$label" --format csv \
    "$capture/$file" < /dev/null | if [ $first = 1 ]; then cat; else tail -n +2; fi
  first=0
done < <(tail -n +2 "$capture/manifest.csv") |
  awk -F, -v min="$min_requests" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "read_requests") col = i; print; next }
    !col { exit 1 } $col >= min' > "$out/windows.csv" || die "no read_requests column in spoor windows' CSV"
rows=$(($(wc -l < "$out/windows.csv") - 1))
[ "$rows" -gt 0 ] || die "no window of $capture has $min_requests reads or more"
echo "lab model: $rows windows of $(($(wc -l < "$capture/manifest.csv") - 1)) runs (--every $every, $min_requests reads or more)"

"$spoor" train "$out/windows.csv" --label label --features "$features" --group run_id --cv logo --model "$model" \
  --actions "readahead_kb:$actions" -o "$out/model.json" 2>&1 | tee "$out/train.txt"
"$spoor" export-model "$out/model.json" -o "$out/model.h" --fixed-point --prefix spoor_model
