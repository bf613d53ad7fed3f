# --align: bpftrace's boot-clock ns put on UTC, against an independent Python
# fit of the same pairs (every row's [wall - stamp, wall + 1 s - stamp)
# intersected modulo a day, the date from mpstat's banner or the log, the
# zone's offset by Python's zoneinfo), on copies of the shared unet3d files
# and on handmade files: a run past midnight (on a leap day), a named zone,
# --align DATE, rows of two boots, no date, a bad value, and snapshots.
source "$(dirname "$0")/lib/common.sh"
need_data
PY=/usr/bin/python3
D=$SPOOR_DATA/bpftrace/unet3d-pytorch
cp "$D/bio.out" "$D/open.out" "$D/cpu.out" "$D/train.log" "$WORK/"

# ref.py ZONE DATE|auto DATED BPF...: prints "offset bound" (ns) and then the
# UTC ts of every whole row of the bpftrace files, in file order.
cat > "$WORK/ref.py" <<'PY'
import datetime, re, sys, zoneinfo
zone, how, dated, files = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
DAY, S = 86400 * 10**9, 10**9
fixed = re.fullmatch(r"([+-])(\d\d):(\d\d)", zone)
if fixed:
    tz = datetime.timezone((1 if fixed[1] == "+" else -1) * datetime.timedelta(hours=int(fixed[2]), minutes=int(fixed[3])))
else:
    tz = datetime.timezone.utc if zone == "UTC" else zoneinfo.ZoneInfo(zone)
rows, lo, hi, ref, first = [], None, None, None, None
for path in files:
    lines = open(path).read().split("\n")
    bio = len(lines[0].split()) == 11  # else an open table: 6 fields and the path
    for line in lines:
        f = line.split()
        if len(f) != 11 if bio else len(f) < 6:
            continue
        stamp = int(f[0]); h, m, s = map(int, f[1].split(":"))
        lat = int(f[10] if bio else f[5]) & 0xFFFFFFFF
        at = ((h * 3600 + m * 60 + s) * S - stamp) % DAY
        if ref is not None and at - ref > DAY // 2: at -= DAY
        elif ref is not None and ref - at > DAY // 2: at += DAY
        if ref is None: ref, lo, hi = at, at, at + S
        lo, hi = max(lo, at), min(hi, at + S)
        first = stamp if first is None else min(first, stamp)
        rows.append((stamp, lat))
d = hi - lo
offset = lo + (d // 2 if d >= 0 else -((-d) // 2))
tod = (first + offset) % DAY
def utc_of(day):  # the first stamp's UTC time if its wall-clock date is `day`
    local = datetime.datetime.combine(day, datetime.time()) + datetime.timedelta(seconds=tod // S)
    return int(local.replace(tzinfo=tz).timestamp()) * S + tod % S
if how != "auto":
    day = datetime.date.fromisoformat(how)
    first_utc = utc_of(day)
else:
    text = open(dated).read()
    m = re.search(r"(\d\d)/(\d\d)/(\d{4})", text.split("\n")[0])
    if m:  # mpstat: the banner's date, the first sample's 12-hour clock
        date = datetime.date(int(m[3]), int(m[1]), int(m[2]))
        t = re.search(r"^(\d\d):(\d\d):(\d\d) (AM|PM) +all ", text, re.M)
        hh = int(t[1]) % 12 + (12 if t[4] == "PM" else 0)
        local = datetime.datetime.combine(date, datetime.time(hh, int(t[2]), int(t[3])))
    else:  # a Python log's first record
        t = re.match(r"(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d),(\d{3})", text)
        local = datetime.datetime.fromisoformat(t[1]) + datetime.timedelta(milliseconds=int(t[2]))
    near = int(local.replace(tzinfo=tz).timestamp() * 1000) * 10**6
    day0 = datetime.datetime.fromtimestamp(near // S, datetime.timezone.utc).date()
    first_utc = min((utc_of(day0 + datetime.timedelta(days=k)) for k in (-1, 0, 1)), key=lambda t: abs(t - near))
shift = first_utc - first
print(shift, abs(d) // 2)
for stamp, lat in rows:
    print(stamp - lat + shift)
PY

# check ZONE HOW DATED BPF...: spoor's ts and its clock line against ref.py.
check() {
  local zone=$1 how=$2 dated=$3
  shift 3
  local files=() f
  for f in "$@"; do files+=("$WORK/$f"); done
  $PY "$WORK/ref.py" "$zone" "$how" "$WORK/$dated" "${files[@]}" > "$WORK/want" || fail "ref.py $*"
  local inputs=("${files[@]}")
  [ "$how" = auto ] && inputs+=("$WORK/$dated")
  "$SPOOR_BIN" events --no-cache --align "$how" --utc-offset "$zone" --where "cat != 'mpstat' AND cat != 'log'" \
    --format csv --columns ts "${inputs[@]}" 2> "$WORK/err" | tail -n +2 > "$WORK/got" \
    || fail "events --align $how $*: $(cat "$WORK/err")"
  tail -n +2 "$WORK/want" | cmp -s - "$WORK/got" || fail "--align $how $*: ts differ from the reference: $(tail -n +2 "$WORK/want" | diff - "$WORK/got" | head -5)"
  "$SPOOR_BIN" stats --no-cache --align "$how" --utc-offset "$zone" "${inputs[@]}" > "$WORK/stats" 2> "$WORK/err" \
    || fail "stats --align $how $*: $(cat "$WORK/err")"
  read -r shift bound < "$WORK/want"
  local secs=$((shift / 1000000000)) frac
  frac=$(printf '%09d' $((shift % 1000000000)))
  grep -q "^clock  *boot clock + $secs.$frac s = UTC" "$WORK/stats" || fail "clock line, want + $secs.$frac: $(grep clock "$WORK/stats")"
}

check UTC auto cpu.out bio.out open.out
grep -q "fitted on 18,818 wall-clock pairs (the wall clock lags its stamps by up to 1.23 ms); first row at 2022-03-31T12:04:36Z, its date from .*cpu.out" "$WORK/stats" \
  || fail "bio + open: $(grep clock "$WORK/stats")"
grep -q "+- 616.02 us" "$WORK/stats" || fail "bound: $(grep clock "$WORK/stats")"
check America/New_York auto train.log open.out
grep -q "first row at 2022-03-31T16:05:06Z" "$WORK/stats" || fail "New York: $(grep clock "$WORK/stats")"
check +05:30 2022-03-31 - bio.out

# Without --align the clock line says what the times are.
"$SPOOR_BIN" stats --no-cache "$WORK/bio.out" > "$WORK/stats" 2>/dev/null || fail "stats bio.out"
grep -q "^clock  *ns since boot (--align auto puts them on UTC)" "$WORK/stats" || fail "unaligned: $(cat "$WORK/stats")"

# A run past midnight on a leap day, the log starting after midnight, the
# wall clock consistent: rows of 2024-02-28 23:59:58.5 on, read on the 28th.
printf '%s\n' \
  "1000500000000  23:59:58  77  dd  openat  500000  /a" \
  "1001900000000  23:59:59  77  dd  openat  1000    /b" \
  "1003000000000  00:00:01  77  dd  openat  1000    /c" \
  "1002100000000  00:00:00  77  dd  openat  2000    /d" > "$WORK/night.out"
printf '2024-02-29 00:00:05,000:INFO: started\n' > "$WORK/night.log"
check UTC auto night.log night.out
grep -q "first row at 2024-02-28T23:59:58Z" "$WORK/stats" || fail "midnight: $(grep clock "$WORK/stats")"
grep -q "+- 50.00 ms" "$WORK/stats" || fail "midnight bound: $(grep clock "$WORK/stats")"
check Europe/Berlin auto night.log night.out
check Europe/Berlin 2024-03-01 - night.out

# Rows of another boot: the stamps and the wall clock disagree by an hour.
printf '%s\n' "5000000000000  01:00:00  78  cp  openat  1000  /e" > "$WORK/other.out"
"$SPOOR_BIN" stats --no-cache --align auto "$WORK/night.out" "$WORK/other.out" "$WORK/night.log" > /dev/null 2> "$WORK/err" \
  || fail "two boots: $(cat "$WORK/err")"
grep -q "the wall clock and the boot stamps disagree by .*(rows of different boots, or the clock was stepped)" "$WORK/err" \
  || fail "no warning for two boots: $(cat "$WORK/err")"

# Errors: no date, a bad value, nothing to fit.
expect_fail 2 "--align auto: no input gives the date of the wall clock (mpstat's output, or a log with dates); give it as --align YYYY-MM-DD" \
  stats --no-cache --align auto "$WORK/night.out"
expect_fail 2 "--align '2024-02-30': expected auto or a date YYYY-MM-DD" stats --no-cache --align 2024-02-30 "$WORK/night.out"
"$SPOOR_BIN" stats --no-cache --align auto "$WORK/cpu.out" > /dev/null || fail "--align with nothing on the boot clock"

# Snapshots are made per alignment: an aligned one does not serve a plain load.
mkdir "$WORK/cache"
for how in --align=2024-02-28 "" --align=2024-02-28; do
  "$SPOOR_BIN" sql --cache-dir "$WORK/cache" $how --format csv "$WORK/night.out" "SELECT min(ts) FROM events" \
    | tail -1 >> "$WORK/mins" || fail "sql $how"
done
[ "$(sed -n 1p "$WORK/mins")" = 1709164798549500000 ] || fail "aligned min ts: $(cat "$WORK/mins")"
[ "$(sed -n 2p "$WORK/mins")" = 1000499500000 ] || fail "plain min ts after an aligned snapshot: $(cat "$WORK/mins")"
[ "$(sed -n 3p "$WORK/mins")" = 1709164798549500000 ] || fail "aligned again: $(cat "$WORK/mins")"
echo ok
