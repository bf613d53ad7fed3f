#!/usr/bin/env bash
# Runs one libFuzzer target briefly: its checked-in seeds plus a scratch corpus.
# SPOOR_FUZZ_SECONDS (default 20) bounds the run so the suite stays fast.
set -euo pipefail
target=$1 seeds=$2 corpus=$3
mkdir -p "$corpus"
dirs=("$corpus")
[ -d "$seeds" ] && dirs+=("$seeds")
exec "$target" -max_total_time="${SPOOR_FUZZ_SECONDS:-20}" -max_len=65536 -rss_limit_mb=2048 \
  -print_final_stats=1 "${dirs[@]}"
