#!/usr/bin/env python3
"""Turns bench/sql/run.sh's results into a markdown table of medians and
ratios, checks them against the targets and the groups against spoor stats,
and exits 1 when a check fails."""
import argparse
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from report_lib import Results  # noqa: E402 (bench/report_lib.py)


def duckdb_median(res, mode):
    path = os.path.join(res, f"duckdb_{mode}.jsonl")
    if not os.path.exists(path):
        return None, None
    runs = [json.loads(line) for line in open(path) if line.strip()]
    return statistics.median(r["seconds"] for r in runs), runs[0]["rows"]


def fmt_s(v):
    return "n/a" if v is None else f"{v:.3f}"


def fmt_x(v):
    return "n/a" if v is None else f"{v:.2f}x"


def main():
    p = argparse.ArgumentParser()
    p.add_argument("res")
    p.add_argument("--trace", required=True)
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--threads", type=int, default=2)
    a = p.parse_args()
    results = Results(a.res)
    t = {k: results.median(k) for k in ("stats", "stats_cold", "sql_cold", "sql_snapshot", "sql_sorter",
                                        "sql_snapshot_sqlite", "sql_cold_sqlite", "sql_open")}
    duck_cold, duck_rows = duckdb_median(a.res, "cold")
    duck_warm, _ = duckdb_median(a.res, "warm")

    def verdict(ok):
        return "n/a" if ok is None else results.check(ok)

    def ratio(a_, b_):
        return None if a_ is None or b_ is None else a_ / b_

    size = os.path.getsize(a.trace) / 1e6
    print(results.load_line(f"medians of {a.runs} runs (DuckDB: 3), --threads {a.threads}, page cache warm",
                            load="load average (1, 5, 15 min)"))
    print(f"- input: `spoor gen --size-mb 200 --seed 1`, {size:.1f} MB .pfw.gz, with its checkpoint index")
    print('- query: `SELECT cat, name, count(*), sum(dur) FROM events GROUP BY 1, 2`')
    print()
    print("| measurement | median s | ratio | target | result |")
    print("|---|---:|---:|---|---|")
    print(f"| `spoor stats` | {fmt_s(t['stats'])} |  |  |  |")
    print(f"| `spoor stats --no-cache` (cold parse) | {fmt_s(t['stats_cold'])} |  |  |  |")
    print(f"| `spoor sql --no-cache` (cold parse, all args, + query) | {fmt_s(t['sql_cold'])} | "
          f"{fmt_x(ratio(t['sql_cold'], t['stats']))} of stats |  |  |")
    r = ratio(t["sql_snapshot"], t["stats"])
    print(f"| `spoor sql` (snapshot re-open + query) | {fmt_s(t['sql_snapshot'])} | {fmt_x(r)} of stats | "
          f"<= 3x stats | {verdict(None if r is None else r <= 3)} |")
    r = ratio(t["sql_cold"], t["sql_snapshot"])
    print(f"| snapshot re-open + query vs cold parse + query | | {fmt_x(r)} faster | >= 20x | "
          f"{verdict(None if r is None else r >= 20)} |")
    print(f"| `spoor sql 'SELECT 1'` (snapshot re-open alone) | {fmt_s(t['sql_open'])} |  |  |  |")
    r = ratio(t["sql_snapshot_sqlite"], t["sql_snapshot"])
    print(f"| `spoor sql --no-native` (snapshot re-open + query in SQLite) | {fmt_s(t['sql_snapshot_sqlite'])} | "
          f"native {fmt_x(r)} faster |  |  |")
    r = ratio(t["sql_cold_sqlite"], t["sql_cold"])
    print(f"| `spoor sql --no-native --no-cache` (cold parse + query in SQLite) | {fmt_s(t['sql_cold_sqlite'])} | "
          f"native {fmt_x(r)} faster |  |  |")
    r = ratio(t["sql_sorter"], t["sql_snapshot_sqlite"])
    print(f"| `GROUP BY +cat, +name` --no-native (rows unsorted, SQLite's sorter) | {fmt_s(t['sql_sorter'])} | "
          f"sorted delivery {fmt_x(r)} faster |  |  |")
    r = ratio(duck_cold, t["sql_cold"])
    print(f"| DuckDB cold (read_csv lines → JSON, group by) | {fmt_s(duck_cold)} | spoor sql cold {fmt_x(r)} faster |"
          f"  |  |")
    r = ratio(duck_warm, t["sql_snapshot"])
    print(f"| DuckDB warm (events in a DuckDB table; query only) | {fmt_s(duck_warm)} | "
          f"spoor sql re-open + query {fmt_x(r)} faster |  |  |")
    print()

    stats = json.load(open(os.path.join(a.res, "stats_groups.json")))
    groups = json.load(open(os.path.join(a.res, "spoor_groups.json")))
    want = {(g["cat"], g["name"]): (g["count"], g.get("dur_sum")) for g in stats["by_name"]}
    got = {(g["cat"], g["name"]): (g["n"], g["dur_sum"]) for g in groups}
    print("| cross-check | result |")
    print("|---|---|")
    print(f"| spoor sql's counts and dur sums per cat/name equal spoor stats' | {verdict(got == want)} |")
    same = open(os.path.join(a.res, "native_same")).read().strip() == "same"
    print(f"| native and --no-native print the same bytes for the query | {verdict(same)} |")
    r = ratio(duck_warm, t["sql_snapshot"])
    print(f"| spoor sql re-open + query faster than DuckDB warm | {verdict(None if r is None else r > 1)} |")
    total = stats["events"] + stats["metadata_events"]
    print(f"| DuckDB's row count equals spoor's ({total:,}) | {verdict(None if duck_rows is None else duck_rows == total)} |")
    print()
    print(results.verdict())
    return 1 if results.failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
