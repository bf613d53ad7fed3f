#!/usr/bin/env bash
# Real block-layer traces made on this machine, labelled by the I/O pattern
# that made them, then cut into windows and classified by spoor.
#
# For each pattern and run, fio reads (and for the mixed pattern writes) a
# scratch file with direct I/O while the kernel's block_rq_issue,
# block_rq_complete and block_rq_requeue events of the file's disk are kept
# in a tracefs instance of our own (not the global buffer); when fio is done,
# tracing stops and the instance's `trace` text is written out gzipped, so the
# trace's own writes are never in a trace.
#
# Then `spoor windows` cuts each trace with its run id and label (one call per
# trace, the CSVs concatenated) and `spoor train --group run_id --cv logo`
# scores a classifier on runs it never saw.
#
# Needs root and fio (scripts/install-bench-deps.sh).
set -euo pipefail

usage() {
  cat <<'EOF'
usage: bench/capture/blk_capture.sh [options]

Runs fio patterns with direct I/O on a scratch file, records the block
requests of its disk through tracefs, writes labelled traces and a manifest,
then runs spoor windows and spoor train --group run_id --cv logo on them.

  --runs N          runs of each pattern, each with its own fio seed (4)
  --seconds S       fio time per run (10)
  --size SIZE       the scratch file, in fio's units (256M)
  --patterns LIST   of sequential, random, mixed (all three):
                      sequential  128k sequential reads
                      random      4k random reads
                      mixed       64k random reads and writes, 70/30
  --iodepth N       fio's libaio queue depth (4)
  --rate-iops N     cap fio's IOPS (0: no cap); small captures for fixtures
  --every DUR       spoor windows' width (1s)
  --model M         spoor train's model (logistic)
  --dir DIR         scratch folder for the fio file, on the disk to trace
                    (a fresh one under /var/tmp, removed at the end)
  --out DIR         where traces, manifest.csv, windows.csv and the model go
                    (bench/out/capture; earlier outputs there are replaced)
  --buffer-mb MB    tracefs buffer per CPU (256); an overrun is an error
  --spoor BIN       the spoor binary (build/spoor)
  -h, --help        this text

Outputs in --out: traces/PATTERN-K.ftrace.txt.gz, fio/PATTERN-K.json, manifest.csv (file, form, label, run_id, seed, seconds,
size, iodepth, rate_iops, device, kernel, date: the run's start, UTC), windows.csv, train.txt, model.json.
EOF
}

root=$(cd "$(dirname "$0")/../.." && pwd)
runs=4 seconds=10 size=256M patterns=sequential,random,mixed iodepth=4 rate_iops=0
every=1s model=logistic scratch='' out=$root/bench/out/capture buffer_mb=256
spoor=$root/build/spoor

die() { echo "blk_capture: $*" >&2; exit 1; }
while [ $# -gt 0 ]; do
  case $1 in
    -h|--help) usage; exit 0 ;;
    --runs|--seconds|--size|--patterns|--iodepth|--rate-iops|--every|--model|--dir|--out|--buffer-mb|--spoor)
      [ $# -ge 2 ] || die "$1 needs a value" ;;
    *) die "unknown option '$1' (see --help)" ;;
  esac
  case $1 in
    --runs) runs=$2 ;; --seconds) seconds=$2 ;; --size) size=$2 ;; --patterns) patterns=$2 ;;
    --iodepth) iodepth=$2 ;; --rate-iops) rate_iops=$2 ;; --every) every=$2 ;; --model) model=$2 ;;
    --dir) scratch=$2 ;; --out) out=$2 ;; --buffer-mb) buffer_mb=$2 ;; --spoor) spoor=$2 ;;
  esac
  shift 2
done
for n in runs seconds iodepth rate_iops buffer_mb; do
  [[ ${!n} =~ ^[0-9]+$ ]] || die "--${n//_/-} wants a whole number, not '${!n}'"
done
{ [ "$runs" -ge 1 ] && [ "$seconds" -ge 1 ]; } || die "--runs and --seconds want at least 1"
[ "$(id -u)" = 0 ] || die "needs root (tracefs)"
command -v fio > /dev/null || die "fio is missing: run scripts/install-bench-deps.sh"
[ -x "$spoor" ] || die "no spoor binary at $spoor (build it, or --spoor BIN)"
case $out in /work/shared|/work/shared/*) die "--out must not be in /work/shared" ;; esac

# fio options of each pattern
fio_args() {
  case $1 in
    sequential) echo "--rw=read --bs=128k" ;;
    random) echo "--rw=randread --bs=4k" ;;
    mixed) echo "--rw=randrw --rwmixread=70 --bs=64k" ;;
    *) die "unknown pattern '$1' (sequential, random, mixed)" ;;
  esac
}
IFS=, read -r -a pattern_list <<< "$patterns"
for p in "${pattern_list[@]}"; do fio_args "$p" > /dev/null; done

# Everything this script changes is undone here, on exit and on signals.
made_scratch='' tracefs='' mounted_tracefs='' instance='' fio_pid=''
cleanup() {
  set +e
  [ -n "$fio_pid" ] && kill "$fio_pid" 2> /dev/null && wait "$fio_pid" 2> /dev/null
  if [ -n "$instance" ] && [ -d "$instance" ]; then
    echo 0 > "$instance/tracing_on"
    echo 0 > "$instance/events/enable"
    rmdir "$instance" || echo "blk_capture: could not remove the tracefs instance $instance" >&2
  fi
  [ -n "$mounted_tracefs" ] && umount "$tracefs" && rmdir "$tracefs"
  [ -n "$made_scratch" ] && rm -rf "$made_scratch"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

if [ -z "$scratch" ]; then
  scratch=$(mktemp -d /var/tmp/spoor-capture.XXXXXX)
  made_scratch=$scratch
fi
mkdir -p "$scratch"
case $(cd "$scratch" && pwd) in /work/shared|/work/shared/*) die "--dir must not be in /work/shared" ;; esac

# The disk under the scratch folder: requests are traced on the whole disk
# (block_rq_* name the disk, not the partition); a stacked device (dm, md)
# issues no requests of its own.
fs_dev=$(stat -c '%Hd:%Ld' "$scratch")
sys=$(readlink -f "/sys/dev/block/$fs_dev") || die "no /sys/dev/block/$fs_dev for $scratch"
[ -f "$sys/partition" ] && sys=$(dirname "$sys")
[ -z "$(ls "$sys/slaves" 2> /dev/null)" ] ||
  die "$scratch is on $(basename "$sys"), a stacked device: point --dir at a folder on a plain disk"
disk=$(basename "$sys")
IFS=: read -r major minor < "$sys/dev"
devt=$(((major << 20) | minor))   # the kernel's dev_t, as the events' filter sees it

tracefs=$(findmnt -n -t tracefs -o TARGET | head -n 1 || true)
if [ -z "$tracefs" ]; then
  tracefs=$(mktemp -d /tmp/spoor-tracefs.XXXXXX)
  mount -t tracefs nodev "$tracefs" || { rmdir "$tracefs"; die "cannot mount tracefs"; }
  mounted_tracefs=1
fi
instance=$tracefs/instances/spoor-capture-$$
mkdir "$instance" || { instance=; die "cannot make a tracefs instance under $tracefs/instances"; }
echo 0 > "$instance/tracing_on"
echo "$((buffer_mb * 1024))" > "$instance/buffer_size_kb"
for ev in block_rq_issue block_rq_complete block_rq_requeue; do
  echo "dev == $devt" > "$instance/events/block/$ev/filter"
  echo 1 > "$instance/events/block/$ev/enable"
done

rm -rf "$out/traces" "$out/fio"   # this script's outputs only: --out may be any folder
rm -f "$out/manifest.csv" "$out/windows.csv" "$out/train.txt" "$out/model.json"
mkdir -p "$out/traces" "$out/fio"
kernel=$(uname -r)
echo "file,form,label,run_id,seed,seconds,size,iodepth,rate_iops,device,kernel,date" > "$out/manifest.csv"
echo "blk_capture: ${pattern_list[*]} x $runs runs of ${seconds}s on $disk ($major,$minor), scratch $scratch, out $out" >&2

# The scratch file is written once, before any trace: a file only allocated
# (fallocate) reads as zeros without touching the disk.
file=$scratch/blk_capture.dat
fio --name=layout --filename="$file" --size="$size" --rw=write --bs=1M --direct=1 --ioengine=libaio \
  --iodepth=4 --fallocate=none --output=/dev/null || die "fio could not write $file"

for ((k = 1; k <= runs; k++)); do
  for i in "${!pattern_list[@]}"; do
    p=${pattern_list[$i]} id=${pattern_list[$i]}-$k
    seed=$((1000 * k + i)) started=$(date -u +%FT%TZ)
    echo > "$instance/trace"
    echo 1 > "$instance/tracing_on"
    # shellcheck disable=SC2046
    fio --name="$id" --filename="$file" --size="$size" --direct=1 --ioengine=libaio --iodepth="$iodepth" \
      $(fio_args "$p") --time_based --runtime="$seconds" --randseed="$seed" --rate_iops="$rate_iops" \
      --output-format=json --output="$out/fio/$id.json" &
    fio_pid=$!
    wait "$fio_pid" || die "fio failed on $id"
    fio_pid=
    echo 0 > "$instance/tracing_on"
    # shellcheck disable=SC2002 # gzip < a tracefs file warns that its size changed (it has none)
    cat "$instance/trace" | gzip > "$out/traces/$id.ftrace.txt.gz"
    # "# entries-in-buffer/entries-written: IN/WRITTEN": fewer in than written means the buffer overran
    read -r kept written < <(zcat "$out/traces/$id.ftrace.txt.gz" | head -n 5 |
      sed -n 's|^# entries-in-buffer/entries-written: \([0-9]*\)/\([0-9]*\).*|\1 \2|p')
    { [ -n "$kept" ] && [ "$kept" = "$written" ]; } ||
      die "$id: the trace buffer lost events ($kept of $written kept): raise --buffer-mb or lower --seconds"
    echo "traces/$id.ftrace.txt.gz,ftrace,$p,$id,$seed,$seconds,$size,$iodepth,$rate_iops,$major:$minor,$kernel,$started" \
      >> "$out/manifest.csv"
    echo "blk_capture: $id: $kept events" >&2
  done
done

# One windows CSV: each trace cut on its own (its windows start at its first
# request), with its run id and label; the header once.
first=1
while IFS=, read -r f _ label run_id _; do
  "$spoor" windows --no-progress --every "$every" --run-id "$run_id" --label "$label" --format csv "$out/$f" < /dev/null |
    if [ $first = 1 ]; then cat; else tail -n +2; fi
  first=0
done < <(tail -n +2 "$out/manifest.csv") > "$out/windows.csv"

echo "blk_capture: $(($(wc -l < "$out/windows.csv") - 1)) windows of ${#pattern_list[@]} patterns x $runs runs" >&2
# Leave-one-run-out holds a whole run out: with one run of a pattern, its
# windows would be scored by a model that never saw the pattern.
[ "$runs" -ge 2 ] || { echo "blk_capture: no spoor train with one run of each pattern (--runs 2 at least)" >&2; exit 0; }
"$spoor" train "$out/windows.csv" --label label --features 'read_*,write_*' --group run_id --cv logo \
  --model "$model" -o "$out/model.json" 2>&1 | tee "$out/train.txt"
