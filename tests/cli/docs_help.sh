# docs/cli.md against every command's --help, both ways, so that they cannot
# drift apart. For every command `spoor --help` lists (but help and version):
# - every option `spoor CMD --help` lists (gen: also its `--kind metrics` and
#   `--kind cascade` helps) is named in cli.md's section "## spoor CMD" (down
#   to the next "## " heading, its "###" subsections included);
# - every option that section names is listed by `spoor CMD --help`.
# How the special cases are read:
# - Reading options (those under "reading options:" in a help) may instead be
#   documented once, in the shared table before the first command section;
#   the dataset options of train, eval and predict in "## Datasets for the
#   model commands". An option these shared parts name must be listed by some
#   command's help (Datasets: by train's, eval's or predict's) or, for the
#   preamble, be one of spoor's own (--help, --version: `spoor --help`).
# - One help line naming several spellings ("-o, --output FILE") is one
#   option: the section names at least one of them. -h/--help is described
#   once for every command, in the preamble, and not looked for per section.
# - Short options (-o, -f) are checked from the help to the docs only: in
#   prose a lone "-o" is too easily something else to check the other way.
# - An option written after `spoor OTHER` (up to the end of that code span,
#   or of the line) belongs to OTHER and is checked against OTHER's help:
#   sections quote each other ("the language of `spoor events --where`",
#   examples running `spoor gen --kind cascade ...`).
# - Hidden aliases (the spellings before 0.1.0, accepted but in no help) are
#   named only in the preamble's sentence "the spellings they replaced (...)
#   still work, unlisted"; each `CMD --opt` there must be accepted by CMD and
#   absent from its help (cli_usage.sh checks that they act as the new ones).
#   Named anywhere else, a hidden alias is drift like any unlisted option.
# - The checks must catch a deliberate drift: they also run on two spoiled
#   copies of cli.md (lifecycle's --top-by deleted; an unknown option in
#   stats' section) and must fail there, naming the option.
source "$(dirname "$0")/lib/common.sh"
SRC=$(cd "$(dirname "$0")/../.." && pwd)
DOC=$SRC/docs/cli.md

cmds=$("$SPOOR_BIN" --help | awk '/^commands:/ { f = 1; next } f && /^  [a-z]/ { print $1 }' | grep -vx 'help\|version')
[ "$(echo "$cmds" | wc -l)" -ge 16 ] || fail "spoor --help lists too few commands: $cmds"

# $WORK/help/CMD: one line per option of CMD's help, "own|shared SPELLING...",
# from the left column of the lines that start with a dash.
mkdir "$WORK/help"
for cmd in $cmds; do
  {
    "$SPOOR_BIN" "$cmd" --help
    if [ "$cmd" = gen ]; then
      "$SPOOR_BIN" gen --kind metrics --help
      "$SPOOR_BIN" gen --kind cascade --help
    fi
  } | awk '/^[A-Za-z][A-Za-z ]*:$/ { shared = ($0 == "reading options:"); next }
           /^  -/ { s = $0; sub(/^ +/, "", s); sub(/  .*/, "", s)
                    n = split(s, w, /[ \/,]+/); line = ""
                    for (i = 1; i <= n; i++) if (w[i] ~ /^--?[a-z]/) line = line " " w[i]
                    if (line != " -h --help") print (shared ? "shared" : "own") line }' |
    sort -u > "$WORK/help/$cmd"
  [ -s "$WORK/help/$cmd" ] || [ "$cmd" = index ] || fail "no options found in 'spoor $cmd --help'"
done
"$SPOOR_BIN" --help | grep -o -- '--[a-z][a-z-]*' | sed 's/^/own /' | sort -u > "$WORK/help/spoor" # spoor's own
listed() { grep -q -- " $2\( \|$\)" "$WORK/help/$1"; } # CMD OPT: CMD's help lists OPT

# Every long option cli.md names, as "SECTION CONTEXT OPTION": SECTION is the
# command whose section it is in (*pre before the first, *datasets, *other),
# CONTEXT the command it is said of. The hidden-alias sentence gives "ALIAS
# CMD OPTION" lines instead.
doc_options() {
  awk -v cmds="$(echo $cmds)" '
    BEGIN { n = split(cmds, c, " "); for (i = 1; i <= n; i++) is_cmd[c[i]] = 1; sec = "*pre" }
    /^## / { sec = "*other"; if ($2 == "spoor" && ($3 in is_cmd) && NF == 3) sec = $3
             else if ($0 ~ /^## Datasets for the model commands/) sec = "*datasets"
             ctx = sec; code = 0; next }
    /^#/ { next }
    /the spellings they replaced/ { alias = 1 }
    alias { s = $0
            while (match(s, /`[a-z-]+ --[a-z-]+`/)) {
              split(substr(s, RSTART + 1, RLENGTH - 2), p, " "); print "ALIAS", p[1], p[2]
              s = substr(s, RSTART + RLENGTH) }
            if ($0 ~ /still work/) alias = 0
            next }
    /^[ \t]*$/ { ctx = sec; code = 0; next }
    { s = $0
      while (match(s, /`|spoor [a-z][a-z-]*|--[a-z][a-z0-9-]*[a-z0-9]/)) {
        t = substr(s, RSTART, RLENGTH); s = substr(s, RSTART + RLENGTH)
        if (t == "`") { code = !code; if (!code) ctx = sec }
        else if (t ~ /^spoor /) { if (substr(t, 7) in is_cmd) ctx = substr(t, 7) }
        else print sec, ctx, t
      }
      if (!code) ctx = sec }' "$1"
}

# Prints one line per drift between the help texts and the cli.md given.
check_docs() {
  local doc=$1 cmd entry spelling documented sec ctx opt c
  doc_options "$doc" > "$WORK/doc"
  for cmd in $cmds; do
    awk -v c="$cmd" '/^## / { f = ($0 == "## spoor " c) } f' "$doc" > "$WORK/section"
    while read -r entry; do
      documented=no
      for spelling in ${entry#* }; do
        case $spelling in
        --*) grep -q "^$cmd $cmd $spelling\$" "$WORK/doc" && documented=yes
             if [ "${entry%% *}" = shared ]; then grep -q "^\*pre [^ ]* $spelling\$" "$WORK/doc" && documented=yes; fi
             case $cmd in train | eval | predict)
               grep -q "^\*datasets [^ ]* $spelling\$" "$WORK/doc" && documented=yes ;;
             esac ;;
        *) grep -Eq -- "(^|[^[:alnum:]-])$spelling([^[:alnum:]-]|\$)" "$WORK/section" && documented=yes ;;
        esac
      done
      [ $documented = yes ] || echo "'spoor $cmd --help' lists ${entry#* }, which cli.md's section 'spoor $cmd' does not name"
    done < "$WORK/help/$cmd"
  done
  sort -u "$WORK/doc" | while read -r sec ctx opt; do
    case $sec/$ctx in
    ALIAS/*)
      listed "$ctx" "$opt" && echo "cli.md calls 'spoor $ctx $opt' unlisted, but its --help lists it"
      (cd "$WORK" && "$SPOOR_BIN" "$ctx" "$opt" --help) > /dev/null 2> "$WORK/alias_err" || true
      if grep -q "unknown option" "$WORK/alias_err"; then echo "cli.md says 'spoor $ctx $opt' still works; spoor refuses it"; fi ;;
    \**/\*datasets)
      listed train "$opt" || listed eval "$opt" || listed predict "$opt" ||
        echo "cli.md's Datasets section names $opt, which no help of train, eval or predict lists" ;;
    \**/\**)
      for c in spoor $cmds; do listed "$c" "$opt" && continue 2; done
      echo "cli.md's shared part names $opt, which no command's --help lists" ;;
    *)
      listed "$ctx" "$opt" || echo "cli.md's section 'spoor $sec' names $opt for spoor $ctx, whose --help does not list it" ;;
    esac
  done
}

check_docs "$DOC" > "$WORK/drift"
[ ! -s "$WORK/drift" ] || fail "docs/cli.md and the helps drifted apart:
$(cat "$WORK/drift")"

# The same checks catch a deliberate drift, in either direction.
sed 's/--top-by//g' "$DOC" > "$WORK/spoiled.md"
check_docs "$WORK/spoiled.md" > "$WORK/drift"
grep -q "'spoor lifecycle --help' lists --top-by" "$WORK/drift" ||
  fail "an option deleted from cli.md went unnoticed: $(cat "$WORK/drift")"
sed '/^## spoor stats$/a `--no-such-flag` counts nothing.' "$DOC" > "$WORK/spoiled.md"
check_docs "$WORK/spoiled.md" > "$WORK/drift"
grep -q "section 'spoor stats' names --no-such-flag" "$WORK/drift" ||
  fail "an option added to cli.md went unnoticed: $(cat "$WORK/drift")"
echo "ok: cli.md names every option of $(echo $cmds | wc -w) commands' helps and no other"
