#!/usr/bin/env bash
# The CTest test browser.reports: makes each kind of HTML report (series,
# lifecycle, importance, eval, attribute, the job report) from generated inputs and copies of
# the shared ones in a scratch folder, the same report as JSON (attribute:
# JSON lines) beside it, and has reports.mjs open every page in headless
# Chromium (Debian's /usr/bin/chromium, driven by playwright-core from web/).
# Screenshots go to $SPOOR_SCREENSHOTS (the build folder's screenshots/).
source "$(dirname "$0")/../cli/lib/common.sh"
need_data
: "${SPOOR_WEB:?SPOOR_WEB is not set (the web/ folder with node_modules)}"
: "${SPOOR_SCREENSHOTS:?SPOOR_SCREENSHOTS is not set (where screenshots go)}"
CHROMIUM=${SPOOR_CHROMIUM:-/usr/bin/chromium}
[ -x "$CHROMIUM" ] || fail "no Chromium at $CHROMIUM: scripts/install-deps.sh installs Debian's chromium"
[ -d "$SPOOR_WEB/node_modules/playwright-core" ] || fail "playwright-core is not installed: run scripts/install-deps.sh"
command -v node > /dev/null || fail "node is not installed: run scripts/install-deps.sh"

FIXTURES=$(cd "$(dirname "$0")/../data" && pwd)
cd "$WORK"
R="--no-cache --no-progress"
cp "$SPOOR_DATA/iopattern/consolidated_dataset.csv" iopattern.csv
cp "$SPOOR_DATA/pfw/datacrumbs-trace-2024.pfw.gz" datacrumbs.pfw.gz
"$SPOOR_BIN" gen --kind metrics -o metrics.csv --rows 3000 --nodes 4 --interval 600 --missing 0.02 > /dev/null
"$SPOOR_BIN" gen --kind cascade -o cascade.jsonl --records 3000 > /dev/null
"$SPOOR_BIN" gen -o gen.pfw.gz --size-mb 6 --seed 1 --no-truth > /dev/null
FEATS=trace_avg_sector_distance,trace_sector_jump_ratio,bw_mean_kbps
"$SPOOR_BIN" train iopattern.csv --label label --group run_id --features $FEATS --model trees -o trees.json > /dev/null

# report NAME MIN_CHARTS JSON_FORMAT ARGS...: spoor ARGS as html and as JSON_FORMAT.
: > manifest.tsv
report() {
    local name=$1 min=$2 json=$3
    shift 3
    "$SPOOR_BIN" "$@" --format html -o "$name.html" 2> "$name.err" || fail "spoor $* --format html: $(cat "$name.err")"
    "$SPOOR_BIN" "$@" --format "$json" -o "$name.$json" 2> "$name.err" || fail "spoor $* --format $json: $(cat "$name.err")"
    printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$min" "$WORK/$name.html" "$WORK/$name.$json" "${LANES:-}" >> manifest.tsv
}
report series 10 json series --no-progress --time timestamp --group node --by hour,weekday,hour-weekday --corr 0.7 \
    --resample 1h --target cpu_usage_rate=0.65 metrics.csv
report lifecycle 13 json lifecycle --no-progress --preset cascade-tasks --top 5 cascade.jsonl
"$SPOOR_BIN" gen --kind cascade -o other.jsonl --records 2500 --seed 7 > /dev/null
report lifecycle-compare 14 json lifecycle --no-progress --preset cascade-tasks --compare other.jsonl cascade.jsonl
report importance 3 json importance iopattern.csv --target label --group run_id --features $FEATS --rounds 20
report eval 3 json eval trees.json iopattern.csv --group run_id
report attribute 1 jsonl attribute $R --calls "cat = 'sys'" --compat notebook datacrumbs.pfw.gz
# a large source sheet: sampled, and the page says so
report attribute-gen 1 jsonl attribute $R --calls "cat = 'sys'" gen.pfw.gz
# the job report with its timeline (reports.mjs drives it: timeline.mjs); the first also makes report.png
report job 12 json report $R gen.pfw.gz
report job-datacrumbs 8 json report $R datacrumbs.pfw.gz
# the MLPerf pipeline's raw files in one report, on UTC; LANES: what checkLanes expects
for f in bio.out open.out cpu.out train.log pids.out; do cp "$SPOOR_DATA/bpftrace/unet3d-pytorch/$f" "$f"; done
PYTHON_PID=$(awk 'NF >= 7 && $4 == "python" { n[$3]++ } END { for (p in n) if (n[p] > most) { most = n[p]; pid = p }; print pid }' open.out)
LANES="{\"lane\": \"python $PYTHON_PID\", \"phases\": [\"INFO\"], \"date\": \"2022-03-31\"}" \
    report job-unet3d 8 json report $R --align auto bio.out open.out cpu.out train.log pids.out
# MLPerf intervals as spans on top, GPU tracks from nvidia-smi pmon (hand-made)
cp "$FIXTURES/mllog/epoch.log" mlperf.log
{
  echo "#Date       Time        gpu        pid  type    sm   mem   enc   dec    fb   command"
  echo "#YYYYMMDD   HH:MM:SS    Idx          #   C/G     %     %     %     %    MB   name"
  for s in $(seq 10 50); do
    printf ' 20220331   12:05:%02d      0      41235     C    %2d    12     -     -  1234   python\n' "$s" $((s % 7 * 10))
    printf ' 20220331   12:05:%02d      1      41240     C    %2d     9     -     -   900   python\n' "$s" $((s % 5 * 15))
  done
} > gpu.out
LANES='{"phases": ["init", "epoch", "eval"], "date": "2022-03-31"}' report job-mllog 2 json report $R mlperf.log gpu.out

mkdir -p "$SPOOR_SCREENSHOTS"
node "$(dirname "$0")/reports.mjs" "$CHROMIUM" "$SPOOR_SCREENSHOTS" manifest.tsv
