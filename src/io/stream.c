/* Line-aligned chunks from a decompressed stream. The decoder writes straight
 * into the chunk's buffer; only the partial line at the end of a chunk is
 * copied (to the cursor's carry, then to the front of the next chunk). */
#include "io/stream.h"

#include <stdlib.h>
#include <string.h>

struct stream_cursor {
    struct spoor_cursor base;
    const struct io_decoder_ops *ops;
    void *dec;
    uint8_t *carry;             /* start of the line the next chunk begins with */
    size_t carry_len, carry_cap;
    uint64_t carry_offset;      /* uncompressed offset of carry[0] */
    uint64_t first_line;
    uint64_t boundary;
    bool eof;                   /* the decoder has no more data */
    bool done;                  /* the part is over */
};

static void set_carry(struct stream_cursor *s, const uint8_t *bytes, size_t len, uint64_t offset)
{
    if (len > s->carry_cap) {
        s->carry_cap = len > 2 * s->carry_cap ? len : 2 * s->carry_cap;
        free(s->carry);
        s->carry = spoor_xmalloc(s->carry_cap);
    }
    if (len)
        memcpy(s->carry, bytes, len);
    s->carry_len = len;
    s->carry_offset = offset;
}

static void deliver(struct stream_cursor *s, struct spoor_chunk *chunk, size_t len, uint64_t offset)
{
    chunk->data = chunk->buf;
    chunk->len = len;
    chunk->offset = offset;
    chunk->first_line = s->first_line;
    s->first_line = 0;
}

/* Output reached the decoder's boundary: go on, or end the part there. */
static int at_boundary(struct stream_cursor *s, struct spoor_chunk *chunk, size_t *len,
                       uint64_t offset, struct spoor_error *err)
{
    uint64_t stop_cut = 0;
    int st = s->ops->boundary(s->dec, (const uint8_t *)chunk->buf + *len, *len, &s->boundary,
                              &stop_cut, err);
    if (st <= 0)
        return st;
    if (stop_cut < offset || stop_cut > offset + *len)
        return -spoor_fail(err, SPOOR_EFORMAT, "%s: checkpoint index out of step with the data",
                          s->base.in->path);
    *len = (size_t)(stop_cut - offset);
    s->done = true;
    return 1;
}

static int stream_next(struct spoor_cursor *base, struct spoor_chunk *chunk, struct spoor_error *err)
{
    struct stream_cursor *s = (struct stream_cursor *)base;
    if (s->done)
        return 0;
    io_chunk_unmap(chunk);
    size_t target = s->base.in->chunk_size;
    if (target < s->carry_len + 1)
        target = s->carry_len + 1;
    io_chunk_reserve(chunk, target, 0);
    if (s->carry_len)
        memcpy(chunk->buf, s->carry, s->carry_len);
    size_t len = s->carry_len;
    uint64_t offset = s->carry_offset;
    s->carry_len = 0;

    for (;;) {
        if (!s->eof && len < target) {
            size_t want = target - len;
            if (s->boundary != UINT64_MAX && s->boundary - (offset + len) < want)
                want = (size_t)(s->boundary - (offset + len));
            size_t got = 0;
            int st = want ? s->ops->fill(s->dec, (uint8_t *)chunk->buf + len, want, &got, err) : IO_MORE;
            if (st < 0)
                return st;
            len += got;
            if (st == IO_END)
                s->eof = true;
        }
        if (s->boundary != UINT64_MAX && offset + len == s->boundary && !s->eof) {
            int st = at_boundary(s, chunk, &len, offset, err);
            if (st < 0)
                return st;
            if (s->done) {
                deliver(s, chunk, len, offset);
                return len > 0;
            }
            continue;
        }
        if (s->eof) {
            s->done = true;
            deliver(s, chunk, len, offset);
            return len > 0;
        }
        if (len < target)
            continue;
        const uint8_t *nl = memrchr(chunk->buf, '\n', len);
        if (!nl) {
            /* One line longer than the chunk: grow the chunk to hold all of it. */
            if (len >= IO_MAX_LINE)
                return -spoor_fail(err, SPOOR_EFORMAT,
                                  "%s: the line at byte %llu is longer than %zu MiB",
                                  s->base.in->path, (unsigned long long)offset, IO_MAX_LINE >> 20);
            target = len * 2 < IO_MAX_LINE ? len * 2 : IO_MAX_LINE;
            io_chunk_reserve(chunk, target, len);
            continue;
        }
        size_t cut = (size_t)(nl - (const uint8_t *)chunk->buf) + 1;
        const uint8_t *tail = (const uint8_t *)chunk->buf + cut;
        if (s->ops->cut)
            s->ops->cut(s->dec, offset + len, offset + cut, tail);
        set_carry(s, tail, len - cut, offset + cut);
        deliver(s, chunk, cut, offset);
        return 1;
    }
}

static uint64_t stream_progress(const struct spoor_cursor *base)
{
    const struct stream_cursor *s = (const struct stream_cursor *)base;
    return s->ops->progress(s->dec);
}

static const char *stream_warning(const struct spoor_cursor *base)
{
    const struct stream_cursor *s = (const struct stream_cursor *)base;
    return s->ops->warning(s->dec);
}

static void stream_close(struct spoor_cursor *base)
{
    struct stream_cursor *s = (struct stream_cursor *)base;
    s->ops->close(s->dec);
    free(s->carry);
    free(s);
}

static const struct io_cursor_ops stream_cursor_ops = {
    .next = stream_next,
    .progress = stream_progress,
    .warning = stream_warning,
    .close = stream_close,
};

int io_stream_open(struct spoor_input *in, const struct io_decoder_ops *ops, void *dec,
                   const struct io_stream_start *start, struct spoor_cursor **out)
{
    struct stream_cursor *s = spoor_xcalloc(1, sizeof *s);
    s->base.ops = &stream_cursor_ops;
    s->base.in = in;
    s->ops = ops;
    s->dec = dec;
    s->first_line = start->first_line;
    s->boundary = start->boundary;
    set_carry(s, start->carry, start->carry_len, start->offset);
    *out = &s->base;
    return SPOOR_OK;
}
