# /test.sh in the VM of tests/vm/agree.sh (busybox sh). First the module
# with the window model (the default, /spoor_ra.ko): it must say it
# classifies, and take dry_run=N. Then, for each dataset model
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
