"""Writes Chrome trace documents for tests/cli/chrome_layouts.sh, and the
rows spoor should read from them (the reference).

    chrome_traces.py layouts DIR     torch.json, perfetto.json, array.json, expected.jsonl
    chrome_traces.py big FILE N      a one-line array of N events (prints the dur sum, ns)
    chrome_traces.py rawnl FILE      DFTracer 2023 lines whose file names hold raw
                                     newlines, two of them across 4 MiB boundaries
"""
import json
import sys


def events():
    """One of each kind, with strings that look like structure."""
    ev = [
        {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 7,
         "ts": 1700000000000.125, "dur": 12.5, "args": {"Input Dims": [[2, 3], [3, 4]], "seq": 4}},
        {"ph": "X", "cat": "kernel", "name": "x},{\"ph\":\"X\"]", "pid": 1, "tid": 7,
         "ts": 1700000000010, "dur": 3, "args": {"objs": [{"a": 1}, {"b": "],["}]}},
        {"ph": "B", "name": "step", "pid": 1, "tid": 8, "ts": 1700000000020},
        {"ph": "E", "pid": 1, "tid": 8, "ts": 1700000000050, "args": {"ok": True}},
        {"ph": "i", "name": "mark", "pid": 1, "tid": 8, "ts": 1700000000030, "s": "t"},
        {"ph": "I", "name": "global mark", "pid": 1, "tid": 8, "ts": 1700000000031},
        {"ph": "C", "name": "mem", "pid": 1, "ts": 1700000000040, "args": {"bytes": 4096}},
        {"ph": "M", "name": "process_name", "pid": 1, "tid": 0, "args": {"name": "python"}},
        {"ph": "s", "id": 5, "cat": "ac2g", "name": "flow", "pid": 1, "tid": 7, "ts": 1700000000011},
        {"ph": "f", "id": 5, "bp": "e", "cat": "ac2g", "name": "flow", "pid": 1, "tid": 8, "ts": 1700000000021},
    ]
    return ev


def ns(v):
    return None if v is None else round(v * 1000)


def row(e, line):
    r = {"name": e.get("name"), "ph": e["ph"], "ts": ns(e.get("ts")), "dur": ns(e.get("dur")),
         "pid": e.get("pid"), "tid": e.get("tid"), "line": line}
    fixed = ("ts", "dur", "name", "cat", "pid", "tid", "ph", "line", "source", "file", "host")
    for k, v in e.get("args", {}).items():
        r["args." + k if k in fixed else k] = v
    return r


def rows(ev):
    """The rows spoor makes: a B and the E that ends it on its thread are one
    X row at the E's place, with the B's ts, name and line and both args."""
    out, open_b = [], {}
    for i, e in enumerate(ev):
        if e["ph"] == "B":
            open_b.setdefault((e["pid"], e["tid"]), []).append((i + 1, e))
        elif e["ph"] == "E":
            line, b = open_b[(e["pid"], e["tid"])].pop()
            pair = dict(b, ph="X", dur=e["ts"] - b["ts"], args=dict(b.get("args", {}), **e.get("args", {})))
            out.append(row(pair, line))
        else:
            out.append(row(e, i + 1))
    return out


def layouts(d):
    ev = events()
    # PyTorch profiler: members before the events, one event over several lines
    body = ",\n".join("  {\n    " + json.dumps(e)[1:-1].replace(", \"args\"", ",\n    \"args\"") + "\n  }"
                      for e in ev)
    with open(d + "/torch.json", "w") as f:
        f.write('{\n  "schemaVersion": 1,\n  "deviceProperties": [\n    {"id": 0, "name": "GPU 0"}\n  ],\n'
                '  "distributedInfo": {"backend": "nccl", "rank": 0},\n  "traceEvents": [\n')
        f.write(body)
        f.write('\n  ],\n  "traceName": "rank0.json"\n}\n')
    # Perfetto's JSON export, Chrome's about:tracing: one event per line inside the object
    with open(d + "/perfetto.json", "w") as f:
        f.write('{"traceEvents":[\n' + ",\n".join(json.dumps(e, separators=(",", ":")) for e in ev)
                + '\n],\n"displayTimeUnit":"ns","metadata":{"trace-config":"x","clock":[1,2]}}\n')
    # a whole trace as one line
    with open(d + "/array.json", "w") as f:
        f.write(json.dumps(ev, separators=(",", ":")))
    with open(d + "/expected.jsonl", "w") as f:
        for r in rows(ev):
            f.write(json.dumps(r, sort_keys=True) + "\n")


def big(path, n):
    total = 0
    with open(path, "w") as f:
        f.write("[")
        for i in range(n):
            dur = 1 + i % 97
            total += dur * 1000
            f.write('%s{"name":"op%d","cat":"c","ph":"X","pid":%d,"tid":%d,"ts":%d,"dur":%d,'
                    '"args":{"s":"a},{b"}}' % ("," if i else "", i % 13, i % 3, i % 5, 1000 + i, dur))
        f.write("]")
    print(total)


def rawnl(path):
    """Events 20 bytes apart in length; a raw newline in the file name of some,
    placed so that a 4 MiB chunk boundary falls right after it, right before
    it, and inside the continuation."""
    mib4 = 4 << 20
    out = ["[\n"]
    size = 2
    n = 0

    def line(i, fname):
        return ('{"id":"%d","name":"open","cat":"POSIX","pid":"0","tid":"1","ts":"%d","dur":"5",'
                '"ph":"X","args":{"hostname":"h","fname":"%s"}}\n' % (i, 1698352095942658 + i, fname))
    targets = [mib4 - 1, 2 * mib4 - 12, 3 * mib4 + 3]  # where the raw newline sits
    raw = 0
    while size < 3 * mib4 + 200000:
        plain = line(n, "/p/file_%d" % n)
        t = next((t for t in targets if size <= t < size + len(plain) + 200), None)
        if t is not None:
            # pad the name so that the raw newline lands exactly on t
            head = line(n, "/p/X").index("/p/") + 3
            pad = t - size - head
            if pad < 0:
                out.append(plain)
                size += len(plain)
                n += 1
                continue
            text = line(n, "/p/" + "y" * pad + "\n/rest")
            assert size + text.index("\n/rest") == t
            targets.remove(t)
            out.append(text)
            size += len(text)
            raw += 1
        else:
            out.append(plain)
            size += len(plain)
        n += 1
    out.append("]\n")
    with open(path, "w") as f:
        f.write("".join(out))
    print(n, raw)


def spans(path, n):
    """Line-per-event B/E spans nested on 8 threads, interleaved, a few MB
    so pairs cross chunks; an E with no B first and Bs left open at the end.
    Prints the pairs, their dur sum (ns) and the unmatched counts."""
    import random
    rnd = random.Random(7)
    open_b = {t: [] for t in range(8)}
    ts, pairs, total = 1000, 0, 0
    with open(path, "w") as f:
        f.write("[\n")
        f.write('{"ph":"E","pid":1,"tid":3,"ts":5}\n')
        for i in range(n):
            t = rnd.randrange(8)
            ts += rnd.randrange(1, 50)
            if open_b[t] and (len(open_b[t]) > 6 or rnd.random() < 0.5):
                b = open_b[t].pop()
                pairs += 1
                total += (ts - b) * 1000
                f.write('{"ph":"E","pid":1,"tid":%d,"ts":%d,"args":{"ret":%d}}\n' % (t, ts, i))
            else:
                open_b[t].append(ts)
                f.write('{"name":"span%d","cat":"c","ph":"B","pid":1,"tid":%d,"ts":%d,"args":{"pad":"%s"}}\n'
                        % (len(open_b[t]), t, ts, "x" * rnd.randrange(200)))
    print(pairs, total, 1, sum(len(v) for v in open_b.values()))


if __name__ == "__main__":
    if sys.argv[1] == "layouts":
        layouts(sys.argv[2])
    elif sys.argv[1] == "spans":
        spans(sys.argv[2], int(sys.argv[3]))
    elif sys.argv[1] == "big":
        big(sys.argv[2], int(sys.argv[3]))
    else:
        rawnl(sys.argv[2])
