#!/usr/bin/env bash
# The VM test of the window features: the module (kernel/) and spoor windows
# compute them with the same code (src/features/window_features.c). In the
# VM, tracefs records the block requests of several I/O patterns, each in a
# window the module closes on demand (guest_features.sh); on the host, spoor
# windows reads each trace with the module's window width, and
# check_features.py requires the module's features to equal spoor's.
#
#   features.sh WORKDIR SPOOR_BIN     WORKDIR/cache keeps the downloaded kernel
set -euo pipefail
mkdir -p "${1:?usage: features.sh WORKDIR SPOOR_BIN}"
work=$(cd "$1" && pwd) # Kbuild needs absolute paths
spoor=${2:?usage: features.sh WORKDIR SPOOR_BIN}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/vm.sh"
start=$SECONDS

vm_setup "$work" features "$here/guest_features.sh"
out=$VM_OUT
rm -rf "$out/patterns"
echo "features: kernel $VM_KREL; module, reader and initramfs made in $((SECONDS - start)) s"

# Guest time from the instruction count (1 ns each), not the host's clock:
# the host's scheduling of QEMU then cannot come between the module's and
# tracefs's clock reads of one request, and their latencies stay close.
VM_QEMU_ARGS="-icount shift=0,sleep=off"
boot=$SECONDS
vm_boot "$out/initramfs.cpio" "$out/disk.img" "$out/console.log" 240
echo "features: the VM ran for $((SECONDS - boot)) s (console: $out/console.log)"
python3 "$here/check_features.py" "$out/console.log" "$spoor" "$out/patterns"
echo "features: passed in $((SECONDS - start)) s"
