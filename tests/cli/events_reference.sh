# spoor events against an independent json.loads reading of the shared
# samples: the rows a --where keeps, and every value written, field by field.
source "$(dirname "$0")/lib/common.sh"
need_data
PFW=$SPOOR_DATA/pfw

# file, where, python condition over the event dict e
check_count() {
  local file=$PFW/$1 where=$2 cond=$3
  local got want
  got=$("$SPOOR_BIN" events --no-progress --format jsonl --where "$where" "$file" | wc -l) \
    || fail "spoor events failed on $1"
  want=$(/usr/bin/python3 - "$file" "$cond" <<'PY'
import gzip, json, sys
path, cond = sys.argv[1], sys.argv[2]
opener = gzip.open if path.endswith(".gz") else open
n = 0
with opener(path, "rt", encoding="utf-8", errors="replace") as f:
    for line in f:
        line = line.strip().rstrip(",")
        if line in ("", "[", "]"):
            continue
        e = json.loads(line)
        a = e.get("args", {})
        if eval(cond):
            n += 1
print(n)
PY
)
  [ "$got" = "$want" ] || fail "$1: --where \"$where\" kept $got rows, the reference $want"
  [ "$want" -gt 0 ] || [ "${4:-}" = empty-ok ] || fail "$1: the reference kept no rows for \"$where\""
  echo "ok $1 $where: $got"
}

check_count dftracer-quoted-2023.pfw.gz "cat = 'POSIX' AND name = 'open'" \
  "e.get('cat') == 'POSIX' and e.get('name') == 'open'"
# Both counts independently: zcat | grep agrees on this simple one.
grep_count=$(zcat "$PFW/dftracer-quoted-2023.pfw.gz" | grep -c '"name":"open","cat":"POSIX"')
spoor_count=$("$SPOOR_BIN" events --no-progress --where "cat = 'POSIX' AND name = 'open'" "$PFW/dftracer-quoted-2023.pfw.gz" | tail -n +2 | wc -l)
[ "$grep_count" = "$spoor_count" ] || fail "grep counts $grep_count open calls, spoor $spoor_count"

check_count dftracer-dlio-pytorch-2023.pfw.gz "name LIKE 'read%' AND dur > 100us" \
  "e.get('name', '').lower().startswith('read') and int(e.get('dur', 0)) > 100"
check_count dftracer-dlio-pytorch-2023.pfw.gz "NOT (cat IN ('POSIX', 'STDIO') OR name = 'lseek64') OR fname NOT GLOB '*.npz'" \
  "not (e.get('cat') in ('POSIX', 'STDIO') or e.get('name') == 'lseek64') or ('fname' in a and not a['fname'].endswith('.npz'))"
check_count datacrumbs-trace-2024.pfw.gz "cat = 'sys' AND dur BETWEEN 1000 AND 10000" \
  "e.get('cat') == 'sys' and 1000 <= int(e.get('dur', -1)) <= 10000"
check_count datacrumbs-profile-2024.pfw "size_sum IS NULL AND ph = 'C'" \
  "e.get('ph') == 'C' and a.get('size_sum') is None"

# file resolved through FH metadata, as a script that keeps the map: a hash
# means what the file last defined it as (the file redefines some).
file=$PFW/dftracer-cm1-2024-rank0.pfw.gz
"$SPOOR_BIN" events --no-progress --format jsonl --columns line,name,file,host --where "file LIKE '%.dat'" "$file" \
  > "$WORK/files.jsonl" || fail "spoor events failed on the cm1 trace"
/usr/bin/python3 - "$file" "$WORK/files.jsonl" <<'PY' || fail "resolved file names differ from the reference"
import gzip, json, sys
fh, hh, want = {}, {}, []
for no, line in enumerate(gzip.open(sys.argv[1], "rt"), 1):
    line = line.strip().rstrip(",")
    if line in ("", "[", "]"):
        continue
    e = json.loads(line)
    a = e.get("args", {})
    if e.get("name") == "FH":
        fh[str(a["value"])] = a["name"]
    if e.get("name") == "HH":
        hh[str(a["value"])] = a["name"]
    f = fh.get(str(a.get("fhash")), a.get("fname"))
    if f is not None and f.lower().endswith(".dat"):
        want.append({"line": no, "name": e["name"], "file": f, "host": hh.get(str(a.get("hhash")), a.get("hostname"))})
got = [json.loads(l) for l in open(sys.argv[2])]
assert len(want) > 100, len(want)
assert got == want, next((g, w) for g, w in zip(got, want) if g != w) if len(got) == len(want) else (len(got), len(want))
print("ok resolved files:", len(got))
PY

# Every value of every row, against the 2023 dialect's quoted fields (µs -> ns).
file=$PFW/dftracer-quoted-2023.pfw.gz
"$SPOOR_BIN" events --no-progress --columns line,ts,dur,name,cat,pid,tid,ph,fname,hostname,file,host "$file" \
  > "$WORK/all.csv" || fail "spoor events failed on $file"
/usr/bin/python3 - "$file" "$WORK/all.csv" <<'PY' || fail "CSV values differ from the reference"
import csv, gzip, json, sys
want = []
for no, line in enumerate(gzip.open(sys.argv[1], "rt"), 1):
    line = line.strip().rstrip(",")
    if line in ("", "[", "]"):
        continue
    e = json.loads(line)
    a = e.get("args", {})
    us = lambda k: str(int(e[k]) * 1000) if k in e else ""
    want.append([str(no), us("ts"), us("dur"), e["name"], e["cat"], e["pid"], e["tid"], e["ph"],
                 a.get("fname", ""), a.get("hostname", ""), a.get("fname", ""), a.get("hostname", "")])
rows = list(csv.reader(open(sys.argv[2], newline="")))
assert rows[0] == ["line", "ts", "dur", "name", "cat", "pid", "tid", "ph", "fname", "hostname", "file", "host"], rows[0]
assert rows[1:] == want, next((g, w) for g, w in zip(rows[1:], want) if g != w)
print("ok values:", len(want), "rows")
PY
echo ok
