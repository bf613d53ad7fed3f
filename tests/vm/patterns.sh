#!/usr/bin/env bash
# The VM pattern test of spoor_ra (CTest vm.patterns): on the host, a model
# is trained on the labelled VM traces of tests/data/vmlab
# (bench/lab/model.sh) and exported; the module is built with it. In the VM
# (guest_patterns.sh), vmload's buffered sequential, mixed and random reads
# run one after another, first under a dry run, then with dry_run=N;
# check_patterns.py requires the module's classes to follow the phases and
# read_ahead_kb to follow the classes (hysteresis, bounds), nothing to change
# in the dry run, and rmmod to restore the original readahead; and the
# model's training windows, through the module's agreement device
# (/dev/spoor_ra_model), to get spoor predict's class, every one. Then, the
# module unloaded, spoor tune runs live on the same disk with the same model
# and settings (guest_tune.sh, check_tune.py).
#
#   patterns.sh WORKDIR SPOOR_BIN [MODEL_JSON]
#
# MODEL_JSON (with its header, MODEL.h, and its windows.csv beside it): a
# model already made, as bench/lab/run.sh passes; then nothing is trained.
set -euo pipefail
usage="usage: patterns.sh WORKDIR SPOOR_BIN [MODEL_JSON]"
mkdir -p "${1:?$usage}"
work=$(cd "$1" && pwd) # Kbuild needs absolute paths
spoor=${2:?$usage}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
. "$here/vm.sh"
start=$SECONDS

# The guest's settings: windows short enough for a few seconds of VM, phases
# long enough for HYSTERESIS windows and a majority after them.
window_ms=500 hysteresis=2 min_kb=16 max_kb=4096 min_requests=16
out=$work/patterns
mkdir -p "$out"
rm -rf "$out"/{console.log,initramfs.cpio,disk.img,vmload,spoor,model.json}
if [ -n "${3:-}" ]; then
  model=$3 header=${3%.json}.h
  [ -f "$model" ] && [ -f "$header" ] || vm_die "no model $model with its header $header"
else
  bash "$root/bench/lab/model.sh" "$root/tests/data/vmlab" "$out/model" "$spoor" --every "${window_ms}ms" \
    --min-requests "$min_requests" > "$out/model.log" 2>&1 || { cat "$out/model.log" >&2; vm_die "no model"; }
  model=$out/model/model.json header=$out/model/model.h
  grep -A3 '^method' "$out/model.log" | sed 's/^/patterns: /'
fi

vm_require
vm_find_kernel
vm_fetch_kernel "$work/cache"
ko=$(vm_build_module "$root/kernel" "$work/module-patterns" "$header")
vm_static "$here/vmload.c" "$out/vmload"
vm_static "$here/vmagree.c" "$out/vmagree"
# The model's own training windows through the module's agreement device:
# their Q16 inputs, and spoor predict's classes to compare with.
windows=$(dirname "$model")/windows.csv
[ -f "$windows" ] || vm_die "no windows.csv beside $model"
python3 "$here/q16_rows.py" "$header" "$windows" > "$out/rows_lab.txt"
"$spoor" predict "$model" "$windows" | tail -n +2 | cut -d, -f2 > "$out/predicted.txt"
# The phases end on one whose readahead differs from the disk's default
# (128), so that rmmod's restore shows.
cat > "$out/patterns.conf" <<EOF
WINDOW_MS=$window_ms HYSTERESIS=$hysteresis MIN_KB=$min_kb MAX_KB=$max_kb MIN_REQUESTS=$min_requests
DRY_MS=1000 PHASE_MS=2500 PHASES="seq mixed rand" TUNE_MS=2000 SHORT_MS=1500
EOF
# spoor tune in the guest (guest_tune.sh): the binary with its libraries,
# and the model as /model.json.
vm_spoor_tree "$spoor" "$out/spoor"
cp "$model" "$out/model.json"
vm_initramfs "$out/initramfs.cpio" "$here/guest_patterns.sh" "$ko" "$out/vmload" "$out/patterns.conf" \
  "$out/vmagree" "$out/rows_lab.txt" "$here/guest_tune.sh" "$out/spoor" "$out/model.json"
truncate -s 1G "$out/disk.img"
echo "patterns: model, module, vmload and initramfs made in $((SECONDS - start)) s"

boot=$SECONDS
vm_boot "$out/initramfs.cpio" "$out/disk.img" "$out/console.log" 240
echo "patterns: the VM ran for $((SECONDS - boot)) s (console: $out/console.log)"
rm -f "$out/disk.img"
python3 "$here/check_patterns.py" "$out/console.log" "$model" "$out/predicted.txt" "$window_ms" "$hysteresis" \
  "$min_kb" "$max_kb" "$min_requests"
echo "patterns: passed in $((SECONDS - start)) s"
