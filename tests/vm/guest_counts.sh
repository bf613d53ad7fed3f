# /test.sh in the VM of tests/vm/counts.sh (busybox sh): loads spoor_ra and
# reads /dev/vda in known ways, printing for the host what was read and the
# module's counts before and after ("@@ " lines); the host does the checks.
dev=$(cat /sys/block/vda/dev) || exit 1
echo "@@ dev $dev"
counts() {
  grep "^$dev " /sys/kernel/spoor_ra/counts
}

# bad parameters are refused at load
insmod /spoor_ra.ko min_kb=8192 2> /dev/null && { echo "@@ error min_kb over max_kb was accepted"; rmmod spoor_ra; }
insmod /spoor_ra.ko hysteresis=0 2> /dev/null && { echo "@@ error hysteresis=0 was accepted"; rmmod spoor_ra; }
insmod /spoor_ra.ko devices=254 2> /dev/null && { echo "@@ error devices=254 was accepted"; rmmod spoor_ra; }
insmod /spoor_ra.ko window_ms=50 2> /dev/null && { echo "@@ error window_ms=50 was accepted"; rmmod spoor_ra; }
insmod /spoor_ra.ko window_ms=500 || exit 1
echo "@@ window_ms $(cat /sys/module/spoor_ra/parameters/window_ms)"
echo "@@ dry_run $(cat /sys/module/spoor_ra/parameters/dry_run)"
# and at run time: max_kb under min_kb
echo 8 > /sys/module/spoor_ra/parameters/max_kb 2> /dev/null && echo "@@ error max_kb under min_kb was accepted"

# O_DIRECT reads of one size: one request each
for c in "seq 4 4096" "seq 64 16384" "seq 512 32768" "rand 4 2048 7" "rand 128 16384 11"; do
  before=$(counts)
  got=$(/vmread /dev/vda $c) || exit 1
  echo "@@ case direct $c | $got | $before | $(counts)"
done

# the kernel's own tracer, tracefs, on one case: the module must count what it records
t=/sys/kernel/tracing
echo > $t/trace
echo 1 > $t/events/block/block_rq_issue/enable || exit 1
before=$(counts)
got=$(/vmread /dev/vda seq 16 4096) || exit 1
after=$(counts)
echo 0 > $t/events/block/block_rq_issue/enable
traced=$(grep -c "block_rq_issue: ${dev%:*},${dev#*:} R[A-Z]* " $t/trace)
echo "@@ tracefs $got traced_reads=$traced | $before | $after"

# buffered reads of 8 MiB at two readahead settings, from disjoint parts of
# the disk (nothing cached): 4 KiB requests without readahead, large ones with
for ra in 0 1024; do
  echo "$ra" > /sys/block/vda/queue/read_ahead_kb || exit 1
  skip=$((16 + ra / 64))
  before=$(counts)
  dd if=/dev/vda of=/dev/null bs=1M count=8 skip=$skip 2> /dev/null || exit 1
  echo "@@ case buffered $ra $(cat /sys/block/vda/queue/read_ahead_kb) | bytes=8388608 | $before | $(counts)"
done

# an idle second closes windows with nothing in them
sleep 1.2
echo "@@ windows $(cat /sys/kernel/spoor_ra/windows)"
echo "@@ idle_window $(grep "^$dev " /sys/kernel/spoor_ra/window)"
echo "@@ untracked $(cat /sys/kernel/spoor_ra/untracked_requests)"
rmmod spoor_ra || exit 1
[ -e /sys/kernel/spoor_ra ] && echo "@@ error /sys/kernel/spoor_ra outlived the module"
# the kernel's taint flags: only out-of-tree and unsigned module (no warning, no oops)
echo "@@ tainted $(cat /proc/sys/kernel/tainted)"
dmesg | grep -E 'WARNING|BUG|Oops|Call Trace' | sed 's/^/@@ dmesg /'
exit 0
