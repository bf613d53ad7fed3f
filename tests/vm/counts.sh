#!/usr/bin/env bash
# The VM test of kernel/ (spoor_ra): boots Debian's stock kernel under QEMU,
# loads the module there, reads the virtio disk in known ways and checks the
# module counted exactly the requests issued (check_counts.py).
#
#   counts.sh WORKDIR       WORKDIR/cache keeps the downloaded kernel
set -euo pipefail
mkdir -p "${1:?usage: counts.sh WORKDIR}"
work=$(cd "$1" && pwd) # Kbuild needs absolute paths
here=$(cd "$(dirname "$0")" && pwd)
. "$here/vm.sh"
start=$SECONDS

vm_setup "$work" counts "$here/guest_counts.sh"
out=$VM_OUT
echo "counts: kernel $VM_KREL ($VM_IMAGE_PKG $VM_KVER); module, reader and initramfs made in $((SECONDS - start)) s"

boot=$SECONDS
vm_boot "$out/initramfs.cpio" "$out/disk.img" "$out/console.log" 240
echo "counts: the VM ran for $((SECONDS - boot)) s (console: $out/console.log)"
python3 "$here/check_counts.py" "$out/console.log"
echo "counts: passed in $((SECONDS - start)) s"
