"""Checks the console of tests/vm/features.sh: for each I/O pattern that
guest_features.sh ran, writes the tracefs trace it printed to a file, runs
`spoor windows --by dev` on it with the module's window width, and requires
the module's features (its `features` line) to equal spoor's row.

Matching the windows: the module closed a window right before the pattern
and right after it, with the disk idle at both closes. spoor's window starts
at the trace's first issue and is as wide as the module's, so it holds the
whole trace: one row, the module's window. Both clocks are ftrace's "local".

Every feature must be equal exactly but the latencies. Those cannot be: the
module and tracefs time a request with two reads of the clock each, their
probes run one after the other, and the trace prints microseconds. Under TCG
the two reads are usually a few microseconds apart, but an interrupt between
them moved one request's latency by 260 us in a run, and p99 of 64 requests
is their maximum. So a latency mean may differ by MEAN_SLACK of spoor's plus
SLACK_NS, a quantile by QUANTILE_SLACK plus SLACK_NS: loose enough for the
timing, tight enough to catch a latency in the wrong unit or window.
The guest runs with QEMU's -icount (features.sh), so that the host's
scheduling does not reach the guest's clock: measured, latencies then agree
within 0.5 us.

The queue depth, too, is seen by two observers: an interrupt that completes
a request between the module's and tracefs's probes of an issue puts the
completion before the issue in the trace and after it in the module, so
that issue's depth is one more in the module. Such an issue follows a
completion closely in the trace (the interrupt ran between two probes of one
call): the depth sums may differ by as many issues as follow a completion
within CLOSE_US, and by REORDERS_MIN at least.

usage: check_features.py CONSOLE SPOOR_BIN OUTDIR"""
import csv
import os
import re
import subprocess
import sys

from guest_health import health_failures

# Requests whose issue an interrupt may put after a completion in one
# observer's view and before it in the other's (see above).
REORDERS_MIN = 2
CLOSE_US = 50
SLACK_NS = 10000
MEAN_SLACK = 0.02
QUANTILE_SLACK = 0.25
LATENCIES = ("latency_mean", "latency_p50", "latency_p99")
# What each pattern issues (requests of each operation), when it is known exactly.
EXPECTED = {"seq_16k": {"read_requests": 64, "write_requests": 0},
            "rand_4k": {"read_requests": 128, "write_requests": 0},
            "two_readers": {"read_requests": 96, "write_requests": 0},
            "writes_64k": {"read_requests": 0, "write_requests": 16, "write_bytes": 16 * 65536}}


def fields(words):
    return dict(w.split("=", 1) for w in words if "=" in w)


def parse(path):
    """{pattern: {"info", "features", "trace"}} and the other "@@ " lines."""
    patterns, other = {}, {}
    current = None
    for raw in open(path, errors="replace"):
        if "@@" not in raw:
            continue
        line = raw.rstrip("\r\n").split("@@", 1)[1]
        if line.startswith("t "):
            if current is not None:
                current["trace"].append(line[2:])
            continue
        key, _, rest = line.strip().partition(" ")
        if key == "pattern":
            name, *words = rest.split()
            current = patterns[name] = {"info": fields(words), "features": None, "trace": []}
        elif key == "features":
            name, dev, *words = rest.split()
            patterns[name]["features"] = (dev, fields(words))
        elif key == "trace_end":
            current = None
        else:
            other.setdefault(key, []).append(rest)
    return patterns, other


def spoor_row(spoor, trace_path, width_ns, fail, name):
    run = subprocess.run([spoor, "windows", "--no-progress", "--by", "dev", "--every", f"{width_ns}ns",
                          "--format", "csv", trace_path], capture_output=True, text=True)
    if run.returncode != 0:
        fail(f"{name}: spoor windows failed: {run.stderr.strip()}")
        return None
    rows = list(csv.DictReader(run.stdout.splitlines()))
    if len(rows) != 1:
        fail(f"{name}: spoor windows made {len(rows)} windows of the trace, not 1 (the module's)")
        return None
    return rows[0]


def reorder_candidates(trace):
    """Issues that follow a completion within CLOSE_US in the trace."""
    n, last_completion = 0, None
    for line in trace:
        m = re.search(r"\s(\d+\.\d+): (block_rq_\w+):", line)
        if not m:
            continue
        ts = float(m.group(1)) * 1e6
        if m.group(2) == "block_rq_complete":
            last_completion = ts
        elif m.group(2) == "block_rq_issue":
            n += last_completion is not None and ts - last_completion <= CLOSE_US
            last_completion = None
    return n


def compare(name, module, spoor, reorders, fail):
    """Returns the largest latency difference seen (ns)."""
    worst = 0.0
    for column, value in module.items():
        if column not in spoor:
            fail(f"{name}: spoor has no column {column}")
            continue
        a, b = float(value), float(spoor[column])
        if column.endswith(LATENCIES):
            worst = max(worst, abs(a - b))
            slack = SLACK_NS + b * (MEAN_SLACK if column.endswith("mean") else QUANTILE_SLACK)
            if abs(a - b) > slack:
                fail(f"{name}: {column}: module {value}, spoor {spoor[column]} (more than {slack:.0f} ns apart)")
        elif column.endswith("queue_depth_mean"):
            requests = int(module[column.replace("queue_depth_mean", "requests")])
            if abs(a - b) > reorders / max(requests, 1):
                fail(f"{name}: {column}: module {value}, spoor {spoor[column]} (more than {reorders} "
                     f"depths of {requests} requests apart)")
        elif a != b:
            fail(f"{name}: {column}: module {value}, spoor {spoor[column]}")
    missing = [c for c in spoor if c.startswith(("read_", "write_")) and c not in module]
    if missing:
        fail(f"{name}: the module has no {', '.join(missing)}")
    return worst


def main(console, spoor, outdir):
    failures = []
    fail = failures.append
    patterns, other = parse(console)
    os.makedirs(outdir, exist_ok=True)
    failures += health_failures((other.get("end") or [None])[-1], (other.get("tainted") or [None])[0],
                                other.get("error", []) + other.get("dmesg", []))
    dev = (other.get("dev") or ["?"])[0].replace(":", ",")
    for name in ("seq_16k", "rand_4k", "two_readers", "buffered_ra128", "writes_64k"):
        p = patterns.get(name)
        if not p or not p["features"]:
            fail(f"{name}: the guest printed no pattern or features")
            continue
        if p["info"].get("untimed") != "0":
            fail(f"{name}: {p['info'].get('untimed')} requests beyond the module's in-flight entries")
        trace_path = os.path.join(outdir, f"{name}.txt")
        with open(trace_path, "w") as f:
            f.write("\n".join(p["trace"]) + "\n")
        row = spoor_row(spoor, trace_path, p["info"]["window_ns"], fail, name)
        if row is None:
            continue
        if row["dev"] != dev:
            fail(f"{name}: spoor's window is of device {row['dev']}, not {dev}")
        module = p["features"][1]
        worst = compare(name, module, row, max(REORDERS_MIN, reorder_candidates(p["trace"])), fail)
        for column, want in EXPECTED.get(name, {}).items():
            if int(module[column]) != want:
                fail(f"{name}: {column} is {module[column]}, not the {want} the pattern issued")
        print(f"  {name}: {module['read_requests']} reads, {module['write_requests']} writes in "
              f"{int(p['info']['window_ns']) / 1e6:.0f} ms; read queue depth {module['read_queue_depth_mean']}, "
              f"sequential {module['read_sequential_ratio']}; latencies at most {worst:.0f} ns from spoor's")
    two = patterns.get("two_readers")
    if two and two["features"] and float(two["features"][1]["read_queue_depth_mean"]) <= 1:
        fail("two_readers: the mean queue depth is not above 1: the case does not test depths")
    for f in failures:
        print(f"check_features: {console}: {f}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    sys.exit(main(*sys.argv[1:]))
