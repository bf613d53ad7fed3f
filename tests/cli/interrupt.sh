# An interrupted run leaves nothing behind: SIGINT, SIGTERM, SIGHUP or SIGPIPE while
# export, events -o, gen or sql (its snapshot) write removes their hidden
# temporaries and the process dies by the signal (exit 128+n). After SIGKILL
# the previous output is intact, and the next run writing the same target
# removes the temporary the killed run left, but never a live writer's.
source "$(dirname "$0")/lib/common.sh"

cd "$WORK"
"$SPOOR_BIN" gen -o big.pfw --size-mb 200 --no-truth > /dev/null

temps() { compgen -G "$WORK/.*.tmp-*" || true; }
# run_until_temp GLOB CMD...: starts spoor CMD in the background (signals at
# their default action, as in a terminal) and returns once a file matching
# GLOB exists; $pid is the run.
run_until_temp() {
  local glob=$1
  shift
  env --default-signal=INT,TERM,HUP,PIPE "$SPOOR_BIN" "$@" > /dev/null 2> "$WORK/err" &
  pid=$!
  for _ in $(seq 5000); do
    compgen -G "$glob" > /dev/null && return 0
    kill -0 "$pid" 2> /dev/null || fail "spoor $* ended before its temporary $glob appeared"
    sleep 0.001
  done
  fail "spoor $*: no temporary $glob appeared"
}
# interrupt SIG N GLOB CMD...: the run dies by SIG (status 128+N), no temporary left.
interrupt() {
  local sig=$1 n=$2 glob=$3
  shift 3
  run_until_temp "$glob" "$@"
  kill -s "$sig" "$pid"
  local got=0
  wait "$pid" || got=$?
  [ "$got" -eq $((128 + n)) ] || fail "spoor $* after SIG$sig exited $got, expected $((128 + n)): $(cat err)"
  [ -z "$(temps)" ] || fail "spoor $* after SIG$sig left $(temps)"
}

interrupt INT 2 ".e.csv.tmp-*" export --no-progress --threads 1 --to csv -o e.csv big.pfw
interrupt TERM 15 ".e.db.tmp-*" export --no-progress --threads 1 --to sqlite -o e.db big.pfw
interrupt HUP 1 ".ev.csv.tmp-*" events --no-progress --threads 1 -o ev.csv big.pfw
interrupt PIPE 13 ".ev.csv.tmp-*" events --no-progress --threads 1 -o ev.csv big.pfw
interrupt TERM 15 ".g.pfw.gz.tmp-*" gen -o g.pfw.gz --size-mb 100000
[ ! -e g.pfw.gz ] && [ ! -e g.pfw.gz.truth.json ] || fail "an interrupted gen left an output"
interrupt INT 2 ".big.pfw.spoor-snap.tmp-*" sql --no-progress big.pfw "SELECT count(*) FROM events"
[ ! -e big.pfw.spoor-snap ] || fail "an interrupted sql left a snapshot"

# SIGKILL: the older output survives, the temporary stays until the next run.
"$SPOOR_BIN" export --no-progress --to csv -o e.csv big.pfw 2> /dev/null
cp e.csv before.csv
run_until_temp ".e.csv.tmp-*" export --no-progress --threads 1 --to csv -o e.csv big.pfw
kill -s KILL "$pid"
wait "$pid" || true
cmp -s e.csv before.csv || fail "SIGKILL damaged the previous output"
stale=$(temps)
[ -n "$stale" ] || fail "SIGKILL left no temporary (the test proves nothing)"
sleep 60 &
alive=$!
touch ".e.csv.tmp-$alive-AbCdEf" # a writer still at work
"$SPOOR_BIN" export --no-progress --to csv -o e.csv big.pfw 2> /dev/null || fail "the rerun failed"
kill "$alive"
[ ! -e "$stale" ] || fail "the rerun did not remove the killed run's $stale"
[ -e ".e.csv.tmp-$alive-AbCdEf" ] || fail "the rerun removed a live writer's temporary"
