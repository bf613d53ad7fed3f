# /test.sh in the VM of tests/vm/features.sh (busybox sh): for each I/O
# pattern, tracefs records block_rq_issue and block_rq_complete while the
# module's window is closed on demand before and after the pattern; the
# module's features of that window, its width and the trace go to the host
# ("@@ " lines, the trace's lines as "@@t "), which runs spoor windows on the
# trace and compares.
dev=$(cat /sys/block/vda/dev) || exit 1
ra=/sys/kernel/spoor_ra
t=/sys/kernel/tracing
echo "@@ dev $dev"
# no timed close during the test: windows end on demand only
insmod /spoor_ra.ko window_ms=600000 || exit 1
echo 4096 > $t/buffer_size_kb || exit 1

# Waits until the disk has no request in flight.
idle() {
  while read -r r w < /sys/block/vda/inflight && [ "$r $w" != "0 0" ]; do
    sleep 0.01
  done
}

# pattern NAME COMMAND...: COMMAND's requests in one window of the module,
# traced. The disk is idle at both closes (nothing else reads it, and the
# second waits for the pattern's last requests), so the window holds exactly
# the requests of the trace.
pattern() {
  name=$1
  shift
  echo > $t/trace
  echo 1 > $t/events/block/block_rq_issue/enable || exit 1
  echo 1 > $t/events/block/block_rq_complete/enable || exit 1
  idle
  # restart: the first request has no distance, as in the trace
  echo restart > $ra/close
  sh -c "$*" > /dev/null 2>&1 || { echo "@@ error $name: $* failed"; exit 1; }
  # readahead may leave a request in flight after dd returns: let it end
  idle
  echo 1 > $ra/close
  echo 0 > $t/events/block/block_rq_issue/enable
  echo 0 > $t/events/block/block_rq_complete/enable
  echo "@@ pattern $name window_ns=$(cat $ra/window_ns) untimed=$(cat $ra/untimed_requests)"
  echo "@@ features $name $(grep "^$dev " $ra/features)"
  sed 's/^/@@t /' $t/trace
  echo "@@ trace_end $name"
}

pattern seq_16k "/vmread /dev/vda seq 16 1024"
pattern rand_4k "/vmread /dev/vda rand 4 512 7"
# two readers at once, distances interleaved; the random one keeps 4 reads in
# flight, so that queue depths above 1 do not hang on the host's scheduling
pattern two_readers "/vmread /dev/vda seq 64 2048 & /vmread /dev/vda rand 8 512 11 4 & wait"
# buffered reads through readahead, and direct writes
echo 128 > /sys/block/vda/queue/read_ahead_kb
pattern buffered_ra128 "dd if=/dev/vda of=/dev/null bs=1M count=2 skip=40"
pattern writes_64k "dd if=/dev/zero of=/dev/vda bs=64k count=16 seek=600 oflag=direct conv=notrunc"
rmmod spoor_ra || exit 1
echo "@@ tainted $(cat /proc/sys/kernel/tainted)"
dmesg | grep -E 'WARNING|BUG|Oops|Call Trace' | sed 's/^/@@ dmesg /'
exit 0
