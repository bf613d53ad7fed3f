# Units of pfw durations: the DataCrumbs Python writer of October 2024 that
# wrote dur in µs (and left it out under 1 µs) is told from the one that wrote
# ns; durations of well-known calls that cannot be right for the unit assumed
# give one warning naming the file, the unit and --dur-unit; a DataCrumbs
# profile is labelled one whatever comes before its first counter.
source "$(dirname "$0")/lib/common.sh"

# The same calls, written by both versions of the writer (json.dumps spacing,
# ts in µs from process start): dur in ns, or ns // 1000 left out when 0.
/usr/bin/python3 - "$WORK" <<'PY'
import json, random, sys
work = sys.argv[1]
rng = random.Random(7)
HH = 314828689199209182275661060106169083757
events, t = [], 60
events.append(("_init", "app", 8_021_000))
for i in range(300):
    kind = rng.random()
    if kind < 0.15:
        events.append(("read", "sys", rng.randint(900, 12_000)))
    elif kind < 0.2:
        events.append(("openat", "sys", rng.randint(8_000, 30_000)))
    elif kind < 0.27:
        events.append(("close", "sys", rng.randint(700, 3_000)))
    else:  # kernel functions: mostly under 1 µs (about 65 % of the events lose their dur)
        events.append((rng.choice(["mark_page_accessed", "filemap_get_pages", "folio_mark_dirty"]),
                       "os_cache", rng.randint(150, 1_200)))
def write(path, us):
    total = {}
    t = 60
    with open(path, "w") as f:
        f.write("[\n")
        f.write(json.dumps({"name": "HH", "cat": "dftracer", "ph": "M",
                            "args": {"name": "node1", "value": HH}}) + "\n")
        for name, cat, ns in events:
            e = {"pid": 26954, "tid": 26954, "name": name, "cat": cat, "ph": "X", "ts": t}
            dur = ns // 1000 if us else ns
            if dur:
                e["dur"] = dur
            e["args"] = {"hhash": HH}
            f.write(json.dumps(e) + "\n")
            total[name] = total.get(name, 0) + (dur * 1000 if us else dur)
            t += 1 + ns // 1000
    return total
ns_sums = write(work + "/dc-ns.pfw", False)
us_sums = write(work + "/dc-us.pfw", True)
with open(work + "/expected", "w") as f:
    f.write("%d %d\n" % (ns_sums["read"], us_sums["read"]))
PY
read -r ns_read us_read < "$WORK/expected"

# name -> dur_sum of `spoor stats --format json`
dur_sum() { grep -o "\"name\": \"$2\", [^}]*" "$1" | grep -o '"dur_sum": [0-9]*' | grep -o '[0-9]*$'; }

"$SPOOR_BIN" stats --format json "$WORK/dc-ns.pfw" > "$WORK/ns.json" 2> "$WORK/ns.err" || fail "ns trace failed"
grep -q '"dialect": "datacrumbs-2024", "ts_unit": "us", "dur_unit": "ns"' "$WORK/ns.json" \
  || fail "ns trace: $(head -3 "$WORK/ns.json")"
[ "$(dur_sum "$WORK/ns.json" read)" = "$ns_read" ] || fail "ns trace: read sum $(dur_sum "$WORK/ns.json" read) != $ns_read"
[ ! -s "$WORK/ns.err" ] || fail "ns trace warned: $(cat "$WORK/ns.err")"

"$SPOOR_BIN" stats --format json "$WORK/dc-us.pfw" > "$WORK/us.json" 2> "$WORK/us.err" || fail "us trace failed"
grep -q '"dialect": "datacrumbs-2024-us", "ts_unit": "us", "dur_unit": "us"' "$WORK/us.json" \
  || fail "us trace not told apart: $(head -3 "$WORK/us.json")"
grep -q '"assumed": "pfw datacrumbs-2024-us: [^"]*dur in us' "$WORK/us.json" || fail "assumed says nothing of us"
[ "$(dur_sum "$WORK/us.json" read)" = "$us_read" ] || fail "us trace: read sum $(dur_sum "$WORK/us.json" read) != $us_read"
[ ! -s "$WORK/us.err" ] || fail "us trace warned: $(cat "$WORK/us.err")"

# Forced to ns, the same calls last a few ns: one warning, and the numbers as asked.
"$SPOOR_BIN" stats --dialect datacrumbs-2024 "$WORK/dc-us.pfw" > /dev/null 2> "$WORK/err" || fail "forced ns failed"
[ "$(wc -l < "$WORK/err")" -eq 1 ] || fail "expected one warning: $(cat "$WORK/err")"
grep -q "^spoor stats: warning: $WORK/dc-us.pfw: .* last [0-9.]* ns .* dur in ns: too short .*--dur-unit" "$WORK/err" \
  || fail "warning: $(cat "$WORK/err")"
"$SPOOR_BIN" stats --dialect datacrumbs-2024 --dur-unit us "$WORK/dc-us.pfw" > /dev/null 2> "$WORK/err"
[ ! -s "$WORK/err" ] || fail "a given --dur-unit still warned: $(cat "$WORK/err")"

# Compact Chrome events whose dur is in ns, read as µs: slow NFS reads would
# last minutes. Too long: warned; --dur-unit ns: right, and quiet.
for i in $(seq 1 40); do
  printf '{"name":"read","cat":"POSIX","ph":"X","pid":1,"tid":1,"ts":%d,"dur":%d}\n' $((i * 100000)) $((20000000 + i))
done > "$WORK/nfs.pfw"
"$SPOOR_BIN" events "$WORK/nfs.pfw" > /dev/null 2> "$WORK/err" || fail "nfs trace failed"
grep -q "warning: $WORK/nfs.pfw: .*last 20.000 s (median of 40) with dur in us: too long.*--dur-unit" "$WORK/err" \
  || fail "no too-long warning: $(cat "$WORK/err")"
"$SPOOR_BIN" events --dur-unit ns "$WORK/nfs.pfw" > /dev/null 2> "$WORK/err"
[ ! -s "$WORK/err" ] || fail "--dur-unit ns warned: $(cat "$WORK/err")"

# The warning survives a snapshot: spoor sql writes one, stats reads it.
"$SPOOR_BIN" sql --cache-dir "$WORK/cache" "$WORK/nfs.pfw" "SELECT count(*) FROM events" > /dev/null 2>&1 \
  || fail "sql failed"
ls "$WORK/cache"/* > /dev/null 2>&1 || fail "no snapshot written"
"$SPOOR_BIN" stats --cache-dir "$WORK/cache" "$WORK/nfs.pfw" > /dev/null 2> "$WORK/err" || fail "stats failed"
grep -q "warning: $WORK/nfs.pfw: .*too long" "$WORK/err" || fail "snapshot lost the warning: $(cat "$WORK/err")"

# Profiles: counters after hundreds of metadata events, after a few X events,
# and after more metadata than the head holds (the label then comes from the
# whole file; the units are the same).
/usr/bin/python3 - "$WORK" <<'PY'
import json, sys
work = sys.argv[1]
def meta(n):
    return [{"pid": 37818, "tid": 37818, "name": "FH", "cat": "dftracer", "ph": "M",
             "args": {"name": "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_cur_freq" % i, "value": 10**30 + i}}
            for i in range(n)]
def spans(n):
    return [{"pid": 37818, "tid": 37818, "name": "_init", "cat": "app", "ph": "X", "ts": i, "dur": 5000}
            for i in range(n)]
counters = [{"pid": 37818, "tid": 37818, "name": "read", "cat": "sys", "ph": "C", "ts": 1000000 * (i // 4),
             "args": {"freq": 2, "time": 1.2626e-05, "size_sum": 64, "fname": "/sys/b"}} for i in range(400)]
for name, head in (("meta", meta(300)), ("spans", spans(5)), ("far", meta(900))):
    with open("%s/profile-%s.pfw" % (work, name), "w") as f:
        f.write("[\n")
        for e in head + counters:
            f.write(json.dumps(e) + "\n")
PY
[ "$(stat -c %s "$WORK/profile-far.pfw")" -gt 100000 ] || fail "profile-far does not pass the head"
for name in meta spans far; do
  "$SPOOR_BIN" stats --format json "$WORK/profile-$name.pfw" > "$WORK/p.json" 2> "$WORK/err" || fail "profile-$name failed"
  grep -q '"dialect": "datacrumbs-profile-2024", "ts_unit": "us", "dur_unit": "ns"' "$WORK/p.json" \
    || fail "profile-$name: $(head -3 "$WORK/p.json")"
  [ ! -s "$WORK/err" ] || fail "profile-$name warned: $(cat "$WORK/err")"
done
"$SPOOR_BIN" sql --cache-dir "$WORK/cache" "$WORK/profile-far.pfw" "SELECT count(*) FROM events" > /dev/null 2>&1 \
  || fail "sql on profile-far failed"
"$SPOOR_BIN" stats --cache-dir "$WORK/cache" --format json "$WORK/profile-far.pfw" > "$WORK/p.json" \
  || fail "stats on profile-far failed"
grep -q '"dialect": "datacrumbs-profile-2024"' "$WORK/p.json" || fail "snapshot lost the profile label"
echo ok
