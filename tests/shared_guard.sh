#!/usr/bin/env bash
# The shared data (../shared) is read-only for tests: `record` lists every file
# under it (path, size, mtime, ctime, inode) before the suite, `check` lists it
# again after and fails on any file added, removed or changed - an index or a
# snapshot written next to a shared trace, say. CTest runs the two as the
# setup and cleanup of a fixture every test requires, so this holds in any order.
set -euo pipefail
mode=$1 shared=$2 state=$3

listing() {
  [ -d "$shared" ] || return 0
  find "$shared" -printf '%P\t%y\t%s\t%T@\t%C@\t%i\n' | LC_ALL=C sort
}

case $mode in
record)
  listing > "$state"
  echo "recorded $(wc -l < "$state") entries under $shared"
  ;;
check)
  [ -f "$state" ] || { echo "FAIL: no listing recorded in $state" >&2; exit 1; }
  if ! diff <(cat "$state") <(listing) > "$state.diff"; then
    echo "FAIL: the suite changed $shared (< before, > after):" >&2
    cat "$state.diff" >&2
    exit 1
  fi
  echo "unchanged: $(wc -l < "$state") entries under $shared"
  ;;
*)
  echo "usage: shared_guard.sh record|check SHARED STATE" >&2
  exit 2
  ;;
esac
