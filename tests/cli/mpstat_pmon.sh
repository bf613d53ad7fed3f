# The mpstat and nvidia-smi pmon readers against a reference written here in
# Python (not spoor): a copy of the shared cpu.out; a run of cpu.out's blocks
# re-timed to start before midnight and long enough (7 MB) to be cut into
# several chunks, read on two threads (the days carried over chunk borders);
# handmade files with 12 AM / 12 PM, a midnight roll, a header in another
# column order, Average lines and a cut last line; --utc-offset as a fixed
# offset and as a tz zone across a daylight-saving change; pmon with '-'.
source "$(dirname "$0")/lib/common.sh"
need_data
py=/usr/bin/python3
cp "$SPOOR_DATA/bpftrace/unet3d-pytorch/cpu.out" "$WORK/cpu.out"

# The reference: every (sample, cpu) row as "ts cpu v1 v2 ..." in file order,
# values under the header's names; ts from the banner date, the 12-hour
# clock, a day added whenever the time of day goes back, then the zone.
cat > "$WORK/ref.py" <<'PY'
import sys, re, datetime, zoneinfo
path, zone = sys.argv[1], sys.argv[2]
lines = open(path).read().split("\n")
m = re.search(r"(\d\d)/(\d\d)/(\d{4})", lines[0])
date = datetime.date(int(m[3]), int(m[1]), int(m[2]))
cols, day, last, out = None, 0, None, []
for line in lines[1:]:
    f = line.split()
    if not f or f[0] == "Average:":
        continue
    h, mi, s = map(int, f[0].split(":"))
    if f[1] in ("AM", "PM"):
        h = h % 12 + (12 if f[1] == "PM" else 0)
        f = [f[0]] + f[2:]
    if f[1] == "CPU":
        cols = [c.lstrip("%") for c in f[2:]]
        continue
    if len(f) - 2 != len(cols):
        continue  # a cut line
    tod = h * 3600 + mi * 60 + s
    if last is not None and tod <= last - 43200:
        day += 1
    last = tod
    local = datetime.datetime.combine(date + datetime.timedelta(days=day), datetime.time()) + datetime.timedelta(seconds=tod)
    if zone == "-":
        utc = local.replace(tzinfo=datetime.timezone.utc)
    elif zone[0] in "+-":
        utc = local.replace(tzinfo=datetime.timezone(datetime.timedelta(hours=float(zone.rstrip("h")))))
    else:
        utc = local.replace(tzinfo=zoneinfo.ZoneInfo(zone))
    ns = int(utc.timestamp()) * 10**9
    vals = dict(zip(cols, f[2:]))
    out.append("%d %s %s" % (ns, f[1], " ".join("%s=%g" % (k, float(vals[k])) for k in sorted(vals))))
print("\n".join(out))
PY
# spoor's rows in the same shape, from its CSV.
cat > "$WORK/got.py" <<'PY'
import sys, csv
rows = list(csv.DictReader(open(sys.argv[1])))
fixed = {"ts", "dur", "name", "cat", "pid", "tid", "ph", "line", "source", "file", "host", "cpu"}
for r in rows:
    vals = {k: v for k, v in r.items() if k not in fixed and v != ""}
    print("%s %s %s" % (r["ts"], r["cpu"], " ".join("%s=%g" % (k, float(vals[k])) for k in sorted(vals))))
PY
compare() { # FILE ZONE [spoor options]
  local file=$1 zone=$2
  shift 2
  "$SPOOR_BIN" events --no-cache --no-progress "$@" -o "$WORK/got.csv" "$file" 2> "$WORK/stderr"
  "$py" "$WORK/got.py" "$WORK/got.csv" > "$WORK/got.txt"
  "$py" "$WORK/ref.py" "$file" "$zone" > "$WORK/want.txt"
  [ -s "$WORK/want.txt" ] || fail "$file: the reference has no rows"
  cmp -s "$WORK/got.txt" "$WORK/want.txt" || fail "$file $zone: $(diff "$WORK/got.txt" "$WORK/want.txt" | head -5)"
}

compare "$WORK/cpu.out" -
grep -q "local times taken as UTC (no --utc-offset given)" <("$SPOOR_BIN" stats --no-cache "$WORK/cpu.out") ||
  fail "stats does not say local times were taken as UTC"
compare "$WORK/cpu.out" +2 --utc-offset +02:00
compare "$WORK/cpu.out" -5h --utc-offset -5h
compare "$WORK/cpu.out" Europe/Berlin --utc-offset Europe/Berlin
grep -q "local times in Europe/Berlin" <("$SPOOR_BIN" stats --no-cache --utc-offset Europe/Berlin "$WORK/cpu.out") ||
  fail "stats does not name the zone"

# Long: cpu.out's blocks again and again, one second apart from 11:50:00 PM
# on 10/29/2022 on (Europe/Berlin leaves daylight saving on 10/30 at 3 AM),
# through two midnights and the fold; more than one 4 MiB chunk.
"$py" - "$WORK/cpu.out" "$WORK/long.out" <<'PY'
import sys
text = open(sys.argv[1]).read().split("\n\n")
banner, blocks = text[0].replace("03/31/2022", "10/29/2022"), [b for b in text[1:] if b.strip()]
out, t = [banner], 23 * 3600 + 50 * 60
def clock(t):
    t %= 86400
    h, m, s = t // 3600, t // 60 % 60, t % 60
    return "%02d:%02d:%02d %s" % (h % 12 or 12, m, s, "AM" if h < 12 else "PM")
n = 0
while sum(map(len, out)) < 7_500_000:
    lines = blocks[n % len(blocks)].split("\n")
    lines = [clock(t - 1) + l[11:] if i == 0 else clock(t) + l[11:] for i, l in enumerate(lines) if l]
    out.append("\n".join(lines))
    t += 1 if n < 400 else 97   # from the 400th block on, 97 s apart: the run passes the fold and a second midnight
    n += 1
open(sys.argv[2], "w").write("\n\n".join(out) + "\n")
PY
compare "$WORK/long.out" - --threads 2
compare "$WORK/long.out" Europe/Berlin --threads 2 --utc-offset Europe/Berlin

# Handmade: 12 AM / 12 PM, a midnight roll, Average lines, a cut last line.
printf 'Linux 6.1.0 (box) \t12/31/2021 \t_x86_64_\t(2 CPU)\n\n' > "$WORK/edge.out"
cat >> "$WORK/edge.out" <<'EOF2'
11:59:58 PM  CPU    %usr   %nice    %sys   %idle
11:59:59 PM  all   10.00    0.00    5.00   85.00
11:59:59 PM    0   20.00    0.00   10.00   70.00
11:59:59 PM    1    0.00    0.00    0.00  100.00

11:59:59 PM  CPU    %usr   %nice    %sys   %idle
12:00:00 AM  all    1.50    0.00    0.50   98.00
12:00:00 AM    0    3.00    0.00    1.00   96.00
12:00:00 AM    1    0.00    0.00    0.00  100.00

12:00:00 AM  CPU    %usr   %nice    %sys   %idle
12:00:01 PM  all    1.00    0.00    0.00   99.00
12:00:01 PM    0    2.00    0.00    0.00   98.00
12:00:01 PM    1    0.00

Average:     CPU    %usr   %nice    %sys   %idle
Average:     all    4.17    0.00    1.83   94.00
EOF2
compare "$WORK/edge.out" -
grep -q "1 fewer values than the header has columns" "$WORK/stderr" || fail "the cut line is not reported: $(cat "$WORK/stderr")"
"$py" - "$WORK/got.csv" <<'PY' || fail "12 AM / 12 PM: $(head -3 "$WORK/got.csv")"
import csv, sys, datetime
ts = [int(r["ts"]) for r in csv.DictReader(open(sys.argv[1]))]
iso = [datetime.datetime.fromtimestamp(t / 1e9, datetime.timezone.utc).isoformat() for t in ts]
assert iso[0] == "2021-12-31T23:59:59+00:00" and iso[3] == "2022-01-01T00:00:00+00:00", iso
assert iso[6] == "2022-01-01T12:00:01+00:00" and len(ts) == 8, iso
PY
EXPECT_MAX_LINES=3 expect_fail 1 "edge.out:16: fewer values than the header has columns" events --no-cache --strict "$WORK/edge.out"

# Another sysstat's column order is read from the header.
sed -e 's/%usr   %nice    %sys   %idle/%idle    %sys   %nice    %usr/' "$WORK/edge.out" |
  awk '/ (all|[0-9]+) / && $1 != "Average:" && NF == 7 { printf "%s %s  %s  %s %s %s %s\n", $1, $2, $3, $7, $6, $5, $4; next } { print }' > "$WORK/order.out"
compare "$WORK/order.out" -
"$SPOOR_BIN" events --no-cache -o "$WORK/a.csv" "$WORK/edge.out" 2> /dev/null
"$SPOOR_BIN" events --no-cache -o "$WORK/b.csv" "$WORK/order.out" 2> /dev/null
"$py" - "$WORK/a.csv" "$WORK/b.csv" <<'PY' || fail "column order changes the values"
import csv, sys
a, b = ([{k: v for k, v in r.items() if k not in ("source",)} for r in csv.DictReader(open(p))] for p in sys.argv[1:])
assert a == b and float(a[0]["usr"]) == 10.0, (a[:1], b[:1])
PY
# A header naming other columns in mid-file stops the load.
{ cat "$WORK/edge.out"; echo; echo "12:00:02 PM  CPU    %usr   %idle"; echo "12:00:03 PM  all    1.00   99.00"; } > "$WORK/two.out"
EXPECT_MAX_LINES=3 expect_fail 1 "byte [0-9]*: the header's columns differ" events --no-cache "$WORK/two.out"
expect_fail 2 "--utc-offset 'Mars/Olympus'" events --no-cache --utc-offset Mars/Olympus "$WORK/edge.out"

# A wall time Europe/Berlin skips (2:30 AM on 03/27/2022): the row stays
# with an empty ts, a warning says so, --strict fails.
printf 'Linux 6.1.0 (box) \t03/27/2022 \t_x86_64_\t(1 CPU)\n\n02:29:59 AM  CPU    %%usr   %%idle\n' > "$WORK/gap.out"
printf '02:30:00 AM  all   10.00   90.00\n03:00:01 AM  all   11.00   89.00\n' >> "$WORK/gap.out"
"$SPOOR_BIN" events --no-cache --utc-offset Europe/Berlin -o "$WORK/gap.csv" "$WORK/gap.out" 2> "$WORK/stderr"
grep -q "1 local times fall in the hour Europe/Berlin skips .*(first at line 4)" "$WORK/stderr" ||
  fail "no warning of the skipped hour: $(cat "$WORK/stderr")"
[ "$(cut -d, -f1 "$WORK/gap.csv" | tr '\n' ' ')" = "ts  1648342801000000000 " ] || fail "gap rows: $(cat "$WORK/gap.csv")"
EXPECT_MAX_LINES=3 expect_fail 1 "gap.out:4: local time the zone skips" events --no-cache --strict --utc-offset Europe/Berlin "$WORK/gap.out"

# pmon: '-' cells stay empty; date and time on UTC with the zone.
cat > "$WORK/gpu.txt" <<'EOF2'
#Date       Time        gpu        pid  type    sm   mem   enc   dec    fb   command
#YYYYMMDD   HH:MM:SS    Idx          #   C/G     %     %     %     %    MB   name
 20221030   02:30:00      0      41235     C    45    12     -     -  1234   python
 20221030   02:30:00      1          -     -     -     -     -     -     -   -
#Date       Time        gpu        pid  type    sm   mem   enc   dec    fb   command
#YYYYMMDD   HH:MM:SS    Idx          #   C/G     %     %     %     %    MB   name
 20221030   02:10:00      0      41235     C    50    13     0     0  1234   python
 20221030   03:10
EOF2
"$SPOOR_BIN" events --no-cache --utc-offset Europe/Berlin -o "$WORK/gpu.csv" "$WORK/gpu.txt" 2> "$WORK/stderr"
"$py" - "$WORK/gpu.txt" "$WORK/gpu.csv" <<'PY' || fail "pmon: $(cat "$WORK/gpu.csv")"
import csv, sys, datetime, zoneinfo
rows = list(csv.DictReader(open(sys.argv[2])))
want, berlin = [], zoneinfo.ZoneInfo("Europe/Berlin")
last = None
for line in open(sys.argv[1]):
    f = line.split()
    if line.startswith("#") or len(f) < 11:
        continue
    local = datetime.datetime.strptime(f[0] + f[1], "%Y%m%d%H:%M:%S")
    # the fold: the first occurrence, unless that goes back before the row before
    t = [int(local.replace(tzinfo=berlin, fold=k).timestamp()) for k in (0, 1)]
    ts = t[1] if last is not None and t[0] < last <= t[1] else t[0]
    last = ts
    want.append({"ts": str(ts * 10**9), "pid": "" if f[3] == "-" else f[3], "name": "" if f[10] == "-" else f[10],
                 "sm": "" if f[5] == "-" else f[5], "enc": "" if f[7] == "-" else f[7], "gpu": f[2]})
got = [{k: r[k] for k in ("ts", "pid", "name", "sm", "enc", "gpu")} for r in rows]
assert got == want, (got, want)
PY
grep -q "1 fewer fields than the header has columns" "$WORK/stderr" || fail "pmon's cut line: $(cat "$WORK/stderr")"
echo ok
