# /test.sh in the VM of bench/lab/capture.sh (busybox sh): runs each pattern
# of /lab.conf with vmload on /dev/vda at each readahead and seed while
# tracefs records block_rq_issue and block_rq_complete of vda, one trace per
# run, gzipped; then writes the traces and manifest.csv as a tar on /dev/vdb,
# which the host reads back (the console is too slow and too lossy for MBs).
. /lab.conf # PATTERNS RAS SEEDS AMOUNT (vmload's --files N or --ms MS) FILE_MIB TOUCHES BUFFER_KB
t=/sys/kernel/tracing
IFS=: read -r major minor < /sys/block/vda/dev || exit 1
devt=$(((major << 20) | minor)) # the kernel's dev_t, as the events' filter sees it
echo "$BUFFER_KB" > $t/buffer_size_kb || exit 1
for ev in block_rq_issue block_rq_complete; do
  echo "dev == $devt" > $t/events/block/$ev/filter || exit 1
  echo 1 > $t/events/block/$ev/enable || exit 1
done
echo 0 > $t/tracing_on
mkdir -p /out/traces
echo "file,label,run_id,pattern,readahead_kb,seed,file_mib,touches,files,requests,bytes_asked,elapsed_ns" > /out/manifest.csv

label_of() {
  case $1 in seq) echo sequential ;; rand) echo random ;; mixed) echo mixed ;; esac
}

# Waits until the disk has no request in flight.
idle() {
  while read -r r w < /sys/block/vda/inflight && [ "$r $w" != "0 0" ]; do
    sleep 0.01
  done
}

for ra in $RAS; do
  echo "$ra" > /sys/block/vda/queue/read_ahead_kb || exit 1
  for seed in $SEEDS; do
    for p in $PATTERNS; do
      id=$(label_of "$p")-ra$ra-s$seed
      echo > $t/trace
      idle
      echo 1 > $t/tracing_on
      # shellcheck disable=SC2086 # AMOUNT: two words
      out=$(/vmload /dev/vda "$p" $AMOUNT --file-mib "$FILE_MIB" --touches "$TOUCHES" --seed "$seed" --drop) ||
        { echo "@@ error $id: vmload failed"; exit 1; }
      idle
      echo 0 > $t/tracing_on
      # a lost event would make a trace that is not what ran
      lost=$(sed -n 's/^overrun: //p' $t/per_cpu/cpu0/stats)
      [ "$lost" = 0 ] || { echo "@@ error $id: the trace buffer overran ($lost events lost): raise BUFFER_KB"; exit 1; }
      gzip -c $t/trace > "/out/traces/$id.ftrace.txt.gz"
      requests=$(grep -c 'block_rq_issue:' $t/trace)
      # vmload's "files=N bytes=B elapsed_ns=T" as N,B,T
      did=$(echo "$out" | sed -n 's/^files=\([0-9]*\) bytes=\([0-9]*\) elapsed_ns=\([0-9]*\)$/\1,\2,\3/p')
      [ -n "$did" ] || { echo "@@ error $id: vmload said '$out'"; exit 1; }
      files=${did%%,*}
      echo "traces/$id.ftrace.txt.gz,$(label_of "$p"),$id,$p,$ra,$seed,$FILE_MIB,$TOUCHES,$files,$requests,${did#*,}" >> /out/manifest.csv
      echo "@@ run $id requests=$requests $out"
    done
  done
done
tar -c -f /dev/vdb -C /out . || { echo "@@ error cannot write the tar on /dev/vdb"; exit 1; }
sync
echo "@@ tainted $(cat /proc/sys/kernel/tainted)"
dmesg | grep -E 'WARNING|BUG|Oops|Call Trace' | sed 's/^/@@ dmesg /'
exit 0
