"""The summary's period figures and layer breakdown as a user writes them in
pandas (what dfanalyzer's "time period summary" and "layer breakdown" give):
the trace loaded as notebook.py loads it (one json.loads per line), then per
cat the count, the dur sum, the bytes (args size_sum) and the union of its
[ts, ts + dur] spans over all threads (sorted by start, a running max of the
ends, a new span where a start passes it). Self time and the parent layer
need every thread's call stack and are left out: a pandas user rarely gets
that far.

usage: summary_pandas.py TRACE.pfw.gz OUT.json
Prints one JSON line of timings to stdout and writes the figures to OUT.json,
named as in `spoor summary --format json`.
"""
import json
import resource
import sys
import time

import numpy as np

from notebook import load


def union_length(ts, end):
    """Length of the union of the spans [ts, end], in any order."""
    if len(ts) == 0:
        return 0
    order = np.argsort(ts, kind="stable")
    ts, end = ts[order], end[order]
    reach = np.maximum.accumulate(end)
    starts_new = np.empty(len(ts), dtype=bool)
    starts_new[:1] = True
    starts_new[1:] = ts[1:] > reach[:-1]
    first = ts[starts_new]
    last = np.maximum.reduceat(end, np.flatnonzero(starts_new))
    return int((last - first).sum())


def main():
    path, out = sys.argv[1], sys.argv[2]
    t0 = time.perf_counter()
    df = load(path, ("size_sum",))
    t1 = time.perf_counter()
    figures = {
        "events": len(df),
        "processes": int(df["pid"].nunique()),
        "threads": len(df[["pid", "tid"]].drop_duplicates()),
        "job_time": int(df["end"].max() - df["ts"].min()),
        "layers": {},
    }
    for cat, rows in df.groupby("cat"):
        figures["layers"][cat] = {
            "count": len(rows),
            "dur_sum": int(rows["dur"].sum()),
            "bytes": int(rows["size_sum"].fillna(0).sum()),
            "time": union_length(rows["ts"].to_numpy(), rows["end"].to_numpy()),
        }
    t2 = time.perf_counter()
    with open(out, "w") as f:
        json.dump(figures, f)
    print(json.dumps({"load_s": t1 - t0, "compute_s": t2 - t1, "total_s": t2 - t0,
                      "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))


if __name__ == "__main__":
    main()
