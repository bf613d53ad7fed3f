"""Reads bench/series/run.sh results and prints the markdown report: medians,
throughput ratios against `spoor stats` and pandas, peak memory, PASS/FAIL
against the issue's targets, and whether pandas and spoor agree."""
import glob
import json
import math
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from report_lib import Results  # noqa: E402 (bench/report_lib.py)

res = sys.argv[1]
results = Results(res)
median, cpu, text, rss_mb, check = results.median, results.cpu, results.text, results.rss_mb, results.check


pandas = []
for path in sorted(glob.glob(os.path.join(res, "pandas-*.json"))):
    try:
        pandas.append(json.load(open(path)))
    except (OSError, ValueError):
        pass
pandas_s = statistics.median(p["seconds"] for p in pandas) if pandas else None
pandas_cpu = statistics.median(p["cpu_seconds"] for p in pandas) if pandas else None
stats_s, series_s, series_t1 = median("stats"), median("series"), median("series_t1")
stats_cpu, series_cpu = cpu("stats"), cpu("series")
mb = int(text("bytes", "0")) / 1e6

print(results.load_line("medians, page cache warm", cores=text("cores"), load="load average (1, 5, 15 min)"))
print(f"- input: `spoor gen --kind metrics --rows {text('rows')} --nodes 64` (ISO-8601 times, 5 metrics), "
      f"{mb:,.1f} MB of CSV")
print("- spoor series: `--group node --by hour,weekday,hour-weekday --corr 0.7 --resample 1h "
      "--target cpu_usage_rate=0.65`, --threads 2 unless said; pandas: pandas_series.py, the same answers, "
      "interpreter start-up and imports excluded; CPU s = user + system (mean), the fairer view when the "
      "machine is loaded; PASS/FAIL judges wall time\n")
print("| measurement | median s | MB/s | CPU s | ratio (wall) | ratio (CPU) | target | result |")
print("|---|---:|---:|---:|---:|---:|---|---|")


def row(name, s, cpu, ratio="", cpu_ratio="", target="", result=""):
    if not s:
        print(f"| {name} | ? | | | | | {target} | FAIL |")
        return
    cpu_text = f"{cpu:.2f}" if cpu else ""
    print(f"| {name} | {s:.3f} | {mb / s:,.0f} | {cpu_text} | {ratio} | {cpu_ratio} | {target} | {result} |")


row("`spoor stats --ts timestamp` (parses the time column)", stats_s, stats_cpu)
if series_s and stats_s:
    r = stats_s / series_s
    rc = f"{stats_cpu / series_cpu:.2f}x" if stats_cpu and series_cpu else ""
    row("`spoor series`", series_s, series_cpu, f"{r:.2f}x stats", rc, ">= 0.50x", check(r >= 0.5))
else:
    row("`spoor series`", None, None, target=">= 0.50x")
    check(False)
row("`spoor series --threads 1`", series_t1, None)
if pandas_s and series_s:
    r = pandas_s / series_s
    rc = f"{pandas_cpu / series_cpu:.1f}x" if pandas_cpu and series_cpu else ""
    row(f"python3-pandas {pandas[0].get('pandas', '')} ({len(pandas)} runs)", pandas_s, pandas_cpu,
        f"spoor {r:.1f}x faster", rc, ">= 20x", check(r >= 20))
else:
    row("python3-pandas", None, None, target=">= 20x")
    check(False)

print("\n| resource | value |\n|---|---:|")
for key, name in (("stats", "spoor stats"), ("series", "spoor series"), ("pandas", "python3-pandas")):
    v = rss_mb(key)
    print(f"| peak RSS of {name} | {v:,.0f} MB |" if v else f"| peak RSS of {name} | ? |")

agree = False
try:
    s = json.load(open(os.path.join(res, "answers.json")))
    cpu_rate = next(m for m in s["metrics"] if m["metric"] == "cpu_usage_rate")
    p = pandas[0]
    agree = (s["rows"] == p["rows"] and math.isclose(cpu_rate["mean"], p["cpu_mean"], rel_tol=1e-12)
             and len(s["resample"]) == p["resampled_rows"] and len(s["pairs"]) == p["strong_pairs"])
except (OSError, ValueError, KeyError, IndexError, StopIteration):
    pass
print(f"\n| cross-check | result |\n|---|---|\n| pandas and spoor agree (rows, cpu mean, resampled rows, "
      f"strong pairs) | {check(agree)} |")
print("\nall checks passed" if not results.failed else f"\n{results.failed} check(s) failed")
