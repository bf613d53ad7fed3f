# The byte rule (docs/formats.md, "Bytes") on traces made for it, in summary
# and attribute alike: DFTracer POSIX read ret (with count) is bytes, open's
# and lseek's ret are not; STDIO fread/fwrite move ret elements of size bytes
# (ret x size: 37 x 8, 10 x 4, an fread at end of file 0); aggregated events
# (dft_cnt) give read ret_sum, write size_sum, fread ret_sum x its constant
# element size, and an fwrite whose element size varied has no bytes.
source "$(dirname "$0")/lib/common.sh"

cat > "$WORK/calls.pfw" <<'PFW'
[
{"id":1,"name":"HH","cat":"dftracer","pid":7,"tid":7,"ph":"M","args":{"name":"node1","value":11}}
{"id":2,"name":"FH","cat":"dftracer","pid":7,"tid":7,"ph":"M","args":{"name":"/d/a","value":21}}
{"id":3,"name":"FH","cat":"dftracer","pid":7,"tid":7,"ph":"M","args":{"name":"/d/b","value":22}}
{"id":4,"name":"open64","cat":"POSIX","pid":7,"tid":7,"ts":100,"dur":5,"ph":"X","args":{"hhash":11,"fhash":21,"ret":3,"flags":0}}
{"id":5,"name":"read","cat":"POSIX","pid":7,"tid":7,"ts":110,"dur":10,"ph":"X","args":{"hhash":11,"fhash":21,"fd":3,"count":4096,"ret":1000}}
{"id":6,"name":"lseek64","cat":"POSIX","pid":7,"tid":7,"ts":125,"dur":1,"ph":"X","args":{"hhash":11,"fhash":21,"fd":3,"offset":500,"whence":0,"ret":500}}
{"id":7,"name":"fopen","cat":"STDIO","pid":7,"tid":7,"ts":130,"dur":5,"ph":"X","args":{"hhash":11,"fhash":22,"mode":"r"}}
{"id":8,"name":"fread","cat":"STDIO","pid":7,"tid":7,"ts":140,"dur":10,"ph":"X","args":{"hhash":11,"fhash":22,"size":8,"count":100,"ret":37}}
{"id":9,"name":"fwrite","cat":"STDIO","pid":7,"tid":7,"ts":160,"dur":10,"ph":"X","args":{"hhash":11,"fhash":22,"size":4,"count":10,"ret":10}}
{"id":10,"name":"fread","cat":"STDIO","pid":7,"tid":7,"ts":180,"dur":10,"ph":"X","args":{"hhash":11,"fhash":22,"size":8,"count":100,"ret":0}}
PFW
cat > "$WORK/aggregated.pfw" <<'PFW'
[
{"name":"HH","cat":"dftracer","type":0,"pid":5,"tid":6,"ph":4,"args":{"name":"node1","value":"a1b2c3d4"}}
{"name":"read","cat":"POSIX","type":0,"ts":1000,"ph":3,"pid":5,"tid":6,"args":{"hhash":"a1b2c3d4","dft_cnt":3,"count_sum":12288,"ret_sum":9000,"ret_min":1000,"ret_max":4096}}
{"name":"fread","cat":"STDIO","type":0,"ts":1000,"ph":3,"pid":5,"tid":6,"args":{"hhash":"a1b2c3d4","dft_cnt":2,"size_sum":16,"size_min":8,"size_max":8,"ret_sum":50,"count_sum":200}}
{"name":"fwrite","cat":"STDIO","type":0,"ts":1000,"ph":3,"pid":5,"tid":6,"args":{"hhash":"a1b2c3d4","dft_cnt":2,"size_sum":12,"size_min":4,"size_max":8,"ret_sum":5,"count_sum":5}}
{"name":"write","cat":"POSIX","type":0,"ts":1000,"ph":3,"pid":5,"tid":6,"args":{"hhash":"a1b2c3d4","dft_cnt":3,"size_sum":12288,"size_min":4096,"size_max":4096}}
PFW

for f in calls aggregated; do
  "$SPOOR_BIN" summary --format json --top 50 --no-progress --no-cache "$WORK/$f.pfw" > "$WORK/$f.json" \
    || fail "summary of $f.pfw failed"
done
"$SPOOR_BIN" attribute --no-progress --no-cache --calls "cat IN ('POSIX', 'STDIO')" --events "cat = 'none'" \
  -o "$WORK/calls.jsonl" "$WORK/calls.pfw" 2> /dev/null || fail "attribute failed"

/usr/bin/python3 - "$WORK" <<'PY' || fail "bytes differ from the rule"
import json, sys
work = sys.argv[1]
def functions(name):
    got = json.load(open(f"{work}/{name}.json"))
    return {f["label"]: f["bytes"] for f in got["top_functions"]}, {l["cat"]: l for l in got["layers"]}, got
fns, layers, got = functions("calls")
want = {"POSIX.read": 1000, "POSIX.open64": 0, "POSIX.lseek64": 0, "STDIO.fopen": 0,
        "STDIO.fread": 37 * 8 + 0, "STDIO.fwrite": 10 * 4}
assert fns == want, fns
assert layers["STDIO"]["bytes"] == 336 and layers["STDIO"]["sized"] == 3, layers["STDIO"]
assert layers["POSIX"]["sized"] == 1, layers["POSIX"]
# The access sizes: 1000, 296, 40 and 0 bytes, all below 4 KiB.
assert got["access_sizes"][0] == {"bin": "<4KiB", "count": 4, "bytes": 1336}, got["access_sizes"][0]
fns, layers, _ = functions("aggregated")
assert fns == {"POSIX.read": 9000, "POSIX.write": 12288, "STDIO.fread": 50 * 8, "STDIO.fwrite": 0}, fns
assert layers["STDIO"]["sized"] == 1, layers["STDIO"]   # the fwrite's bytes are unknown
# attribute's size column: the same rule, per call; null where there are no bytes.
size = {}
for line in open(f"{work}/calls.jsonl"):
    r = json.loads(line)
    size.setdefault(r["name"], []).append(r["size"])
assert size == {"open64": [None], "read": [1000], "lseek64": [None], "fopen": [None], "fread": [296, 0],
                "fwrite": [40]}, size
PY
echo ok
