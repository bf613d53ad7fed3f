# spoor stats on every shared sample equals an independent json.loads reference:
# per (cat, name) event counts and duration sums, in the units each dialect uses.
source "$(dirname "$0")/lib/common.sh"
need_data

check() { # file, dur unit in ns
  local file=$SPOOR_DATA/pfw/$1 unit=$2
  for threads in 1 2; do
    "$SPOOR_BIN" stats --format json --threads "$threads" --no-progress "$file" > "$WORK/stats.json" \
      || fail "spoor stats failed on $1"
    /usr/bin/python3 - "$file" "$unit" "$WORK/stats.json" <<'PY' || fail "$1 differs from the reference (threads $threads)"
import gzip, json, sys
from collections import defaultdict
path, unit, got_path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
opener = gzip.open if path.endswith(".gz") else open
count, durs, metadata = defaultdict(int), defaultdict(int), 0
with opener(path, "rt", encoding="utf-8", errors="replace") as f:
    for line in f:
        line = line.strip().rstrip(",")
        if line in ("", "[", "]"):
            continue
        ev = json.loads(line)
        if ev.get("ph") == "M":
            metadata += 1
            continue
        key = (ev.get("cat", ""), ev.get("name", ""))
        count[key] += 1
        if "dur" in ev:
            durs[key] += int(ev["dur"]) * unit
got = json.load(open(got_path))
assert got["metadata_events"] == metadata, (got["metadata_events"], metadata)
assert got["events"] == sum(count.values()), (got["events"], sum(count.values()))
assert sum(i["skipped"] for i in got["inputs"]) == 0
seen = {(g["cat"], g["name"]): g for g in got["by_name"]}
assert set(seen) == set(count), set(seen) ^ set(count)
for key, n in count.items():
    assert seen[key]["count"] == n, (key, seen[key]["count"], n)
    assert seen[key].get("dur_sum", 0) == durs[key], (key, seen[key].get("dur_sum"), durs[key])
print("ok", path, sum(count.values()), "events")
PY
  done
}

check dftracer-dlio-pytorch-2023.pfw.gz 1000
check dftracer-quoted-2023.pfw.gz 1000
check dftracer-cm1-2024-rank0.pfw.gz 1000
check datacrumbs-trace-2024.pfw.gz 1
check datacrumbs-profile-2024.pfw 1
