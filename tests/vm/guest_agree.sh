# /test.sh in the VM of tests/vm/agree.sh (busybox sh). First the module
# with the window model (the default, /spoor_ra.ko): it must say it
# classifies, and take dry_run=N; and how it sets and restores the disk's
# readahead, whatever the class: min_kb = max_kb = 48 clamps every class's
# action to 48 KiB ("@@ ra CASE KB STATE"). Then, for each dataset model
# (/spoor_ra_trees.ko, /spoor_ra_rule.ko): it must say it does not classify
# windows and refuse dry_run=N (at load and at run time), and every row of
# /rows_MODEL.txt goes through /dev/spoor_ra_model (vmagree). The host
# compares the classes ("@@a " lines) with spoor predict's.
model() {
  echo "@@ model $1 $(cat /sys/kernel/spoor_ra/model)"
}

insmod /spoor_ra.ko || exit 1
model window
echo N > /sys/module/spoor_ra/parameters/dry_run || echo "@@ error window: dry_run=N was refused"
echo "@@ dry_run window $(cat /sys/module/spoor_ra/parameters/dry_run)"
[ -c /dev/spoor_ra_model ] || echo "@@ error window: no /dev/spoor_ra_model"
rmmod spoor_ra || exit 1

ra=/sys/block/vda/queue/read_ahead_kb
load() {
  insmod /spoor_ra.ko window_ms=600000 hysteresis=1 min_kb=48 max_kb=48 "$@" || exit 1
}
# one window of 64 random reads, closed; then CASE, the disk's readahead and the module's state
window_then() {
  echo restart > /sys/kernel/spoor_ra/close
  /vmread /dev/vda rand 4 256 "$1" > /dev/null || exit 1
  echo 1 > /sys/kernel/spoor_ra/close
  echo "@@ ra $2 $(cat $ra) $(cat /sys/kernel/spoor_ra/state)"
}
echo "@@ ra start $(cat $ra)"
load
window_then 1 dry_run
rmmod spoor_ra || exit 1
load dry_run=N devices=1:1
window_then 2 not_listed
rmmod spoor_ra || exit 1
load dry_run=N
window_then 3 set
rmmod spoor_ra || exit 1
echo "@@ ra restored $(cat $ra)"
load dry_run=N
window_then 4 set_again
echo 64 > $ra
rmmod spoor_ra || exit 1
echo "@@ ra by_hand $(cat $ra)"

for m in trees rule; do
  insmod /spoor_ra_$m.ko dry_run=N 2> /dev/null && { echo "@@ error $m: dry_run=N was accepted at load"; rmmod spoor_ra; }
  insmod /spoor_ra_$m.ko || exit 1
  model $m
  echo N > /sys/module/spoor_ra/parameters/dry_run 2> /dev/null && echo "@@ error $m: dry_run=N was accepted"
  /vmagree /rows_$m.txt $m || exit 1
  rmmod spoor_ra || exit 1
done
[ -e /dev/spoor_ra_model ] && echo "@@ error /dev/spoor_ra_model outlived the module"
dmesg | grep -E 'spoor_ra: (.*classifying|dry_run=N is refused)' | sed 's/^[^]]*] /@@ kmsg /'
# the kernel's taint flags: only out-of-tree and unsigned module (no warning, no oops)
echo "@@ tainted $(cat /proc/sys/kernel/tainted)"
dmesg | grep -E 'WARNING|BUG|Oops|Call Trace' | sed 's/^/@@ dmesg /'
exit 0
