#!/usr/bin/env bash
# kernel.checks: the module's build against Debian's 6.1 headers, checked
# without loading it (check_module.py): every function's stack frame at most
# FRAME_MAX bytes, the model's predict within its header's stated stack + 64,
# and no x87, MMX, SSE or AVX instruction in the .ko. Two builds: the default
# window model (kernel/readahead_model.h, a trees model) and an MLP exported
# with --static-buffers from windows of tests/data/blk/captured. First, the
# checker must catch a counter-example: a host object with floating point
# and a large frame.
#
#   checks.sh WORKDIR SPOOR_BIN
set -euo pipefail
mkdir -p "${1:?usage: checks.sh WORKDIR SPOOR_BIN}"
work=$(cd "$1" && pwd) # Kbuild needs absolute paths
spoor=${2:?usage: checks.sh WORKDIR SPOOR_BIN}
here=$(cd "$(dirname "$0")" && pwd)
root=$here/../..
. "$root/tests/vm/vm.sh"
start=$SECONDS
# The kernel warns from 2 KiB; the module's largest frames are sysfs's
# (a device's counts or features copied out of its lock, about 480 bytes).
FRAME_MAX=512

# The counter-example: the checker must refuse it on both counts.
cat > "$work/bad.c" << 'C'
double scale(const double *x, int n);
double scale(const double *x, int n)
{
    volatile char big[1024];
    double s = 0;
    for (int i = 0; i < n; i++)
        s += x[i] * 1.5, big[i & 1023] = (char)i;
    return s + big[3];
}
C
gcc -O2 -fstack-usage -c -o "$work/bad.o" "$work/bad.c"
if python3 "$here/check_module.py" --frame-max "$FRAME_MAX" "$work/bad.o" "$work/bad.su" > "$work/bad.log" 2>&1 ||
  ! grep -q "over $FRAME_MAX" "$work/bad.log" || ! grep -q "a floating-point instruction" "$work/bad.log"; then
  cat "$work/bad.log" >&2
  vm_die "check_module.py did not refuse a large frame and floating point"
fi

vm_find_kernel
# An MLP over the captured windows' read and write columns, too big for the
# stack (8 bytes an input and a unit: about 1.7 KiB), its arrays static.
mlp=$work/mlp
mkdir -p "$mlp"
captured=$root/tests/data/blk/captured
first=1
tail -n +2 "$captured/manifest.csv" | while IFS=, read -r f _ label run_id _; do
  "$spoor" windows --no-progress --every 250ms --by dev --run-id "$run_id" --label "$label" --format csv \
    "$captured/$f" < /dev/null | if [ $first = 1 ]; then cat; else tail -n +2; fi
  first=0
done > "$mlp/windows.csv"
"$spoor" train "$mlp/windows.csv" --label label --features 'read_*,write_*' --group run_id --model mlp:128,64 \
  --epochs 20 --actions readahead_kb:sequential=1024,random=16,mixed=128 -o "$mlp/model.json" > "$mlp/train.txt" 2>&1 ||
  { cat "$mlp/train.txt" >&2; vm_die "spoor train --model mlp failed"; }
"$spoor" export-model "$mlp/model.json" --fixed-point --static-buffers --prefix spoor_model -o "$mlp/model.h" > /dev/null

(vm_build_module "$root/kernel" "$work/module" > /dev/null) &
default=$!
vm_build_module "$root/kernel" "$work/module-mlp" "$mlp/model.h" > /dev/null
wait $default || vm_die "the module with the default model did not build"
echo "checks: two modules built in $((SECONDS - start)) s"
echo "checks: the default model (kernel/readahead_model.h)"
python3 "$here/check_module.py" --frame-max "$FRAME_MAX" --model "$root/kernel/readahead_model.h" \
  "$work/module/spoor_ra.ko" "$work"/module/*.su
echo "checks: an MLP with static buffers"
python3 "$here/check_module.py" --frame-max "$FRAME_MAX" --model "$mlp/model.h" \
  "$work/module-mlp/spoor_ra.ko" "$work"/module-mlp/*.su
echo "checks: passed in $((SECONDS - start)) s"
