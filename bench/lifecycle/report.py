"""Reads bench/lifecycle/run.sh results and prints the markdown report:
medians, ratios and PASS/FAIL against the issue's targets (lifecycle >= 50 %
of stats throughput on the same bytes; >= 20x faster than pandas, whose time
is extrapolated linearly from two prefixes of the log)."""
import csv
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from report_lib import Results  # noqa: E402 (bench/report_lib.py)

res = sys.argv[1]
results = Results(res)
median, cpu, text, rss_mb, check = results.median, results.cpu, results.text, results.rss_mb, results.check


def same_answers(n, pandas):
    """pandas' total per worker and per mode and its slowest tasks equal spoor's."""
    try:
        rows = list(csv.DictReader(open(os.path.join(res, f"spoor-{n}.csv"))))
    except OSError:
        return False
    a = pandas["answers"]
    got = {"worker": {}, "mode": {}}
    top = []
    for r in rows:
        if r["section"] == "group" and r["delay"] == "total":
            got[r["by"]][r["key"]] = int(r["sum_ns"])
        if r["section"] == "top" and r["delay"] == "total":
            top.append(int(r["sum_ns"]))
    return got["worker"] == a["total_sum_by_worker"] and got["mode"] == a["total_sum_by_mode"] and top == a["top_total"]


records = int(text("records", "0"))
sizes = [int(s) for s in text("pandas_sizes", "").split()]
pandas = {}
for n in sizes:
    try:
        pandas[n] = json.load(open(os.path.join(res, f"pandas-{n}.json")))
    except (OSError, ValueError):
        pass
mb = int(text("log_bytes", "0")) / 1e6
print(results.load_line("medians of hyperfine runs, page cache warm, --threads 2, no snapshot"))
print(f"- input: `spoor gen --kind cascade --records {records}`: {text('gen.txt')}; the same log as Python "
      f"logging lines {int(text('pylog_bytes', '0')) / 1e6:.0f} MB")
print()
print("| measurement | median s | ratio | target | result |")
print("|---|---:|---:|---|---|")
for form, label in (("log", "JSON lines"), ("pylog", "Python logging")):
    stats, life = median(f"stats_{form}"), median(f"lifecycle_{form}")
    if stats:
        print(f"| spoor stats, {label} | {stats:.2f} |  |  |  |")
    if life:
        print(f"| spoor lifecycle --preset cascade-tasks, {label} | {life:.2f} |  |  |  |")
    if stats and life:
        r = stats / life
        print(f"| lifecycle throughput / stats throughput, {label} |  | {r:.2f} | >= 0.50 | {check(r >= 0.5)} |")
    c_stats, c_life = cpu(f"stats_{form}"), cpu(f"lifecycle_{form}")
    if c_stats and c_life:
        print(f"| (for scale) the same by CPU time (user + sys: stats {c_stats:.2f} s, lifecycle {c_life:.2f} s), "
              f"{label} |  | {c_stats / c_life:.2f} |  |  |")
per_record, cpu_per_record = [], []
for n in sizes:
    p, s = pandas.get(n), median(f"lifecycle_{n}")
    if not p:
        continue
    per_record.append(p["total_s"] / n)
    cpu_per_record.append(p.get("cpu_s", p["total_s"]) / n)
    print(f"| pandas on the first {n:,} records (read {p['read_s']:.1f} s + analysis {p['analysis_s']:.1f} s; "
          f"peak {p['peak_rss_mb']:,.0f} MB) | {p['total_s']:.1f} |  |  |  |")
    if s:
        print(f"| spoor lifecycle on the first {n:,} records | {s:.2f} | {p['total_s'] / s:.0f}x |  |  |")
life = median("lifecycle_log")
if per_record and life:
    spread = max(per_record) / min(per_record)
    est = statistics.mean(per_record) * records
    print(f"| pandas on {records:,} records, extrapolated (per-record time of the prefixes agrees within "
          f"{(spread - 1) * 100:.0f} %) | {est:.0f} |  |  |  |")
    r = est / life
    print(f"| spoor lifecycle vs pandas, {records:,} records |  | {r:.0f}x | >= 20x | {check(r >= 20)} |")
    c_life = cpu("lifecycle_log")
    if c_life:
        c_est = statistics.mean(cpu_per_record) * records
        print(f"| (for scale) the same by CPU time (pandas {c_est:.0f} s extrapolated, spoor {c_life:.1f} s on "
              f"2 threads) |  | {c_est / c_life:.0f}x |  |  |")
if sizes and sizes[-1] in pandas:
    ok = same_answers(sizes[-1], pandas[sizes[-1]])
    print(f"| same answers as pandas on {sizes[-1]:,} records (total per worker and mode, slowest tasks) |  |  |  | "
          f"{check(ok)} |")
for key, label in (("lifecycle_log", "spoor lifecycle, JSON lines"), ("lifecycle_pylog", "spoor lifecycle, Python logging"),
                   ("stats_log", "spoor stats, JSON lines")):
    m = rss_mb(key)
    if m:
        print(f"| peak RSS {label} | {m:,.0f} MB |  |  |  |")
sys.exit(1 if results.failed else 0)
