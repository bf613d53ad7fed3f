/* spoor --help: print a range of a trace's lines, decompressed */
/* spoor cat: prints a range of a trace's lines, as stored, decompressed. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_getopt.h"
#include "spoor/load.h"

static const char cat_help[] =
    "usage: spoor cat TRACE --lines A:B\n"
    "\n"
    "Prints lines A through B of TRACE (1-based, inclusive) exactly as stored,\n"
    "decompressed. 'A:' runs to the last line, ':B' starts at line 1, and 'N' is\n"
    "line N alone. A gzip trace with a checkpoint index (TRACE.spoor-idx, made by\n"
    "'spoor index' or by any full read) is entered near line A instead of at the top.\n"
    "Lines past the end print nothing.\n"
    "\n"
    "options:\n"
    "  --lines A:B   the range to print (required)\n"
    "  --no-index    read from the top; neither use nor write the index\n"
    "  -h, --help    this help\n";

static bool parse_line_number(const char *s, size_t len, uint64_t *out)
{
    if (len == 0 || len > 19)
        return false;
    uint64_t v = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        v = v * 10 + (uint64_t)(s[i] - '0');
    }
    *out = v;
    return v > 0;
}

/* "A:B", "A:", ":B" or "N". */
static bool parse_range(const char *s, uint64_t *first, uint64_t *last)
{
    const char *colon = strchr(s, ':');
    if (!colon)
        return parse_line_number(s, strlen(s), first) && (*last = *first, true);
    *first = 1;
    *last = UINT64_MAX;
    if (colon > s && !parse_line_number(s, (size_t)(colon - s), first))
        return false;
    if (colon[1] && !parse_line_number(colon + 1, strlen(colon + 1), last))
        return false;
    return *first <= *last;
}

/* Writes the lines of data numbered first..last, given that data starts at
 * line *line; advances *line. Returns false once past `last`. */
static bool emit(const char *data, size_t len, uint64_t *line, uint64_t first, uint64_t last)
{
    const char *p = data, *end = data + len;
    while (p < end && *line < first) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl)
            return true;    /* only the final line lacks a newline */
        p = nl + 1;
        ++*line;
    }
    const char *from = p;
    while (p < end && *line <= last) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        p = nl ? nl + 1 : end;
        ++*line;
    }
    fwrite(from, 1, (size_t)(p - from), stdout);
    return *line <= last;
}

int cmd_cat(int argc, char **argv)
{
    struct spoor_input_opts opts = {0};
    const char *range = NULL;
    const struct cli_option options[] = {
        CLI_OPT_STRING("lines", 0, &range),
        CLI_OPT_FLAG("no-index", 0, &opts.no_index),
        CLI_END,
    };
    int code = cli_parse("cat", cat_help, options, NULL, 0, argc, argv);
    if (code >= 0)
        return code;
    if (optind + 1 != argc)
        return cli_usage_error("cat", optind == argc ? "no trace given" : "one trace at a time");
    if (!range)
        return cli_usage_error("cat", "--lines A:B is required");
    uint64_t first, last;
    if (!parse_range(range, &first, &last))
        return cli_usage_error("cat", "--lines wants A:B with 1 <= A <= B, not %s", range);

    const char *path = argv[optind];
    struct spoor_input *in;
    struct spoor_error err;
    if (spoor_input_open(path, &opts, &in, &err) != SPOOR_OK) {
        fprintf(stderr, "spoor cat: %s\n", err.msg);
        return 1;
    }
    struct spoor_cursor *cur;
    uint64_t line;
    int status = 0;
    if (spoor_cursor_open_at_line(in, first, &cur, &line, &err) != SPOOR_OK) {
        fprintf(stderr, "spoor cat: %s\n", err.msg);
        spoor_input_close(in);
        return 1;
    }
    struct spoor_chunk chunk = {0};
    int got;
    while ((got = spoor_cursor_next(cur, &chunk, &err)) > 0) {
        const struct spoor_drop *d = &chunk.dropped;
        /* A damaged gzip member's lines, numbered as the loader numbers them. */
        if (d->why && line <= last && line + d->lines >= first)
            fprintf(stderr, "spoor cat: %s:%llu: %llu lines of a corrupt gzip member at bytes %llu-%llu (%s) "
                    "were dropped here\n", path, (unsigned long long)line, (unsigned long long)d->lines,
                    (unsigned long long)d->from, (unsigned long long)d->to, d->why);
        line += d->lines;
        if (!emit(chunk.data, chunk.len, &line, first, last))
            break;
    }
    if (got < 0) {
        fprintf(stderr, "spoor cat: %s\n", err.msg);
        status = 1;
    } else if (got == 0 && spoor_cursor_warning(cur)) {
        fprintf(stderr, "spoor cat: %s: %s\n", path, spoor_cursor_warning(cur));
    }
    if (fflush(stdout) != 0 || ferror(stdout)) { /* a failed fwrite leaves nothing for fflush to fail on */
        fprintf(stderr, "spoor cat: cannot write stdout: %s\n", strerror(errno ? errno : EIO));
        status = 1;
    }
    spoor_chunk_release(&chunk);
    spoor_cursor_close(cur);
    spoor_input_close(in);
    return status;
}
