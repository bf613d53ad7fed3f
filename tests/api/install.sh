# libspoor as a client sees it: `cmake --install` into a scratch prefix, then
# tests/api/count_events.c built with nothing but `pkg-config ... spoor`
# (shared, then static) counts the events of a small trace made here. Also
# checks the layout: the CLI, libspoor.so with its SONAME, libspoor.a and the
# public headers.
# usage: install.sh BUILD_DIR   (CC and SPOOR_CLIENT_FLAGS from ctest)
set -euo pipefail
BUILD=$1
HERE=$(cd "$(dirname "$0")" && pwd)
SPOOR_TMP=${SPOOR_TMP:-/tmp}
mkdir -p "$SPOOR_TMP"
WORK=$(mktemp -d "$SPOOR_TMP/api-XXXXXX")
trap 'rm -rf "$WORK"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

PREFIX=$WORK/prefix
cmake --install "$BUILD" --prefix "$PREFIX" > "$WORK/install.log" || fail "cmake --install failed: $(cat "$WORK/install.log")"
LIBDIR=$(dirname "$(find "$PREFIX" -name spoor.pc)")/..
[ -x "$PREFIX/bin/spoor" ] || fail "no bin/spoor under $PREFIX"
[ -f "$LIBDIR/libspoor.a" ] || fail "no libspoor.a in $LIBDIR"
soname=$(readelf -d "$LIBDIR/libspoor.so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[ "$soname" = libspoor.so.0 ] || fail "libspoor.so has SONAME '$soname', expected libspoor.so.0"
[ -e "$LIBDIR/$soname" ] || fail "no $soname beside libspoor.so"
[ "$(ls "$PREFIX/include/spoor" | wc -l)" -eq "$(ls "$HERE/../../include/spoor" | wc -l)" ] ||
  fail "include/spoor under $PREFIX differs from the tree's: $(ls "$PREFIX/include/spoor")"

export PKG_CONFIG_PATH=$LIBDIR/pkgconfig
printf '%s\n' '[' \
  '{"id":0,"name":"open","cat":"POSIX","pid":1,"tid":1,"ts":100,"dur":5,"ph":"X"}' \
  '{"id":1,"name":"read","cat":"POSIX","pid":1,"tid":1,"ts":110,"dur":7,"ph":"X"}' \
  '{"id":2,"name":"read","cat":"POSIX","pid":1,"tid":2,"ts":120,"dur":3,"ph":"X"}' > "$WORK/t.pfw"
printf '%s\n' 'events 3' 'POSIX open 1' 'POSIX read 2' > "$WORK/want"

# shellcheck disable=SC2086 # the flags are lists of words
{
  ${CC:-cc} ${SPOOR_CLIENT_FLAGS:-} -o "$WORK/shared" "$HERE/count_events.c" \
    $(pkg-config --cflags spoor) $(pkg-config --libs spoor) || fail "building against libspoor.so failed"
  # pkg-config --static adds what libspoor.a needs; -l:libspoor.a makes the
  # linker take the archive rather than the libspoor.so beside it.
  ${CC:-cc} ${SPOOR_CLIENT_FLAGS:-} -o "$WORK/static" "$HERE/count_events.c" \
    $(pkg-config --cflags spoor) $(pkg-config --static --libs spoor | sed 's/-lspoor\b/-l:libspoor.a/') ||
    fail "building against libspoor.a failed"
}
readelf -d "$WORK/shared" | grep -q "NEEDED.*\[libspoor.so.0\]" || fail "the shared client does not need libspoor.so.0"
! readelf -d "$WORK/static" | grep -q "NEEDED.*libspoor" || fail "the static client still needs libspoor.so"

LD_LIBRARY_PATH=$LIBDIR "$WORK/shared" "$WORK/t.pfw" > "$WORK/got.shared" || fail "the shared client failed"
"$WORK/static" "$WORK/t.pfw" > "$WORK/got.static" || fail "the static client failed"
for kind in shared static; do
  diff -u "$WORK/want" "$WORK/got.$kind" || fail "the $kind client counted otherwise"
done
echo "ok: the installed libspoor builds and runs a client with pkg-config, shared and static"
