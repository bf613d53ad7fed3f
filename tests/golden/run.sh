#!/usr/bin/env bash
# Golden outputs: runs every case of cases.sh and compares what spoor printed
# (stdout, stderr, exit code, and the files a case names) with expected/.
#   run.sh check    (the CTest test golden.outputs) fails on any difference
#   run.sh record   rewrites expected/ (only when an output is meant to change;
#                   the commit says which and why)
# Text up to 64 KiB is kept as it is, so a diff shows what moved; larger or
# binary outputs are kept as their size and SHA-256.
set -euo pipefail
MODE=${1:?usage: run.sh check|record}
HERE=$(cd "$(dirname "$0")" && pwd)
: "${SPOOR_BIN:?SPOOR_BIN is not set (run through ctest, or set it to the spoor binary)}"
: "${SPOOR_DATA:?SPOOR_DATA is not set (the shared data folder)}"
SPOOR_BIN=$(cd "$(dirname "$SPOOR_BIN")" && pwd)/$(basename "$SPOOR_BIN")
EXPECTED=$HERE/expected
WORK=$(mktemp -d "${SPOOR_TMP:-/tmp}/golden-XXXXXX")
trap 'rm -rf "$WORK"' EXIT
export TMPDIR=$WORK
IN=$WORK/in GOT=$WORK/got
mkdir -p "$IN" "$GOT"

# Inputs: copies of the shared traces (the suite never writes beside them) and
# generated ones, all made the same way on every machine.
cp "$SPOOR_DATA"/pfw/*.pfw "$SPOOR_DATA"/pfw/*.pfw.gz "$IN/"
cp "$SPOOR_DATA"/iopattern/consolidated_dataset.csv "$IN/iopattern.csv"
"$SPOOR_BIN" gen -o "$IN/gen.pfw.gz" --size-mb 2 --seed 1 --no-truth > /dev/null
"$SPOOR_BIN" gen -o "$IN/gen2.pfw" --size-mb 1 --seed 2 --procs 3 --no-truth > /dev/null
"$SPOOR_BIN" gen --kind metrics -o "$IN/metrics.csv" --rows 3000 --nodes 4 --interval 600 --missing 0.02 > /dev/null
"$SPOOR_BIN" gen --kind cascade -o "$IN/cascade.jsonl" --records 3000 > /dev/null
printf '%s\n' "123456789 12:04:31 4242 python3 0 swapper/3 nvme0n1 R 2048 4096 15000" \
    "123456999 12:04:31 4242 python3 0 swapper/3 nvme0n1 W 4096 8192 22000" > "$IN/bio.out"
printf '%s\n' "qwe rty uiop" "asdf ghjkl, zx" > "$IN/text.txt"
rm -f "$IN"/*.truth.json

# One output as kept: the text, or its size and SHA-256.
keep() {
    local path=$1
    if [ "$(stat -c %s "$path")" -le 65536 ] && ! grep -qP '\x00' "$path" 2>/dev/null; then
        # how long training took is the one output that varies run to run
        sed -E "s|$WORK|@WORK@|g; s/(trained in) [0-9.]+ (ms|s)/\\1 @TIME@/; s/(\"train_ms\": )[0-9.e+-]+/\\1@TIME@/" "$path"
    else
        echo "(binary or large: $(stat -c %s "$path") bytes, sha256 $(sha256sum < "$path" | cut -d' ' -f1))"
    fi
}

# golden NAME ARGS...: spoor ARGS in the inputs folder.
# shellcheck disable=SC2317
golden() {
    local name=$1
    shift
    local out=$GOT/$name
    set +e
    (cd "$IN" && "$SPOOR_BIN" "$@" > "$out.stdout" 2> "$out.stderr")
    local rc=$?
    set -e
    { echo "# spoor $*"; echo "# exit $rc"; echo "# stdout"; keep "$out.stdout"; echo "# stderr"; keep "$out.stderr"; } \
        > "$out.txt"
    rm -f "$out.stdout" "$out.stderr"
}

# golden_file NAME PATH: a file the case NAME wrote, appended to its record.
# shellcheck disable=SC2317
golden_file() {
    { echo "# file $2"; if [ -e "$IN/$2" ]; then keep "$IN/$2"; else echo "(missing)"; fi; } >> "$GOT/$1.txt"
}

# shellcheck source=cases.sh
. "$HERE/cases.sh"

if [ "$MODE" = record ]; then
    rm -rf "$EXPECTED"
    mkdir -p "$EXPECTED"
    cp "$GOT"/*.txt "$EXPECTED/"
    echo "recorded $(ls "$EXPECTED" | wc -l) cases in $EXPECTED"
    exit 0
fi
bad=0
for want in "$EXPECTED"/*.txt; do
    name=$(basename "$want")
    if [ ! -e "$GOT/$name" ]; then
        echo "FAIL: case ${name%.txt} is expected but cases.sh no longer runs it"
        bad=$((bad + 1))
    elif ! cmp -s "$want" "$GOT/$name"; then
        echo "FAIL: case ${name%.txt} differs (run.sh record to accept):"
        diff "$want" "$GOT/$name" | head -20
        bad=$((bad + 1))
    fi
done
for got in "$GOT"/*.txt; do
    [ -e "$EXPECTED/$(basename "$got")" ] || { echo "FAIL: case $(basename "${got%.txt}") has no expected output (run.sh record)"; bad=$((bad + 1)); }
done
total=$(ls "$GOT" | wc -l)
[ "$bad" -eq 0 ] || { echo "$bad of $total golden cases differ"; exit 1; }
echo "$total golden cases identical"
