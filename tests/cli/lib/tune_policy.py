#!/usr/bin/env python3
"""The readahead policy of spoor tune, written again from its description
(src/features/readahead_policy.h, docs/cli.md "spoor tune"), to check the
decision and readahead_kb columns of `spoor tune --format csv` from its
class and reads columns.

usage: tune_policy.py ROWS.csv ACTIONS HYSTERESIS MIN_KB MAX_KB MIN_REQUESTS INITIAL_KB
ACTIONS: class=kb,class=kb,...  Prints each differing row; exits 1 if any."""
import csv
import sys


def main():
    rows_path, actions, hysteresis, min_kb, max_kb, min_requests, initial_kb = sys.argv[1:8]
    action = {k: int(v) for k, v in (item.split("=") for item in actions.split(","))}
    hysteresis, min_kb, max_kb = int(hysteresis), int(min_kb), int(max_kb)
    min_requests, initial_kb = int(min_requests), int(initial_kb)
    state = {}  # dev -> [candidate, streak, kb]
    bad = 0
    with open(rows_path, newline="") as f:
        for n, row in enumerate(csv.DictReader(f), start=2):
            s = state.setdefault(row["dev"], [None, 0, initial_kb])
            reads, cls = int(row["reads"]), row["class"]
            if reads < min_requests:
                decision = "idle"
            else:
                if cls == s[0]:
                    s[1] = min(s[1] + 1, hysteresis)
                else:
                    s[0], s[1] = cls, 1
                if s[1] < hysteresis:
                    decision = "wait"
                else:
                    kb = min(max(action[cls], min_kb), max_kb)
                    decision = "keep" if kb == s[2] else "set"
                    s[2] = kb
            got = (row["decision"], int(row["readahead_kb"]))
            if got != (decision, s[2]):
                print(f"{rows_path}:{n}: spoor tune says {got}, the policy {(decision, s[2])}")
                bad += 1
    sys.exit(1 if bad else 0)


main()
