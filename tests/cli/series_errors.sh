# spoor series on bad options and bad input: one-line errors naming the
# problem, skipped lines counted, --strict failing, output files all or nothing.
source "$(dirname "$0")/lib/common.sh"

"$SPOOR_BIN" series --help | grep -q -- "--resample DUR" || fail "--help lacks --resample"
"$SPOOR_BIN" gen --kind metrics --help | grep -q -- "--time-format" || fail "gen --kind metrics --help"
"$SPOOR_BIN" gen --kind metrics -o "$WORK/m.csv" --rows 500 --nodes 3 --bad-lines 2 > /dev/null

expect_fail 2 "--time FIELD is required" series "$WORK/m.csv"
expect_fail 2 "no table given" series --time timestamp
expect_fail 2 "--resample '1x': unknown unit" series "$WORK/m.csv" --time timestamp --resample 1x
expect_fail 2 "--resample '0h': rounds to 0 ns" series "$WORK/m.csv" --time timestamp --resample 0h
expect_fail 2 "--corr wants a threshold" series "$WORK/m.csv" --time timestamp --corr 2
expect_fail 2 "--target wants METRIC=VALUE" series "$WORK/m.csv" --time timestamp --target cpu
expect_fail 2 "--utc-offset wants" series "$WORK/m.csv" --time timestamp --utc-offset 5
expect_fail 2 "unknown section 'daily'" series "$WORK/m.csv" --time timestamp --by daily
expect_fail 2 "needs --group" series "$WORK/m.csv" --time timestamp --show groups
expect_fail 2 "leaves out" series "$WORK/m.csv" --time timestamp --metrics load_1m --target cpu_usage_rate=0.5
expect_fail 2 "no column 'when'" series "$WORK/m.csv" --time when
EXPECT_MAX_LINES=4 expect_fail 2 "no numeric metric 'gpu'" series "$WORK/m.csv" --time timestamp --target gpu=0.5 --no-progress
EXPECT_MAX_LINES=3 expect_fail 1 "m.csv:.*wrong number of fields.*--strict" series "$WORK/m.csv" --time timestamp --strict

# Skipped lines are reported on stderr, and the answer still comes.
"$SPOOR_BIN" series "$WORK/m.csv" --time timestamp --no-progress > "$WORK/out" 2> "$WORK/err"
grep -q "skipped 2 of" "$WORK/err" || fail "skips not reported: $(cat "$WORK/err")"
grep -q "^cpu_usage_rate  *500 " "$WORK/out" || fail "metrics table: $(cat "$WORK/out")"

# --metrics reads only the listed fields, with the same answers for them.
metric_rows() { "$SPOOR_BIN" series "$WORK/m.csv" --time timestamp --show metrics --format csv --no-progress "$@" 2>/dev/null; }
metric_rows > "$WORK/all.csv"
metric_rows --metrics net_rx,cpu_usage_rate > "$WORK/two.csv"
[ "$(grep -E '^(cpu_usage_rate|net_rx),' "$WORK/all.csv" | sort)" = "$(tail -n +2 "$WORK/two.csv" | sort)" ] \
  || fail "--metrics changes the answers: $(cat "$WORK/two.csv")"

# A failed run leaves an existing output file as it was.
echo keep > "$WORK/o.txt"
EXPECT_MAX_LINES=3 expect_fail 1 "--strict" series "$WORK/m.csv" --time timestamp --strict -o "$WORK/o.txt"
[ "$(cat "$WORK/o.txt")" = keep ] || fail "a failed run changed the output file"
"$SPOOR_BIN" series "$WORK/m.csv" --time timestamp -o "$WORK/o.txt" 2> /dev/null
grep -q "^metrics: 500 rows" "$WORK/o.txt" || fail "-o did not write the table"

# Text metrics columns are not metrics; --metrics picks and orders them.
printf 'time,host,state,temp,fan\n0,a,ok,20.5,100\n60,a,ok,21.5,\n120,b,hot,30,x\n' > "$WORK/s.csv"
"$SPOOR_BIN" series "$WORK/s.csv" --time time --format csv --no-progress > "$WORK/out" 2> /dev/null
[ "$(cut -d, -f1 "$WORK/out" | tr '\n' ' ')" = "metric temp fan " ] || fail "default metrics: $(cat "$WORK/out")"
grep -q "^fan,1,100,,100,100,1,1$" "$WORK/out" || fail "fan: one number, one missing, one non-numeric: $(cat "$WORK/out")"
"$SPOOR_BIN" series "$WORK/s.csv" --time time --metrics fan,temp --format csv --no-progress 2> /dev/null \
  | cut -d, -f1 | tr '\n' ' ' | grep -qx "metric fan temp " || fail "--metrics order"

# Local time: --utc-offset moves hours and weekdays (00:00Z Monday is 19:00 Sunday at -05:00).
printf 'ts,v\n2024-01-01T00:00:00Z,1\n' > "$WORK/t.csv"
"$SPOOR_BIN" series "$WORK/t.csv" --time ts --by hour,weekday --utc-offset -05:00 --format csv --no-progress \
  > "$WORK/out" 2> /dev/null
grep -q "^19,1,1$" "$WORK/out" || fail "hour at -05:00: $(cat "$WORK/out")"
grep -q "^Sun,1,1$" "$WORK/out" || fail "weekday at -05:00: $(cat "$WORK/out")"
"$SPOOR_BIN" series "$WORK/t.csv" --time ts --resample 1d --utc-offset -05:00 --format csv --show resample \
  --no-progress 2> /dev/null | grep -q "^2023-12-31T00:00:00-05:00,1,1$" || fail "local day buckets"
# A decimal duration is read exactly: half an hour's buckets start on the half hour.
printf 'ts,v\n2024-01-01T00:10:00Z,1\n2024-01-01T00:40:00Z,3\n' > "$WORK/h.csv"
"$SPOOR_BIN" series "$WORK/h.csv" --time ts --resample 0.5h --format csv --show resample --no-progress \
  > "$WORK/half" 2> /dev/null
grep -q "^2024-01-01T00:30:00Z,1,3$" "$WORK/half" || fail "--resample 0.5h: $(cat "$WORK/half")"
echo ok
