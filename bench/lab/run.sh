#!/usr/bin/env bash
# The lab: the whole loop from labelled block traces to a module checked in
# the VM, in one command.
#
#   1. capture   labelled traces made in the VM (bench/lab/capture.sh), or
#                taken from a capture made before (--from DIR)
#   2. windows   spoor windows --every W --by dev --run-id R --label L per trace
#   3. train     spoor train --group run_id --cv logo: the leave-one-run-out
#                accuracy of the model and of each baseline, printed
#   4. export    spoor export-model --fixed-point --prefix spoor_model
#   5. module    spoor_ra built with that header
#   6. checks    in the VM: the pattern test (tests/vm/patterns.sh) with this
#                model, which also sends its training windows through the
#                module's agreement device; then the agreement test
#                (tests/vm/agree.sh: the shared dataset, when SPOOR_DATA, or
#                ../shared/data as for make test, has it)
#
# Steps 2-4 are bench/lab/model.sh; 5-6 are the VM tests run on this model.
set -euo pipefail

usage() {
  cat <<'EOF'
usage: bench/lab/run.sh [options]

Capture (passed to bench/lab/capture.sh; see its --help):
  --patterns LIST --ra LIST --seeds LIST --ms MS --files N --file-mib M --touches T
  --from DIR        no capture: the traces and manifest.csv of DIR
                    (tests/data/vmlab, or an earlier --out's capture/)
Model (bench/lab/model.sh):
  --every W         window width (500ms, the pattern test's window_ms)
  --min-requests N  reads a window needs to be trained on, as the module's
                    min_requests (16)
  --model KIND      spoor train's model: trees or rule (trees); both have exact
                    fixed-point headers
  --actions LIST    readahead_kb per class (sequential=1024,random=16,mixed=128)
Loop:
  --no-checks       stop after the export (no module, no VM checks)
  --out DIR         capture/, model/ (bench/out/lab)
  --work DIR        the VM tests' directory: kernel cache, module builds (build/vm)
  --spoor BIN       the spoor binary (build/spoor)
  -h, --help        this text

Writes OUT/model/model.json and OUT/model/model.h, the header to build the
module with (make -C kernel MODEL=$PWD/OUT/model/model.h).
EOF
}

root=$(cd "$(dirname "$0")/../.." && pwd)
out=$root/bench/out/lab work=$root/build/vm spoor=$root/build/spoor
from='' checks=1 capture_args=() model_args=()
die() { echo "lab: $*" >&2; exit 1; }
while [ $# -gt 0 ]; do
  case $1 in
    -h|--help) usage; exit 0 ;;
    --no-checks) checks=0; shift; continue ;;
    --patterns|--ra|--seeds|--ms|--files|--file-mib|--touches|--from|--every|--min-requests|--model|--actions|--out|--work|--spoor)
      [ $# -ge 2 ] || die "$1 needs a value" ;;
    *) die "unknown option '$1' (see --help)" ;;
  esac
  case $1 in
    --patterns|--ra|--seeds|--ms|--files|--file-mib|--touches) capture_args+=("$1" "$2") ;;
    --every|--min-requests|--model|--actions) model_args+=("$1" "$2") ;;
    --from) from=$2 ;; --out) out=$2 ;; --work) work=$2 ;; --spoor) spoor=$2 ;;
  esac
  shift 2
done
[ -x "$spoor" ] || die "no spoor binary at $spoor (build it, or --spoor BIN)"
[ -z "$from" ] || [ ${#capture_args[@]} -eq 0 ] || die "--from takes a capture made before: no capture options with it"
case $out in /work/shared|/work/shared/*) die "--out must not be in /work/shared" ;; esac
mkdir -p "$out"
out=$(cd "$out" && pwd)
start=$SECONDS

if [ -z "$from" ]; then
  echo "lab: 1. capture in the VM"
  bash "$root/bench/lab/capture.sh" "${capture_args[@]}" --work "$work" --out "$out/capture"
  from=$out/capture
else
  echo "lab: 1. capture: the traces of $from"
fi
echo "lab: 2-4. windows, train (leave-one-run-out), export"
rm -rf "$out/model"
bash "$root/bench/lab/model.sh" "$from" "$out/model" "$spoor" "${model_args[@]}"
if [ $checks = 0 ]; then
  echo "lab: done in $((SECONDS - start)) s (no checks): $out/model/model.h"
  exit 0
fi
echo "lab: 5-6. the module built with the model, checked in the VM"
# The pattern test with this model: its training windows through the
# module's agreement device (every class spoor predict's), then the phases.
bash "$root/tests/vm/patterns.sh" "$work" "$spoor" "$out/model/model.json"
# The agreement test of the module itself, on the shared dataset's models.
rc=0
SPOOR_DATA=${SPOOR_DATA:-$root/../shared/data} bash "$root/tests/vm/agree.sh" "$work" "$spoor" || rc=$?
[ $rc = 0 ] || [ $rc = 77 ] || die "the agreement test failed"
echo "lab: done in $((SECONDS - start)) s: $out/model/model.h"
