#!/usr/bin/env bash
# Labelled block traces made on demand in the VM of tests/vm (Debian's stock
# kernel under QEMU, TCG): vmload's sequential, random and mixed buffered
# reads on a virtio disk at several readahead settings and seeds, recorded by
# tracefs (bench/lab/guest_capture.sh), brought back on a second virtio disk.
# No module is loaded: the traces are the kernel's own.
set -euo pipefail

usage() {
  cat <<'EOF'
usage: bench/lab/capture.sh [options]

  --patterns LIST   of seq, rand, mixed (all three)
  --ra LIST         read_ahead_kb settings, comma-separated (16,128,1024)
  --seeds LIST      vmload seeds, comma-separated: one run of each pattern at
                    each setting per seed (1,2)
  --ms MS           each run's length in guest time: files until MS ms have
                    passed (1000)
  --files N         each run's length in files instead (0: --ms decides)
  --file-mib M      a file's size (16)
  --touches T       random touches per file (64)
  --disk SIZE       the workload disk, sparse (1G)
  --buffer-kb KB    tracefs buffer (16384); an overrun fails the capture
  --work DIR        the VM's kernel cache and scratch files (build/vm)
  --out DIR         traces/ and manifest.csv (bench/out/lab/capture; replaced)
  -h, --help        this text

Guest time is the host's (no QEMU -icount, unlike the features test): with
-icount sleep=off, a guest waiting on its disk jumps to its next timer, and
16 MiB read at 16 KiB readahead took 18 s of guest time for 0.2 s of host
time. Rates and latencies still depend on the host's load, which is why the
lab's model uses none of them (bench/lab/model.sh).
EOF
}

root=$(cd "$(dirname "$0")/../.." && pwd)
patterns=seq,rand,mixed ras=16,128,1024 seeds=1,2 ms=1000 files=0 file_mib=16 touches=64 disk=1G buffer_kb=16384
work=$root/build/vm out=$root/bench/out/lab/capture
die() { echo "capture: $*" >&2; exit 1; }
while [ $# -gt 0 ]; do
  case $1 in
    -h|--help) usage; exit 0 ;;
    --patterns|--ra|--seeds|--ms|--files|--file-mib|--touches|--disk|--buffer-kb|--work|--out)
      [ $# -ge 2 ] || die "$1 needs a value" ;;
    *) die "unknown option '$1' (see --help)" ;;
  esac
  case $1 in
    --patterns) patterns=$2 ;; --ra) ras=$2 ;; --seeds) seeds=$2 ;; --ms) ms=$2 ;; --files) files=$2 ;;
    --file-mib) file_mib=$2 ;; --touches) touches=$2 ;; --disk) disk=$2 ;; --buffer-kb) buffer_kb=$2 ;;
    --work) work=$2 ;; --out) out=$2 ;;
  esac
  shift 2
done
[[ $files =~ ^[0-9]+$ ]] || die "--files wants a whole number, not '$files'"
[[ $ms =~ ^[0-9]+$ ]] || die "--ms wants a whole number, not '$ms'"
if [ "$files" -gt 0 ]; then amount="--files $files"; else amount="--ms $ms"; fi
[ "$amount" != "--ms 0" ] || die "--ms 0 and --files 0: no amount of work"
for n in file_mib touches buffer_kb; do
  [[ ${!n} =~ ^[1-9][0-9]*$ ]] || die "--${n//_/-} wants a whole number from 1, not '${!n}'"
done
[[ $ras =~ ^[0-9]+(,[0-9]+)*$ ]] || die "--ra wants whole numbers, comma-separated, not '$ras'"
[[ $seeds =~ ^[1-9][0-9]*(,[1-9][0-9]*)*$ ]] || die "--seeds wants whole numbers from 1, comma-separated, not '$seeds'"
for p in ${patterns//,/ }; do
  case $p in seq|rand|mixed) ;; *) die "unknown pattern '$p' (seq, rand, mixed)" ;; esac
done
case $out in /work/shared|/work/shared/*) die "--out must not be in /work/shared" ;; esac

mkdir -p "$work" "$out"
work=$(cd "$work" && pwd)
. "$root/tests/vm/vm.sh"
vm_require
vm_find_kernel
vm_fetch_kernel "$work/cache"
vm=$work/lab-capture
rm -rf "$vm" && mkdir -p "$vm"
vm_static "$root/tests/vm/vmload.c" "$vm/vmload"
cat > "$vm/lab.conf" <<EOF
PATTERNS="${patterns//,/ }"
RAS="${ras//,/ }"
SEEDS="${seeds//,/ }"
AMOUNT="$amount"
FILE_MIB=$file_mib
TOUCHES=$touches
BUFFER_KB=$buffer_kb
EOF
vm_initramfs "$vm/initramfs.cpio" "$root/bench/lab/guest_capture.sh" "$vm/vmload" "$vm/lab.conf"
truncate -s "$disk" "$vm/disk.img"
# the tar of the traces: gzipped, a few MB; 256 MiB is room to spare, and sparse
truncate -s 256M "$vm/out.img"

start=$SECONDS
vm_boot "$vm/initramfs.cpio" "$vm/disk.img" "$vm/console.log" 1800 "$vm/out.img"
grep -q '^@@ end status=0' "$vm/console.log" ||
  { grep '^@@ error' "$vm/console.log" >&2 || true; die "the guest failed (console: $vm/console.log)"; }
tainted=$(tr -d "\r" < "$vm/console.log" | sed -n "s/^@@ tainted //p")
[ "$tainted" = 0 ] || die "the guest kernel is tainted ($tainted; console: $vm/console.log)"
! grep -q '^@@ dmesg' "$vm/console.log" || die "WARNING, BUG or Oops in the guest's dmesg (console: $vm/console.log)"

rm -rf "$out/traces" "$out/manifest.csv"
tar -x -f "$vm/out.img" -C "$out" || die "no tar of traces on the VM's second disk ($vm/out.img)"
rm -f "$vm/disk.img" "$vm/out.img"
runs=$(($(wc -l < "$out/manifest.csv") - 1))
echo "capture: $runs runs in $((SECONDS - start)) s of VM; $(du -sh "$out/traces" | cut -f1) of traces in $out" >&2
