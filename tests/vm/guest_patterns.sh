# /test.sh in the VM of tests/vm/patterns.sh (busybox sh): spoor_ra, built
# with a model trained on tests/data/vmlab, watches vmload's buffered
# sequential, mixed and random reads of /dev/vda, one phase after another.
# After every window the module closes, the device's state line goes to the
# host ("@@ w PHASE ra=KB STATE"), with read_ahead_kb as it is then;
# check_patterns.py judges them. First the model's training windows through
# /dev/spoor_ra_model (vmagree), then a dry run (nothing may change), then
# dry_run=N (readahead follows the classes), then rmmod (readahead restored);
# then, with the module gone, spoor tune live on the same disk (guest_tune.sh).
. /patterns.conf # WINDOW_MS HYSTERESIS MIN_KB MAX_KB MIN_REQUESTS DRY_MS PHASE_MS PHASES TUNE_MS SHORT_MS
dev=$(cat /sys/block/vda/dev) || exit 1
q=/sys/block/vda/queue/read_ahead_kb
s=/sys/kernel/spoor_ra
read -r original < $q
mkdir -p /tmp
echo "@@ original ra=$original"

# classified: how many windows the module has classified on the disk.
classified() {
  sed -n "s/^$dev .* classified=\([0-9]*\) .*/\1/p" $s/state
}

# phase NAME PATTERN MS SEED NEED: vmload PATTERN in rounds of MS ms in the
# background until the module has classified NEED windows of the phase (at
# most 8 rounds: a loaded host runs the VM slower, and its windows then
# hold fewer reads), the device's state printed after each window closes
# (polled every 20 ms: a window is 100 ms or more).
phase() {
  read -r last < $s/windows
  first=$(classified)
  round=0
  while [ $round -lt 8 ] && [ $(($(classified) - first)) -lt "$5" ]; do
    /vmload /dev/vda "$2" --ms "$3" --seed "$(($4 + 100 * round))" > /tmp/load.out 2>&1 &
    pid=$!
    while kill -0 $pid 2> /dev/null; do
      read -r n < $s/windows
      if [ "$n" != "$last" ]; then
        last=$n
        read -r ra < $q
        while read -r line; do
          case $line in "$dev "*) echo "@@ w $1 ra=$ra windows=$n $line" ;; esac
        done < $s/state
      fi
      sleep 0.02
    done
    wait $pid || { echo "@@ error $1: vmload failed: $(cat /tmp/load.out)"; exit 1; }
    round=$((round + 1))
  done
  read -r ra < $q
  echo "@@ phase $1 pattern=$2 ra=$ra $(cat /tmp/load.out)"
}

# the model's training windows through the agreement device: "@@a lab ROW INDEX CLASS"
insmod /spoor_ra.ko || { echo "@@ error insmod failed"; exit 1; }
/vmagree /rows_lab.txt lab || exit 1
rmmod spoor_ra || { echo "@@ error rmmod failed"; exit 1; }

params="window_ms=$WINDOW_MS hysteresis=$HYSTERESIS min_kb=$MIN_KB max_kb=$MAX_KB min_requests=$MIN_REQUESTS"
# shellcheck disable=SC2086 # params: words
insmod /spoor_ra.ko $params || { echo "@@ error insmod (dry run) failed"; exit 1; }
phase dry seq "$DRY_MS" 1 1
rmmod spoor_ra || { echo "@@ error rmmod (dry run) failed"; exit 1; }
read -r ra < $q
echo "@@ dry_rmmod ra=$ra"

# shellcheck disable=SC2086
insmod /spoor_ra.ko $params dry_run=N || { echo "@@ error insmod dry_run=N failed"; exit 1; }
seed=2
for p in $PHASES; do
  phase "$p" "$p" "$PHASE_MS" $seed $((HYSTERESIS + 2))
  seed=$((seed + 1))
done
read -r ra < $q
echo "@@ before_rmmod ra=$ra"
rmmod spoor_ra || { echo "@@ error rmmod failed"; exit 1; }
read -r ra < $q
echo "@@ after_rmmod ra=$ra"
. /guest_tune.sh
echo "@@ tainted $(cat /proc/sys/kernel/tainted)"
dmesg | grep -E 'WARNING|BUG|Oops|Call Trace' | sed 's/^/@@ dmesg /'
exit 0
