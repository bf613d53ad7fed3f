/* Plain files. A regular file splits into parts of chunk_size bytes with no
 * pass over it first: a part holds every line whose first byte is in it, so
 * its cursor skips the line the part before it started and finishes its own
 * last line past its end. Each chunk is a window of the file mapped for it
 * alone (map_guard.c), or read with pread when it cannot be mapped. A plain
 * stream is read in order through the stream cursor. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "io/stream.h"
#include "io/input.h"

/* Bytes past a chunk's end first looked at for the end of its last line;
 * doubled while the line goes on. Mapping them costs nothing untouched. */
enum { TAIL = 1 << 20 };

struct plain_cursor {
    struct spoor_cursor base;
    uint64_t pos, end;          /* the next line start; the part's end */
    bool started;               /* pos is a line start */
    bool copy;                  /* read, never map (see io_plain_open) */
};

size_t io_plain_parts(const struct spoor_input *in)
{
    uint64_t n = (in->size + in->chunk_size - 1) / in->chunk_size;
    return n ? (size_t)n : 1;
}

/* The bytes [from, from + len) of the file, mapped or read into the chunk. */
static int view(struct spoor_input *in, bool copy, struct spoor_chunk *chunk, uint64_t from, size_t len,
                const char **p, struct spoor_error *err)
{
    io_chunk_unmap(chunk);
    *p = copy ? NULL : io_map_window(in, from, len, chunk);
    if (*p)
        return SPOOR_OK;
    io_chunk_reserve(chunk, len, 0);
    size_t got;
    int st = io_read(in, from, chunk->buf, len, &got, err);
    *p = chunk->buf;
    return st != SPOOR_OK || got == len ? st : io_shrank(in, err);
}

/* Records of several lines (JSON_LINES, LOG_LINES): whether the line ending at nl (at least the
 * bytes [start, nl) of it are in the window) goes on in the next line. When
 * the window holds none of its text, its end is read from before `from`. */
static int line_joins(struct spoor_input *in, uint64_t from, const char *start, const char *nl, const char *end)
{
    if (in->records == SPOOR_RECORDS_LOG_LINES)
        return spoor_log_line_joins(nl + 1, end);
    const char *q = nl;
    while (q > start && (q[-1] == ' ' || q[-1] == '\t' || q[-1] == '\r'))
        q--;
    if (q > start || from == 0)
        return spoor_json_line_joins(start, nl, nl + 1, end);
    char back[64];
    size_t n = from < sizeof back ? (size_t)from : sizeof back, got;
    struct spoor_error ignored;
    if (io_read(in, from - n, back, n, &got, &ignored) != SPOOR_OK || got != n)
        return 0;
    const char *b = memrchr(back, '\n', n);
    /* the line's end is back[...n), then blanks up to nl */
    return spoor_json_line_joins(b ? b + 1 : back, back + n, nl + 1, end);
}

/* The newline ending the record whose line ends at nl: past the lines it
 * joins. NULL when the window ends first (*more: look further). */
static const char *record_end(struct spoor_input *in, uint64_t from, const char *start, const char *nl,
                              const char *end, bool at_eof, bool *more)
{
    *more = false;
    while (in->records == SPOOR_RECORDS_JSON_LINES || in->records == SPOOR_RECORDS_LOG_LINES) {
        int joins = line_joins(in, from, start, nl, end);
        if (joins == 0 || (joins < 0 && at_eof))
            break;
        const char *next = joins > 0 ? memchr(nl + 1, '\n', (size_t)(end - nl - 1)) : NULL;
        if (!next) {
            *more = !at_eof;
            return at_eof ? end - 1 : NULL;
        }
        start = nl + 1;
        nl = next;
    }
    return nl;
}

static int plain_next(struct spoor_cursor *base, struct spoor_chunk *chunk, struct spoor_error *err)
{
    struct plain_cursor *c = (struct plain_cursor *)base;
    struct spoor_input *in = base->in;
    io_chunk_unmap(chunk);
    if (io_input_shrank(in))
        return -io_shrank(in, err);
    if (c->pos >= c->end || c->pos >= in->size)
        return 0;
    /* The first chunk of a part starts a byte early: a newline there (or the
     * start of the file) means pos starts a line. */
    size_t lead = c->started || c->pos == 0 ? 0 : 1;
    uint64_t from = c->pos - lead;
    size_t want = c->end - from < in->chunk_size + lead ? (size_t)(c->end - from) : in->chunk_size + lead;
    size_t tail = TAIL, skip = 0, stop;
    for (;;) {
        size_t len = in->size - from < want + tail ? (size_t)(in->size - from) : want + tail;
        bool at_eof = from + len == in->size, more = false;
        const char *p;
        int st = view(in, c->copy, chunk, from, len, &p, err);
        if (st != SPOOR_OK)
            return -st;
        if (lead) {
            const char *nl = memchr(p, '\n', want);
            if (nl)
                nl = record_end(in, from, p, nl, p + len, at_eof, &more);
            if (!nl && more) {
                tail *= 2;
                continue;
            }
            if (!nl || nl >= p + want) {
                c->pos = c->end; /* a record from an earlier part covers this one */
                return 0;
            }
            skip = (size_t)(nl - p) + 1;
        }
        const char *nl = len == want || p[want - 1] == '\n' ? p + want - 1 : memchr(p + want, '\n', len - want);
        if (nl && *nl == '\n' && (in->records == SPOOR_RECORDS_JSON_LINES || in->records == SPOOR_RECORDS_LOG_LINES)) {
            const char *start = memrchr(p + skip, '\n', (size_t)(nl - (p + skip)));
            nl = record_end(in, from, start ? start + 1 : p + skip, nl, p + len, at_eof, &more);
        }
        if (nl || at_eof) {
            stop = nl ? (size_t)(nl - p) + 1 : len;
            chunk->data = p + skip;
            break;
        }
        const char *prev = memrchr(p + skip, '\n', want - skip);
        uint64_t line = from + (prev ? (size_t)(prev - p) + 1 : skip);
        if (from + len - line > IO_MAX_LINE)
            return -spoor_fail(err, SPOOR_EFORMAT, "%s: the line at byte %llu is longer than %zu MiB", in->path,
                               (unsigned long long)line, IO_MAX_LINE >> 20);
        tail *= 2;
    }
    if (atomic_load(&in->shrank))
        return -io_shrank(in, err);
    c->started = true;
    chunk->len = stop - skip;
    chunk->offset = from + skip;
    chunk->first_line = chunk->offset == 0 ? 1 : 0;
    c->pos = from + stop;
    return chunk->len > 0 ? 1 : plain_next(base, chunk, err);
}

static uint64_t plain_progress(const struct spoor_cursor *base)
{
    return ((const struct plain_cursor *)base)->pos;
}

static const char *plain_warning(const struct spoor_cursor *base)
{
    (void)base;
    return NULL;
}

static void plain_close(struct spoor_cursor *base)
{
    free(base);
}

static const struct io_cursor_ops plain_ops = {
    .next = plain_next,
    .progress = plain_progress,
    .warning = plain_warning,
    .close = plain_close,
};

/* A plain stream: its bytes as they come, the stream cursor cutting lines. */
struct raw_decoder {
    struct spoor_input *in;
    uint64_t pos;
};

static int raw_fill(void *dec, uint8_t *dst, size_t want, size_t *got, struct spoor_error *err)
{
    struct raw_decoder *d = dec;
    int st = io_read(d->in, d->pos, dst, want, got, err);
    if (st != SPOOR_OK)
        return -st;
    d->pos += *got;
    return *got < want ? IO_END : IO_MORE;
}

static uint64_t raw_progress(const void *dec)
{
    return ((const struct raw_decoder *)dec)->pos;
}

static const char *raw_warning(const void *dec)
{
    (void)dec;
    return NULL;
}

static const struct io_decoder_ops raw_ops = {
    .fill = raw_fill,
    .progress = raw_progress,
    .warning = raw_warning,
    .close = free,
};

int io_plain_open(struct spoor_input *in, uint64_t start, uint64_t end, bool copy, struct spoor_cursor **out)
{
    if (in->stream || in->records == SPOOR_RECORDS_JSON_EVENTS) {
        /* the events cutter reads in order and rewrites its own copy */
        struct raw_decoder *d = spoor_xcalloc(1, sizeof *d);
        d->in = in;
        struct io_stream_start s = {.first_line = 1, .boundary = UINT64_MAX};
        return io_stream_open(in, &raw_ops, d, &s, out);
    }
    struct plain_cursor *p = spoor_xcalloc(1, sizeof *p);
    p->base.ops = &plain_ops;
    p->base.in = in;
    p->pos = start;
    p->end = end;
    p->copy = copy;
    *out = &p->base;
    return SPOOR_OK;
}
