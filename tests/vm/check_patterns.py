"""Checks the console of the VM pattern test (tests/vm/patterns.sh): the "@@ "
lines guest_patterns.sh printed, against the model the module was built with.

    check_patterns.py CONSOLE MODEL_JSON PREDICTED WINDOW_MS HYSTERESIS MIN_KB MAX_KB MIN_REQUESTS

- The model's training windows through /dev/spoor_ra_model ("@@a lab ROW
  INDEX CLASS", from vmagree) get spoor predict's class (PREDICTED: one a
  line), every one.

- Each phase's classified windows are mostly (more than half) of the
  phase's class, and there are more than HYSTERESIS of them.
- read_ahead_kb ends each phase at the class's action clamped to
  [MIN_KB, MAX_KB]; it changes only in a window the module says it set, and
  a set comes after HYSTERESIS windows of the class in a row.
- The dry run changes nothing; rmmod restores the original readahead.
- Then spoor tune, live on the same disk with the same model and policy
  settings (check_tune.py).
- Kernel health (guest_health.py): the guest ended with status 0, taint O
  and E only, no WARNING, BUG or Oops.
Prints one line per phase and exits 1 naming each failure."""
import json
import sys

from check_tune import tune_failures
from guest_health import health_failures

CLASS_OF = {"seq": "sequential", "rand": "random", "mixed": "mixed"}


def fields(words):
    out = {}
    for word in words:
        if "=" in word:
            name, value = word.split("=", 1)
            out[name] = int(value) if value.isdigit() else value
    return out


def parse(path):
    """The samples ("w" lines) in order, the phase lines, the agreement
    device's classes by row, the other lines."""
    samples, phases, answers, other = [], {}, {}, {}
    for line in open(path, errors="replace"):
        if "@@a " in line:
            _, row, _, cls = line.rstrip("\r\n").split("@@a ", 1)[1].split()
            answers[int(row)] = cls
            continue
        if "@@ " not in line:
            continue
        words = line.rstrip("\r\n").split("@@ ", 1)[1].split()
        if words[0] == "w":
            samples.append(dict(fields(words[2:]), phase=words[1]))
        elif words[0] == "phase":
            phases[words[1]] = fields(words[2:])
        else:
            other.setdefault(words[0], []).append(words[1:])
    return samples, phases, answers, other


def windows_of(samples):
    """Each sample's class if exactly one window was classified since the
    sample before it (of the same load), else None."""
    prev = {"classified": 0, "windows": 0}   # a load starts its counts at 0
    for s in samples:
        s["one"] = s["classified"] - prev["classified"] == 1 and s["windows"] - prev["windows"] == 1
        prev = s


def check_phase(name, samples, end, model, cfg, fail):
    """A phase of dry_run=N: classes, readahead, hysteresis."""
    cls = CLASS_OF[end["pattern"]]
    action = model["actions"]["values"][model["classes"].index(cls)]
    target = min(max(action, cfg["min_kb"]), cfg["max_kb"])
    seen = [s for s in samples if s["one"]]
    mine = [s for s in seen if s["class"] == cls]
    print(f"patterns: {name}: {len(mine)} of {len(seen)} classified windows seen are {cls}; "
          f"read_ahead_kb ends at {end['ra']} (the action {action}, clamped: {target})")
    if len(seen) <= cfg["hysteresis"] or 2 * len(mine) <= len(seen):
        fail(f"{name}: {len(mine)} of {len(seen)} classified windows are {cls}: "
             f"not most of more than {cfg['hysteresis']}")
    if end["ra"] != target:
        fail(f"{name}: read_ahead_kb is {end['ra']} at the end, not {target}")
    set_here = [s for s in samples if s["decision"] == "set"]
    if not set_here and samples and samples[0]["ra"] != target:
        fail(f"{name}: read_ahead_kb reached {target} with no window that set it")


def check_sets(samples, cfg, fail):
    """Every change of read_ahead_kb is a set the module reports, after
    enough windows in a row."""
    prev = None
    for s in samples:
        if s["decision"] == "set":
            if s["streak"] < cfg["hysteresis"]:
                fail(f"{s['phase']}: a set after {s['streak']} windows in a row, fewer than {cfg['hysteresis']}")
            if s["readahead_kb"] != s["ra"]:
                fail(f"{s['phase']}: the module says it set {s['readahead_kb']}, read_ahead_kb reads {s['ra']}")
        elif prev is not None and s["one"] and s["ra"] != prev["ra"]:
            fail(f"{s['phase']}: read_ahead_kb went from {prev['ra']} to {s['ra']} in a window "
                 f"the module calls '{s['decision']}'")
        prev = s


def check_agreement(answers, predicted_path, fail):
    """Every training window's class from the device is spoor predict's."""
    predicted = open(predicted_path).read().split()
    same = sum(answers.get(i + 1) == cls for i, cls in enumerate(predicted))
    print(f"patterns: agreement: {same} of {len(predicted)} training windows, the module's class is spoor predict's")
    if same != len(predicted) or len(answers) != len(predicted):
        fail(f"agreement: {same} of {len(predicted)} windows agree ({len(answers)} answered)")


def main(console, model_path, predicted_path, window_ms, hysteresis, min_kb, max_kb, min_requests):
    cfg = {"window_ms": int(window_ms), "hysteresis": int(hysteresis), "min_kb": int(min_kb),
           "max_kb": int(max_kb), "min_requests": int(min_requests)}
    model = json.load(open(model_path))
    samples, phases, answers, other = parse(console)
    failures = []
    fail = failures.append
    check_agreement(answers, predicted_path, fail)
    original = fields((other.get("original") or [[]])[0]).get("ra")
    if original is None or "dry" not in phases:
        fail("the guest did not get through the dry run (see the console)")
    else:
        dry = [s for s in samples if s["phase"] == "dry"]
        windows_of(dry)
        seq = [s for s in dry if s["one"] and s["class"] == "sequential"]
        print(f"patterns: dry run: {len(seq)} of {sum(s['one'] for s in dry)} classified windows sequential; "
              f"read_ahead_kb {sorted({s['ra'] for s in dry} | {phases['dry']['ra']})}")
        if not seq:
            fail("dry run: no window classified sequential")
        if any(s["ra"] != original for s in dry) or phases["dry"]["ra"] != original:
            fail(f"dry run: read_ahead_kb moved from {original}")
        if fields((other.get("dry_rmmod") or [[]])[0]).get("ra") != original:
            fail("dry run: read_ahead_kb changed by rmmod")
    active = [s for s in samples if s["phase"] != "dry"]
    windows_of(active)
    check_sets(active, cfg, fail)
    names = [n for n in phases if n != "dry"]
    if not names:
        fail("no phase with dry_run=N ran")
    for name in names:
        check_phase(name, [s for s in active if s["phase"] == name], phases[name], model, cfg, fail)
    before = fields((other.get("before_rmmod") or [[]])[0]).get("ra")
    after = fields((other.get("after_rmmod") or [[]])[0]).get("ra")
    print(f"patterns: rmmod: read_ahead_kb {before} -> {after} (originally {original})")
    if before == original:
        fail(f"the last phase left read_ahead_kb at the original {original}: rmmod's restore is not shown")
    if after != original:
        fail(f"after rmmod read_ahead_kb is {after}, not the original {original}")
    for f in tune_failures(console, model, cfg, original):
        fail(f)
    end = (other.get("end") or [None])[0]
    tainted = (other.get("tainted") or [[None]])[0][0]
    errors = [" ".join(w) for w in other.get("error", [])] + ["dmesg " + " ".join(w) for w in other.get("dmesg", [])]
    for f in health_failures(None if end is None else " ".join(end), tainted, errors):
        fail(f)
    for f in failures:
        print("patterns: FAIL " + f, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    if len(sys.argv) != 9:
        sys.exit("usage: check_patterns.py CONSOLE MODEL_JSON PREDICTED WINDOW_MS HYSTERESIS MIN_KB MAX_KB "
                 "MIN_REQUESTS")
    sys.exit(main(*sys.argv[1:]))
