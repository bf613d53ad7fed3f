"""Reads bench/attribute/run.sh results and prints the markdown report:
medians, the notebook method extrapolated from its timed calls, ratios, and
PASS/FAIL against the issue's targets."""
import csv
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from report_lib import Results  # noqa: E402 (bench/report_lib.py)

res = sys.argv[1]
results = Results(res)
median, text, rss_mb, check = results.median, results.text, results.rss_mb, results.check


def same_answers():
    """The notebook's sums for its timed calls equal spoor --compat notebook's."""
    try:
        want = json.load(open(os.path.join(res, "notebook_answers.json")))
        rows = {r["call_id"]: r for r in csv.DictReader(open(os.path.join(res, "notebook.csv")))}
    except (OSError, ValueError):
        return False
    fixed = {"call_id", "ts", "dur", "name", "file", "size", "bandwidth", "unattributed", "coverage"}
    for call_id, sums in want.items():
        row = rows.get(call_id)
        if row is None:
            return False
        got = {k: int(v) for k, v in row.items() if k not in fixed and v not in ("", "0")}
        if got != sums:
            return False
    return bool(want)


def same_summary():
    """summary_pandas.py's figures equal those of `spoor summary --format json`."""
    try:
        want = json.load(open(os.path.join(res, "summary_pandas_answers.json")))
        got = json.load(open(os.path.join(res, "summary.json")))
    except (OSError, ValueError):
        return False
    if any(want[key] != got[key] for key in ("events", "processes", "threads", "job_time")):
        return False
    layers = {layer["cat"]: layer for layer in got["layers"]}
    return layers.keys() == want["layers"].keys() and all(
        layers[cat][key] == figures[key] for cat, figures in want["layers"].items() for key in figures)


nb = json.loads(text("notebook_timing.json", "{}") or "{}")
table_mb = int(text("table_bytes", "0")) / 1e6
print(results.load_line("medians of hyperfine runs, page cache warm, --threads 2"))
print(f"- input: `spoor gen --size-mb {text('size_mb', '?')} --seed 1`, {nb.get('events', 0):,} events; calls: the "
      f"{nb.get('calls', 0):,} `read` calls on one training file (`--file`); the event table (its snapshot) "
      f"{table_mb:.0f} MB")
if nb:
    print(f"- the notebook's method (notebook.py, pandas) timed once: load {nb['load_s']:.1f} s, setup "
          f"{nb['setup_s']:.1f} s, {nb['calls_timed']} calls at {nb['per_call_s'] * 1e3:.1f} ms each, "
          f"extrapolated to all {nb['calls']:,} calls (the calls are alike); peak {nb['peak_rss_mb']:,.0f} MB")
print()
print("| measurement | median s | ratio | target | result |")
print("|---|---:|---:|---|---|")
loop = nb["per_call_s"] * nb["calls"] if nb else None
e2e = nb["load_s"] + nb["setup_s"] + loop if nb else None
if nb:
    print(f"| notebook method end to end (load + every call, extrapolated) | {e2e:.1f} |  |  |  |")
    print(f"| notebook method per-call loop (extrapolated) | {loop:.1f} |  |  |  |")
cold = median("notebook_cold")
if cold and e2e:
    print(f"| `spoor attribute --compat notebook`, cold trace (parse + attribution) | {cold:.3f} | "
          f"{e2e / cold:,.0f}x faster | >= 100x | {check(e2e / cold >= 100)} |")
self_cold = median("self_cold")
if self_cold:
    print(f"| `spoor attribute` (self time), cold trace | {self_cold:.3f} |  |  |  |")
step, opened = median("notebook_step"), median("open_only")
if step and opened is not None and loop:
    alone = max(step - opened, 1e-6)
    print(f"| attribution step alone (`--compat notebook` from the snapshot, minus its re-open) | {alone:.3f} | "
          f"{loop / alone:,.0f}x faster than the loop | >= 500x | {check(loop / alone >= 500)} |")
self_step = median("self_step")
if self_step and opened is not None:
    print(f"| attribution step alone, self time | {max(self_step - opened, 0):.3f} |  |  |  |")
pair = results.paired("stats_cold", "summary_cold")
summary = pair["wall_b"] if pair else None
if pair:
    print(f"| `spoor stats`, cold (run alternately with the summary; ratios: the median of each pair's) | "
          f"{pair['wall_a']:.3f} |  |  |  |")
    print(f"| `spoor summary`, cold (one streaming pass) | {summary:.3f} | {pair['wall_ratio']:.2f}x of stats | "
          f"<= 1.15x | {check(pair['wall_ratio'] <= 1.15)} |")
    print(f"| CPU (user + system, median s): `spoor stats` {pair['cpu_a']:.3f}, `spoor summary` {pair['cpu_b']:.3f} "
          f"|  | {pair['cpu_ratio']:.2f}x of stats | <= 1.15x | {check(pair['cpu_ratio'] <= 1.15)} |")
pandas = json.loads(text("summary_pandas_timing.json", "{}") or "{}")
if pandas and summary:
    print(f"| pandas: the period and the layer breakdown without self time (summary_pandas.py, load + compute, "
          f"timed once) | {pandas['total_s']:.1f} | `spoor summary` {pandas['total_s'] / summary:,.0f}x faster | "
          f"faster | {check(pandas['total_s'] > summary)} |")
print()
print("| memory | peak MB | target | result |")
print("|---|---:|---|---|")
notebook_peak = nb.get("peak_rss_mb", 3.4 * 1024) if nb else 3.4 * 1024
for key, label in [("notebook_cold", "`spoor attribute --compat notebook`, cold"),
                   ("self_cold", "`spoor attribute`, cold"), ("summary_cold", "`spoor summary`, cold")]:
    mb = rss_mb(key)
    if mb is None:
        print(f"| {label} | failed |  |  |")
        results.failed += 1
        continue
    if key == "summary_cold":  # it streams: well under the table it no longer builds
        target, ok = f"< the table ({table_mb:.0f})", mb < table_mb
    else:
        target = f"< 2x the table ({2 * table_mb:.0f}) and < notebook / 4 ({notebook_peak / 4:.0f})"
        ok = mb < 2 * table_mb and mb < notebook_peak / 4
    print(f"| {label} | {mb:,.0f} | {target} | {check(ok)} |")
if pandas:
    print(f"| pandas summary (summary_pandas.py), for reference | {pandas['peak_rss_mb']:,.0f} |  |  |")
print()
print(f"| cross-check | result |\n|---|---|\n| the notebook's per-call sums equal `--compat notebook`'s "
      f"({nb.get('calls_timed', 0)} calls) | {check(same_answers())} |")
print(f"| pandas' period figures and per-cat count, dur sum, bytes and union time equal `spoor summary`'s | "
      f"{check(same_summary())} |")
print()
print(results.verdict())
