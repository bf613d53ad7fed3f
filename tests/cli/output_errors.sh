# Output errors: a write error names the output file (or stdout), never its
# hidden temporary nor "the output"; gen refuses, before writing, a size that
# cannot fit in its target's filesystem.
source "$(dirname "$0")/lib/common.sh"

cd "$WORK"
"$SPOOR_BIN" gen -o t.pfw --size-mb 0.3 --seed 2 --no-truth > /dev/null

# Write errors name the output file, never its temporary.
for args in "events -o /dev/full t.pfw" "export --to csv -o /dev/full t.pfw" "export --to jsonl -o /dev/full t.pfw" \
  "export --to perfetto -o /dev/full t.pfw" "stats -o /dev/full t.pfw" "gen -o /dev/full --size-mb 1"; do
  # shellcheck disable=SC2086
  expect_fail 1 "^spoor ${args%% *}: cannot write /dev/full: No space left on device" $args
done
expect_fail 1 "^spoor sql: cannot write /dev/full: No space left" sql -o /dev/full t.pfw "SELECT name FROM events"
expect_fail 2 "^spoor export: --to sqlite needs a regular file" export --to sqlite -o /dev/full t.pfw
set +e
"$SPOOR_BIN" cat --lines 1:2000 t.pfw > /dev/full 2> err
got=$?
set -e
[ "$got" -eq 1 ] && grep -q "^spoor cat: cannot write stdout: No space left" err || fail "cat to a full disk: $got $(cat err)"

# gen refuses a size beyond the free space of the target's filesystem, before writing.
expect_fail 2 "^spoor gen: big.pfw: a 1000000000 MB trace does not fit in the .* MB free" gen -o big.pfw --size-mb 1e9
expect_fail 2 "^spoor gen: big.pfw.gz: .*gzip'ed) does not fit" gen -o big.pfw.gz --size-mb 1e9
[ -z "$(compgen -G 'big.pfw*')" ] && [ -z "$(compgen -G '.big.pfw*')" ] || fail "a refused gen wrote something"
