"""Reads bench/export/run.sh results and prints the markdown report: medians,
ratios to the cold parse (spoor stats), PASS/FAIL against the target."""
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from report_lib import Results  # noqa: E402 (bench/report_lib.py)

res = sys.argv[1]
results = Results(res)
median, cpu, text = results.median, results.cpu, results.text


stats = json.load(open(os.path.join(res, "stats.json")))
events = stats["events"] + stats["metadata_events"]
parse = median("parse")
print(results.load_line("medians of runs, page cache warm, cold (no index, no snapshot)"))
print(f"- input: `spoor gen --size-mb {text('size_mb')} --seed 1`, {events:,} rows; sqlite file "
      f"{int(text('sqlite_bytes')) / 1e6:.0f} MB, {text('sqlite_rows')} rows\n")
print("| measurement | median s | rows/s | ratio to the parse | CPU s (ratio) | target | result |")
print("|---|---:|---:|---:|---:|---|---|")
parse_cpu = cpu("parse")
if parse:
    print(f"| `spoor stats`, cold (the parse) | {parse:.3f} | {events / parse:,.0f} | 1.00x | {parse_cpu:.3f} |  |  |")
for to in ["sqlite", "csv", "jsonl", "perfetto"]:
    t = median("export_" + to)
    if t is None or not parse:
        print(f"| `spoor export --to {to}` | failed |  |  |  |  |  |")
        results.failed += to == "sqlite"
        continue
    target, result = ("< 2.00x", "PASS" if t < 2 * parse else "FAIL") if to == "sqlite" else ("", "")
    results.failed += result == "FAIL"
    c = cpu("export_" + to)
    print(f"| `spoor export --to {to}` | {t:.3f} | {events / t:,.0f} | {t / parse:.2f}x | "
          f"{c:.3f} ({c / parse_cpu:.2f}x) | {target} | {result} |")
plain = median("export_perfetto_no_counters")
if plain and median("export_perfetto"):
    t, c = plain, cpu("export_perfetto_no_counters")
    print(f"| `spoor export --to perfetto --no-counters` (the counters cost "
          f"{median('export_perfetto') / plain - 1:+.0%} time, {cpu('export_perfetto') / c - 1:+.0%} CPU) | "
          f"{t:.3f} | {events / t:,.0f} | {t / parse:.2f}x | {c:.3f} ({c / parse_cpu:.2f}x) |  |  |")
runs = []
for i in (1, 2, 3):
    try:
        runs.append(json.load(open(os.path.join(res, f"pandas_{i}.json"))))
    except (OSError, ValueError):
        pass
if runs and parse:
    per_row = statistics.median(r["seconds"] / r["rows"] for r in runs)
    t = per_row * events
    print(f"| Python + pandas (json_normalize + to_sql), first 20 MB, extrapolated per row | {t:.3f} | "
          f"{1 / per_row:,.0f} | {t / parse:.2f}x |  |  |  |")
print()
print(results.verdict())
