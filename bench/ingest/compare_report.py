"""The table of bench/ingest/compare.sh: per command and input, the medians of
the old and the new build (alternating rounds), the median new/old ratio per
round by wall and by CPU, and the peak RSS of each. A ratio above 1.03 is marked
SLOWER (this VM's noise between alternating rounds is a few percent).
Exit status 1 when any pair is slower or missing.

usage: compare_report.py RESULTS_DIR --runs N
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from report_lib import Results  # noqa: E402 (bench/report_lib.py)

SLOWER = 1.03


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("res")
    ap.add_argument("--runs", type=int, required=True)
    args = ap.parse_args()
    r = Results(args.res)
    keys = r.text("order", "").split()
    print(r.load_line(f"medians of {args.runs} alternating rounds (old, new)"))
    print()
    print("| case | command | old s | new s | new/old wall | new/old CPU | old RSS MB | new RSS MB | result |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---|")
    for key in keys:
        p = r.paired("old_" + key, "new_" + key)
        cmd = r.text(key + ".cmd").replace(os.path.dirname(os.path.abspath(args.res)) + "/", "")
        if p is None:
            print(f"| {key} | `{cmd}` | | | | | | | {r.check(False)} (not measured) |")
            continue
        old_rss, new_rss = r.rss_mb("old_" + key), r.rss_mb("new_" + key)
        ok = p["wall_ratio"] <= SLOWER or p["cpu_ratio"] <= SLOWER
        print(f"| {key} | `{cmd}` | {p['wall_a']:.3f} | {p['wall_b']:.3f} | {p['wall_ratio']:.3f} | {p['cpu_ratio']:.3f} "
              f"| {old_rss or 0:.0f} | {new_rss or 0:.0f} | {r.check(ok)} |")
    print()
    print(r.verdict())
    return 1 if r.failed else 0


if __name__ == "__main__":
    sys.exit(main())
