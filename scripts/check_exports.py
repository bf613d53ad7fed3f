#!/usr/bin/env python3
"""Checks that libspoor.so exports exactly its API: the functions and data
declared in include/spoor/*.h. The library is built with -fvisibility=hidden
and every public declaration carries SPOOR_API (include/spoor/error.h), so
the two sets differ only by a mistake, named in either direction:
  - exported but declared in no public header: a private symbol leaking out;
  - declared but not exported: a declaration without SPOOR_API (or with no
    definition in the library).
Symbols whose names start with '_' belong to the toolchain (C reserves them)
and are left out: _init, _fini, the sanitizers' __asan_*, ...

usage: check_exports.py LIB INCLUDE_DIR   compare `nm -D --defined-only LIB`
                                          with the declarations in INCLUDE_DIR/*.h
       check_exports.py --self-test CC   check that a library built by CC from a
                                          copy of error.h and src/util/error.c, with
                                          one marker dropped and one private
                                          function marked, fails the check
Prints one line per problem and exits 1 if there is any."""

import os
import re
import shutil
import subprocess
import sys
import tempfile

COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
# Preprocessor lines, with their backslash continuations.
DIRECTIVE = re.compile(r"^[ \t]*#(?:[^\n]*\\\n)*[^\n]*", re.M)
ATTRIBUTE = re.compile(r"__attribute__\s*\(\(")
# A file-scope function pointer: `int (*name)(...)` declares data named name.
POINTER = re.compile(r"^[^(]*\(\s*\*\s*(\w+)\s*\)")
IDENTIFIER = re.compile(r"[A-Za-z_]\w*")


def drop_balanced(text, start_pattern, open_ch, close_ch):
    """text without every match of start_pattern and what follows it up to the
    bracket that closes the one it opened."""
    out, pos = [], 0
    for m in start_pattern.finditer(text):
        if m.start() < pos:
            continue
        out.append(text[pos:m.start()])
        depth, i = 1, m.end()
        while depth and i < len(text):
            depth += {open_ch: 1, close_ch: -1}.get(text[i], 0)
            i += 1
        pos = i
    out.append(text[pos:])
    return "".join(out)


def file_scope_statements(code):
    """The statements at file scope, brace blocks (struct bodies, inline
    function bodies) cut out; an inline function's definition is dropped."""
    statements, current, depth = [], [], 0
    for ch in code:
        if ch == "{":
            depth += 1
            if depth == 1:
                current.append("{}")
        elif ch == "}":
            depth -= 1
            # A function body ends its statement without a ';'.
            if depth == 0 and re.search(r"\)\s*\{\}$", "".join(current)):
                current = []
        elif depth == 0 and ch == ";":
            statements.append(" ".join("".join(current).split()))
            current = []
        elif depth == 0:
            current.append(ch)
    return statements


def declared_names(text):
    """The functions and the extern data a header declares."""
    code = DIRECTIVE.sub("", COMMENT.sub("", text))
    code = drop_balanced(code, ATTRIBUTE, "(", ")")
    names = set()
    for s in file_scope_statements(code):
        if not s or s.startswith("typedef") or "{}" in s:
            continue
        pointer = POINTER.match(s)
        extern = re.search(r"\bextern\b", s)
        if pointer and extern:
            names.add(pointer.group(1))
        elif "(" in s and not pointer:
            names.add(IDENTIFIER.findall(s[:s.index("(")])[-1])
        elif extern:
            names.add(IDENTIFIER.findall(re.sub(r"\[.*", "", s))[-1])
    return names


def exported_names(lib):
    run = subprocess.run(["nm", "-D", "--defined-only", lib], capture_output=True, text=True)
    if run.returncode:
        sys.exit(f"nm -D {lib} failed: {run.stderr.strip()}")
    names = (line.split()[-1] for line in run.stdout.splitlines() if line.strip())
    return {n.split("@")[0] for n in names if not n.startswith("_")}


def check(lib, include_dir):
    declared = {}
    for name in sorted(os.listdir(include_dir)):
        if name.endswith(".h"):
            with open(os.path.join(include_dir, name), encoding="utf-8") as f:
                for symbol in declared_names(f.read()):
                    declared.setdefault(symbol, name)
    exported = exported_names(lib)
    problems = [f"{lib}: exports {n}, which no header in {include_dir} declares (make it static, or "
                f"declare it in a private header under src/ without SPOOR_API)"
                for n in sorted(exported - set(declared))]
    problems += [f"{include_dir}/{declared[n]}: declares {n}, which {lib} does not export "
                 f"(SPOOR_API missing, or no definition)" for n in sorted(set(declared) - exported)]
    return problems


def self_test(cc):
    """Builds a small shared library as CMakeLists.txt builds libspoor (hidden
    by default) from copies of error.h and its source: it must pass as it is,
    then fail naming both planted mistakes."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with tempfile.TemporaryDirectory() as tmp:
        include = os.path.join(tmp, "include", "spoor")
        os.makedirs(include)
        shutil.copy(os.path.join(root, "include", "spoor", "error.h"), include)
        source = os.path.join(tmp, "error.c")
        shutil.copy(os.path.join(root, "src", "util", "error.c"), source)
        lib = os.path.join(tmp, "libmini.so")

        def build():
            subprocess.run([cc, "-shared", "-fPIC", "-fvisibility=hidden", "-I", os.path.join(tmp, "include"),
                            "-o", lib, source], check=True)
            return check(lib, include)

        problems = build()
        if problems:
            sys.exit("self-test: the unchanged copy fails:\n" + "\n".join(problems))
        header = os.path.join(include, "error.h")
        with open(header) as f:
            text = f.read()
        unmarked = "void spoor_error_clear("
        if "SPOOR_API " + unmarked not in text:
            sys.exit(f"self-test: error.h has no 'SPOOR_API {unmarked}' to unmark")
        with open(header, "w") as f:
            f.write(text.replace("SPOOR_API " + unmarked, unmarked))
        with open(source, "a") as f:
            f.write("SPOOR_API int spoor_self_test_private(void) { return 0; }\n")
        problems = build()
        want = ["exports spoor_self_test_private, which no header", "declares spoor_error_clear, which"]
        missing = [w for w in want if not any(w in p for p in problems)]
        if missing:
            sys.exit(f"self-test: output lacks {missing}:\n" + "\n".join(problems))
    print("self-test: a private function marked SPOOR_API and spoor_error_clear() unmarked fail the check")


def main():
    args = sys.argv[1:]
    if len(args) == 2 and args[0] == "--self-test":
        self_test(args[1])
        return
    if len(args) != 2 or args[0].startswith("-"):
        sys.exit(__doc__)
    problems = check(*args)
    for p in problems:
        print(p)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
