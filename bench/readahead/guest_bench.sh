# /test.sh in the VM of bench/readahead/run.sh (busybox sh): "does it help?".
# Each round runs each pattern once under each setting: every fixed
# read_ahead_kb of FIXED, then the tuner (spoor tune, live, started for the
# run and stopped by SIGTERM after it) and the module (spoor_ra, dry_run=N,
# loaded fresh for the run): each starts from the default readahead and has
# to find the pattern first, with the same model, window and hysteresis. The settings' order turns by one each round, so that
# no setting always runs first. Each run prints its guest time and the
# disk's exact read requests and sectors (/sys/block/vda/stat deltas).
. /bench.conf # ROUNDS PATTERNS FIXED WORK_seq WORK_rand WORK_mixed WINDOW_MS HYSTERESIS DEFAULT_KB
q=/sys/block/vda/queue/read_ahead_kb
mkdir -p /tmp

# The settings of a round, as words: fixed:KB... tuner module.
settings=""
for kb in $FIXED; do settings="$settings fixed:$kb"; done
settings="$settings tuner module"

# tuner_start: spoor tune in the background (pid in $tune), returning once
# it traces, so that it sees the run from its first request.
tuner_start() {
  /spoor tune --model /model.json --device vda --every "${WINDOW_MS}ms" --hysteresis "$HYSTERESIS" \
    --format csv > /tmp/tune.csv 2> /tmp/tune.err &
  tune=$!
  n=0
  until grep -q '^spoor tune: tracing' /tmp/tune.err; do
    kill -0 $tune 2> /dev/null && [ $n -lt 500 ] || { echo "@@ error tuner: $(cat /tmp/tune.err)"; exit 1; }
    sleep 0.02
    n=$((n + 1))
  done
}

# tuner_stop: SIGTERM; "sets=N" (its rows that set the readahead), as the
# module's state says it. It puts the default readahead back on exit.
tuner_stop() {
  kill -TERM $tune
  wait $tune || { echo "@@ error tuner exited $?: $(cat /tmp/tune.err)"; exit 1; }
  state="sets=$(grep -c ',set,' /tmp/tune.csv)"
}

# rotate N WORDS...: the words from the (N mod count)-th on, then the others.
rotate() {
  n=$1
  shift
  k=$((n % $#))
  i=0 head="" tail=""
  for w in "$@"; do
    if [ $i -lt $k ]; then tail="$tail $w"; else head="$head $w"; fi
    i=$((i + 1))
  done
  echo "$head $tail"
}

# run_setting ROUND PATTERN SETTING
run_setting() {
  case $3 in
    fixed:*)
      echo "${3#fixed:}" > $q || exit 1 ;;
    tuner)
      echo "$DEFAULT_KB" > $q || exit 1
      tuner_start ;;
    module)
      echo "$DEFAULT_KB" > $q || exit 1
      insmod /spoor_ra.ko dry_run=N window_ms="$WINDOW_MS" hysteresis="$HYSTERESIS" ||
        { echo "@@ error insmod failed"; exit 1; } ;;
  esac
  eval "work=\$WORK_$2"
  # the stat's fields: reads completed, merged, sectors read, ...
  read -r r0 _ s0 _ < /sys/block/vda/stat
  # shellcheck disable=SC2086 # work: vmload's options
  out=$(/vmload /dev/vda "$2" $work --seed "$1" --drop) || { echo "@@ error $2 $3: vmload failed"; exit 1; }
  read -r r1 _ s1 _ < /sys/block/vda/stat
  read -r ra < $q
  [ "$3" != tuner ] || tuner_stop
  if [ "$3" = module ]; then
    state=$(grep "^$(cat /sys/block/vda/dev) " /sys/kernel/spoor_ra/state)
    rmmod spoor_ra || { echo "@@ error rmmod failed"; exit 1; }
  fi
  echo "@@ run round=$1 pattern=$2 setting=$3 $out reads=$((r1 - r0)) sectors=$((s1 - s0)) ra_end=$ra ${state:-}"
  state=""
}

r=1
while [ $r -le "$ROUNDS" ]; do
  for p in $PATTERNS; do
    # shellcheck disable=SC2086
    for s in $(rotate $r $settings); do
      run_setting $r "$p" "$s"
    done
  done
  r=$((r + 1))
done
echo "$DEFAULT_KB" > $q
echo "@@ tainted $(cat /proc/sys/kernel/tainted)"
dmesg | grep -E 'WARNING|BUG|Oops|Call Trace' | sed 's/^/@@ dmesg /'
exit 0
