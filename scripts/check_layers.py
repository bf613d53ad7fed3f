#!/usr/bin/env python3
"""Checks that every #include "..." in src/, include/spoor/ and tools/ goes
down the layer order, so no two layers form a cycle.

The order is the table of docs/design.md after the line MARKER (below), first
row lowest: each row names a layer and its folder. A file under src/<m>/ or
tools/spoor/ belongs to the layer of that folder; a public header
include/spoor/X.h to the layer whose folder defines the functions it declares
(one layer only, or that is a problem too).

usage: check_layers.py [ROOT]       check the tree at ROOT (default: this repo)
       check_layers.py --self-test  check that a copy of this tree with an
                                    include added upward fails the check
Prints one line per problem and exits 1 if there is any."""

import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import defaultdict

DESIGN = "docs/design.md"
MARKER = "<!-- layer order: scripts/check_layers.py reads this table -->"
SCANNED = ("src", "include/spoor", "tools")

INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]+"([^"]+)"', re.M)
COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
# A function definition's name: at the start of a line, not static, its
# parameter list followed by a body rather than by ';'.
DEFINITION = re.compile(r"^(?!static\b)[A-Za-z_][\w \t*]*?\b(\w+)\s*\([^;{]*\)\s*\{", re.M)
DECLARATION = re.compile(r"\b(\w+)\s*\(")


def read(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def layer_order(root):
    """[(layer, folder)] lowest first, from the table after MARKER."""
    lines = read(os.path.join(root, DESIGN)).splitlines()
    if MARKER not in lines:
        sys.exit(f"{DESIGN}: no line '{MARKER}' before the layer table")
    order = []
    for line in lines[lines.index(MARKER) + 1:]:
        if not line.startswith("|"):
            if order:
                break
            continue
        cells = [c.strip() for c in line.strip("|").split("|")]
        folder = cells[1].strip("`") if len(cells) > 1 else ""
        if cells[0] in ("layer", "") or set(cells[0]) <= set("-: "):
            continue
        if not folder.endswith("/"):
            sys.exit(f"{DESIGN}: layer {cells[0]}: second cell should be its folder (`src/{cells[0]}/`)")
        order.append((cells[0], folder))
    if not order:
        sys.exit(f"{DESIGN}: no layer rows after '{MARKER}'")
    return order


def source_files(root):
    for top in SCANNED:
        for dirpath, _, names in os.walk(os.path.join(root, top)):
            for name in sorted(names):
                if name.endswith((".c", ".h")):
                    yield os.path.relpath(os.path.join(dirpath, name), root)


def folder_layer(path, order):
    for layer, folder in order:
        if path.startswith(folder):
            return layer
    return None


def public_header_layers(root, files, order, problems):
    """include/spoor/X.h -> the layer defining its functions."""
    defined = defaultdict(set)
    for f in files:
        layer = folder_layer(f, order)
        if f.endswith(".c") and layer:
            for name in DEFINITION.findall(COMMENT.sub("", read(os.path.join(root, f)))):
                defined[name].add(layer)
    layers = {}
    for f in files:
        if not f.startswith("include/"):
            continue
        names = set(DECLARATION.findall(COMMENT.sub("", read(os.path.join(root, f)))))
        owners = sorted({layer for n in names for layer in defined.get(n, ())},
                        key=[l for l, _ in order].index)
        if len(owners) == 1:
            layers[f] = owners[0]
        elif owners:
            problems.append(f"{f} declares functions of {' and '.join(owners)}: a public header belongs to one layer")
        else:
            problems.append(f"{f}: no function it declares is defined under src/, so it has no layer")
    return layers


def resolve(root, including, name):
    """The tree file an include names, as the compiler finds it, or None
    (generated headers)."""
    here = os.path.dirname(including)
    for base in ([here] if not including.startswith("include/") else []) + ["include", "src", here]:
        path = os.path.normpath(os.path.join(base, name))
        if os.path.isfile(os.path.join(root, path)):
            return path
    return None


def cycle_through(edges, start, goal):
    """A path of layers start -> ... -> goal, or None."""
    seen, todo, back = {start}, [start], {}
    while todo:
        node = todo.pop()
        if node == goal:
            path = [goal]
            while path[-1] != start:
                path.append(back[path[-1]])
            return path[::-1]
        for nxt in sorted(edges[node]):
            if nxt not in seen:
                seen.add(nxt)
                back[nxt] = node
                todo.append(nxt)
    return None


def check(root):
    order = layer_order(root)
    rank = {layer: i for i, (layer, _) in enumerate(order)}
    files = list(source_files(root))
    problems = []
    headers = public_header_layers(root, files, order, problems)

    def layer_of(path):
        return headers.get(path) if path.startswith("include/") else folder_layer(path, order)

    edges = defaultdict(set)
    upward = []
    for f in files:
        a = layer_of(f)
        if a is None:
            if not f.startswith("include/"):
                problems.append(f"{f}: its folder is no layer in {DESIGN}")
            continue
        for name in INCLUDE.findall(read(os.path.join(root, f))):
            target = resolve(root, f, name)
            b = layer_of(target) if target else None
            if b is None or b == a:
                continue
            edges[a].add(b)
            if rank[b] > rank[a]:
                upward.append((f, name, a, b))
    for f, name, a, b in upward:
        problems.append(f"{f} includes {name}: {a} may not include {b}")
    cycles = set()
    for _, _, a, b in upward:
        path = cycle_through(edges, b, a)
        if path and frozenset(path) not in cycles:
            cycles.add(frozenset(path))
            problems.append(f"layers form a cycle: {a} -> {' -> '.join(path)}")
    return problems


def self_test():
    """Copies the tree, adds to the lowest layer's first file an include of a
    header of a higher layer, and expects the check to name that edge."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if check(root):
        sys.exit("self-test: the tree itself does not pass; run check_layers.py")
    with tempfile.TemporaryDirectory() as tmp:
        for top in SCANNED + ("docs",):
            shutil.copytree(os.path.join(root, top), os.path.join(tmp, top))
        order = layer_order(tmp)
        files = list(source_files(tmp))
        low, low_folder = order[0]
        victim = next(f for f in files if f.startswith(low_folder) and f.endswith(".c"))
        # The highest layer under src/ with a header of its own.
        high, header = next((layer, f) for layer, folder in reversed(order) if folder.startswith("src/")
                            for f in files if f.startswith(folder) and f.endswith(".h"))
        name = os.path.relpath(header, "src")
        with open(os.path.join(tmp, victim), "a") as f:
            f.write(f'#include "{name}"\n')
        run = subprocess.run([sys.executable, os.path.abspath(__file__), tmp], capture_output=True, text=True)
        want = [f"{victim} includes {name}: {low} may not include {high}", f"layers form a cycle: {low} -> {high}"]
        missing = [w for w in want if w not in run.stdout]
        if run.returncode == 0 or missing:
            sys.exit(f"self-test: exit {run.returncode}, output lacks {missing}:\n{run.stdout}{run.stderr}")
    print(f"self-test: an include of {name} from {victim} fails the check")


def main():
    if sys.argv[1:] == ["--self-test"]:
        self_test()
        return
    if sys.argv[1:] in (["-h"], ["--help"]):
        print(__doc__)
        return
    if len(sys.argv) > 2 or sys.argv[1:2] and sys.argv[1].startswith("-"):
        sys.exit(__doc__)
    root = sys.argv[1] if len(sys.argv) == 2 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    problems = check(root)
    for p in problems:
        print(p)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
