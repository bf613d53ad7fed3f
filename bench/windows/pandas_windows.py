"""The windows a Python user computes from an ftrace block trace, the way the
I/O-pattern pipeline did (a regex per line, a dict joining issue and
completion, then pandas group-bys per window and direction): requests, bytes,
mean and median size, IOPS, bandwidth, latency mean/p50/p99, mean sector
distance, jump and sequential ratios. Prints the number of windows and its
own seconds as JSON (run.sh times the whole command, start-up included:
what the user waits for).

usage: pandas_windows.py TRACE EVERY_NS"""
import json
import re
import sys
import time

import numpy as np
import pandas as pd

t0 = time.perf_counter()
path, every = sys.argv[1], int(sys.argv[2])
LINE = re.compile(r"\] \S+ +(\d+)\.(\d{6}): block_rq_(issue|complete): (\d+,\d+) (\w+) (\d+ )?\(\) (\d+) \+ (\d+)")
pending, rows = {}, []
with open(path) as f:
    for line in f:
        m = LINE.search(line)
        if not m:
            continue
        ts = int(m[1]) * 1_000_000_000 + int(m[2]) * 1000
        key = (m[4], int(m[7]))
        if m[3] == "issue":
            pending[key] = (ts, m[5], int(m[8]) * 512)
        elif key in pending:
            issued, rwbs, size = pending.pop(key)
            if "R" in rwbs or "W" in rwbs:
                rows.append((issued, ts - issued, "write" if "W" in rwbs else "read", int(m[7]), size))
df = pd.DataFrame(rows, columns=["ts", "lat", "op", "sector", "bytes"]).sort_values("ts", kind="stable")
df["window"] = (df.ts - df.ts.min()) // every
df["distance"] = df.groupby("op").sector.diff().abs()
g = df.groupby(["window", "op"])
out = pd.DataFrame({
    "requests": g.size(), "bytes": g.bytes.sum(), "size_mean": g.bytes.mean(), "size_median": g.bytes.median(),
    "latency_mean": g.lat.mean(), "latency_p50": g.lat.quantile(0.5), "latency_p99": g.lat.quantile(0.99),
    "distance_mean": g.distance.mean(),
    "jump_ratio": g.distance.apply(lambda d: np.mean(d > 2048)),
    "sequential_ratio": g.distance.apply(lambda d: np.mean(d == 0)),
})
out["iops"] = out.requests / (every / 1e9)
out["bandwidth"] = out.bytes / (every / 1e9)
print(json.dumps({"windows": int(out.index.get_level_values(0).nunique()), "seconds": time.perf_counter() - t0}))
