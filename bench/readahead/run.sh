#!/usr/bin/env bash
# Does it help? In the VM of tests/vm, vmload's sequential, random and mixed
# buffered reads, each timed under every fixed read_ahead_kb of a list (the
# default 128 among them; the best fixed one is found from the same runs),
# under the user-space tuner (spoor tune, live in the VM) and under the
# module (spoor_ra, dry_run=N), both with one model: the lab's, trained on
# tests/data/vmlab (bench/lab/model.sh; its header is
# kernel/readahead_model.h), or --model. Runs alternate (bench/readahead/guest_bench.sh); the table
# (summarize.py) has medians, ratios to the default within this one run, and
# the disk's exact request counts and bytes. Guest times under TCG are not
# absolute: only the ratios within one run mean something.
set -euo pipefail

usage() {
  cat <<'EOF'
usage: bench/readahead/run.sh [options]

  --rounds N        rounds; each runs every pattern under every setting (3)
  --patterns LIST   of seq, rand, mixed (all three)
  --fixed LIST      fixed read_ahead_kb settings (16,64,128,256,1024)
  --files-seq N     vmload files of a sequential run (12)
  --files-rand N    of a random run (60)
  --files-mixed N   of a mixed run (12)
  --window-ms MS    the window of the module (window_ms) and the tuner (--every) (250)
  --hysteresis N    their hysteresis (2)
  --model JSON      the model of both: spoor train's JSON with its fixed-point
                    header (export-model) beside it as JSON's name .h (default:
                    trained on tests/data/vmlab, as the lab does)
  --spoor BIN       the spoor binary, on the host and in the VM (build/spoor)
  --work DIR        the kernel cache and module build (build/vm)
  --out DIR         console.log and table.md (bench/out/readahead)
  -h, --help        this text
EOF
}

root=$(cd "$(dirname "$0")/../.." && pwd)
rounds=3 patterns=seq,rand,mixed fixed=16,64,128,256,1024 files_seq=12 files_rand=60 files_mixed=12
window_ms=250 hysteresis=2 model='' spoor=$root/build/spoor work=$root/build/vm out=$root/bench/out/readahead
die() { echo "readahead: $*" >&2; exit 1; }
while [ $# -gt 0 ]; do
  case $1 in
    -h|--help) usage; exit 0 ;;
    --rounds|--patterns|--fixed|--files-seq|--files-rand|--files-mixed|--window-ms|--hysteresis|--model|--spoor|--work|--out)
      [ $# -ge 2 ] || die "$1 needs a value" ;;
    *) die "unknown option '$1' (see --help)" ;;
  esac
  case $1 in
    --rounds) rounds=$2 ;; --patterns) patterns=$2 ;; --fixed) fixed=$2 ;; --files-seq) files_seq=$2 ;;
    --files-rand) files_rand=$2 ;; --files-mixed) files_mixed=$2 ;; --window-ms) window_ms=$2 ;;
    --hysteresis) hysteresis=$2 ;; --model) model=$2 ;; --spoor) spoor=$2 ;; --work) work=$2 ;; --out) out=$2 ;;
  esac
  shift 2
done
for n in rounds files_seq files_rand files_mixed window_ms hysteresis; do
  [[ ${!n} =~ ^[1-9][0-9]*$ ]] || die "--${n//_/-} wants a whole number from 1, not '${!n}'"
done
[[ $fixed =~ ^[0-9]+(,[0-9]+)*$ ]] || die "--fixed wants whole numbers, comma-separated, not '$fixed'"
[[ ,$fixed, == *,128,* ]] || die "--fixed must hold 128, the default the others are compared with"
for p in ${patterns//,/ }; do
  case $p in seq|rand|mixed) ;; *) die "unknown pattern '$p' (seq, rand, mixed)" ;; esac
done
[ -x "$spoor" ] || die "no spoor binary at $spoor (build it, or --spoor BIN)"
[ -z "$model" ] || model=$(cd "$(dirname "$model")" && pwd)/$(basename "$model")
mkdir -p "$work" "$out"
work=$(cd "$work" && pwd) out=$(cd "$out" && pwd)

. "$root/tests/vm/vm.sh"
vm_require
vm_find_kernel
vm_fetch_kernel "$work/cache"
vm=$work/readahead-bench
rm -rf "$vm" && mkdir -p "$vm"
if [ -z "$model" ]; then
  bash "$root/bench/lab/model.sh" "$root/tests/data/vmlab" "$vm/model" "$spoor" > "$vm/model.log" 2>&1 ||
    { cat "$vm/model.log" >&2; die "no model"; }
  model=$vm/model/model.json
fi
[ -f "$model" ] && [ -f "${model%.json}.h" ] || die "no model $model with its header ${model%.json}.h"
ko=$(vm_build_module "$root/kernel" "$work/module-bench" "${model%.json}.h")
vm_static "$root/tests/vm/vmload.c" "$vm/vmload"
cat > "$vm/bench.conf" <<EOF
ROUNDS=$rounds PATTERNS="${patterns//,/ }" FIXED="${fixed//,/ }" DEFAULT_KB=128
WORK_seq="--files $files_seq" WORK_rand="--files $files_rand" WORK_mixed="--files $files_mixed"
WINDOW_MS=$window_ms HYSTERESIS=$hysteresis
EOF
# the tuner: spoor with its libraries, and the model as /model.json
vm_spoor_tree "$spoor" "$vm/spoor"
cp "$model" "$vm/model.json"
vm_initramfs "$vm/initramfs.cpio" "$root/bench/readahead/guest_bench.sh" "$ko" "$vm/vmload" "$vm/bench.conf" \
  "$vm/spoor" "$vm/model.json"
truncate -s 1G "$vm/disk.img"

start=$SECONDS
vm_boot "$vm/initramfs.cpio" "$vm/disk.img" "$vm/console.log" 3600
rm -f "$vm/disk.img"
cp "$vm/console.log" "$out/console.log"
echo "readahead: the VM ran for $((SECONDS - start)) s" >&2
python3 "$root/bench/readahead/summarize.py" "$out/console.log" 128 | tee "$out/table.md"
