#!/usr/bin/env bash
# Throughput of the mpstat reader against the pfw reader (issue 21: at least
# half of pfw's bytes per second): a ~200 MB mpstat file made by repeating
# the blocks of the shared cpu.out with advancing times, and `spoor gen
# --size-mb 200` (plain .pfw); `spoor stats --no-cache` on each, alternated,
# RUNS times (default 3); prints each run and the medians in MB/s.
# Usage: bench/ingest/text_readers.sh [DIR]   (inputs go to DIR, default bench/out/text)
set -euo pipefail
source "$(dirname "$0")/../lib.sh"
dir=${1:-$out/text}
runs=${RUNS:-3}
mkdir -p "$dir"
cpu=${SPOOR_DATA:-$root/../shared/data}/bpftrace/unet3d-pytorch/cpu.out
[ -s "$dir/big.mpstat" ] || "$py" - "$cpu" "$dir/big.mpstat" <<'PY'
import sys
text = open(sys.argv[1]).read().split("\n\n")
banner, blocks = text[0], [b for b in text[1:] if b.strip()]
def clock(t):
    t %= 86400
    h, m, s = t // 3600, t // 60 % 60, t % 60
    return "%02d:%02d:%02d %s" % (h % 12 or 12, m, s, "AM" if h < 12 else "PM")
with open(sys.argv[2], "w") as f:
    f.write(banner + "\n")
    t, n, size = 12 * 3600, 0, 0
    while size < 200_000_000:
        lines = [(clock(t - 1) if i == 0 else clock(t)) + l[11:] for i, l in enumerate(blocks[n % len(blocks)].split("\n")) if l]
        block = "\n" + "\n".join(lines) + "\n"
        f.write(block)
        size += len(block)
        t += 1
        n += 1
PY
[ -s "$dir/big.pfw" ] || "$spoor" gen --size-mb 200 --no-truth -o "$dir/big.pfw" > /dev/null
seconds() { local s=$(date +%s.%N); "$spoor" stats --no-cache --no-progress --threads "$threads" "$1" > /dev/null; echo "$(date +%s.%N) - $s" | bc; }
declare -a m p
for ((i = 0; i < runs; i++)); do
  m+=("$(seconds "$dir/big.mpstat")")
  p+=("$(seconds "$dir/big.pfw")")
  echo "run $i: mpstat ${m[-1]} s, pfw ${p[-1]} s"
done
"$py" - "$(stat -c %s "$dir/big.mpstat")" "$(stat -c %s "$dir/big.pfw")" "${m[*]}" "${p[*]}" <<'PY'
import sys, statistics
mb, pb = int(sys.argv[1]), int(sys.argv[2])
ms, ps = statistics.median(map(float, sys.argv[3].split())), statistics.median(map(float, sys.argv[4].split()))
print("mpstat %.0f MB in %.2f s: %.0f MB/s; pfw %.0f MB in %.2f s: %.0f MB/s; mpstat/pfw = %.0f %%"
      % (mb / 1e6, ms, mb / 1e6 / ms, pb / 1e6, ps, pb / 1e6 / ps, 100 * (mb / ms) / (pb / ps)))
PY
