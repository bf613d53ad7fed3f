/* Plain files: the mapping is split at newlines into parts of about
 * chunk_size, and chunks point straight into the mapping (no copy). */
#include <stdlib.h>
#include <string.h>

#include "io/internal.h"

struct plain_cursor {
    struct spoor_cursor base;
    uint64_t start, pos, end;
};

/* The first line start at or after `at` (the end of the file if none). */
static uint64_t line_start_from(const struct spoor_input *in, uint64_t at)
{
    if (at >= in->size)
        return in->size;
    if (at == 0 || in->map[at - 1] == '\n')
        return at;
    const uint8_t *nl = memchr(in->map + at, '\n', in->size - at);
    return nl ? (uint64_t)(nl - in->map) + 1 : in->size;
}

void io_plain_plan(struct spoor_input *in)
{
    if (in->bounds)
        return;
    size_t cap = (size_t)(in->size / in->chunk_size) + 2;
    in->bounds = spoor_xmalloc(cap * sizeof *in->bounds);
    size_t n = 0;
    uint64_t at = 0;
    in->bounds[n++] = 0;
    while (at < in->size) {
        at = line_start_from(in, at + in->chunk_size);
        if (n == cap) {
            cap *= 2;
            in->bounds = spoor_xrealloc(in->bounds, cap * sizeof *in->bounds);
        }
        in->bounds[n++] = at;
    }
    in->nparts = n > 1 ? n - 1 : 1;
    if (n == 1)
        in->bounds[n++] = 0;    /* an empty file: one empty part */
}

static int plain_next(struct spoor_cursor *base, struct spoor_chunk *chunk, struct spoor_error *err)
{
    struct plain_cursor *p = (struct plain_cursor *)base;
    const struct spoor_input *in = base->in;
    if (p->pos >= p->end)
        return 0;
    /* Like the plan: up to the first line start past chunk_size, so a part
     * is one chunk. */
    uint64_t stop = p->end;
    uint64_t mark = p->pos + in->chunk_size;
    if (mark < p->end && in->map[mark - 1] != '\n') {
        uint64_t reach = p->end - mark > IO_MAX_LINE ? mark + IO_MAX_LINE : p->end;
        const uint8_t *nl = memchr(in->map + mark, '\n', reach - mark);
        if (!nl && reach < p->end) {
            const uint8_t *prev = memrchr(in->map + p->pos, '\n', mark - p->pos);
            uint64_t line = prev ? (uint64_t)(prev - in->map) + 1 : p->pos;
            return -spoor_fail(err, SPOOR_EFORMAT, "%s: the line at byte %llu is longer than %zu MiB",
                               in->path, (unsigned long long)line, IO_MAX_LINE >> 20);
        }
        stop = nl ? (uint64_t)(nl - in->map) + 1 : p->end;
    } else if (mark < p->end) {
        stop = mark;
    }
    chunk->data = (const char *)in->map + p->pos;
    chunk->len = (size_t)(stop - p->pos);
    chunk->offset = p->pos;
    chunk->first_line = p->pos == 0 ? 1 : 0;
    p->pos = stop;
    return 1;
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

/* A part is one chunk, parsed by the time its cursor closes. */
static void plain_close(struct spoor_cursor *base)
{
    struct plain_cursor *p = (struct plain_cursor *)base;
    io_release(base->in, p->start, p->pos);
    free(base);
}

static const struct io_cursor_ops plain_ops = {
    .next = plain_next,
    .progress = plain_progress,
    .warning = plain_warning,
    .close = plain_close,
};

int io_plain_open(struct spoor_input *in, uint64_t start, uint64_t end, struct spoor_cursor **out)
{
    struct plain_cursor *p = spoor_xcalloc(1, sizeof *p);
    p->base.ops = &plain_ops;
    p->base.in = in;
    p->start = p->pos = start;
    p->end = end;
    *out = &p->base;
    return SPOOR_OK;
}
