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
# The other log's own groups, boxes too, are its truth's groups.
grep '^group,' "$WORK/c.jsonl.truth-tasks.csv" | sed 's/^group,/other_group,/' > "$WORK/other_want.csv"
grep '^other_group,' "$WORK/cmp.csv" | diff -u "$WORK/other_want.csv" - > "$WORK/diff" \
  || fail "compare: the other log's groups differ from its truth: $(head -20 "$WORK/diff")"
grep -q '^other_group,worker,h[0-9]*:w[0-9]*,total,[0-9]*,[0-9]*,[0-9.]*,[0-9]*,[0-9]*,,,,[0-9.]*,[0-9.]*,' "$WORK/cmp.csv" \
  || fail "compare: no boxes in the other log's groups"
"$SPOOR_BIN" lifecycle --preset cascade-tasks --format json --compare "$WORK/b.jsonl" "$WORK/b.jsonl" > "$WORK/self.json"
grep -q '"total": {"count": [0-9]*, "sum_ns": [0-9]*, "other_sum_ns": [0-9]*, "diff_ns": 0, "rel_diff": 0.000000}' \
  "$WORK/self.json" || fail "a log compared with itself differs"
/usr/bin/python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$WORK/self.json" || fail "JSON output does not parse"

# The boxes against Python's own quantiles, on long-tailed delays (outliers).
/usr/bin/python3 "$(dirname "$0")/lib/lifecycle_boxes.py" write "$WORK/tails.jsonl"
"$SPOOR_BIN" lifecycle --preset cascade-tasks --format csv --threads 2 "$WORK/tails.jsonl" > "$WORK/tails.csv"
/usr/bin/python3 "$(dirname "$0")/lib/lifecycle_boxes.py" check "$WORK/tails.jsonl" "$WORK/tails.csv" \
  || fail "lifecycle boxes differ from Python's"

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

# The scheduler's own log, written by hand: task records name a `task`, transfer
# records a `dataset`; the controller logs the Planned stages with the worker's
# full name, the workers their host and short name; one dataset goes to two
# workers (two transfers), one planned remote and finished redundant (its mode
# is the last logged), one local (Started and Loaded filled in); a task whose
# Planned record is missing still gets its host:worker.
cat > "$WORK/sched.jsonl" <<'EOF'
{"task": "sot:a1", "action": "taskPlanned", "worker": "h0:worker0", "host": "controller", "at": 100}
{"task": "sot:a1", "action": "taskEnqueued", "worker": "worker0", "host": "h0", "at": 150}
{"task": "sot:a1", "action": "taskStarted", "worker": "worker0", "host": "h0", "at": 200}
{"task": "sot:a1", "action": "taskFinished", "worker": "worker0", "host": "h0", "at": 1000}
{"task": "efi:b2", "action": "taskPlanned", "worker": "h1:worker0", "host": "controller", "at": 100}
{"task": "efi:b2", "action": "taskEnqueued", "worker": "worker0", "host": "h1", "at": 300}
{"task": "efi:b2", "action": "taskStarted", "worker": "worker0", "host": "h1", "at": 400}
{"task": "efi:b2", "action": "taskFinished", "worker": "worker0", "host": "h1", "at": 500}
{"task": "efi:c3", "action": "taskEnqueued", "worker": "worker1", "host": "h1", "at": 600}
{"task": "efi:c3", "action": "taskStarted", "worker": "worker1", "host": "h1", "at": 650}
{"task": "efi:c3", "action": "taskFinished", "worker": "worker1", "host": "h1", "at": 700}
{"dataset": "sot:a1", "action": "transmitPlanned", "worker": "h0:worker1", "host": "controller", "mode": "remote", "at": 1000}
{"dataset": "sot:a1", "action": "transmitPlanned", "worker": "h1:worker0", "host": "controller", "mode": "local", "at": 1000}
{"dataset": "sot:a1", "action": "transmitFinished", "worker": "worker0", "host": "h1", "mode": "local", "at": 1050}
{"dataset": "sot:a1", "action": "transmitStarted", "worker": "worker1", "host": "h0", "at": 1100}
{"dataset": "sot:a1", "action": "transmitLoaded", "worker": "worker1", "host": "h0", "at": 1200}
{"dataset": "sot:a1", "action": "transmitFinished", "worker": "worker1", "host": "h0", "mode": "redundant", "at": 1500}
EOF
expect_lines() { # expect_lines PRESET LOG LINE...: the CSV output has each line
  local preset=$1 log=$2
  shift 2
  "$SPOOR_BIN" lifecycle --preset "cascade-$preset" --format csv "$log" > "$WORK/hand.csv" 2> "$WORK/err" \
    || fail "hand-made $preset: $(cat "$WORK/err")"
  for want in "$@"; do
    grep -q "^$want" "$WORK/hand.csv" || fail "hand-made $preset: no '$want' in: $(grep -v '^kind' "$WORK/hand.csv")"
  done
}
expect_lines transmits "$WORK/sched.jsonl" 'entities,,entities,,2,' 'entities,,filled,,1,' \
  'group,worker,h0:worker1,total,1,500,' 'group,worker,h1:worker0,total,1,50,' \
  'group,mode,redundant,total,1,500,' 'group,mode,local,total,1,50,' \
  'top,1,sot:a1 @ h0:worker1,total,1,500,' 'top,2,sot:a1 @ h1:worker0,total,1,50,'
expect_lines tasks "$WORK/sched.jsonl" 'entities,,entities,,3,' 'group,worker,h0:worker0,total,1,900,' \
  'group,worker,h1:worker0,total,1,400,' 'group,worker,h1:worker1,,1,'
# A log that names its entities `entity` still reads, with --entity.
sed 's/"task"/"entity"/' "$WORK/sched.jsonl" > "$WORK/entity.jsonl"
"$SPOOR_BIN" lifecycle --preset cascade-tasks --format csv "$WORK/sched.jsonl" > "$WORK/a.csv"
"$SPOOR_BIN" lifecycle --preset cascade-tasks --entity entity --format csv "$WORK/entity.jsonl" | diff -q - "$WORK/a.csv" \
  > /dev/null || fail "--entity entity with the preset differs"

# Bad input and usage: one line naming the problem.
EXPECT_MAX_LINES=3 expect_fail 1 'a.log:[0-9]*: not a log record' lifecycle --preset cascade-tasks --strict "$WORK/a.log"
expect_fail 2 "'nope' is not one of the --stages" lifecycle --preset cascade-tasks --delay x=nope-taskPlanned "$WORK/b.jsonl"
expect_fail 2 'exclude each other' lifecycle --preset cascade-tasks --stages a,b "$WORK/b.jsonl"
expect_fail 2 'name the log' lifecycle --stages a,b --delay x=b-a "$WORK/b.jsonl"
expect_fail 2 'no --stages' lifecycle --entity e --stage s --time t "$WORK/b.jsonl"
expect_fail 2 "no field 'when'" lifecycle --preset cascade-tasks --time when "$WORK/b.jsonl"
expect_fail 2 'expected table, json, csv or html' lifecycle --preset cascade-tasks --format xml "$WORK/b.jsonl"
"$SPOOR_BIN" lifecycle --help | grep -q -- '--compare LOG' || fail "--help lacks --compare"
echo ok

# --format html: a page to a file or a pipe, never to a terminal
"$SPOOR_BIN" lifecycle --no-progress --preset cascade-tasks --format html -o "$WORK/l.html" "$WORK/b.jsonl"
grep -q '<script type="application/json" id="spoor-data">' "$WORK/l.html" || fail "lifecycle --format html wrote no page data"
script -qec "$SPOOR_BIN lifecycle --no-progress --preset cascade-tasks --format html $WORK/b.jsonl" /dev/null > "$WORK/tty" 2>&1 &&
    fail "lifecycle --format html wrote to a terminal"
grep -q "not text for a terminal" "$WORK/tty" || fail "lifecycle --format html to a terminal: $(head -c 300 "$WORK/tty")"
