# The VM harness, sourced by the VM tests: Debian's stock kernel (the one
# linux-headers-amd64 is for) booted by QEMU under TCG with a busybox
# initramfs and a raw virtio disk. Everything goes under the directory the
# caller names; nothing is installed on, or loaded into, the host.
#
#   vm_find_kernel                  sets VM_KREL, VM_KVER, VM_KDIR, VM_IMAGE_PKG
#   vm_fetch_kernel CACHE           the kernel and its virtio modules, downloaded once
#                                   (sets VM_KERNEL, VM_MODULES)
#   vm_build_module SRC OUT [MODEL] a module built out of tree against VM_KDIR
#                                   (with the classifier MODEL, a fixed-point header)
#   vm_initramfs OUT TEST FILE...   busybox, /init, the virtio modules, TEST as /test.sh
#                                   (a FILE that is a directory: its tree at the root)
#   vm_spoor_tree SPOOR OUT         a tree for vm_initramfs: spoor as /spoor with the
#                                   shared libraries it loads, at their paths
#   vm_static SRC OUT               a C program built static (the guest has no libc)
#   vm_boot INITRAMFS DISK LOG SECS [DISK2]
#                                   boots, waits at most SECS, console to LOG
#                                   (with VM_QEMU_ARGS, if set, added to QEMU's);
#                                   DISK2, if given, is the guest's /dev/vdb
#   vm_setup WORK NAME GUEST [FILE...]  all of the above but the boot, for a
#                                   test's guest script and files (sets VM_OUT)
#
# /dev/kvm is not used even when present: on these machines it is a nested
# hypervisor that hangs QEMU. TCG is slower but always works.

VM_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

vm_die() {
  echo "vm: $*" >&2
  exit 1
}

# Fails, naming the Debian packages to install, when a tool is missing.
vm_require() {
  local missing=()
  command -v qemu-system-x86_64 > /dev/null || missing+=(qemu-system-x86)
  command -v cpio > /dev/null || missing+=(cpio)
  # busybox-static, not busybox: the initramfs has no libc for it to link to
  dpkg-query -W -f='${Status}' busybox-static 2> /dev/null | grep -q "install ok installed" || missing+=(busybox-static)
  dpkg-query -W -f='${Status}' linux-headers-amd64 2> /dev/null | grep -q "install ok installed" ||
    missing+=(linux-headers-amd64)
  [ -e /usr/lib/x86_64-linux-gnu/libc.a ] || missing+=(libc6-dev)
  [ ${#missing[@]} -eq 0 ] ||
    vm_die "missing Debian packages: ${missing[*]} (scripts/install-deps.sh installs them)"
}

# The kernel linux-headers-amd64 points to: its release (6.1.0-N-amd64), the
# Debian version of its headers (which the image must match), their
# directory, and the image package.
vm_find_kernel() {
  local dep
  dep=$(dpkg-query -W -f='${Depends}' linux-headers-amd64) || vm_die "linux-headers-amd64 is not installed"
  VM_KREL=$(sed -n 's/^linux-headers-\([^ ,]*\).*/\1/p' <<< "$dep")
  [ -n "$VM_KREL" ] || vm_die "linux-headers-amd64 depends on '$dep', not on one linux-headers-VERSION"
  VM_KVER=$(dpkg-query -W -f='${Version}' "linux-headers-$VM_KREL") ||
    vm_die "linux-headers-$VM_KREL is not installed"
  VM_KDIR=/usr/src/linux-headers-$VM_KREL
  VM_IMAGE_PKG=linux-image-$VM_KREL
  [ -f "$VM_KDIR/Makefile" ] || vm_die "$VM_KDIR has no Makefile: reinstall linux-headers-$VM_KREL"
}

# The modules a module needs (from its modinfo's depends=), before it.
vm_module_chain() {
  local root=$1 name=$2 ko dep
  ko=$(grep -m1 "/$name\.ko$" "$root/modules.order") || vm_die "the kernel has no module $name"
  for dep in $(tr '\0' '\n' < "$root/$ko" | sed -n 's/^depends=//p' | tr ',' ' '); do
    vm_module_chain "$root" "$dep"
  done
  echo "$root/$ko"
}

# CACHE/KREL_KVER/: vmlinux (uncompressed from vmlinuz), config, and
# modules/ (the virtio block driver's chain in load order, listed in
# modules/order, when the config builds it as modules). Downloaded with
# apt-get download and unpacked with dpkg-deb: never into /boot or
# /lib/modules. Sets VM_KERNEL and VM_MODULES.
vm_fetch_kernel() {
  local cache=$1/${VM_KREL}_$VM_KVER tmp
  VM_KERNEL=$cache/vmlinux
  VM_MODULES=$cache/modules
  # done is written last; a cache of an older layout lacks a file and is redone
  [ -f "$cache/done" ] && [ -f "$VM_KERNEL" ] && [ -f "$VM_MODULES/order" ] && return 0
  rm -rf "$cache"
  tmp=$cache.tmp
  rm -rf "$tmp" && mkdir -p "$tmp"
  echo "vm: downloading $VM_IMAGE_PKG=$VM_KVER (once: it is kept in $1)" >&2
  if ! (cd "$tmp" && apt-get download -q "$VM_IMAGE_PKG=$VM_KVER") > "$tmp/download.log" 2>&1; then
    cat "$tmp/download.log" >&2
    vm_die "apt-get download $VM_IMAGE_PKG=$VM_KVER failed (is the network, or an apt cache, there?)"
  fi
  local deb
  deb=$(ls "$tmp"/"${VM_IMAGE_PKG}"_*.deb 2> /dev/null) || vm_die "apt-get download left no $VM_IMAGE_PKG .deb"
  mkdir -p "$tmp/root"
  dpkg-deb --fsys-tarfile "$deb" |
    tar -x -C "$tmp/root" --wildcards './boot/vmlinuz-*' './boot/config-*' './lib/modules/*/modules.order' \
      './lib/modules/*/kernel/drivers/virtio/*' './lib/modules/*/kernel/drivers/block/virtio_blk.ko' ||
    vm_die "cannot unpack $deb"
  local mods=$tmp/root/lib/modules/$VM_KREL
  mkdir -p "$cache/modules"
  python3 "$VM_DIR/extract_vmlinux.py" "$tmp/root/boot/vmlinuz-$VM_KREL" "$cache/vmlinux" ||
    vm_die "cannot take the uncompressed kernel out of vmlinuz-$VM_KREL"
  mv "$tmp/root/boot/config-$VM_KREL" "$cache/config"
  : > "$cache/modules/order"
  # virtio_blk and the PCI transport it finds its disk through, if modules
  if grep -q '^CONFIG_VIRTIO_BLK=m' "$cache/config"; then
    local chain ko name
    chain=$(vm_module_chain "$mods" virtio_pci && vm_module_chain "$mods" virtio_blk) || exit 1
    for ko in $chain; do
      name=$(basename "$ko" .ko)
      grep -qx "$name" "$cache/modules/order" && continue
      cp "$ko" "$cache/modules/"
      echo "$name" >> "$cache/modules/order"
    done
  fi
  rm -rf "$tmp"
  touch "$cache/done"
}

# A copy of the module's sources built in OUT (Kbuild writes beside its
# sources, and the source tree stays clean). The copies keep their times, so
# a build kept from a previous run recompiles only what changed. MODEL: the
# classifier's header (spoor export-model --fixed-point --prefix
# spoor_model), copied to OUT/spoor_ra_model.h when it differs from the copy
# there (a model exported again, the same, rebuilds nothing); default: SRC's
# readahead_model.h. Prints the .ko's path.
vm_build_module() {
  local src=$1 out=$2 model=${3:-} args=()
  mkdir -p "$out"
  cp -p "$src"/Kbuild "$src"/*.c "$src"/*.h "$out"/
  if [ -n "$model" ]; then
    cmp -s "$model" "$out/spoor_ra_model.h" || cp "$model" "$out/spoor_ra_model.h" ||
      vm_die "cannot copy the model $model"
    args=(SPOOR_RA_MODEL="$out/spoor_ra_model.h")
  fi
  make -s -C "$VM_KDIR" M="$out" "${args[@]}" modules > "$out/build.log" 2>&1 ||
    { cat "$out/build.log" >&2; vm_die "the module in $src does not build against $VM_KDIR"; }
  ls "$out"/*.ko
}

vm_static() {
  gcc -static -O2 -Wall -Wextra -Werror -o "$2" "$1" || vm_die "cannot build $1 static (is libc6-dev there?)"
}

# OUT: a tree for vm_initramfs with the spoor binary SPOOR as /spoor and
# the shared libraries `ldd` lists for it, the dynamic loader among them, at
# the paths ldd gives (the guest has no libc of its own). All stripped of
# what the loader does not need (debug information: the binary's 6 MB are
# mostly that), to keep the initramfs, which the kernel unpacks under
# emulation at each boot, small.
vm_spoor_tree() {
  local spoor=$1 out=$2 lib libs
  rm -rf "$out" && mkdir -p "$out"
  strip --strip-unneeded -o "$out/spoor" "$spoor" || vm_die "cannot strip $spoor (is binutils there?)"
  libs=$(ldd "$spoor" | grep -o '/[^ ]*') || vm_die "ldd lists no library for $spoor"
  for lib in $libs; do
    mkdir -p "$out$(dirname "$lib")"
    strip --strip-unneeded -o "$out$lib" "$(readlink -f "$lib")" || vm_die "cannot strip $lib"
  done
}

# OUT: an uncompressed cpio (the kernel unpacks it faster than a gzip one
# under emulation) with busybox, the harness's /init, the virtio modules,
# TEST as /test.sh and each FILE at the root (a directory's contents, as a
# tree, from the root).
vm_initramfs() {
  local out=$1 test=$2
  shift 2
  local stage=$out.d
  rm -rf "$stage" && mkdir -p "$stage"/{bin,dev,proc,sys,modules}
  cp /bin/busybox "$stage/bin/busybox"
  cp "$VM_DIR/init" "$stage/init"
  cp "$test" "$stage/test.sh"
  cp "$VM_MODULES"/* "$stage/modules/"
  local f
  for f in "$@"; do
    if [ -d "$f" ]; then cp -a "$f/." "$stage/"; else cp "$f" "$stage/"; fi
  done
  chmod +x "$stage/init"
  (cd "$stage" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) > "$out"
  rm -rf "$stage"
}

# Boots the kernel on INITRAMFS with DISK as /dev/vda (and DISK2, if given,
# as /dev/vdb: the drives' order is their PCI slots' order), the console in
# LOG, for at most SECS. -no-reboot: the guest's poweroff, a panic or a
# triple fault all end QEMU. RCU's stall warnings are off: emulated time
# jumps (see init) make them fire about nothing.
vm_boot() {
  local initramfs=$1 disk=$2 log=$3 secs=$4 rc=0 second=()
  [ -z "${5:-}" ] || second=(-drive "file=$5,format=raw,if=virtio,cache=unsafe")
  # shellcheck disable=SC2086 # VM_QEMU_ARGS: words
  timeout -k 5 "$secs" qemu-system-x86_64 -accel tcg -machine pc -cpu max -smp 1 -m 256M ${VM_QEMU_ARGS:-} \
    -nographic -no-reboot -monitor none -serial "file:$log" -nic none \
    -kernel "$VM_KERNEL" -initrd "$initramfs" \
    -append "console=ttyS0 panic=-1 quiet loglevel=4 mitigations=off rcupdate.rcu_cpu_stall_suppress=1" \
    -drive "file=$disk,format=raw,if=virtio,cache=unsafe" "${second[@]}" < /dev/null || rc=$?
  [ $rc -ne 124 ] && [ $rc -ne 137 ] || vm_die "the VM did not power off within ${secs} s (console: $log)"
  [ $rc -eq 0 ] || vm_die "qemu failed ($rc; console: $log)"
}

# The start of a VM test: the kernel (kept in WORK/cache), the module (built
# in WORK/module), vmread, and in VM_OUT=WORK/NAME an initramfs with GUEST as
# /test.sh (and each FILE at its root) and a blank 64 MiB disk, disk.img.
vm_setup() {
  local work=$1 name=$2 guest=$3 ko
  shift 3
  vm_require
  vm_find_kernel
  vm_fetch_kernel "$work/cache"
  VM_OUT=$work/$name
  mkdir -p "$VM_OUT"
  rm -f "$VM_OUT"/{console.log,disk.img,initramfs.cpio,vmread}
  ko=$(vm_build_module "$VM_DIR/../../kernel" "$work/module")
  vm_static "$VM_DIR/vmread.c" "$VM_OUT/vmread"
  vm_initramfs "$VM_OUT/initramfs.cpio" "$guest" "$ko" "$VM_OUT/vmread" "$@"
  truncate -s 64M "$VM_OUT/disk.img"
}
