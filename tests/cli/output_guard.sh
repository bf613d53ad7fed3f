# No command writes over what it reads: -o (and every other output a command
# writes) naming an input, a link to it, or its .spoor-idx / .spoor-snap
# sidecar is refused with exit 2, naming both, and the input stays intact.
# Stdout (-o -) and /dev/null are outputs like any other.
source "$(dirname "$0")/lib/common.sh"

cd "$WORK"
"$SPOOR_BIN" gen -o t.pfw --size-mb 0.3 --seed 2 --no-truth > /dev/null
"$SPOOR_BIN" gen -o z.pfw.gz --size-mb 0.3 --seed 3 --no-truth > /dev/null
"$SPOOR_BIN" index z.pfw.gz > /dev/null
[ -f z.pfw.gz.spoor-idx ] || fail "no index was written"
"$SPOOR_BIN" sql --no-progress t.pfw "SELECT 1" > /dev/null # writes t.pfw.spoor-snap
[ -f t.pfw.spoor-snap ] || fail "no snapshot was written"
ln -s t.pfw link.pfw
ln t.pfw hard.pfw
for f in t.pfw z.pfw.gz z.pfw.gz.spoor-idx t.pfw.spoor-snap; do cp "$f" "$f.orig"; done
intact() {
  for f in t.pfw z.pfw.gz z.pfw.gz.spoor-idx t.pfw.spoor-snap; do
    cmp -s "$f" "$f.orig" || fail "$* changed $f"
  done
}
refused() { # refused PATTERN ARGS...: exit 2 naming the output and the input, nothing changed
  local pattern=$1
  shift
  expect_fail 2 "^spoor $1: the output .*$pattern" "$@"
  intact "spoor $*"
}

refused "t.pfw is the input t.pfw" events -o t.pfw t.pfw
refused "t.pfw is the input t.pfw" stats -o t.pfw z.pfw.gz t.pfw
refused "t.pfw is the input t.pfw" sql -o t.pfw t.pfw "SELECT name FROM events"
refused "t.pfw is the input t.pfw" summary -o t.pfw t.pfw
refused "t.pfw is the input t.pfw" export --to csv -o t.pfw t.pfw
refused "t.pfw is the input t.pfw" export --to sqlite -o t.pfw t.pfw
refused "t.pfw is the input t.pfw" attribute --calls "cat = 'POSIX'" -o t.pfw t.pfw
refused "t.pfw is the input t.pfw" series --time ts -o t.pfw t.pfw
refused "t.pfw is the input t.pfw" lifecycle --preset cascade-tasks -o t.pfw t.pfw
refused "t.pfw is the input t.pfw" lifecycle --preset cascade-tasks --compare t.pfw -o t.pfw z.pfw.gz
refused "link.pfw is the input t.pfw" events -o link.pfw t.pfw
refused "hard.pfw is the input t.pfw" events -o hard.pfw t.pfw
refused "t.pfw is the input hard.pfw" events -o "$WORK/t.pfw" hard.pfw
refused "z.pfw.gz.spoor-idx is the gzip index of the input z.pfw.gz" events -o z.pfw.gz.spoor-idx z.pfw.gz
refused "t.pfw.spoor-snap is the snapshot of the input t.pfw" sql -o t.pfw.spoor-snap t.pfw "SELECT 1"
# A sidecar that is not there yet is the file the run would write.
refused "t2.pfw.spoor-snap is the snapshot of the input t2.pfw" sql -o t2.pfw.spoor-snap t2.pfw "SELECT 1"
mkdir cache
"$SPOOR_BIN" sql --no-progress --cache-dir cache t.pfw "SELECT 1" > /dev/null
snap=$(ls cache/*.spoor-snap)
cp "$snap" snap.orig
refused "is the snapshot (in --cache-dir) of the input t.pfw" sql --cache-dir cache -o "$snap" t.pfw "SELECT 1"
cmp -s "$snap" snap.orig || fail "the snapshot in --cache-dir changed"

# Outputs besides -o: a model's C header, a held-out split, a generator's truth.
awk 'BEGIN { print "a,b,y"; for (i = 0; i < 60; i++) printf "%d,%d,%s\n", i, i % 7, i < 30 ? "lo" : "hi" }' > d.csv
"$SPOOR_BIN" train d.csv --label y --epochs 2 -o m.json > /dev/null 2>&1 || fail "train failed"
cp d.csv d.orig && cp m.json m.orig
expect_fail 2 "^spoor train: the output d.csv is the input d.csv" train d.csv --label y --save-split d.csv -o m2.json
expect_fail 2 "^spoor train: the outputs m2.json and m2.json are the same file" \
  train d.csv --label y --save-split m2.json -o m2.json
expect_fail 2 "^spoor predict: the output m.json is the input m.json" predict m.json d.csv -o m.json
expect_fail 2 "^spoor eval: the output d.csv is the input d.csv" eval m.json d.csv -o d.csv
expect_fail 2 "^spoor export-model: the output m.json is the input m.json" export-model m.json --c-header m.json
expect_fail 2 "^spoor importance: the output d.csv is the input d.csv" importance d.csv --target y --corr-matrix d.csv
cmp -s d.csv d.orig && cmp -s m.json m.orig || fail "a dataset or model was overwritten"
echo keep > g.pfw
ln g.pfw g.pfw.truth.json
expect_fail 2 "^spoor gen: the outputs g.pfw and g.pfw.truth.json are the same file" gen -o g.pfw --size-mb 0.1
[ "$(cat g.pfw)" = keep ] || fail "gen overwrote its own output with its truth"

# Stdout and /dev/null are never an input.
"$SPOOR_BIN" events --no-progress -o - t.pfw > /dev/null || fail "events -o - failed"
"$SPOOR_BIN" stats --no-progress -o /dev/null t.pfw || fail "stats -o /dev/null failed"
intact "the runs to stdout and /dev/null"
