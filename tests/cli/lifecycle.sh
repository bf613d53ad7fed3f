# spoor lifecycle against the generator's exact answers: JSON lines and Python
# logging lines with injected faults, both presets, several threads, .gz,
# a log split in two inputs, --compare of two seeds, and bad usage.
source "$(dirname "$0")/lib/common.sh"

gen() { "$SPOOR_BIN" gen --kind cascade --records 30000 --top 5 "$@" > /dev/null; }
gen -o "$WORK/a.jsonl" --faults --seed 1
gen -o "$WORK/a.log" --faults --seed 2
gen -o "$WORK/b.jsonl" --seed 3
gen -o "$WORK/c.jsonl" --seed 4

check() { # check LOG PRESET TRUTH [options...]: the CSV output equals TRUTH exactly
  local log=$1 preset=$2 truth=$3
  shift 3
  "$SPOOR_BIN" lifecycle --preset "cascade-$preset" --top 5 --format csv "$@" $log > "$WORK/got.csv" 2> "$WORK/err" \
    || fail "lifecycle $preset $log $*: $(cat "$WORK/err")"
  diff -u "$truth" "$WORK/got.csv" > "$WORK/diff" || fail "lifecycle $preset $log $*: $(head -20 "$WORK/diff")"
}

for log in a.jsonl a.log; do
  grep -q '^input,,skipped,,[1-9]' "$WORK/$log.truth-tasks.csv" || fail "$log: the generator injected no broken lines"
  for preset in tasks transmits; do
    for threads in 1 2 3; do
      check "$WORK/$log" $preset "$WORK/$log.truth-$preset.csv" --threads $threads
    done
  done
done
grep -q '^kind,.*,missing:taskStarted,,[1-9]' "$WORK/a.jsonl.truth-tasks.csv" || fail "no missing stages injected"
grep -q '^kind,.*,repeated:transmitPlanned,,[1-9]' "$WORK/a.log.truth-transmits.csv" || fail "no repeated stages injected"
grep -q '^entities,,filled,,[1-9]' "$WORK/b.jsonl.truth-transmits.csv" || fail "no local transfer was filled in"

# Compressed input, and one log split in two files (lines and records add up).
gzip -c "$WORK/a.log" > "$WORK/a.log.gz"
check "$WORK/a.log.gz" tasks "$WORK/a.log.truth-tasks.csv"
head -n 12345 "$WORK/a.jsonl" > "$WORK/part1.jsonl"
tail -n +12346 "$WORK/a.jsonl" > "$WORK/part2.jsonl"
check "$WORK/part1.jsonl $WORK/part2.jsonl" transmits "$WORK/a.jsonl.truth-transmits.csv" --threads 2

# --compare: two seeds of one workflow match entity by entity; each side's
# delay sums are the two truths' sums.
"$SPOOR_BIN" lifecycle --preset cascade-tasks --format csv --compare "$WORK/c.jsonl" "$WORK/b.jsonl" > "$WORK/cmp.csv"
entities=$(awk -F, '$1 == "entities" && $3 == "entities" {print $5}' "$WORK/b.jsonl.truth-tasks.csv")
grep -q "^compare,,matched,,$entities," "$WORK/cmp.csv" || fail "compare: not all $entities entities matched"
grep -q '^compare,,only_here,,0,' "$WORK/cmp.csv" || fail "compare: entities only in one run"
for delay in comm queue runtime onworker total; do
  a=$(awk -F, -v d=$delay '$1 == "delay" && $4 == d {print $6}' "$WORK/b.jsonl.truth-tasks.csv")
  b=$(awk -F, -v d=$delay '$1 == "delay" && $4 == d {print $6}' "$WORK/c.jsonl.truth-tasks.csv")
  grep -q "^diff,,,$delay,$entities,$a,[0-9.]*,,,$b,$((b - a))," "$WORK/cmp.csv" \
    || fail "compare $delay: expected sums $a and $b: $(grep "^diff,,,$delay," "$WORK/cmp.csv")"
done
"$SPOOR_BIN" lifecycle --preset cascade-tasks --format json --compare "$WORK/b.jsonl" "$WORK/b.jsonl" > "$WORK/self.json"
grep -q '"total": {"count": [0-9]*, "sum_ns": [0-9]*, "other_sum_ns": [0-9]*, "diff_ns": 0, "rel_diff": 0.000000}' \
  "$WORK/self.json" || fail "a log compared with itself differs"
/usr/bin/python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$WORK/self.json" || fail "JSON output does not parse"

# Generic options give the preset's answer; the table names every section.
"$SPOOR_BIN" lifecycle --entity task --stage action --time at --top 5 --by worker --by mode \
  --stages taskPlanned,taskEnqueued,taskStarted,taskFinished --delay comm=taskEnqueued-taskPlanned \
  --delay queue=taskStarted-taskEnqueued --delay runtime=taskFinished-taskStarted \
  --delay onworker=taskFinished-taskEnqueued --delay total=taskFinished-taskPlanned --format csv "$WORK/b.jsonl" \
  | diff -q - "$WORK/b.jsonl.truth-tasks.csv" > /dev/null || fail "generic options differ from the preset"
"$SPOOR_BIN" lifecycle --preset cascade-transmits -o "$WORK/t.txt" "$WORK/b.jsonl"
for want in 'comm = transmitStarted - transmitPlanned' '^worker  *delay' '^kind ' 'slowest 10 by total'; do
  grep -q "$want" "$WORK/t.txt" || fail "table lacks '$want'"
done

# Bad input and usage: one line naming the problem.
EXPECT_MAX_LINES=3 expect_fail 1 'a.log:[0-9]*: not a log record' lifecycle --preset cascade-tasks --strict "$WORK/a.log"
expect_fail 2 "'nope' is not one of the --stages" lifecycle --preset cascade-tasks --delay x=nope-taskPlanned "$WORK/b.jsonl"
expect_fail 2 'exclude each other' lifecycle --preset cascade-tasks --stages a,b "$WORK/b.jsonl"
expect_fail 2 'name the log' lifecycle --stages a,b --delay x=b-a "$WORK/b.jsonl"
expect_fail 2 'no --stages' lifecycle --entity e --stage s --time t "$WORK/b.jsonl"
expect_fail 2 "no field 'when'" lifecycle --preset cascade-tasks --time when "$WORK/b.jsonl"
expect_fail 2 'expected table, json or csv' lifecycle --preset cascade-tasks --format xml "$WORK/b.jsonl"
"$SPOOR_BIN" lifecycle --help | grep -q -- '--compare LOG' || fail "--help lacks --compare"
echo ok
