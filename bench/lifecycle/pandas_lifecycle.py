"""The pandas way to the task-lifecycle answers, as a notebook user writes it:
read the JSON lines, keep the task records, pivot to one row per task (first
time of each stage), derive the delays, group by worker and by mode, count
repeated and missing stages, list the slowest tasks.

usage: pandas_lifecycle.py LOG OUT.json   (prints nothing; OUT gets timings and answers)
"""
import json
import resource
import sys
import time

import pandas as pd

STAGES = ["taskPlanned", "taskEnqueued", "taskStarted", "taskFinished"]
DELAYS = {
    "comm": ("taskEnqueued", "taskPlanned"),
    "queue": ("taskStarted", "taskEnqueued"),
    "runtime": ("taskFinished", "taskStarted"),
    "onworker": ("taskFinished", "taskEnqueued"),
    "total": ("taskFinished", "taskPlanned"),
}

t0, c0 = time.perf_counter(), time.process_time()
df = pd.read_json(sys.argv[1], lines=True)
t_read = time.perf_counter()

# The scheduler's own names: `task`; a worker is host:worker except on the
# controller's records, which carry the full name.
workers = df["host"] != "controller"
df.loc[workers, "worker"] = df.loc[workers, "host"] + ":" + df.loc[workers, "worker"]
if "mode" not in df:
    df["mode"] = None
tasks = df[df["action"].isin(STAGES)]
first = tasks.pivot_table(index="task", columns="action", values="at", aggfunc="min")
seen = tasks.groupby(["task", "action"]).size().unstack(fill_value=0)
attrs = tasks.sort_values("at").groupby("task")[["worker", "mode"]].first().fillna("")
for name, (b, a) in DELAYS.items():
    first[name] = first[b] - first[a]
wide = first.join(attrs)
per_worker = wide.groupby("worker")[list(DELAYS)].agg(["count", "sum", "mean", "min", "max"])
per_mode = wide.groupby("mode")[list(DELAYS)].agg(["count", "sum", "mean", "min", "max"])
kind = wide.index.str.extract(r"^([^(:]*)", expand=False)
missing = first[STAGES].isna().groupby(kind.values).sum()
repeated = (seen[STAGES] > 1).groupby(seen.index.str.extract(r"^([^(:]*)", expand=False).values).sum()
top = wide.sort_values(["total"], ascending=False).head(10)
t_end, c_end = time.perf_counter(), time.process_time()

answers = {
    "records": int(len(df)),
    "entities": int(len(wide)),
    "total_sum_by_worker": {w: int(v) for w, v in per_worker[("total", "sum")].items()},
    "total_sum_by_mode": {m: int(v) for m, v in per_mode[("total", "sum")].items()},
    "top_total": [int(v) for v in top["total"]],
}
json.dump({"read_s": t_read - t0, "analysis_s": t_end - t_read, "total_s": t_end - t0, "cpu_s": c_end - c0,
           "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, "answers": answers},
          open(sys.argv[2], "w"))
