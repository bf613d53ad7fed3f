# Shared setup for the bench/*/run.sh scripts; source it after `set -euo pipefail`.
#
# Sets:  here (the calling script's folder), root (the repository), spoor (the
#        binary, checked to be there), out (where inputs and results go),
#        threads, py (/usr/bin/python3: the one the install script fills)
# Reads: SPOOR, BENCH_OUT, BENCH_THREADS (default 2)
# Gives: die MESSAGE; need TOOL...; need_py MODULE; q ARG (shell-quoted);
#        results_dir NAME (sets res, a fresh $out/NAME, and records the load at
#        the start); load_end; time_it KEY [HYPERFINE OPTION...] COMMAND
#        (reads runs); time_pair KEY_A KEY_B PREPARE COMMAND_A COMMAND_B
#        (reads runs); peak KEY COMMAND

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
spoor=${SPOOR:-$root/build/spoor}
out=${BENCH_OUT:-$root/bench/out}
threads=${BENCH_THREADS:-2}
py=/usr/bin/python3

die() { echo "bench: $*" >&2; exit 1; }
[ -x "$spoor" ] || die "no spoor binary at $spoor (run 'make build' or set SPOOR)"

need() {
  local tool
  for tool in "$@"; do
    command -v "$tool" >/dev/null || die "$tool is missing: run scripts/install-bench-deps.sh"
  done
}
need_py() { "$py" -c "import $1" 2>/dev/null || die "$1 is missing for $py: run scripts/install-bench-deps.sh"; }

q() { printf '%q' "$1"; }

results_dir() {
  mkdir -p "$out"
  res=$out/$1
  rm -rf "$res"
  mkdir -p "$res"
  cut -d' ' -f1-3 /proc/loadavg >"$res/load_start"
}
load_end() { cut -d' ' -f1-3 /proc/loadavg >"$res/load_end"; }

# time_it KEY [HYPERFINE OPTION...] COMMAND: RUNS runs after one warm-up, into
# $res/KEY.json (options such as --prepare CMD go before the command).
time_it() {
  local key=$1
  shift
  echo "bench: $key" >&2
  hyperfine --runs "$runs" --warmup 1 --export-json "$res/$key.json" --style none "$@" >/dev/null 2>"$res/$key.err" || {
    echo "bench: $key failed: $(tail -n 3 "$res/$key.err")" >&2
    rm -f "$res/$key.json"
  }
}

# time_pair KEY_A KEY_B PREPARE COMMAND_A COMMAND_B: RUNS rounds after one
# warm-up, each PREPARE then A, PREPARE then B, so that this machine's drift
# over minutes (10-25 %) falls on both alike, where time_it's blocks of runs
# let it fall on one; each run's wall, user and system seconds go into
# $res/KEY.times, a line per run (report_lib.py's Results.paired).
time_pair() {
  local keys=("$1" "$2") prepare=$3 cmds=("$4" "$5") round side TIMEFORMAT='%3R %3U %3S'
  echo "bench: ${keys[0]} and ${keys[1]}, alternating" >&2
  : >"$res/${keys[0]}.times"
  : >"$res/${keys[1]}.times"
  for ((round = 0; round <= runs; round++)); do
    for side in 0 1; do
      sh -c "$prepare" >/dev/null 2>&1
      { time sh -c "${cmds[$side]}" >/dev/null 2>"$res/${keys[$side]}.err"; } 2>"$res/time.tmp" || {
        echo "bench: ${keys[$side]} failed: $(tail -n 3 "$res/${keys[$side]}.err")" >&2
        rm -f "$res/${keys[$side]}.times" "$res/time.tmp"
        return
      }
      [ "$round" -eq 0 ] || cat "$res/time.tmp" >>"$res/${keys[$side]}.times"
    done
  done
  rm -f "$res/time.tmp"
}

# peak KEY COMMAND: the peak resident memory of one run, in KB, into $res/KEY.rss.
peak() {
  local key=$1
  shift
  /usr/bin/time -f %M -o "$res/$key.rss" sh -c "$*" >/dev/null 2>&1 || echo "bench: $key failed" >&2
}
