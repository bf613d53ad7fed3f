"""A brute-force reading of `spoor windows` for tests/cli/windows.sh.

usage: windows_reference.py REQUESTS.csv EVERY_NS BY_DEV(0|1) GOT.csv [RUN_ID LABEL]

REQUESTS.csv is blk_reference.py's request rows (ts,dur,name,...,dev,sector,
bytes,...,queue_depth), in input order. Every window is recomputed from the
definitions in docs/cli.md, each value from the whole list of requests, and
compared with spoor's CSV (GOT.csv) column by column: exit 1 on a difference.
"""
import csv
import math
import sys

OPS = ("read", "write")
FIELDS = ("requests", "bytes", "size_mean", "size_median", "iops", "bandwidth", "latency_mean",
          "latency_p50", "latency_p99", "distance_mean", "jump_ratio", "sequential_ratio",
          "queue_depth_mean")


def quantile(values, p):
    """Hyndman & Fan 7 (numpy's default), written out."""
    xs = sorted(values)
    h = (len(xs) - 1) * p
    lo = math.floor(h)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (h - lo) * (xs[hi] - xs[lo])


def mean(values):
    """0 for no values: spoor writes 0 where there is nothing to average."""
    return sum(values) / len(values) if values else 0


def previous_end(req, reqs):
    """The end sector of the request before req in issue order (same device
    and operation; equal issue times in input order), or None."""
    before = [q for q in reqs if q["dev"] == req["dev"] and q["name"] == req["name"]
              and (q["ts"], q["index"]) < (req["ts"], req["index"])]
    if not before:
        return None
    q = max(before, key=lambda q: (q["ts"], q["index"]))
    return q["sector"] + q["bytes"] // 512


def op_values(sel, seconds):
    n = len(sel)
    dists = [r["distance"] for r in sel if r["distance"] is not None]
    total = sum(r["bytes"] for r in sel)
    lat = [r["dur"] for r in sel]
    size = [r["bytes"] for r in sel]
    return [n, total, mean(size), quantile(size, 0.5) if n else 0, n / seconds, total / seconds,
            mean(lat), quantile(lat, 0.5) if n else 0, quantile(lat, 0.99) if n else 0,
            mean(dists), mean([1 if d * 512 > 1 << 20 else 0 for d in dists]),
            mean([1 if d == 0 else 0 for d in dists]), mean([r["queue_depth"] for r in sel])]


def windows(reqs, every, by_dev, run_id, label):
    for r in reqs:
        end = previous_end(r, reqs)
        r["distance"] = None if end is None else abs(r["sector"] - end)
    t0 = min(r["ts"] for r in reqs)
    keys = sorted({((r["ts"] - t0) // every, r["dev"] if by_dev else "") for r in reqs},
                  key=lambda k: (k[0], [int(x) for x in k[1].split(",")] if k[1] else []))
    rows = []
    for win, dev in keys:
        sel = [r for r in reqs if (r["ts"] - t0) // every == win and (not by_dev or r["dev"] == dev)]
        row = [win, t0 + win * every] + ([dev] if by_dev else []) + ([run_id] if run_id else [])
        row += [label] if label else []
        for op in OPS:
            row += op_values([r for r in sel if r["name"] == op], every / 1e9)
        rows.append(row)
    return rows


def same(want, got):
    if isinstance(want, str):
        return want == got
    try:
        g = float(got)
    except ValueError:
        return False
    return math.isclose(want, g, rel_tol=1e-9, abs_tol=1e-9)


def main():
    path, every, by_dev, got_path = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1", sys.argv[4]
    run_id, label = (sys.argv[5], sys.argv[6]) if len(sys.argv) > 6 else (None, None)
    reqs = []
    with open(path, newline="") as f:
        for i, r in enumerate(csv.DictReader(f)):
            if r["name"] in OPS and r["sector"] != "":
                reqs.append({"index": i, "ts": int(r["ts"]), "dur": int(r["dur"]), "name": r["name"],
                             "dev": r["dev"], "sector": int(r["sector"]), "bytes": int(r["bytes"]),
                             "queue_depth": int(r["queue_depth"])})
    header = ["window", "start"] + (["dev"] if by_dev else []) + (["run_id"] if run_id else [])
    header += (["label"] if label else []) + [f"{op}_{f}" for op in OPS for f in FIELDS]
    want = windows(reqs, every, by_dev, run_id, label)
    with open(got_path, newline="") as f:
        got = list(csv.reader(f))
    if got[0] != header:
        sys.exit(f"header: want {header}, got {got[0]}")
    if len(got) - 1 != len(want):
        sys.exit(f"want {len(want)} windows, got {len(got) - 1}")
    for w, g in zip(want, got[1:]):
        for name, a, b in zip(header, w, g):
            if not same(a, b):
                sys.exit(f"window {w[0]} {w[2] if by_dev else ''}: {name}: want {a}, got {b}")
    print(f"{len(want)} windows of {len(reqs)} requests agree")


if __name__ == "__main__":
    main()
