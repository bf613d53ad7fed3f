"""What every VM test requires of its guest, from the "@@ " lines it
printed on the console: the guest test ended with status 0, reported no
error, the kernel logged no WARNING, BUG or Oops, and the kernel is tainted
only as by an unsigned out-of-tree module (flags O and E; any other, such as
W for a warning or D for an oops, is a failure)."""

ALLOWED_TAINT = (1 << 12) | (1 << 13)


def health_failures(end, tainted, errors):
    """end: the text after "@@ end" (None: no such line); tainted: after
    "@@ tainted"; errors: the texts of "@@ error" and "@@ dmesg" lines.
    Returns the failures, as sentences."""
    out = [f"guest: {e}" for e in errors]
    words = (end or "").split()
    if not words or words[0] != "status=0":
        out.append(f"the guest test ended with {end or 'nothing (it did not finish)'}")
    if tainted is None or int(tainted) & ~ALLOWED_TAINT:
        out.append(f"the kernel's taint is {tainted}: more than an unsigned out-of-tree module")
    return out
