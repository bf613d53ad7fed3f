"""Reads bench/windows/run.sh results and prints the markdown report: windows
against stats on the large trace (target <= 1.5x), the Python pipeline against
spoor on the prefix, peak memory."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from report_lib import Results  # noqa: E402 (bench/report_lib.py)

r = Results(sys.argv[1])
big, small = r.paired("stats", "windows"), r.paired("spoor_small", "python")
print(f"## spoor windows ({int(r.text('requests', '0')):,} requests, {int(r.text('bytes', '0')) / 1e6:.0f} MB)\n")
print("| measurement | median s | ratio | target | result |")
print("|---|---:|---:|---|---|")
if big:
    print(f"| spoor stats | {big['wall_a']:.2f} | | | |")
    print(f"| spoor windows --every 2.5s | {big['wall_b']:.2f} | {big['wall_ratio']:.2f}x stats "
          f"(CPU {big['cpu_ratio']:.2f}x) | <= 1.5x | {r.check(big['wall_ratio'] <= 1.5)} |")
if small:
    print(f"| spoor windows, prefix | {small['wall_a']:.3f} | | | |")
    print(f"| Python (parse + windows), prefix | {small['wall_b']:.2f} | {small['wall_ratio']:.0f}x slower | | |")
for key in ("stats_rss", "windows_rss"):
    mb = r.rss_mb(key)
    if mb is not None:
        print(f"| peak RSS {key[:-4]} | {mb:.0f} MB | | | |")
print()
print(r.load_line("runs alternated, medians of per-round ratios"))
print(r.verdict())
