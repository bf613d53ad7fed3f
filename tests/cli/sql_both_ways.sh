# The native SQL path against SQLite on every query the tests use: the SQL
# text in tests/cli/sql*.sh and tests/unit/test_sql*.c (C string literals,
# adjacent ones joined; quoted shell strings and -f heredocs; printf
# templates left out) is run by spoor sql as it comes, on the shared traces
# the queries were written for; each that takes the native path (--explain-path)
# is run again with --no-native (all in SQLite), and output, errors and exit
# status must be the same bytes (in CSV and JSON; the table and JSON lines too
# for the first few). The others ran in SQLite already. Queries meant for a test's own table fail on these (no such
# column), in SQLite.
source "$(dirname "$0")/lib/common.sh"
need_data

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$WORK/cache"

/usr/bin/python3 - "$SPOOR_BIN" "$ROOT" "$WORK" "$SPOOR_DATA" <<'PY' || fail "the native path and SQLite differ"
import glob, os, re, subprocess, sys

spoor, root, work, data = sys.argv[1:]

def c_literal(body):
    """The bytes of a C string literal's body, as UTF-8 text."""
    out = bytearray()
    for m in re.finditer(r'\\(x[0-9a-fA-F]{2}|.)|([^\\]+)', body, re.S):
        if m.group(2) is not None:
            out += m.group(2).encode()
        elif m.group(1)[0] == 'x':
            out.append(int(m.group(1)[1:], 16))
        else:
            out += {'n': b'\n', 't': b'\t'}.get(m.group(1), m.group(1).encode())
    return out.decode('utf-8', 'replace')

queries = []
def add(q):
    q = q.strip()
    if re.match(r'(--[^\n]*\n\s*)*(SELECT|WITH|EXPLAIN|CREATE)\b', q, re.I) and q not in queries:
        queries.append(q)

for path in sorted(glob.glob(os.path.join(root, 'tests/unit/test_sql*.c'))):
    text = re.sub(r'/\*.*?\*/', ' ', open(path, encoding='utf-8').read(), flags=re.S)
    for run in re.finditer(r'"(?:[^"\\\n]|\\.)*"(?:\s*"(?:[^"\\\n]|\\.)*")*', text):
        q = ''.join(c_literal(b) for b in re.findall(r'"((?:[^"\\\n]|\\.)*)"', run.group(0)))
        if not re.search(r'%(lld|zu|u\b|s\b(?! ?%)|s%s)', q):   # printf templates: filled in at run time
            add(q)
for path in sorted(glob.glob(os.path.join(root, 'tests/cli/sql*.sh'))):
    if os.path.basename(path) == 'sql_both_ways.sh':
        continue
    text = open(path, encoding='utf-8').read()
    for m in re.finditer(r'"((?:[^"\\]|\\.)*)"', text):
        add(re.sub(r'\\(["\\$`])', r'\1', m.group(1)))
    for m in re.finditer(r"<<'SQL'\n(.*?)\nSQL\n", text, re.S):
        add(m.group(1))
assert len(queries) >= 100, f"only {len(queries)} queries found: the extraction broke"

params = ['--param', 'n=open64', '--param', "evil=x' OR 1=1 --", '--param', 'i=42', '--param', 'r=1.5',
          '--param', 't=text', '--param', 'big=99999999999999999999']
traces = {
    'shared': [f'{data}/pfw/dftracer-dlio-pytorch-2023.pfw.gz', f'{data}/pfw/dftracer-cm1-2024-rank0.pfw.gz'],
}

def run(paths, query, fmt, native):
    cmd = [spoor, 'sql', '--no-progress', '--cache-dir', f'{work}/cache', '--format', fmt, '--explain-path',
           *params, *paths, query]
    if not native:
        cmd.insert(2, '--no-native')
    p = subprocess.run(cmd, capture_output=True)
    explain = [l for l in p.stderr.split(b'\n') if l.startswith(b'spoor sql: path: ')]
    errors = [l for l in p.stderr.split(b'\n') if not l.startswith(b'spoor sql: path: ')]
    ran_native = any(l == b'spoor sql: path: native' for l in explain)
    return (p.returncode, p.stdout, errors), ran_native

failed = []
for name, paths in traces.items():
    native_count = 0
    for q in queries:
        # A statement the native path declines runs in SQLite either way: only
        # those it takes have two answers to compare.
        a, ran_native = run(paths, q, 'csv', True)
        if not ran_native:
            continue
        native_count += 1
        # CSV and JSON show every value and its type; the table and JSON lines
        # renderers are the same for both paths, so a few queries check them.
        formats = ('csv', 'json', 'table', 'jsonl') if native_count <= 5 else ('csv', 'json')
        for fmt in formats:
            if fmt != 'csv':
                a, _ = run(paths, q, fmt, True)
            b, _ = run(paths, q, fmt, False)
            if a != b:
                failed.append(f'{name}, {fmt}: {q}\n  native: {repr(a)[:400]}\n  sqlite: {repr(b)[:400]}')
    print(f'{name}: {len(queries)} queries, {native_count} ran natively and were compared with SQLite')
    # The comparison means something only if many queries take the native path.
    assert native_count >= 30, f'{name}: only {native_count} queries ran natively'
for f in failed:
    print(f, file=sys.stderr)
sys.exit(1 if failed else 0)
PY
echo ok
