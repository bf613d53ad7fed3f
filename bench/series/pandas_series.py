"""What a user's notebook does with a node-metric table, in pandas: read the CSV,
parse the timestamps, then the mean by hour of day and by weekday, the hour x
weekday table, per-node mean/std/max, the correlation matrix and its strong
pairs, hourly resampling per node and the headroom to a target utilisation.
Prints the seconds taken, wall and CPU (interpreter start-up excluded), and a few answers
for the cross-check: rows, the overall cpu mean and the number of resampled rows.

usage: pandas_series.py TABLE.csv"""
import json
import sys
import time

import pandas as pd

t0, c0 = time.perf_counter(), time.process_time()
df = pd.read_csv(sys.argv[1])
df["timestamp"] = pd.to_datetime(df["timestamp"], utc=True)
metrics = [c for c in df.columns if c not in ("timestamp", "node") and pd.api.types.is_numeric_dtype(df[c])]

by_hour = df.groupby(df["timestamp"].dt.hour)[metrics].mean()
by_weekday = df.groupby(df["timestamp"].dt.dayofweek)[metrics].mean()
hour_weekday = df.pivot_table(index=df["timestamp"].dt.hour, columns=df["timestamp"].dt.dayofweek,
                              values=metrics, aggfunc="mean")
per_node = df.groupby("node")[metrics].agg(["count", "mean", "std", "min", "max"])
corr = df[metrics].corr()
strong = [(a, b, corr.loc[a, b]) for i, a in enumerate(metrics) for b in metrics[i + 1:] if abs(corr.loc[a, b]) > 0.7]
resampled = df.set_index("timestamp").groupby("node")[metrics].resample("1h").mean().dropna(how="all")
node_cpu = df.groupby("node")["cpu_usage_rate"].mean()
headroom = (node_cpu - 0.65) / node_cpu
elapsed, cpu = time.perf_counter() - t0, time.process_time() - c0

print(json.dumps({"seconds": elapsed, "cpu_seconds": cpu, "pandas": pd.__version__, "rows": len(df), "cpu_mean": float(df["cpu_usage_rate"].mean()),
                  "resampled_rows": len(resampled), "strong_pairs": len(strong)}))
