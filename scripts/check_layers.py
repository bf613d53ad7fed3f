#!/usr/bin/env python3
"""Checks that no dependency in src/ and tools/ goes up the layer order, so no
two layers form a cycle: every #include of a private header (src/<m>/X.h) goes
down, and no function is called from a layer below the one defining it.
Also that src/util/parallel.c, the lowest layer's thread helper, is the one
file in src/ and tools/ that starts threads (calls pthread_create), and that
src/features/, which the kernel module compiles too, includes no header but
<stdint.h>, <stdbool.h>, <linux/types.h> and its own.

The order is the table of docs/design.md after the line MARKER (below), first
row lowest: each row names a layer and its folder. A file under src/<m>/ or
tools/spoor/ belongs to the layer of that folder. A public header
include/spoor/X.h is the library's API and may gather the functions of several
layers (load.h: io, table and read), so including it is allowed anywhere; what
it must not do is let a lower layer call into a higher one, which the call
check catches. Each public header must declare some function defined under src/.

usage: check_layers.py [ROOT]       check the tree at ROOT (default: this repo)
       check_layers.py --self-test  check that a copy of this tree with an
                                    include and a call added upward and a
                                    pthread_create call fails the check
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
# Any definition, static too: a file's own names shadow other layers' ones.
LOCAL_DEFINITION = re.compile(r"^[A-Za-z_][\w \t*]*?\b(\w+)\s*\([^;{]*\)\s*\{", re.M)
STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')
THREADS = "src/util/parallel.c"
THREAD_START = re.compile(r"\bpthread_create\s*\(")
# The kernel module compiles src/features/ too: no header but these (and the folder's own).
FREESTANDING = "src/features/"
FREESTANDING_HEADERS = ("stdbool.h", "stdint.h", "linux/types.h")
SYSTEM_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]+<([^>]+)>', re.M)


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


def defining_layers(root, files, order):
    """function name -> the layers whose folders define it (not static)."""
    defined = defaultdict(set)
    for f in files:
        layer = folder_layer(f, order)
        if f.endswith(".c") and layer:
            for name in DEFINITION.findall(COMMENT.sub("", read(os.path.join(root, f)))):
                defined[name].add(layer)
    return defined


def check_public_headers(root, files, defined, problems):
    for f in files:
        if not f.startswith("include/"):
            continue
        names = set(DECLARATION.findall(COMMENT.sub("", read(os.path.join(root, f)))))
        if not any(n in defined for n in names):
            problems.append(f"{f}: no function it declares is defined under src/")


def upward_calls(root, files, order, rank, defined):
    """[(file, function, its layer, the defining layer)] for every call from a
    file to a function only a higher layer defines."""
    calls = []
    for f in files:
        a = folder_layer(f, order)
        if a is None:
            continue
        code = STRING.sub('""', COMMENT.sub("", read(os.path.join(root, f))))
        own = set(LOCAL_DEFINITION.findall(code))
        for name in sorted(set(DECLARATION.findall(code)) - own):
            owners = defined.get(name)
            if owners and a not in owners and min(rank[o] for o in owners) > rank[a]:
                calls.append((f, name, a, min(owners, key=rank.get)))
    return calls


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


def thread_starts(root, files):
    """Problems for every pthread_create call outside THREADS, by line."""
    problems = []
    for f in files:
        if f == THREADS or f.startswith("include/"):
            continue
        # Comments keep their line breaks, so lines count as written.
        text = COMMENT.sub(lambda m: "\n" * m.group().count("\n"), read(os.path.join(root, f)))
        code = STRING.sub('""', text)
        for m in THREAD_START.finditer(code):
            line = code.count("\n", 0, m.start()) + 1
            problems.append(f"{f}:{line}: calls pthread_create(): only {THREADS} starts threads (util/parallel.h)")
    return problems


def freestanding_includes(root, files):
    """Problems for every system header a FREESTANDING file includes beyond
    FREESTANDING_HEADERS, and every header outside its folder."""
    problems = []
    for f in files:
        if not f.startswith(FREESTANDING):
            continue
        text = read(os.path.join(root, f))
        for name in SYSTEM_INCLUDE.findall(text):
            if name not in FREESTANDING_HEADERS:
                problems.append(f"{f} includes <{name}>: {FREESTANDING} builds in the kernel too, with "
                                f"{', '.join(FREESTANDING_HEADERS)} only")
        for name in INCLUDE.findall(text):
            if "/" in name:
                problems.append(f'{f} includes "{name}": {FREESTANDING} includes only its own headers')
    return problems


def check(root):
    order = layer_order(root)
    rank = {layer: i for i, (layer, _) in enumerate(order)}
    files = list(source_files(root))
    problems = []
    defined = defining_layers(root, files, order)
    check_public_headers(root, files, defined, problems)

    edges = defaultdict(set)
    upward = []
    for f in files:
        a = folder_layer(f, order)
        if a is None:
            if not f.startswith("include/"):
                problems.append(f"{f}: its folder is no layer in {DESIGN}")
            continue
        for name in INCLUDE.findall(read(os.path.join(root, f))):
            target = resolve(root, f, name)
            b = folder_layer(target, order) if target else None
            if b is None or b == a:
                continue
            edges[a].add(b)
            if rank[b] > rank[a]:
                upward.append((f, name, a, b))
    for f, name, a, b in upward:
        problems.append(f"{f} includes {name}: {a} may not include {b}")
    for f, name, a, b in upward_calls(root, files, order, rank, defined):
        edges[a].add(b)
        upward.append((f, name, a, b))
        problems.append(f"{f} calls {name}(): {a} may not call {b}")
    cycles = set()
    for _, _, a, b in upward:
        path = cycle_through(edges, b, a)
        if path and frozenset(path) not in cycles:
            cycles.add(frozenset(path))
            problems.append(f"layers form a cycle: {a} -> {' -> '.join(path)}")
    return problems + thread_starts(root, files) + freestanding_includes(root, files)


def self_test():
    """Copies the tree, adds to the lowest layer's first file an include of a
    private header of a higher layer and a call to a function of that layer,
    to the first file of tools/ a pthread_create call (beside mentions in
    a comment and a string, which do not count), and to the first file of
    src/features/ an include of <stdlib.h>, and expects the check to name
    both edges, the call's line and the include."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if check(root):
        sys.exit("self-test: the tree itself does not pass; run check_layers.py")
    with tempfile.TemporaryDirectory() as tmp:
        for top in SCANNED + ("docs",):
            shutil.copytree(os.path.join(root, top), os.path.join(tmp, top))
        order = layer_order(tmp)
        files = list(source_files(tmp))
        # the lowest layer that others build on (features is below all, but on its own)
        low, low_folder = next(layer for layer in order if layer[1] != FREESTANDING)
        victim = next(f for f in files if f.startswith(low_folder) and f.endswith(".c"))
        # The highest layer under src/ with a header of its own.
        high, header = next((layer, f) for layer, folder in reversed(order) if folder.startswith("src/")
                            for f in files if f.startswith(folder) and f.endswith(".h"))
        name = os.path.relpath(header, "src")
        callee = sorted(n for n, layers in defining_layers(tmp, files, order).items() if layers == {high})[0]
        with open(os.path.join(tmp, victim), "a") as f:
            f.write(f'#include "{name}"\nvoid spoor_self_test_upward(void) {{ {callee}(); }}\n')
        kernel_side = next(f for f in files if f.startswith(FREESTANDING) and f.endswith(".c"))
        with open(os.path.join(tmp, kernel_side), "a") as f:
            f.write("#include <stdlib.h>\n")
        starter = next(f for f in files if f.startswith("tools/") and f.endswith(".c"))
        line = read(os.path.join(tmp, starter)).count("\n") + 2
        with open(os.path.join(tmp, starter), "a") as f:
            f.write('/* pthread_create( */ static const char *self_test = "pthread_create(";\n'
                    "void spoor_self_test_thread(void) { pthread_create(0, 0, 0, 0); }\n")
        run = subprocess.run([sys.executable, os.path.abspath(__file__), tmp], capture_output=True, text=True)
        want = [f"{victim} includes {name}: {low} may not include {high}", f"layers form a cycle: {low} -> {high}",
                f"{victim} calls {callee}(): {low} may not call {high}",
                f"{starter}:{line}: calls pthread_create(): only {THREADS} starts threads (util/parallel.h)"]
        want.append(f"{kernel_side} includes <stdlib.h>: {FREESTANDING} builds in the kernel too")
        missing = [w for w in want if w not in run.stdout]
        if run.returncode == 0 or missing:
            sys.exit(f"self-test: exit {run.returncode}, output lacks {missing}:\n{run.stdout}{run.stderr}")
        if run.stdout.count("pthread_create") != 1:
            sys.exit(f"self-test: the mentions of pthread_create in a comment or a string count:\n{run.stdout}")
    print(f"self-test: an include of {name} and a call of {callee}() from {victim}, a pthread_create call"
          f" in {starter} and <stdlib.h> in {kernel_side} fail the check")


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
