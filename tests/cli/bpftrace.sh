# The bpftrace and ps readers against an independent Python reading of the
# same text: the shared bio.out, open.out and pids.out (copied here), and
# handmade files with each quirk (a vfs_rw table with empty FILE fields and
# blanks in names, negative 32-bit latencies, unsorted rows, a cut last line),
# --strict on the cut line, --input-columns for another table, the sniffing.
source "$(dirname "$0")/lib/common.sh"
need_data
PY=/usr/bin/python3
D=$SPOOR_DATA/bpftrace/unet3d-pytorch
cp "$D/bio.out" "$D/open.out" "$D/pids.out" "$WORK/"

# The reference: reads a table by its column list (the same NAME:TYPE
# language as --input-columns, with the built-in tables spelled out the way
# the README of the data describes them) and writes the CSV spoor events
# should, one row per whole line, in file order.
cat > "$WORK/ref.py" <<'PY'
import csv, sys
TABLES = {
    "bio": "ts_end:ns,wall_tod_s:clock,pid:int,comm:str,done_pid:int,done_comm:str,disk:str,rwbs:op,"
           "sector:int,bytes:int,dur:lat",
    "open": "ts_end:ns,wall_tod_s:clock,pid:int,comm:str,name:str,dur:lat,fname:rest",
    "vfs_rw": "ts_end:ns,wall_tod_s:clock,pid:int,comm:str,name:op,dur:lat,requested:int,returned:int,fname:rest",
}
CATS = {"bio": "bio", "open": "open", "vfs_rw": "vfs"}
table, path, out_cols = sys.argv[1], sys.argv[2], sys.argv[3].split(",")
spec = [c.split(":") for c in TABLES.get(table, table).split(",")]
rest = spec[-1][1] == "rest"

def op(text):
    if text in ("0", "1"):
        return "write" if text == "1" else "read"
    return "write" if "W" in text else "read" if "R" in text else text

w = csv.writer(sys.stdout, lineterminator="\n")
w.writerow(out_cols)
with open(path, newline="") as f:
    for n, line in enumerate(f.read().split("\n"), 1):
        line = line.rstrip("\r")
        if not line.strip():
            continue
        if rest:
            parts = line.split(None, len(spec) - 1)
            if len(parts) == len(spec):
                parts[-1] = parts[-1].rstrip(" \t")
        else:
            parts = line.split()
        need = len(spec) - 1 if rest else len(spec)
        if len(parts) < need or len(parts) > len(spec):
            continue
        row = {"line": str(n), "ph": "X" if any(s[0] == "dur" for s in spec) else "i"}
        if table in CATS:
            row["cat"] = CATS[table]
        recovered = False
        for (name, kind), text in zip(spec, parts):
            if kind in ("ns", "int", "lat"):
                v = int(text)
                if kind == "lat" and v < 0:
                    v &= 0xFFFFFFFF
                    recovered = True
            elif kind == "clock":
                h, m, s = text.split(":")
                v = int(h) * 3600 + int(m) * 60 + int(s)
            elif kind == "op":
                row["name"] = op(text)
                v = text
                if name == "name":
                    continue
            else:
                v = text
            row[name] = str(v)
        if "ts_end" in row:
            row["ts"] = str(int(row.pop("ts_end")) - int(row.get("dur", 0)))
        if recovered:
            row["lat_recovered"] = "1"
        if "fname" in row:  # spoor's resolved file column reads fname
            row["file"] = row["fname"]
        w.writerow([row.get(c, "") for c in out_cols])
PY

# check TABLE FILE COLUMNS [spoor options...]: spoor events against ref.py.
check() {
  local table=$1 file=$2 cols=$3
  shift 3
  "$SPOOR_BIN" events --no-cache --format csv --columns "$cols" "$@" "$WORK/$file" > "$WORK/got.csv" 2> "$WORK/err" \
    || fail "spoor events $file: $(cat "$WORK/err")"
  $PY "$WORK/ref.py" "$table" "$WORK/$file" "$cols" > "$WORK/want.csv"
  [ "$(wc -l < "$WORK/want.csv")" -gt 2 ] || fail "$file: the reference read too few rows"
  $PY - "$WORK/got.csv" "$WORK/want.csv" <<'PY' || fail "$file: spoor and the reference differ"
import csv, sys
got, want = (list(csv.reader(open(p, newline=""))) for p in sys.argv[1:3])
if got != want:
    bad = next(i for i in range(max(len(got), len(want))) if i >= len(got) or i >= len(want) or got[i] != want[i])
    print("row", bad, "got", got[bad] if bad < len(got) else None, "want", want[bad] if bad < len(want) else None)
    sys.exit(1)
PY
}

BIO_COLS=ts,dur,name,cat,pid,ph,line,wall_tod_s,comm,done_pid,done_comm,disk,rwbs,sector,bytes,lat_recovered
check bio bio.out "$BIO_COLS"
check open open.out ts,dur,name,cat,pid,ph,line,wall_tod_s,comm,fname,file,lat_recovered

# stats knows the table, counts the five recovered latencies and the cut line.
"$SPOOR_BIN" stats --no-cache "$WORK/bio.out" > "$WORK/stats" 2> "$WORK/err" || fail "stats bio.out: $(cat "$WORK/err")"
grep -q "could not detect" "$WORK/stats" "$WORK/err" && fail "bio.out not detected"
grep -q "^dialect  *bpftrace-bio" "$WORK/stats" || fail "bio.out: $(cat "$WORK/stats")"
want=$(awk 'NF == 11 && $11 < 0' "$D/bio.out" | wc -l)
[ "$want" -ge 1 ] || fail "bio.out has no negative latency any more"
grep -q "assumed .*; $want negative latencies" "$WORK/stats" || fail "recoveries not counted: $(cat "$WORK/stats")"
grep -q "skipped 1 (1 fewer fields than the table has (a cut line))" "$WORK/stats" || fail "cut line: $(cat "$WORK/stats")"
grep -q "bio.out:9093: fewer fields" "$WORK/err" || fail "cut line not named: $(cat "$WORK/err")"
"$SPOOR_BIN" sql --no-cache --format csv "$WORK/bio.out" \
  "SELECT count(*), sum(lat_recovered), min(ts) FROM events WHERE dur >= 2147483648" > "$WORK/sql.csv" \
  || fail "sql on bio.out"
want=$(awk 'NF == 11 { l = $11 < 0 ? $11 + 4294967296 : $11; if (l >= 2147483648) { n++; r += ($11 < 0);
                       s = $1 - l; if (m == "" || s < m) m = s } } END { printf "%d,%d,%.0f", n, r, m }' "$D/bio.out")
[ "$(tail -1 "$WORK/sql.csv")" = "$want" ] || fail "sql: $(cat "$WORK/sql.csv"), want $want"

# The byte rule reads bio's bytes: the summary's layer moves what awk sums.
want=$(awk 'NF == 11 { s += $10 } END { printf "%d", s }' "$D/bio.out")
"$SPOOR_BIN" summary --no-cache --format csv "$WORK/bio.out" 2>/dev/null | grep -q "^layer,bio,9092,[0-9]*,[0-9]*,$want," \
  || fail "bio bytes: want $want: $("$SPOOR_BIN" summary --no-cache "$WORK/bio.out" 2>&1 | grep '^bio')"

# A vfs_rw table made by hand: unsorted, an empty FILE, blanks in FILE and at
# the line's end, a negative latency, an error return, a cut last line.
printf '%s\n' \
  "5000200  12:04:31  4242  python    R  1500        4096  4096  data_0001.npy" \
  "9000000100  12:04:31  4242  python  W  -2147483000 65536 65536" \
  "5000300  12:04:32  4243  pt_data_w R  700         4096  0     my file (1).npy  " \
  "5000400  12:04:32  4243  pt_data_w W  900         128   -14   log.json" > "$WORK/vfs_rw.out"
printf '5000500  12:04:33  4243  pt_data_w R  80' >> "$WORK/vfs_rw.out"
VFS_COLS=ts,dur,name,cat,pid,ph,line,wall_tod_s,comm,requested,returned,fname,lat_recovered
check vfs_rw vfs_rw.out "$VFS_COLS"
grep -q ',my file (1).npy,' "$WORK/got.csv" || fail "blanks in FILE: $(cat "$WORK/got.csv")"
grep -q '^6852515804,2147484296,write,vfs,4242,X,2,43471,python,65536,65536,,1$' "$WORK/got.csv" \
  || fail "recovered latency or empty FILE: $(cat "$WORK/got.csv")"
"$SPOOR_BIN" stats --no-cache "$WORK/vfs_rw.out" > "$WORK/stats" 2> "$WORK/err" || fail "stats vfs_rw.out"
grep -q "^dialect  *bpftrace-vfs_rw" "$WORK/stats" || fail "vfs_rw.out: $(cat "$WORK/stats")"
grep -q "; 1 negative latencies" "$WORK/stats" || fail "vfs_rw recoveries: $(cat "$WORK/stats")"
grep -q "events  *4 " "$WORK/stats" || fail "vfs_rw rows: $(cat "$WORK/stats")"
EXPECT_MAX_LINES=3 expect_fail 1 "vfs_rw.out:5: fewer fields than the table has (a cut line): .*R  80 (--strict)" stats --no-cache --strict "$WORK/vfs_rw.out"
# Forced, a file of another shape says what to do; a clean file passes --strict.
head -4 "$WORK/vfs_rw.out" > "$WORK/clean.out"
"$SPOOR_BIN" stats --no-cache --strict --input-format bpftrace "$WORK/clean.out" > /dev/null || fail "--strict, clean"
printf 'qwe rty uiop\nasdf ghjkl, zx\n' > "$WORK/garbage.txt"
expect_fail 1 "not a bpftrace table this reader knows (bio, open, vfs_rw): describe its columns with --input-columns" \
  stats --no-cache --input-format bpftrace "$WORK/garbage.txt"

# --input-columns: another printf table (here biosnoop-like: start time, tid,
# comm with a blank-free name, a latency, a message taking the rest).
printf '%s\n' "1000  17  kworker/0:1  250  write to /a b" "3000  18  fio  -1294967296  read" "2000  17  x  5" \
  > "$WORK/custom.out"
CUSTOM=ts:ns,tid:int,comm:str,dur:lat,msg:rest
check "$CUSTOM" custom.out ts,dur,tid,ph,line,comm,msg,lat_recovered --input-columns "$CUSTOM"
printf '%s\n' "1000 17 fsync 250" "9000000000 18 read -5" "2000 17 write 5 extra" "3000 19 sync 0" > "$WORK/ends.out"
check "ts_end:ns,tid:int,name:str,dur:lat" ends.out ts,dur,tid,name,line,lat_recovered \
  --input-columns ts_end:ns,tid:int,name:str,dur:lat
grep -q "more fields than the table has" "$WORK/err" || fail "extra field not skipped: $(cat "$WORK/err")"
expect_fail 2 "input-columns: 'pid:float': unknown type" stats --no-cache --input-columns ts:ns,pid:float "$WORK/custom.out"
expect_fail 2 "a rest column must be the last" stats --no-cache --input-columns ts:ns,a:rest,b:int "$WORK/custom.out"
expect_fail 2 "ts_end needs a dur column" stats --no-cache --input-columns ts_end:ns,a:int "$WORK/custom.out"
expect_fail 2 "'name:int': name needs a str or rest type" stats --no-cache --input-columns name:int "$WORK/custom.out"

# ps aux: pids.out and a listing with its header, one metadata row per process.
for f in pids.out; do
  "$SPOOR_BIN" events --no-cache --format csv --columns pid,name,cat,ph,user,cpu_pct,mem_pct,vsz_kib,rss_kib,tty,stat,start,cpu_time_s,command \
    "$WORK/$f" > "$WORK/got.csv" 2> "$WORK/err" || fail "ps $f: $(cat "$WORK/err")"
  $PY - "$WORK/$f" "$WORK/got.csv" <<'PY' || fail "ps $f differs from the reference"
import csv, sys
want = [["pid", "name", "cat", "ph", "user", "cpu_pct", "mem_pct", "vsz_kib", "rss_kib", "tty", "stat", "start",
         "cpu_time_s", "command"]]
for line in open(sys.argv[1]):
    f = line.split(None, 10)
    if len(f) < 11 or f[0] == "USER":
        continue
    m, s = f[9].split(":")
    num = lambda x: ("%g" % float(x))
    want.append([f[1], f[10].split()[0].rstrip("\n").split("/")[-1], "ps", "M", f[0], num(f[2]), num(f[3]), f[4],
                 f[5], f[6], f[7], f[8], str(int(m) * 60 + int(s)), f[10].rstrip("\n").rstrip()])
got = list(csv.reader(open(sys.argv[2], newline="")))
if got != want or len(want) < 3:
    print("got", got, "want", want)
    sys.exit(1)
PY
done
cat > "$WORK/ps.txt" <<'TXT'
USER         PID %CPU %MEM    VSZ   RSS TTY      STAT START   TIME COMMAND
root           1  0.0  0.1 167764 11808 ?        Ss   Mar10   0:09 /sbin/init splash
root           2  0.0  0.0      0     0 ?        S    Mar10   0:00 [kthreadd]
ml       3691113 99.5 12.3 9876543 123456 pts/10 Rl+ 12:05 1-02:03:04 python main.py --epochs 3
TXT
"$SPOOR_BIN" stats --no-cache "$WORK/ps.txt" > "$WORK/stats" 2> "$WORK/err" || fail "ps.txt: $(cat "$WORK/err")"
grep -q "^dialect  *ps-aux" "$WORK/stats" || fail "ps.txt: $(cat "$WORK/stats")"
grep -q "events  *0 (+ 3 metadata)" "$WORK/stats" || fail "ps.txt rows: $(cat "$WORK/stats")"
"$SPOOR_BIN" events --no-cache --format csv --columns pid,name,cpu_pct,cpu_time_s,command "$WORK/ps.txt" > "$WORK/got.csv"
grep -qx '3691113,python,99.5,93784,python main.py --epochs 3' "$WORK/got.csv" || fail "ps row: $(cat "$WORK/got.csv")"
echo ok
