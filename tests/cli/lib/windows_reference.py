"""A brute-force reading of `spoor windows` for tests/cli/windows.sh.

usage: windows_reference.py REQUESTS.csv EVERY_NS BY_DEV(0|1) GOT.csv [RUN_ID LABEL]

REQUESTS.csv is blk_reference.py's request rows (ts,dur,name,...,dev,sector,
bytes,...,queue_depth), in input order. Every window is recomputed from the
definitions in docs/cli.md, each value from the whole list of requests
(quantiles from the sorted values, not from a histogram), and compared with
spoor's CSV (GOT.csv) column by column, exactly: exit 1 on a difference.
"""
import csv
import sys

OPS = ("read", "write")
FIELDS = ("requests", "bytes", "size_mean", "size_median", "iops", "bandwidth", "completions",
          "latency_mean", "latency_p50", "latency_p99", "distance_mean", "jump_ratio",
          "sequential_ratio", "queue_depth_mean")
Q16 = 1 << 16


def five_bits(v):
    """v below 2^40 (clamped there), its bits after the 5 leading ones cleared."""
    v = min(v, (1 << 40) - 1)
    drop = max(v.bit_length() - 5, 0)
    return v >> drop << drop


def quantile(values, percent):
    """Nearest rank: the ceil(percent * n / 100)-th smallest value (exact
    integers), then rounded down to 5 significant bits; 0 for no values."""
    if not values:
        return 0
    rank = -(-percent * len(values) // 100)
    return five_bits(sorted(values)[rank - 1])


def q16(numerator, denominator):
    """numerator / denominator rounded down to a multiple of 2^-16; 0 for a
    zero denominator (spoor writes 0 where there is nothing to average)."""
    return (numerator * Q16 // denominator) / Q16 if denominator else 0


def mean(values):
    return q16(sum(values), len(values))


def previous_end(req, reqs):
    """The end sector of the request before req in issue order (same device
    and operation; equal issue times in input order), or None."""
    before = [q for q in reqs if q["dev"] == req["dev"] and q["name"] == req["name"]
              and (q["ts"], q["index"]) < (req["ts"], req["index"])]
    if not before:
        return None
    q = max(before, key=lambda q: (q["ts"], q["index"]))
    return q["sector"] + q["bytes"] // 512


def op_values(issued, completed, every):
    """issued: the requests issued in the window; completed: those completed in it."""
    n = len(issued)
    dists = [r["distance"] for r in issued if r["distance"] is not None]
    total = sum(r["bytes"] for r in issued)
    lat = [r["dur"] for r in completed]
    size = [r["bytes"] for r in issued]
    return [n, total, mean(size), quantile(size, 50), q16(n * 10**9, every), q16(total * 10**9, every),
            len(lat), mean(lat), quantile(lat, 50), quantile(lat, 99),
            mean(dists), mean([1 if d * 512 > 1 << 20 else 0 for d in dists]),
            mean([1 if d == 0 else 0 for d in dists]), mean([r["queue_depth"] for r in issued])]


def windows(reqs, every, by_dev, run_id, label):
    for r in reqs:
        end = previous_end(r, reqs)
        r["distance"] = None if end is None else abs(r["sector"] - end)
    t0 = min(r["ts"] for r in reqs)
    issue_win = lambda r: (r["ts"] - t0) // every
    done_win = lambda r: (r["ts"] + r["dur"] - t0) // every
    keys = {(issue_win(r), r["dev"] if by_dev else "") for r in reqs}
    keys |= {(done_win(r), r["dev"] if by_dev else "") for r in reqs}
    keys = sorted(keys, key=lambda k: (k[0], [int(x) for x in k[1].split(",")] if k[1] else []))
    rows = []
    for win, dev in keys:
        mine = [r for r in reqs if not by_dev or r["dev"] == dev]
        row = [win, t0 + win * every] + ([dev] if by_dev else []) + ([run_id] if run_id else [])
        row += [label] if label else []
        for op in OPS:
            row += op_values([r for r in mine if r["name"] == op and issue_win(r) == win],
                             [r for r in mine if r["name"] == op and done_win(r) == win], every)
        rows.append(row)
    return rows


def same(want, got):
    """Bit for bit: every feature is an integer or a multiple of 2^-16, exact
    in a double, and spoor prints the shortest text that reads back as it."""
    if isinstance(want, str):
        return want == got
    try:
        return float(want) == float(got)
    except ValueError:
        return False


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
