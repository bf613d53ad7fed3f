"""What the bench/*/report.py scripts share: reading a run.sh results directory
(bench/lib.sh's files) and the lines every report prints.

Results(res): text(name) a file's stripped text; median(key) and cpu(key)
from hyperfine's KEY.json; paired(a, b) from time_pair's KEY.times; rss_mb(key)
from KEY.rss (peak KB); check(ok) PASS
or FAIL, counting the failures in .failed; load_line(rest) the machine and load
line; verdict() the closing line."""
import json
import os
import statistics


class Results:
    def __init__(self, res):
        self.res = res
        self.failed = 0

    def path(self, name):
        return os.path.join(self.res, name)

    def text(self, name, default="?"):
        try:
            with open(self.path(name)) as f:
                return f.read().strip()
        except OSError:
            return default

    def hyperfine(self, key):
        try:
            with open(self.path(key + ".json")) as f:
                return json.load(f)["results"][0]
        except (OSError, KeyError, IndexError, ValueError):
            return None

    def median(self, key):
        """Median wall seconds of KEY's runs."""
        r = self.hyperfine(key)
        return statistics.median(r["times"]) if r else None

    def cpu(self, key):
        """Mean user + system seconds of KEY's runs (hyperfine keeps only the
        means): what the runs cost the machine, steadier than wall time when
        other work shares the cores."""
        r = self.hyperfine(key)
        return r["user"] + r["system"] if r else None

    def paired(self, a, b):
        """From time_pair's alternating runs: the median wall seconds of a and of
        b, and the medians of b / a per round, by wall and by CPU (user +
        system); None when either is missing."""
        try:
            with open(self.path(a + ".times")) as fa, open(self.path(b + ".times")) as fb:
                runs = [([float(x) for x in ra.split()], [float(x) for x in rb.split()]) for ra, rb in zip(fa, fb)]
        except (OSError, ValueError):
            return None
        if not runs:
            return None
        return {
            "wall_a": statistics.median(ra[0] for ra, _ in runs),
            "wall_b": statistics.median(rb[0] for _, rb in runs),
            "wall_ratio": statistics.median(rb[0] / ra[0] for ra, rb in runs),
            "cpu_a": statistics.median(ra[1] + ra[2] for ra, _ in runs),
            "cpu_b": statistics.median(rb[1] + rb[2] for _, rb in runs),
            "cpu_ratio": statistics.median((rb[1] + rb[2]) / (ra[1] + ra[2]) for ra, rb in runs),
        }

    def rss_mb(self, key):
        kb = self.text(key + ".rss", "")
        return int(kb.splitlines()[-1]) / 1024 if kb else None

    def check(self, ok):
        self.failed += not ok
        return "PASS" if ok else "FAIL"

    def load_line(self, rest, cores=None, load="load average"):
        """The machine (CORES: os.cpu_count() unless given) and the load at the
        start and end of the run, then REST."""
        return (f"- machine: {os.uname().machine}, {cores or os.cpu_count()} cores; {load} "
                f"{self.text('load_start')} at the start, {self.text('load_end')} at the end; {rest}")

    def verdict(self):
        return f"{self.failed} check(s) FAILED" if self.failed else "all checks PASS"
