"""Writes an ftrace block trace of about REQUESTS requests to OUT: a real
capture (tests/data/blk/captured, gzipped ftrace text) repeated, each copy's
times shifted past the one before, so that every request stays one request.

usage: make_trace.py CAPTURE.gz REQUESTS OUT"""
import gzip
import re
import sys

capture, want, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
STAMP = re.compile(rb"^(.*?\] \S+ +)(\d+)\.(\d{6})(: .*)$", re.S)
rows, issues = [], 0
for line in gzip.open(capture):
    m = STAMP.match(line)
    if m:
        rows.append((m[1], int(m[2]) * 1000000 + int(m[3]), m[4]))
        issues += b"block_rq_issue:" in line
span = rows[-1][1] - rows[0][1] + 1000
with open(out, "wb") as f:
    for copy in range((want + issues - 1) // issues):
        shift = copy * span
        f.write(b"".join(b"%s%d.%06d%s" % (head, (us + shift) // 1000000, (us + shift) % 1000000, rest)
                         for head, us, rest in rows))
