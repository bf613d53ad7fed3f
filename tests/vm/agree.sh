#!/usr/bin/env bash
# The VM agreement test: the module's classifier against spoor predict, on
# every row of the shared I/O-pattern dataset. On the host, a trees model
# and a rule model are trained on the dataset and exported as fixed-point
# headers, a module is built with each (MODEL), and each row's features are
# turned into the header's Q16 inputs (q16_rows.py). In one boot of the VM
# (guest_agree.sh), each module is loaded in turn and every row goes through
# /dev/spoor_ra_model (vmagree.c); the module with the default window model
# is loaded too. check_agree.py requires the class of every row to be spoor
# predict's, per model.
#
#   agree.sh WORKDIR SPOOR_BIN      WORKDIR/cache keeps the downloaded kernel;
#                                   SPOOR_DATA: the shared data folder
set -euo pipefail
mkdir -p "${1:?usage: agree.sh WORKDIR SPOOR_BIN}"
work=$(cd "$1" && pwd) # Kbuild needs absolute paths
spoor=${2:?usage: agree.sh WORKDIR SPOOR_BIN}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/vm.sh"
start=$SECONDS
if [ ! -d "${SPOOR_DATA:-}" ]; then
  echo "skipped: shared data folder ${SPOOR_DATA:-(unset)} is absent"
  exit 77
fi
data=$SPOOR_DATA/iopattern/consolidated_dataset.csv
[ -f "$data" ] || vm_die "no dataset $data"

vm_require
vm_find_kernel
out=$work/agree
mkdir -p "$out"
# The dataset's own columns, none a window column: the module must serve the
# device and leave windows alone.
features='trace_*,bw_mean_kbps,iops_mean'
for kind in trees rule; do
  "$spoor" train "$data" --label label --features "$features" --group run_id --model "$kind" \
    --actions readahead_kb:sequential=1024,random=16,mixed=128 -o "$out/$kind.json" > "$out/$kind.train.txt" 2>&1 ||
    { cat "$out/$kind.train.txt" >&2; vm_die "spoor train --model $kind failed"; }
  "$spoor" export-model "$out/$kind.json" --fixed-point --prefix spoor_model -o "$out/$kind.h" > /dev/null
  "$spoor" predict "$out/$kind.json" "$data" | tail -n +2 | cut -d, -f2 > "$out/$kind.predicted.txt"
  python3 "$here/q16_rows.py" "$out/$kind.h" "$data" > "$out/rows_$kind.txt"
  [ "$(wc -l < "$out/rows_$kind.txt")" = "$(wc -l < "$out/$kind.predicted.txt")" ] ||
    vm_die "$kind: $(wc -l < "$out/rows_$kind.txt") rows of inputs, $(wc -l < "$out/$kind.predicted.txt") predicted"
done
# the two modules at once (a build keeps its objects: a model exported the same rebuilds nothing)
pids=()
for kind in trees rule; do
  (ko=$(vm_build_module "$here/../../kernel" "$out/module-$kind" "$out/$kind.h") &&
    cp "$ko" "$out/spoor_ra_$kind.ko") &
  pids+=($!)
done
for pid in "${pids[@]}"; do wait "$pid" || vm_die "a module with a dataset model did not build"; done
gcc -static -O2 -Wall -Wextra -Werror -o "$out/vmagree" "$here/vmagree.c"

vm_setup "$work" agree "$here/guest_agree.sh" "$out/spoor_ra_trees.ko" "$out/spoor_ra_rule.ko" \
  "$out/rows_trees.txt" "$out/rows_rule.txt" "$out/vmagree"
echo "agree: kernel $VM_KREL; models, modules, rows and initramfs made in $((SECONDS - start)) s"
boot=$SECONDS
vm_boot "$out/initramfs.cpio" "$out/disk.img" "$out/console.log" 240
echo "agree: the VM ran for $((SECONDS - boot)) s (console: $out/console.log)"
python3 "$here/check_agree.py" "$out/console.log" trees="$out/trees.predicted.txt" rule="$out/rule.predicted.txt"
echo "agree: passed in $((SECONDS - start)) s"
