"""Reads bench/report/run.sh results and prints the markdown report: medians
and ratios of `spoor report --format html` against `spoor stats` (target
<= 2x, cold), the page's size (target about 20 MB) and load time in Chromium
(target < 2 s), and the pandas layer breakdown on a prefix for scale."""
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from report_lib import Results  # noqa: E402 (bench/report_lib.py)

results = Results(sys.argv[1])
text, check, rss_mb = results.text, results.check, results.rss_mb
size_mb, pandas_mb = (int(x) for x in text("sizes", "0 0").split())
cache = text("cache")
trace_mb = int(text("trace_bytes", "0")) / 1e6
print(results.load_line(f"--threads 2, no snapshot, page cache {cache} before every run, runs alternated"))
print(f"- input: `spoor gen --size-mb {size_mb} --seed 1` ({trace_mb:,.0f} MB gzip); for pandas, "
      f"`--size-mb {pandas_mb}`")
print()
print("| measurement | median | ratio | target | result |")
print("|---|---:|---:|---|---|")
big = results.paired("stats", "report")
if big:
    print(f"| spoor stats, {size_mb} MB | {big['wall_a']:.2f} s |  |  |  |")
    print(f"| spoor report --format html, {size_mb} MB | {big['wall_b']:.2f} s |  |  |  |")
    print(f"| report / stats, {cache} |  | {big['wall_ratio']:.2f} | <= 2 | {check(big['wall_ratio'] <= 2)} |")
    print(f"| (for scale) by CPU time, stats {big['cpu_a']:.1f} s, report {big['cpu_b']:.1f} s |  | "
          f"{big['cpu_ratio']:.2f} |  |  |")
page_mb = int(text("page_bytes", "0")) / 1e6
if page_mb:
    print(f"| the page's size | {page_mb:.1f} MB |  | about 20 MB | {check(page_mb <= 20)} |")
try:
    load = json.load(open(results.path("load.json")))
except (OSError, ValueError):
    load = None
if load and load["load_ms"]:
    ms = statistics.median(load["load_ms"])
    print(f"| load in Chromium until every chart drew ({load['charts']} charts, "
          f"{len(load['load_ms'])} fresh loads) | {ms / 1000:.2f} s |  | < 2 s | {check(ms < 2000)} |")
    print(f"| console errors and warnings on the page | {len(load['errors'])} |  | 0 | {check(not load['errors'])} |")
small = results.paired("stats_small", "report_small")
pandas = json.loads(text("pandas.json", "{}") or "{}")
if small:
    print(f"| spoor report --format html, {pandas_mb} MB | {small['wall_b']:.2f} s |  |  |  |")
if small and pandas:
    print(f"| pandas, the layer breakdown alone, {pandas_mb} MB (load {pandas['load_s']:.1f} s + compute "
          f"{pandas['compute_s']:.1f} s; peak {pandas['peak_rss_mb']:,.0f} MB) | {pandas['total_s']:.1f} s | "
          f"{pandas['total_s'] / small['wall_b']:.0f}x slower |  |  |")
for key, label in (("stats", "spoor stats"), ("report", "spoor report")):
    m = rss_mb(key)
    if m:
        print(f"| peak RSS {label}, {size_mb} MB | {m:,.0f} MB |  |  |  |")
print()
print(results.verdict())
sys.exit(1 if results.failed else 0)
