/* The compressed side of a gzip or zstd input, through a window that moves
 * forward as the decoder consumes it: memory stays bounded whatever the file
 * size, and a stream is read only once. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "io/internal.h"

enum {
    WINDOW = 1 << 20,   /* a stream's buffer: a read costs little against inflating it */
    MAPPED = 8 << 20,   /* a file's mapped window */
    KEEP = 64,          /* bytes kept before pos: ISA-L's bit buffer looks back up to 8 */
};

static long read_at(struct spoor_input *in, struct io_window *w, uint64_t pos, bool inside, size_t keep,
                    struct spoor_error *err);

/* A file's window: the bytes from pos - keep on, mapped (a pread copy of
 * compressed bytes cost 2-3 % of an indexed `stats`, _copy_to_iter in perf);
 * the next call after a fault in a shrunk file reports it. */
static long map_at(struct spoor_input *in, struct io_window *w, uint64_t pos, size_t keep,
                   struct spoor_error *err)
{
    io_guard_unmap(&w->mapping);
    w->buf = NULL;
    w->base = pos - keep;
    uint64_t left = in->size > w->base ? in->size - w->base : 0;
    w->len = left < MAPPED ? (size_t)left : MAPPED;
    w->eof = w->len == left;
    if (io_input_shrank(in))
        return -io_shrank(in, err);
    if (w->len && !(w->buf = (uint8_t *)io_guard_map(in, w->base, w->len, &w->mapping)))
        return read_at(in, w, pos, false, 0, err); /* every guard in use: read instead */
    return (long)(w->len - keep);
}

/* A stream's window: what is left slid to the front of the buffer (with a
 * few bytes before pos), then read on; elsewhere, read from pos afresh
 * (io_read refuses what a stream cannot give). */
static long read_at(struct spoor_input *in, struct io_window *w, uint64_t pos, bool inside, size_t keep,
                    struct spoor_error *err)
{
    if (!w->own) {
        w->cap = WINDOW;
        w->own = spoor_xmalloc(w->cap);
    }
    size_t have = inside ? (size_t)(w->base + w->len - pos) : 0;
    if (keep + have)
        memmove(w->own, w->buf + (pos - keep - w->base), keep + have);
    w->buf = w->own;
    w->base = pos - keep;
    w->len = keep + have;
    size_t room = w->cap - w->len, got = 0;
    int st = io_read(in, pos + have, w->buf + w->len, room, &got, err);
    if (st != SPOOR_OK)
        return -st;
    w->len += got;
    w->eof = got < room;
    return (long)(have + got);
}

long io_window_at(struct spoor_input *in, struct io_window *w, uint64_t pos, size_t need,
                  struct spoor_error *err)
{
    if (atomic_load(&in->shrank)) /* zeros may stand in for the bytes the file lost */
        return -io_shrank(in, err);
    uint64_t end = w->base + w->len;
    bool inside = w->buf && pos >= w->base && pos <= end;
    if (inside && (end - pos >= need || w->eof))
        return (long)(end - pos);
    if (!in->stream)
        return map_at(in, w, pos, pos < KEEP ? (size_t)pos : KEEP, err);
    size_t keep = !inside ? 0 : pos - w->base < KEEP ? (size_t)(pos - w->base) : KEEP;
    return read_at(in, w, pos, inside, keep, err);
}

void io_window_free(struct io_window *w)
{
    io_guard_unmap(&w->mapping);
    free(w->own);
    memset(w, 0, sizeof *w);
}
