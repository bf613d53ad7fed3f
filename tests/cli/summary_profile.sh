# spoor summary on DataCrumbs profile traces (made here): a counter (ph C
# with args freq and time) is freq calls taking args.time seconds, so layers,
# functions, files and the per-process I/O time have counts and times; the
# access sizes bin a counter's mean call; self time, having no nesting, is
# "-". A ratio of 0/0 prints "-", null in JSON (imbalance of I/O that took
# no time, the share of a layer without parent, a rate without bytes). With no compute event, the cats and
# functions that look like compute are named.
source "$(dirname "$0")/lib/common.sh"

cat > "$WORK/profile.pfw" <<'PFW'
[
{"pid": 9, "tid": 9, "name": "read", "cat": "sys", "ph": "C", "ts": 0, "args": {"freq": 3, "time": 0.0015, "size_sum": 3072, "fname": "/d/x"}}
{"pid": 9, "tid": 9, "name": "vfs_read", "cat": "vfs", "ph": "C", "ts": 0, "args": {"freq": 3, "time": 0.001, "size_sum": null, "fname": null}}
{"pid": 9, "tid": 9, "name": "read", "cat": "sys", "ph": "C", "ts": 1000000, "args": {"freq": 1, "time": 0.0005, "size_sum": 8388608, "fname": "/d/x"}}
{"pid": 9, "tid": 9, "name": "step", "cat": "train-compute", "ph": "C", "ts": 1000000, "args": {"freq": 2, "time": 0.5, "size_sum": null, "fname": null}}
{"pid": 9, "tid": 9, "name": "computation", "cat": "app", "ph": "C", "ts": 1000000, "args": {"freq": 1, "time": 0.25, "size_sum": null, "fname": null}}
{"pid": 10, "tid": 10, "name": "write", "cat": "sys", "ph": "C", "ts": 0, "args": {"freq": 1, "time": 0.001, "size_sum": 100, "fname": "/d/y"}}
PFW
"$SPOOR_BIN" summary --no-progress --no-cache "$WORK/profile.pfw" > "$WORK/p.txt" || fail "summary failed"
"$SPOOR_BIN" summary --format json --no-progress --no-cache "$WORK/profile.pfw" > "$WORK/p.json" \
  || fail "summary --format json failed"
grep -q "^compute     - (no events of compute,cpu,app.compute; these look like compute: train-compute,app.computation; see --compute-cats)$" \
  "$WORK/p.txt" || fail "the compute-like cats are not named: $(grep compute "$WORK/p.txt")"
grep -q "^imbalance   1.33 " "$WORK/p.txt" || fail "imbalance: $(grep imbalance "$WORK/p.txt")"
grep -Eq "^sys +5 +3.00 ms +- " "$WORK/p.txt" || fail "the sys layer: $(grep '^sys' "$WORK/p.txt")"
/usr/bin/python3 - "$WORK/p.json" <<'PY' || fail "the profile summary is wrong"
import json, sys
got = json.load(open(sys.argv[1]))
layers = {l["cat"]: l for l in got["layers"]}
assert {c: (l["count"], l["time"], l["self"]) for c, l in layers.items()} == {
    "sys": (5, 3000000, 0), "vfs": (3, 1000000, 0), "train-compute": (2, 500000000, 0), "app": (1, 250000000, 0)}, layers
assert layers["sys"]["bytes"] == 3072 + 8388608 + 100 and layers["sys"]["sized"] == 5, layers["sys"]
assert layers["sys"]["not_compute"] == 3000000 and layers["sys"]["counter_time"] == 3000000, layers["sys"]
fns = {f["label"]: (f["count"], f["time"]) for f in got["top_functions"]}
assert fns["sys.read"] == (4, 2000000) and fns["vfs.vfs_read"] == (3, 1000000), fns
files = {f["label"]: (f["count"], f["time"], f["bytes"]) for f in got["top_files"]}
assert files == {"/d/x": (4, 2000000, 3072 + 8388608), "/d/y": (1, 1000000, 100)}, files
bins = {b["bin"]: (b["count"], b["bytes"]) for b in got["access_sizes"]}
assert bins["<4KiB"] == (4, 3172) and bins["1MiB-16MiB"] == (1, 8388608), bins
assert got["imbalance"]["max"] == 2000000 and got["imbalance"]["slowest_pid"] == 9, got["imbalance"]
assert got["compute_events"] == 0 and got["compute_like"] == "train-compute,app.computation", got
# Rates from the counters' time; no parent, so no share (null, not 0).
assert abs(layers["sys"]["ops_per_s"] - 5 / 0.003) < 1e-3 and layers["vfs"]["mib_per_s"] is None, layers
assert all(l["parent"] is None and l["parent_share"] is None for l in layers.values()), layers
PY
"$SPOOR_BIN" summary --format csv --no-progress --no-cache "$WORK/profile.pfw" | grep -q '^layer,sys,5,3000000,0,8391780,,,3000000$' \
  || fail "CSV: a layer without parent has an empty share"
# Named, the compute layer counts.
"$SPOOR_BIN" summary --no-progress --no-cache --compute-cats train-compute "$WORK/profile.pfw" > "$WORK/c.txt" \
  || fail "summary --compute-cats failed"
grep -q "^compute     500.00 ms (train-compute)$" "$WORK/c.txt" || fail "compute: $(grep compute "$WORK/c.txt")"

# I/O that took no time: max/mean is 0/0, printed "-" (null in JSON); a layer
# without parent has no share.
printf '%s\n' '[' \
  '{"pid": 1, "tid": 1, "name": "openat", "cat": "sys", "ph": "X", "ts": 5, "dur": 0, "args": {"fname": "/x"}}' \
  > "$WORK/zero.pfw"
"$SPOOR_BIN" summary --no-progress --no-cache "$WORK/zero.pfw" > "$WORK/z.txt" || fail "summary failed"
grep -q "^imbalance   - (max/mean I/O time per process over 1 processes: no I/O time)$" "$WORK/z.txt" \
  || fail "0/0 imbalance: $(grep imbalance "$WORK/z.txt")"
grep -Eq "^sys +1 +0 ns +0 ns +- +- +- +- +- +0 ns$" "$WORK/z.txt" || fail "0/0 share: $(grep '^sys' "$WORK/z.txt")"
"$SPOOR_BIN" summary --format json --no-progress --no-cache "$WORK/zero.pfw" | grep -q '"max_over_mean": null' \
  || fail "0/0 imbalance is not null in JSON"
echo ok
