#!/usr/bin/env python3
"""Checks that src/util/parallel.c is the one file in src/ and tools/ that
starts threads: no other file there may call pthread_create (comments and
strings aside). Its parallel for and thread group are what the rest uses
(see src/util/parallel.h).

usage: check_threads.py [ROOT]       check the tree at ROOT (default: this repo)
       check_threads.py --self-test  check that a copy of this tree with a
                                     pthread_create call added fails the check
Prints one line per offending file and exits 1 if there is any."""

import os
import re
import shutil
import subprocess
import sys
import tempfile

SCANNED = ("src", "tools")
ALLOWED = "src/util/parallel.c"
COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')
CALL = re.compile(r"\bpthread_create\b")


def source_files(root):
    for top in SCANNED:
        for dirpath, _, names in os.walk(os.path.join(root, top)):
            for name in sorted(names):
                if name.endswith((".c", ".h")):
                    yield os.path.relpath(os.path.join(dirpath, name), root)


def check(root):
    problems = []
    for f in sorted(source_files(root)):
        if f == ALLOWED:
            continue
        with open(os.path.join(root, f), encoding="utf-8", errors="replace") as fh:
            # Comments keep their line breaks, so lines are counted as written.
            code = STRING.sub('""', COMMENT.sub(lambda m: "\n" * m.group().count("\n"), fh.read()))
        for m in CALL.finditer(code):
            line = code.count("\n", 0, m.start()) + 1
            problems.append(f"{f}:{line}: pthread_create outside {ALLOWED}: use util/parallel.h")
    return problems


def self_test():
    """Copies the tree, adds a pthread_create call to a file of tools/ (a
    mention in a comment and a string beside it), and expects the check to
    name that file's line of the call and nothing else."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if check(root):
        sys.exit("self-test: the tree itself does not pass; run check_threads.py")
    with tempfile.TemporaryDirectory() as tmp:
        for top in SCANNED:
            shutil.copytree(os.path.join(root, top), os.path.join(tmp, top))
        victim = next(f for f in sorted(source_files(tmp)) if f.startswith("tools/") and f.endswith(".c"))
        with open(os.path.join(tmp, victim), encoding="utf-8") as f:
            lines = f.read().count("\n")
        with open(os.path.join(tmp, victim), "a") as f:
            f.write('/* pthread_create */ static const char *self_test_name = "pthread_create";\n'
                    "void spoor_self_test_thread(void) { pthread_create(0, 0, 0, 0); }\n")
        run = subprocess.run([sys.executable, os.path.abspath(__file__), tmp], capture_output=True, text=True)
        want = f"{victim}:{lines + 2}: pthread_create outside {ALLOWED}: use util/parallel.h\n"
        if run.returncode != 1 or run.stdout != want:
            sys.exit(f"self-test: exit {run.returncode}, wanted exactly {want!r}, got:\n{run.stdout}{run.stderr}")
    print(f"self-test: a pthread_create call in {victim} fails the check")


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
