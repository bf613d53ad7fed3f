/* The compressed side of a gzip or zstd input, read through a window of
 * WINDOW bytes that moves forward as the decoder consumes it: memory stays
 * bounded whatever the file size, and a stream is read only once. */
#include <stdlib.h>
#include <string.h>

#include "io/internal.h"

enum {
    WINDOW = 1 << 20,   /* large enough that a read costs little against inflating it */
    KEEP = 64,          /* bytes kept before pos: ISA-L's bit buffer looks back up to 8 */
};

long io_window_at(struct spoor_input *in, struct io_window *w, uint64_t pos, size_t need,
                  struct spoor_error *err)
{
    uint64_t end = w->base + w->len;
    bool inside = pos >= w->base && pos <= end;
    if (inside && (end - pos >= need || w->eof))
        return (long)(end - pos);
    if (!w->buf) {
        w->cap = WINDOW;
        w->buf = spoor_xmalloc(w->cap);
    }
    /* Slide what is left (and a few bytes before pos) to the front and read
     * on; anywhere else (a checkpoint, a member start behind the window),
     * read from pos afresh: a stream's io_read refuses what it cannot. */
    size_t keep = 0, have = 0;
    if (inside) {
        keep = pos - w->base < KEEP ? (size_t)(pos - w->base) : KEEP;
        have = (size_t)(end - pos);
        if (keep + have)
            memmove(w->buf, w->buf + (pos - keep - w->base), keep + have);
    }
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

void io_window_free(struct io_window *w)
{
    free(w->buf);
    memset(w, 0, sizeof *w);
}
