#!/usr/bin/env python3
"""Writes a synthetic feature-importance dataset as CSV, with known answers.

Columns: run (a group id, 20 rows per run), io.x0 .. io.x2 (informative),
noise.f003 .. (irrelevant, uniform), noise.const (constant), noise.dup (a
scaled copy of io.x0, |r| = 1), and the target y:
  regression:      y = 3 x0 + 2 x1 + x2 + 0.3 N(0, 1)
  classification:  class 'a' when 3 x0 + 2 x1 + x2 < 2.6, 'b' below 3.4, else 'c'
so every method should rank io.x0 > io.x1 > io.x2 above every noise feature,
and the dataset layer should drop noise.const and noise.dup, naming them.
Standard library only (no numpy), deterministic for a seed.

usage: make_dataset.py ROWS FEATURES {regression,classification} SEED OUT.csv
"""
import csv
import random
import sys


def main():
    rows, features, task, seed, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), sys.argv[5]
    if features < 4 or task not in ("regression", "classification"):
        sys.exit("make_dataset.py: need at least 4 features and a task of regression or classification")
    rng = random.Random(seed)
    names = ["io.x0", "io.x1", "io.x2"] + ["noise.f%03d" % j for j in range(3, features)]
    with open(out, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["run"] + names + ["noise.const", "noise.dup", "y"])
        for i in range(rows):
            x = [rng.random() for _ in range(features)]
            signal = 3 * x[0] + 2 * x[1] + x[2]
            if task == "regression":
                y = "%.6f" % (signal + 0.3 * rng.gauss(0, 1))
            else:
                y = "a" if signal < 2.6 else "b" if signal < 3.4 else "c"
            w.writerow(["run%d" % (i // 20)] + ["%.6f" % v for v in x] + ["1", "%.6f" % (2 * x[0] + 1), y])


if __name__ == "__main__":
    main()
