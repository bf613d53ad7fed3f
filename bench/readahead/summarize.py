"""The table of bench/readahead/run.sh, from the VM's console: for each
pattern, each setting's median guest time over the rounds and its ratio to
the default readahead's, the best fixed setting, and the exact read requests
and bytes the disk served (/sys/block/vda/stat).

    summarize.py CONSOLE DEFAULT_KB > table.md"""
import statistics
import sys


def parse(path):
    runs, errors = [], []
    for line in open(path, errors="replace"):
        if "@@ " not in line:
            continue
        words = line.rstrip("\r\n").split("@@ ", 1)[1].split()
        if words[0] == "run":
            runs.append(dict(w.split("=", 1) for w in words[1:] if "=" in w))
        elif words[0] in ("error", "dmesg"):
            errors.append(" ".join(words))
        elif words[0] == "tainted" and int(words[1]) & ~((1 << 12) | (1 << 13)):
            errors.append(f"the kernel's taint is {words[1]}")
    return runs, errors


def main(console, default_kb):
    runs, errors = parse(console)
    for e in errors:
        print(f"readahead: {e}", file=sys.stderr)
    if errors or not runs:
        return 1
    default = f"fixed:{default_kb}"
    rounds = len({r["round"] for r in runs})
    print(f"Medians of {rounds} rounds; each round runs every setting on the same work (vmload's seed = the round).")
    print("Times are guest time under TCG: compare within a row group, not across machines. Requests and bytes are")
    print("the disk's own counts (/sys/block/vda/stat).\n")
    print("| pattern | setting | time (ms) | vs default | read requests | mean request (KiB) | MiB read | MiB asked |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for pattern in dict.fromkeys(r["pattern"] for r in runs):
        mine = [r for r in runs if r["pattern"] == pattern]
        by = {}
        for r in mine:
            by.setdefault(r["setting"], []).append(r)
        med = {s: statistics.median(int(r["elapsed_ns"]) for r in rs) for s, rs in by.items()}
        fixed = [s for s in by if s.startswith("fixed:")]
        best = min(fixed, key=lambda s: med[s]) if fixed else None
        # fixed settings by size, then the tuner and the module
        order = sorted(fixed, key=lambda s: int(s.split(":")[1])) + [s for s in by if s not in fixed]
        for s in order:
            rs = by[s]
            reads = statistics.median(int(r["reads"]) for r in rs)
            sectors = statistics.median(int(r["sectors"]) for r in rs)
            asked = statistics.median(int(r["bytes"]) for r in rs)
            ratio = f"{med[s] / med[default]:.2f}" if default in med else "-"
            name = s + (" (best fixed)" if s == best else "") + (" (default)" if s == default else "")
            if s in ("tuner", "module"):
                sets = statistics.median(int(r.get("sets", 0)) for r in rs)
                name += f", ends at {statistics.median(int(r['ra_end']) for r in rs):g} KiB, {sets:g} sets"
            size = sectors * 512 / reads / 1024 if reads else 0
            print(f"| {pattern} | {name} | {med[s] / 1e6:.0f} | {ratio} | {reads:g} | {size:.1f} | "
                  f"{sectors * 512 / 2**20:.1f} | {asked / 2**20:.1f} |")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: summarize.py CONSOLE DEFAULT_KB")
    sys.exit(main(sys.argv[1], sys.argv[2]))
