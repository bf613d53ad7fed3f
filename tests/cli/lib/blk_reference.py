"""An independent reading of block-layer traces, to check spoor's block readers
against: blkparse's default output, ftrace text, babeltrace2's text of an LTTng
trace (gzipped when the name ends in .gz). Each issue is joined with the oldest
pending issue's completion of the same device and sector (a request without
data: the device alone); a requeue forgets the pending issue. Writes, as
`spoor events --columns COLUMNS` does, one CSV row per joined request in the
order of the completions, to stdout; and the skipped lines, "COUNT REASON"
sorted, to the file named third.

usage: blk_reference.py blkparse|ftrace|lttng TRACE SKIPS_OUT"""
import csv
import gzip
import re
import sys
from collections import Counter, defaultdict

COLUMNS = "ts,dur,name,pid,tid,dev,sector,bytes,rwbs,comm,error,queue_depth,line".split(",")


def ns(text):
    """Decimal seconds as integer ns (at most 9 decimals)."""
    whole, _, frac = text.partition(".")
    return int(whole) * 10**9 + int((frac + "000000000")[:9])


def op(rwbs):
    letter = rwbs[1] if len(rwbs) > 1 and rwbs[0] == "F" and rwbs[1] in "RWDFN" else (rwbs[:1] or "N")
    return {"R": "read", "W": "write", "D": "discard", "F": "flush"}.get(letter, "none")


def rwbs_of_bits(bits):
    """LTTng's rwbs bits as the kernel's letters."""
    out = "F" if bits & 1024 else ""
    if bits & 1:
        out += "W"
    elif bits & 2:
        out += "DE" if bits & 128 else "D"
    elif bits & 256:
        out += "F"
    elif bits & 4:
        out += "R"
    else:
        out += "N"
    for bit, letter in ((512, "F"), (8, "A"), (32, "S"), (64, "M")):
        if bits & bit:
            out += letter
    return out


FTRACE_LINE = re.compile(r"^\s*(.+)-(\d+)\s+(?:\(\s*\d+\)\s+)?\[\d+\]\s+(?:\S+\s+)?(\d+\.\d+): (\w+):(.*)$")
FTRACE_ISSUE = re.compile(r"^\s*(\d+),(\d+) (\S*) (\d+) \((.*)\) (\d+) \+ (\d+)(?: \S+)? \[(.*)\]\s*$")
FTRACE_DONE = re.compile(r"^\s*(\d+),(\d+) (\S*) \((.*)\) (\d+) \+ (\d+)(?: \S+)? \[(-?\d+)\]\s*$")
FTRACE_NAMES = {"block_rq_issue": "D", "block_rq_complete": "C", "block_rq_requeue": "R"}


def ftrace(line, skip):
    text = line.strip()
    if not text or text.startswith("#") or text.startswith(("cpus=", "version =", "CPU ")):
        return None
    m = FTRACE_LINE.match(line)
    if not m:
        return skip("not an ftrace event line")
    pid, ts, name, payload = int(m.group(2)), ns(m.group(3)), m.group(4), m.group(5)
    kind = FTRACE_NAMES.get(name)
    if not kind:
        return None
    if kind == "D":
        p = FTRACE_ISSUE.match(payload)
        if not p:
            return skip("bad block_rq_issue payload")
        dev, rwbs, nbytes, sector, count, comm, error = (p.group(1), p.group(2)), p.group(3), int(p.group(4)), \
            int(p.group(6)), int(p.group(7)), p.group(8), None
    else:
        p = FTRACE_DONE.match(payload)
        if not p:
            return skip("bad block_rq_complete payload" if kind == "C" else "bad block_rq_requeue payload")
        dev, rwbs, sector, count, comm, error = (p.group(1), p.group(2)), p.group(3), int(p.group(5)), \
            int(p.group(6)), None, int(p.group(7))
        nbytes = count * 512
    return dict(kind=kind, ts=ts, dev="%s,%s" % dev, sector=sector if count else None, bytes=nbytes, rwbs=rwbs,
                pid=pid, tid=pid, comm=comm, error=error)


BLKPARSE_LINE = re.compile(r"^\s*(\d+),(\d+)\s+\d+\s+\d+\s+(\d+\.\d+)\s+(\d+)\s+(\S{1,2})\s+(.*)$")
BLKPARSE_RANGE = re.compile(r"^(\S+)\s+(\d+) \+ (\d+)(?:\s+\(\s*\d+\))?\s+\[(.*)\]\s*$")


def blkparse(line, skip):
    m = BLKPARSE_LINE.match(line)
    if not m:
        text = line.strip()
        if not text or (text[0].isalpha() and ":" in text):
            return None
        return skip("not a blkparse event line")
    action = m.group(5)
    if action not in ("D", "C", "R"):
        return None
    r = BLKPARSE_RANGE.match(m.group(6))
    if not r:
        return skip("passthrough request without a sector range" if "(" in m.group(6) else "bad blkparse sector range")
    count = int(r.group(3))
    issue = action == "D"
    return dict(kind=action, ts=ns(m.group(3)), dev="%s,%s" % (m.group(1), m.group(2)),
                sector=int(r.group(2)) if count else None, bytes=count * 512, rwbs=r.group(1),
                pid=int(m.group(4)), tid=int(m.group(4)), comm=r.group(4) if issue else None,
                error=None if issue else int(r.group(4)))


LTTNG_LINE = re.compile(r"^\[([^\]]+)\]\s+(?:\(\S+\)\s+)?(?:\S+\s+)?(\w+): \{(.*)$")
LTTNG_FIELD = re.compile(r'(\w+) = ("(?:[^"\\]|\\.)*"|\([^)]*\)|[^,}]+)')
LTTNG_NAMES = FTRACE_NAMES


def lttng(line, skip):
    m = LTTNG_LINE.match(line)
    if not m:
        return None if not line.strip() else skip("not a babeltrace2 event line")
    kind = LTTNG_NAMES.get(m.group(2))
    if not kind:
        return None
    if not m.group(3).rstrip().endswith("}"):
        return skip("bad LTTng fields")
    h, mi, s = m.group(1).split(":")
    ts = (int(h) * 3600 + int(mi) * 60) * 10**9 + ns(s)
    fields = {}
    for f in LTTNG_FIELD.finditer(m.group(3)):
        value = f.group(2).strip()
        if value.startswith('"'):
            fields[f.group(1)] = value[1:-1]
        elif value.startswith("("):
            fields[f.group(1)] = int(value.split("container =")[1].strip(" )"))
        else:
            fields[f.group(1)] = int(value)
    dev, count = fields["dev"], fields["nr_sector"]
    error = fields.get("error", fields.get("errors"))
    return dict(kind=kind, ts=ts, dev="%d,%d" % (dev >> 20, dev & 0xFFFFF),
                sector=fields["sector"] if count else None, bytes=fields.get("bytes", count * 512),
                rwbs=rwbs_of_bits(fields.get("rwbs", 0)), pid=fields.get("tid"), tid=fields.get("tid"),
                comm=fields.get("comm"), error=None if kind == "D" else error)


def main():
    form, path, skips_out = sys.argv[1:4]
    read = {"blkparse": blkparse, "ftrace": ftrace, "lttng": lttng}[form]
    skips = Counter()
    pending = defaultdict(list)     # (dev, sector) -> issues, oldest first
    in_flight = Counter()
    rows = []
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8", errors="surrogateescape", newline="\n") as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n").rstrip("\r")

            def skip(reason):
                skips[reason] += 1
                return None

            e = read(line, skip)
            if not e:
                continue
            key = (e["dev"], e["sector"])
            if e["kind"] == "D":
                in_flight[e["dev"]] += 1
                e["queue_depth"], e["line"] = in_flight[e["dev"]], number
                pending[key].append(e)
                continue
            if not pending[key]:
                if e["kind"] == "R":
                    skips["requeue without issue"] += 1
                elif e["sector"] is None and e["rwbs"].startswith("W"):
                    skips["empty write finished by a flush"] += 1
                else:
                    skips["completion without issue"] += 1
                continue
            issue = pending[key].pop(0)
            in_flight[e["dev"]] -= 1
            if e["kind"] == "R":
                continue
            if e["ts"] < issue["ts"]:
                skips["completion before its issue"] += 2
                continue
            row = dict(issue, dur=e["ts"] - issue["ts"], error=e["error"], name=op(issue["rwbs"]))
            rows.append(row)
    skips["issue without completion"] += sum(len(v) for v in pending.values())
    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(COLUMNS)
    for row in rows:
        out.writerow(["" if row.get(c) is None else row[c] for c in COLUMNS])
    with open(skips_out, "w") as f:
        for reason, count in sorted(skips.items()):
            if count:
                f.write("%d %s\n" % (count, reason))


main()
