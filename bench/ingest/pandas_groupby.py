"""The Python peer of `spoor stats`: per (cat, name) event counts and summed
dur of a DataCrumbs trace, the way the Python tools around these traces do it:
gzip + json.loads per line (skipping the "[" and "]" lines) into a pandas
DataFrame, then a group-by.

Python is slow, so it may stop after the first PREFIX_MB of uncompressed text;
run.sh extrapolates its time linearly to the whole file and says so.

usage: /usr/bin/python3 pandas_groupby.py TRACE [PREFIX_MB]
prints one JSON object: {"seconds", "bytes", "lines", "rows", "groups": [[cat, name, count, dur_sum], ...]}
"""
import gzip
import json
import sys
import time

import pandas as pd


def main():
    if len(sys.argv) not in (2, 3):
        print("usage: pandas_groupby.py TRACE [PREFIX_MB]", file=sys.stderr)
        return 2
    trace = sys.argv[1]
    limit = float(sys.argv[2]) * 1e6 if len(sys.argv) == 3 else float("inf")
    start = time.perf_counter()
    opener = gzip.open if trace.endswith(".gz") else open
    cats, names, durs = [], [], []
    seen = lines = 0
    with opener(trace, "rb") as f:
        for raw in f:
            seen += len(raw)
            lines += 1
            text = raw.strip()
            if text and text not in (b"[", b"]"):
                event = json.loads(text)
                cats.append(event.get("cat"))
                names.append(event.get("name"))
                durs.append(event.get("dur"))
            if seen >= limit:
                break
    frame = pd.DataFrame({"cat": cats, "name": names, "dur": durs})
    table = frame.groupby(["cat", "name"], dropna=False)["dur"].agg(["size", "sum"]).reset_index()
    seconds = time.perf_counter() - start
    groups = [[r.cat, r.name, int(r.size), int(r.sum)] for r in table.itertuples(index=False)]
    print(json.dumps({"seconds": seconds, "bytes": seen, "lines": lines, "rows": len(cats), "groups": groups}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
