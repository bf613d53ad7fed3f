"""Checks the console of the VM agreement test (tests/vm/agree.sh): for each
dataset model, the class the module's /dev/spoor_ra_model gave each row
("@@a MODEL ROW INDEX CLASS", from vmagree) must be spoor predict's, on every
row; the device must have kept to its protocol; the module built with the
window model must classify windows and take dry_run=N, the dataset models
must not classify windows (and the guest checked they refuse dry_run=N);
the module must set the disk's readahead only when told to (dry_run=N,
the disk listed), and restore it at unload unless it was written by hand
since; and the kernel must be healthy. Prints one line per model; exits 1 naming
each failure.

    check_agree.py CONSOLE MODEL=PREDICTED ...

PREDICTED: spoor predict's classes, one per row, in the dataset's order."""
import sys

from guest_health import health_failures


def parse(path):
    """{model: {row: (index, class)}} and the other "@@ " lines by key."""
    answers, other = {}, {}
    for raw in open(path, errors="replace"):
        if "@@" not in raw:
            continue
        key, _, rest = raw.rstrip("\r\n").split("@@", 1)[1].strip().partition(" ")
        if key == "a":
            model, row, index, cls = rest.split()
            answers.setdefault(model, {})[int(row)] = (int(index), cls)
        else:
            other.setdefault(key, []).append(rest)
    return answers, other


# "@@ ra CASE KB [STATE]": the disk's read_ahead_kb after each case of
# guest_agree.sh (every class clamped to 48 KiB), and the state line's
# fields that must hold then.
READAHEAD = {
    "start": (128, {}),
    "dry_run": (128, {"decision": "set", "readahead_kb": "48", "original_kb": "128", "sets": "1"}),
    "not_listed": (128, {"decision": "set", "readahead_kb": "48"}),
    "set": (48, {"decision": "set", "readahead_kb": "48", "original_kb": "128", "classified": "1", "idle": "0"}),
    "restored": (128, {}),
    "set_again": (48, {"decision": "set"}),
    "by_hand": (64, {}),
}


def check_readahead(lines, fail):
    seen = {}
    for line in lines:
        case, kb, *state = line.split()
        seen[case] = (int(kb), dict(w.split("=", 1) for w in state if "=" in w))
    for case, (want_kb, want_state) in READAHEAD.items():
        if case not in seen:
            fail(f"readahead: the guest printed no case {case}")
            continue
        kb, state = seen[case]
        wrong = {k: state.get(k) for k, v in want_state.items() if state.get(k) != v}
        if kb != want_kb or wrong:
            fail(f"readahead: {case}: read_ahead_kb {kb} (want {want_kb}); state fields {wrong} (want {want_state})")
    if not [f for f in READAHEAD if f not in seen]:
        print("  readahead: set only with dry_run=N on a listed disk, restored at unload, a value by hand kept")


def check_model(name, predicted, got, fail):
    """got: {row: (index, class)} from the device; predicted: spoor's classes."""
    agree = sum(1 for row, cls in enumerate(predicted, 1) if got.get(row, (None, None))[1] == cls)
    print(f"  {name}: the device's class = spoor predict's on {agree}/{len(predicted)} rows")
    if len(got) != len(predicted) or agree != len(predicted):
        wrong = [row for row, cls in enumerate(predicted, 1) if got.get(row, (None, None))[1] != cls]
        fail(f"{name}: {len(got)} answers for {len(predicted)} rows; {len(wrong)} differ from spoor predict "
             f"(first: row {wrong[0] if wrong else '-'}: {got.get(wrong[0]) if wrong else '-'})")
    names = {}
    for index, cls in got.values():
        if names.setdefault(index, cls) != cls:
            fail(f"{name}: class index {index} answered as {names[index]} and as {cls}")


def main(console, specs):
    answers, other = parse(console)
    failures = health_failures((other.get("end") or [None])[-1], (other.get("tainted") or [None])[0],
                               other.get("error", []) + other.get("dmesg", []))
    fail = failures.append
    models = {line.split(" ", 1)[0]: line for line in other.get("model", [])}
    if "classifies=yes" not in models.get("window", "").split():
        fail(f"the window model does not say it classifies: {models.get('window')}")
    if other.get("dry_run") != ["window N"]:
        fail(f"the window model's dry_run after writing N: {other.get('dry_run')}")
    check_readahead(other.get("ra", []), fail)
    kmsg = other.get("kmsg", [])
    if not any("spoor_ra: classifying windows" in k for k in kmsg):
        fail(f"the kernel log does not say that the window model classifies: {kmsg}")
    for spec in specs:
        name, path = spec.split("=", 1)
        predicted = [line.strip() for line in open(path) if line.strip()]
        if "classifies=no" not in models.get(name, "").split():
            fail(f"{name}: the dataset model does not say it leaves windows alone: {models.get(name)}")
        if f"{name} ok" not in other.get("protocol", []):
            fail(f"{name}: vmagree did not report the device's protocol ok")
        check_model(name, predicted, answers.get(name, {}), fail)
    # each dataset module says so at every load (busybox's insmod tries a refused load twice)
    not_window = [k for k in kmsg if "not classifying windows: the model's feature" in k]
    refused = [k for k in kmsg if "dry_run=N is refused" in k]
    if len(not_window) < len(specs) or len(refused) < 2 * len(specs):
        fail(f"the kernel log does not say for each dataset model that it does not classify windows "
             f"and refuses dry_run=N (at load and at run time): {kmsg}")
    for f in failures:
        print(f"check_agree: {console}: {f}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit("usage: check_agree.py CONSOLE MODEL=PREDICTED ...")
    sys.exit(main(sys.argv[1], sys.argv[2:]))
