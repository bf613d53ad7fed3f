"""The rows of a dataset as a fixed-point model's inputs: for each CSV row,
the features the exported header names (NAME_feature_names, in its order)
in Q16 as the header's predict_fixed takes them, floor((float)x * 2^16), as
tests/ml/header_check.c computes them: the value rounded to float32 first,
as spoor's float model does. One line per row, the numbers separated by
spaces. Used by tests/vm/agree.sh.

    q16_rows.py HEADER DATASET.csv > rows.txt
"""
import csv
import math
import re
import struct
import sys


def feature_names(header):
    text = open(header).read()
    m = re.search(r'_feature_names\[\d+\] = \{([^}]*)\}', text)
    if not m:
        sys.exit(f"q16_rows: {header}: no feature_names array")
    return re.findall(r'"((?:[^"\\]|\\.)*)"', m.group(1))


def q16(text):
    as_float = struct.unpack("<f", struct.pack("<f", float(text)))[0]
    return math.floor(math.ldexp(as_float, 16))


def main(header, dataset):
    names = feature_names(header)
    with open(dataset, newline="") as f:
        rows = csv.DictReader(f)
        missing = [n for n in names if n not in rows.fieldnames]
        if missing:
            sys.exit(f"q16_rows: {dataset}: no column {missing[0]}")
        for line, row in enumerate(rows, start=2):
            try:
                print(" ".join(str(q16(row[n])) for n in names))
            except (ValueError, OverflowError) as e:
                sys.exit(f"q16_rows: {dataset}:{line}: {e}")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: q16_rows.py HEADER DATASET.csv")
    main(sys.argv[1], sys.argv[2])
