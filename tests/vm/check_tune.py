"""Checks the tune phase of the VM pattern test (tests/vm/guest_tune.sh):
`spoor tune` live on the guest's disk, from the console's "@@t" rows and
"@@ tphase", "@@ tend" and "@@ terr" lines. check_patterns.py calls
tune_failures() with the model and the policy's settings.

- Every run (live, keep, dry): exit 0, no tracefs instance left; rows
  numbered from 0, one device, starts WINDOW_MS apart, each printed while
  its phase ran no later than LATE_S after its window ended (rows come as
  windows close, not at the end); the decision and readahead_kb columns
  what tests/cli/lib/tune_policy.py makes of the class and reads columns.
- live: the windows (of MIN_REQUESTS reads or more) whose middle falls in
  the seq or rand phase are mostly of its class, more than HYSTERESIS of them, read_ahead_kb ends
  each phase at the class's action clamped to [MIN_KB, MAX_KB], and at
  every row it is the readahead in force before it or after it (tune prints
  a row, then sets) while tune runs; the idle second makes an idle window;
  on exit the original readahead is put back.
- keep: read_ahead_kb stays at what tune set (random's action).
- dry (--dry-run, ended by SIGTERM): it decides to set, and read_ahead_kb
  never moves.
- head (output closed by `head -n 2`): exit 1, no instance left.
Returns the failures as sentences."""
import csv
import os
import subprocess
import sys
import tempfile

CLASS_OF = {"seq": "sequential", "rand": "random"}
HEAD = ["window", "start", "dev", "class", "reads", "decision", "readahead_kb"]
POLICY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cli", "lib", "tune_policy.py")
LATE_S = 1.5  # tune's 100 ms for late lines, its 50 ms poll, the guest's 20 ms poll, TCG


def words_of(words):
    return dict(w.split("=", 1) for w in words if "=" in w)


def parse(path):
    """Rows by run, phases by (run, phase), ends by run, stderr by run."""
    rows, phases, ends, errs = {}, {}, {}, {}
    for line in open(path, errors="replace"):
        line = line.rstrip("\r\n")
        if "@@t " in line:
            run, phase, ra, now, text = line.split("@@t ", 1)[1].split(" ", 4)
            row = dict(zip(HEAD, next(csv.reader([text]))))
            row.update(phase=phase, ra=int(ra.split("=")[1]), now=float(now.split("=")[1]))
            rows.setdefault(run, []).append(row)
            continue
        if "@@ " not in line:
            continue
        words = line.split("@@ ", 1)[1].split(" ")
        if words[0] == "tphase":
            phases[(words[1], words[2])] = words_of(words[3:])
        elif words[0] == "tend":
            ends[words[1]] = words_of(words[2:])
        elif words[0] == "terr":
            errs.setdefault(words[1], []).append(" ".join(words[2:]))
    return rows, phases, ends, errs


def policy_failures(run, rows, actions, cfg, original):
    """tune_policy.py on the run's rows, as tune's CSV."""
    with tempfile.NamedTemporaryFile("w", suffix=".csv", newline="", delete=False) as f:
        out = csv.writer(f)
        out.writerow(HEAD)
        out.writerows([r[k] for k in HEAD] for r in rows)
    try:
        p = subprocess.run([sys.executable, POLICY, f.name, actions, str(cfg["hysteresis"]), str(cfg["min_kb"]),
                            str(cfg["max_kb"]), str(cfg["min_requests"]), str(original)],
                           capture_output=True, text=True)
    finally:
        os.unlink(f.name)
    return [] if p.returncode == 0 else [f"tune {run}: decisions differ from the policy's: {p.stdout.strip()}"]


def rows_failures(run, rows, cfg):
    """Numbering, device, starts, and rows printed as windows close."""
    out = []
    every = cfg["window_ms"] * 1_000_000
    if [int(r["window"]) for r in rows] != list(range(len(rows))):
        out.append(f"tune {run}: rows not numbered from 0, one per window")
    if len({r["dev"] for r in rows}) != 1:
        out.append(f"tune {run}: rows of several devices {sorted({r['dev'] for r in rows})}")
    starts = [int(r["start"]) for r in rows]
    if any(b - a != every for a, b in zip(starts, starts[1:])):
        out.append(f"tune {run}: window starts not {cfg['window_ms']} ms apart")
    for r in rows:
        if r["phase"] == "end":  # printed once tune had ended
            continue
        late = r["now"] - (int(r["start"]) + every) / 1e9
        if not -0.02 <= late <= LATE_S:
            out.append(f"tune {run}: window {r['window']} printed {late:.2f} s after it ended (0 to {LATE_S})")
    return out


def within(rows, phase, every_s):
    """The rows whose window's middle falls within the phase's run."""
    begin, end = float(phase["begin"]), float(phase["end"])
    return [r for r in rows if begin <= int(r["start"]) / 1e9 + every_s / 2 < end]


def live_failures(rows, phases, model, cfg, original):
    out = []
    every_s = cfg["window_ms"] / 1000
    for name in ("seq", "rand"):
        phase = phases.get(("live", name))
        if phase is None:
            out.append(f"tune live: no {name} phase")
            continue
        cls = CLASS_OF[name]
        target = min(max(model["actions"]["values"][model["classes"].index(cls)], cfg["min_kb"]), cfg["max_kb"])
        counted = [r for r in within(rows, phase, every_s) if int(r["reads"]) >= cfg["min_requests"]]
        mine = [r for r in counted if r["class"] == cls]
        print(f"patterns: tune live: {name}: {len(mine)} of {len(counted)} windows in the phase are {cls}; "
              f"read_ahead_kb ends at {phase['ra']} (the action, clamped: {target})")
        if len(counted) <= cfg["hysteresis"] or 2 * len(mine) <= len(counted):
            out.append(f"tune live: {name}: {len(mine)} of {len(counted)} windows are {cls}: "
                       f"not most of more than {cfg['hysteresis']}")
        if int(phase["ra"]) != target:
            out.append(f"tune live: {name}: read_ahead_kb is {phase['ra']} at the end, not {target}")
    before = original
    for r in rows:
        if r["phase"] != "end" and r["ra"] not in (before, int(r["readahead_kb"])):
            out.append(f"tune live: window {r['window']}: read_ahead_kb {r['ra']}, neither the {before} in force "
                       f"before it nor the {r['readahead_kb']} after")
        before = int(r["readahead_kb"])
    idle = [r for r in rows if r["phase"] == "idle" and r["decision"] == "idle"]
    if not idle:
        out.append("tune live: no idle window in the idle second")
    if any(r["ra"] != int(r["readahead_kb"]) for r in idle):
        out.append("tune live: read_ahead_kb moved in an idle window")
    return out


def tune_failures(console, model, cfg, original):
    """cfg: window_ms, hysteresis, min_kb, max_kb, min_requests."""
    rows, phases, ends, errs = parse(console)
    actions = ",".join(f"{c}={v}" for c, v in zip(model["classes"], model["actions"]["values"]))
    out = []
    for run in ("live", "keep", "dry", "head"):
        end = ends.get(run)
        want = "1" if run == "head" else "0"
        if end is None or end.get("code") != want or end.get("instances") != "0":
            out.append(f"tune {run}: ended with {end} (want code={want}, instances=0); stderr: {errs.get(run)}")
        if run == "head":
            continue
        mine = rows.get(run, [])
        print(f"patterns: tune {run}: {len(mine)} rows, decisions "
              f"{sorted({r['decision'] for r in mine})}, read_ahead_kb {sorted({r['ra'] for r in mine})}")
        if len(mine) < cfg["hysteresis"]:
            out.append(f"tune {run}: {len(mine)} rows, fewer than the {cfg['hysteresis']} windows a set needs")
            continue
        out += rows_failures(run, mine, cfg) + policy_failures(run, mine, actions, cfg, original)
    live = rows.get("live", [])
    out += live_failures(live, phases, model, cfg, original)
    if sum(r["phase"] == "seq" for r in live) < 3:
        out.append("tune live: fewer than 3 rows while seq ran: rows do not come as windows close")
    if ends.get("live", {}).get("ra") != str(original) or not any("put back" in e for e in errs.get("live", [])):
        out.append(f"tune live: read_ahead_kb {ends.get('live', {}).get('ra')} on exit, not put back to {original}")
    random_kb = min(max(model["actions"]["values"][model["classes"].index("random")], cfg["min_kb"]), cfg["max_kb"])
    if ends.get("keep", {}).get("ra") != str(random_kb):
        out.append(f"tune keep: read_ahead_kb {ends.get('keep', {}).get('ra')} on exit, not the {random_kb} set")
    dry = rows.get("dry", [])
    if not any(r["decision"] == "set" for r in dry):
        out.append("tune dry: no window decided to set")
    if any(r["ra"] != original for r in dry) or ends.get("dry", {}).get("ra") != str(original):
        out.append(f"tune dry: read_ahead_kb moved from {original}")
    if ends.get("head", {}).get("ra") != str(original):
        out.append("tune head: read_ahead_kb moved")
    return out
