"""Checks the console of the VM test of spoor_ra (tests/vm/counts.sh): the
"@@ " lines guest_counts.sh printed. Every case's read requests, bytes and
completions counted by the module must be what the reads issued (and, in
one case, what tracefs recorded); prints one line per case and exits 1
naming each failure."""
import sys

from guest_health import health_failures

SECTOR = 512


def fields(text):
    """name=value pairs of a counts line (after its device) or of a reader's line."""
    out = {}
    for word in text.split():
        if "=" in word:
            name, value = word.split("=", 1)
            out[name] = int(value)
    return out


def delta(before, after, name):
    return after.get(name, 0) - before.get(name, 0)


def check_direct(args, got, d, fail):
    """O_DIRECT reads of one size: exactly one request, of that size, each."""
    size = int(args[1]) * 1024
    reads, nbytes = got["reads"], got["bytes"]
    want = {"read_requests": reads, "read_bytes": nbytes, "read_completions": reads,
            "read_completed_bytes": nbytes, "read_sectors": nbytes // SECTOR,
            "write_requests": 0, "other_requests": 0}
    if reads * size != nbytes or nbytes != int(args[2]) * 1024:
        fail(f"direct {' '.join(args)}: the reader says {reads} reads, {nbytes} bytes")
    for name, value in want.items():
        if d(name) != value:
            fail(f"direct {' '.join(args)}: {name} went up by {d(name)}, not {value}")


def check_buffered(args, got, d, fail):
    """Buffered reads: one 4 KiB request a page without readahead, requests
    of 256 KiB or more on average with 1 MiB of it; read_ahead_kb as set."""
    ra, ra_read = int(args[0]), int(args[1])
    nbytes, requests = got["bytes"], d("read_requests")
    if ra_read != ra:
        fail(f"buffered: read_ahead_kb reads back {ra_read} after {ra} was written")
    if d("read_completions") != requests or d("read_bytes") < nbytes:
        fail(f"buffered ra={ra}: {requests} requests, {d('read_completions')} completions, "
             f"{d('read_bytes')} bytes for {nbytes} read")
    if ra == 0 and requests != nbytes // 4096:
        fail(f"buffered ra=0: {requests} requests, not one per page ({nbytes // 4096})")
    if ra >= 1024 and requests > nbytes // (256 * 1024):
        fail(f"buffered ra={ra}: {requests} requests, more than one per 256 KiB ({nbytes // (256 * 1024)})")


def main(path):
    # the first line follows the firmware's escape sequences on the same line
    lines = [l.rstrip("\r\n").split("@@ ", 1)[1] for l in open(path, errors="replace") if "@@ " in l]
    failures = []
    fail = failures.append
    seen = {"begin": None, "end": None, "windows": None, "tainted": None, "idle_window": None, "tracefs": None}
    errors = []
    ncases = 0
    for line in lines:
        key, _, rest = line.partition(" ")
        if key in ("error", "dmesg"):
            errors.append(rest)
        elif key in seen:
            seen[key] = rest
        elif key == "case":
            what, got, before, after = (p.strip() for p in rest.split("|"))
            kind, *args = what.split()
            got, before, after = fields(got), fields(before), fields(after)
            check = check_direct if kind == "direct" else check_buffered
            check(args, got, lambda name: delta(before, after, name), fail)
            ncases += 1
            print(f"  {what}: {delta(before, after, 'read_requests')} read requests, "
                  f"{delta(before, after, 'read_bytes')} bytes counted")
    failures += health_failures(seen["end"], seen["tainted"], errors)
    end = (seen["end"] or "").split()
    if end and end[0] == "status=0" and seen["begin"]:
        print(f"  guest uptime: {seen['begin'].rsplit('uptime=', 1)[1]} s at the test's start, {end[1][7:]} s at its end")
    if ncases != 7:
        fail(f"{ncases} read cases ran, not 7")
    for key in ("windows", "idle_window", "tracefs"):
        if seen[key] is None:
            fail(f"the guest printed no '@@ {key}' line")
    if seen["windows"] is not None and int(seen["windows"]) < 2:
        fail(f"{seen['windows']} windows closed, fewer than 2 (500 ms windows over several seconds)")
    if seen["idle_window"] is not None and fields(seen["idle_window"]).get("read_requests") != 0:
        fail(f"the window after an idle second is not empty: {seen['idle_window']}")
    if seen["tracefs"] is not None:
        got, before, after = (fields(p) for p in seen["tracefs"].split("|"))
        counted = delta(before, after, "read_requests")
        if not got["reads"] == got["traced_reads"] == counted:
            fail(f"tracefs recorded {got['traced_reads']} read requests, the module {counted}, "
                 f"for the reader's {got['reads']}")
        else:
            print(f"  tracefs: {counted} read requests recorded, as the module counted")
    for f in failures:
        print(f"check_counts: {path}: {f}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
