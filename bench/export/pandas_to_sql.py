"""The Python peer of `spoor export --to sqlite`: pandas reads the first N MB
of a .pfw.gz (one JSON object per line) and writes it with DataFrame.to_sql.
Prints {"seconds", "bytes", "rows"}; the caller extrapolates to the whole file."""
import gzip
import json
import sqlite3
import sys
import time

import pandas as pd

path, prefix_mb, db = sys.argv[1], int(sys.argv[2]), sys.argv[3]
start = time.perf_counter()
rows, size = [], 0
with gzip.open(path, "rt") as f:
    for line in f:
        size += len(line)
        line = line.strip().rstrip(",")
        if line.startswith("{"):
            rows.append(json.loads(line))
        if size >= prefix_mb * 1_000_000:
            break
frame = pd.json_normalize(rows)
# SQLite integers are 64-bit: 128-bit hashes (object columns) go in as text.
for column in frame.columns:
    if frame[column].dtype == object:
        frame[column] = frame[column].map(lambda v: v if v is None or isinstance(v, str) else str(v))
with sqlite3.connect(db) as conn:
    frame.to_sql("events", conn, if_exists="replace", index=False)
print(json.dumps({"seconds": time.perf_counter() - start, "bytes": size, "rows": len(frame)}))
