"""Compares `spoor series --format json` output with a `spoor gen --kind metrics`
truth sidecar: every section of the truth must be in the output, row for row.
Counts, means, minima, maxima and headroom must be equal to the last bit (the
generator's values make them exact); deviations and correlations, which
depend on the order of summation, within 1e-9 relative."""
import json
import math
import sys

APPROX = {"std", "r"}


def same(key, want, got, approx):
    if want is None or got is None:
        return want is None and got is None
    if isinstance(want, str) or not (approx or key in APPROX):
        return want == got
    return math.isclose(want, got, rel_tol=1e-9, abs_tol=1e-12)


def main(truth_path, out_path, *sections):
    truth = json.load(open(truth_path))
    out = json.load(open(out_path))
    problems = []
    if out["rows"] != truth["rows"]:
        problems.append(f"rows: want {truth['rows']}, got {out['rows']}")
    skipped = sum(i["skipped"] for i in out["inputs"])
    if skipped != truth["skipped"]:
        problems.append(f"skipped: want {truth['skipped']}, got {skipped}")
    for name in sections:
        want, got = truth[name], out.get(name)
        if got is None or len(got) != len(want):
            problems.append(f"{name}: want {len(want)} rows, got {None if got is None else len(got)}")
            continue
        for i, (w, g) in enumerate(zip(want, got)):
            for key, value in w.items():
                if key not in g or not same(key, value, g[key], name == "corr"):
                    problems.append(f"{name}[{i}].{key}: want {value!r}, got {g.get(key)!r}")
    for p in problems[:20]:
        print("FAIL:", p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
