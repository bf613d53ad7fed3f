"""Lifecycle's boxes against Python's own quantiles, on a log with long tails.
  lifecycle_boxes.py write LOG     writes a task log (JSON lines) whose delays
                                   are mostly short with a tenth far longer, so
                                   every worker has outliers
  lifecycle_boxes.py check LOG CSV checks `spoor lifecycle --preset cascade-tasks
                                   --format csv LOG` (CSV) group by group
The reference: statistics.quantiles(method="inclusive"), which is the same
definition as numpy's default, and Tukey's whiskers written out (the farthest
delay within 1.5 IQR of its quartile, or the quartile when none lies between)."""
import csv
import json
import random
import statistics
import sys

STAGES = ["taskPlanned", "taskEnqueued", "taskStarted", "taskFinished"]
DELAYS = {"comm": (0, 1), "queue": (1, 2), "runtime": (2, 3), "onworker": (1, 3), "total": (0, 3)}


def write(path):
    rng = random.Random(5)
    with open(path, "w") as f:
        for i in range(4000):
            worker, at = f"h0:w{rng.randrange(4)}", 1000
            for stage in STAGES:
                if rng.random() < 0.02:  # a stage now and then never logged
                    continue
                f.write(json.dumps({"task": f"t{i}", "action": stage, "worker": worker, "host": "controller",
                                    "at": at}) + "\n")
                at += int(rng.expovariate(1 / (50000 if rng.random() < 0.1 else 1000)))


def expected(log):
    times, worker = {}, {}
    for line in open(log):
        r = json.loads(line)
        times.setdefault(r["task"], {})[STAGES.index(r["action"])] = r["at"]
        worker[r["task"]] = r["worker"]
    groups = {}
    for task, t in times.items():
        for name, (a, b) in DELAYS.items():
            if a in t and b in t:
                groups.setdefault((worker[task], name), []).append(t[b] - t[a])
    want = {}
    for key, x in groups.items():
        x.sort()
        p25, median, p75 = statistics.quantiles(x, n=4, method="inclusive") if len(x) > 1 else x * 3
        lo, hi = p25 - 1.5 * (p75 - p25), p75 + 1.5 * (p75 - p25)
        inside = [v for v in x if lo <= v <= hi]
        want[key] = [f"{v:.2f}" for v in (p25, median, p75, min(min(inside), p25), max(max(inside), p75))] + \
                    [str(sum(v < lo for v in x)), str(sum(v > hi for v in x))]
    return want


def check(log, got_csv):
    want = expected(log)
    got = {(r["key"], r["delay"]): [r[c] for c in ("p25_ns", "median_ns", "p75_ns", "whisker_low_ns",
                                                   "whisker_high_ns", "outliers_low", "outliers_high")]
           for r in csv.DictReader(open(got_csv)) if r["section"] == "group" and r["by"] == "worker" and r["delay"]}
    bad = [f"{k}: spoor {got.get(k)}, Python {v}" for k, v in sorted(want.items()) if got.get(k) != v]
    if bad or len(got) != len(want):
        sys.exit(f"{len(bad)} boxes differ ({len(got)} groups, {len(want)} expected): " + "; ".join(bad[:3]))
    if not all(int(v[6]) > 0 for v in want.values()):
        sys.exit("the log has a group without outliers above: the whiskers are not exercised")


if __name__ == "__main__":
    write(sys.argv[2]) if sys.argv[1] == "write" else check(sys.argv[2], sys.argv[3])
