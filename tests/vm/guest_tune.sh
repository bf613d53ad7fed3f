# The tune phase of tests/vm/guest_patterns.sh (busybox sh, sourced once the
# module is unloaded): `spoor tune` (/spoor, its libraries beside it, with
# /model.json, the model the module was built with) live on /dev/vda, where
# root and tracefs always exist. check_tune.py judges the "@@ " lines:
#
# - "@@t RUN PHASE ra=KB now=S ROW": each CSV row of tune's, printed as it
#   appears (polled every 20 ms while vmload runs), with read_ahead_kb and
#   the guest's clock then (/proc/uptime);
# - "@@ tphase RUN PHASE pattern=P begin=S end=S ra=KB": when a phase ran
#   (/proc/uptime: the monotonic clock of tune's rows, to 10 ms, in a guest
#   that never suspends) and read_ahead_kb after it;
# - "@@ tend RUN code=N ra=KB instances=N": tune's exit, read_ahead_kb and
#   the tracefs instances left after it; "@@ terr RUN LINE": its stderr.
#
# The runs, in order: "head" writes into `head -n 2`, which closes the pipe
# after one row; "dry" is a --dry-run over seq, ended by SIGTERM; "live"
# applies, over vmload's seq, then rand (each until tune has decided enough
# windows of it), then an idle second, ended by SIGTERM; "keep" applies with
# --keep over rand, for --duration.
# Uses q, original, WINDOW_MS HYSTERESIS MIN_KB MAX_KB MIN_REQUESTS and
# TUNE_MS (a phase of "live") and SHORT_MS (keep's and dry's) of
# guest_patterns.sh.
instances=/sys/kernel/tracing/instances
tune_args="--model /model.json --device vda --every ${WINDOW_MS}ms --hysteresis $HYSTERESIS --min-kb $MIN_KB
  --max-kb $MAX_KB --min-requests $MIN_REQUESTS --format csv"

# tune_start RUN ARGS...: spoor tune in the background (pid in $tune), rows
# to /tmp/RUN.csv; returns once it traces (its start line) or has ended.
tune_start() {
  run=$1
  shift
  # shellcheck disable=SC2086 # tune_args: words
  /spoor tune $tune_args "$@" > "/tmp/$run.csv" 2> "/tmp/$run.err" &
  tune=$!
  seen=1 # the CSV header is line 1
  n=0
  while ! grep -q '^spoor tune: tracing' "/tmp/$run.err" && kill -0 $tune 2> /dev/null && [ $n -lt 500 ]; do
    sleep 0.02
    n=$((n + 1))
  done
}

# tune_rows RUN PHASE: the rows written since the last call.
tune_rows() {
  n=$(wc -l < "/tmp/$1.csv")
  [ "$n" -gt "$seen" ] || return 0
  read -r ra < $q
  now=$(cut -d" " -f1 /proc/uptime)
  sed -n "$((seen + 1)),${n}p" "/tmp/$1.csv" | while read -r row; do
    echo "@@t $1 $2 ra=$ra now=$now $row"
  done
  seen=$n
}

# decided RUN FROM: tune's rows after line FROM of /tmp/RUN.csv that are
# not idle.
decided() {
  tail -n +"$(($2 + 1))" "/tmp/$1.csv" | cut -d, -f6 | grep -cv '^idle$'
}

# tune_phase RUN PHASE PATTERN MS SEED [NEED]: vmload PATTERN (or, for idle,
# a sleep) for MS ms, tune's rows printed as they come; with NEED, again in
# rounds of MS ms until tune has decided NEED windows of the phase (at most
# 8 rounds: a loaded host runs the VM slower, its windows hold fewer reads).
tune_phase() {
  begin=$(cut -d" " -f1 /proc/uptime)
  from=$(wc -l < "/tmp/$1.csv")
  round=0
  while [ $round -eq 0 ] || { [ $round -lt 8 ] && [ "$(decided "$1" "$from")" -lt "${6:-0}" ]; }; do
    if [ "$3" = idle ]; then
      sleep "$(($4 / 1000)).$(printf %03d $(($4 % 1000)))" &
    else
      /vmload /dev/vda "$3" --ms "$4" --seed "$(($5 + 100 * round))" > /tmp/load.out 2>&1 &
    fi
    pid=$!
    while kill -0 $pid 2> /dev/null; do
      tune_rows "$1" "$2"
      sleep 0.02
    done
    wait $pid || { echo "@@ error tune $1 $2: vmload failed: $(cat /tmp/load.out)"; exit 1; }
    round=$((round + 1))
  done
  end=$(cut -d" " -f1 /proc/uptime)
  tune_rows "$1" "$2"
  read -r ra < $q
  echo "@@ tphase $1 $2 pattern=$3 begin=$begin end=$end ra=$ra"
}

# tune_end RUN: waits for tune, prints its last rows, exit, stderr.
tune_end() {
  code=0
  wait $tune || code=$?
  tune_rows "$1" end
  read -r ra < $q
  echo "@@ tend $1 code=$code ra=$ra instances=$(ls $instances | wc -l)"
  sed "s/^/@@ terr $1 /" "/tmp/$1.err"
}

# The short runs first: QEMU translates code the first time it runs, and
# keeps it, so that tune's first windows in the VM are its slowest: the
# runs judged by their classes then start warm.

# head: a closed output ends tune (exit 1: the write failed), cleanly.
{
  # shellcheck disable=SC2086
  /spoor tune $tune_args --dry-run --every 100ms --duration 10s 2> /tmp/head.err
  echo "@@ tend head code=$? ra=$(cat $q) instances=$(ls $instances | wc -l)" > /tmp/head.end
} | head -n 2 > /dev/null
cat /tmp/head.end
sed "s/^/@@ terr head /" /tmp/head.err

# dry: seq under --dry-run, ended by SIGTERM.
tune_start dry --dry-run
tune_phase dry seq seq "$SHORT_MS" 8
kill -TERM $tune
tune_end dry

# live: seq, rand and an idle second, then SIGTERM (keep's run ends by
# --duration).
tune_start live
tune_phase live seq seq "$TUNE_MS" 5 $((HYSTERESIS + 2))
tune_phase live rand rand "$TUNE_MS" 6 $((HYSTERESIS + 2))
tune_phase live idle idle 1000
kill -TERM $tune
tune_end live

# keep: rand until --duration ends it; the readahead it set stays.
tune_start keep --keep --duration "$SHORT_MS"ms
tune_phase keep rand rand "$SHORT_MS" 7
tune_end keep
echo "$original" > $q
