/* Line-aligned chunks from a decompressed stream. The decoder writes straight
 * into a chunk's buffer; only the partial line at the end of a chunk is
 * copied (to the cursor's carry, then to the front of the next chunk).
 *
 * Finished chunks wait in a queue until the decoder vouches for their bytes
 * (see stream_hold.c, which also drops damaged output); handing one out swaps
 * its buffer with the caller's, so nothing is copied. */
#include "io/stream_hold.h"
#include "io/input.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

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

/* Output reached the decoder's boundary: go on, or end the part there. */
static int at_boundary(struct stream_cursor *s, size_t *len, uint64_t offset, struct spoor_error *err)
{
    uint64_t stop_cut = 0;
    int st = s->ops->boundary(s->dec, (const uint8_t *)s->cur.buf + *len, *len, &s->boundary,
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

/* Starts the next chunk in s->cur with the carried line start. */
static void start_chunk(struct stream_cursor *s)
{
    s->target = s->base.in->chunk_size;
    if (s->target < s->carry_len + 1)
        s->target = s->carry_len + 1;
    io_chunk_reserve(&s->cur, s->target, 0);
    if (s->carry_len)
        memcpy(s->cur.buf, s->carry, s->carry_len);
    s->cur.len = s->carry_len;
    s->cur.offset = s->carry_offset;
    s->doc.scanned = s->carry_len; /* the carry was scanned before its cut */
    s->carry_len = 0;
    s->filling = true;
}

/* Where the chunk's records end: after its last line, or its last event,
 * or one that joins no later line (JSON_LINES, LOG_LINES); 0 when no
 * record ends in it yet. */
static size_t record_cut(struct stream_cursor *s, struct spoor_chunk *c)
{
    enum spoor_records records = s->base.in->records;
    if (records == SPOOR_RECORDS_JSON_EVENTS)
        return io_events_scan(&s->doc, c->buf, c->len);
    const char *nl = memrchr(c->buf, '\n', c->len);
    if (nl && (records == SPOOR_RECORDS_JSON_LINES || records == SPOOR_RECORDS_LOG_LINES))
        nl = io_lines_cut(records, c->buf, nl, c->buf + c->len, false);
    return nl ? (size_t)(nl - c->buf) + 1 : 0;
}

/* Decodes into s->cur until it is a chunk, then queues it (or ends the
 * part); stops early, cur half full, when a held chunk may go out. Returns 0
 * or a negative status. */
static int produce(struct stream_cursor *s, struct spoor_error *err)
{
    if (!s->filling)
        start_chunk(s);
    struct spoor_chunk *c = &s->cur;
    for (;;) {
        if (!s->eof && c->len < s->target) {
            size_t want = s->target - c->len;
            if (s->boundary != UINT64_MAX && s->boundary - (c->offset + c->len) < want)
                want = (size_t)(s->boundary - (c->offset + c->len));
            size_t got = 0;
            int st = want ? s->ops->fill(s->dec, (uint8_t *)c->buf + c->len, want, &got, err) : IO_MORE;
            if (st < 0)
                return st;
            c->len += got;
            if (st == IO_END)
                s->eof = true;
            if (s->skip_piece)
                hold_skip_piece(s);
            struct io_damage dmg;
            if (s->ops->damage && s->ops->damage(s->dec, &dmg)) {
                st = hold_drop(s, &dmg, err);
                if (st < 0)
                    return st;
                if (st > 0) {       /* the good lines before the damage made a chunk */
                    set_carry(s, NULL, 0, dmg.out_end);
                    return 0;
                }
                continue;
            }
            if (hold_ready(s))
                return 0;
        }
        if (s->boundary != UINT64_MAX && c->offset + c->len == s->boundary && !s->eof) {
            int st = at_boundary(s, &c->len, c->offset, err);
            if (st < 0)
                return st;
            if (s->done) {
                hold_finish(s, c->len, c->offset);
                return 0;
            }
            continue;
        }
        if (s->eof) {
            if (s->base.in->records == SPOOR_RECORDS_JSON_EVENTS)
                io_events_scan(&s->doc, c->buf, c->len);
            s->done = true;
            hold_finish(s, c->len, c->offset);
            return 0;
        }
        if (c->len < s->target)
            continue;
        size_t cut = record_cut(s, c);
        if (!cut) {
            /* One record longer than the chunk: grow the chunk to hold all of it. */
            if (c->len >= IO_MAX_LINE)
                return -spoor_fail(err, SPOOR_EFORMAT,
                                  "%s: the %s at byte %llu is longer than %zu MiB", s->base.in->path,
                                  s->base.in->records == SPOOR_RECORDS_JSON_EVENTS ? "event" : "line", (unsigned long long)c->offset, IO_MAX_LINE >> 20);
            s->target = c->len * 2 < IO_MAX_LINE ? c->len * 2 : IO_MAX_LINE;
            io_chunk_reserve(c, s->target, c->len);
            continue;
        }
        const uint8_t *tail = (const uint8_t *)c->buf + cut;
        if (s->ops->cut)
            s->ops->cut(s->dec, c->offset + c->len, c->offset + cut, tail);
        set_carry(s, tail, c->len - cut, c->offset + cut);
        hold_finish(s, cut, c->offset);
        return 0;
    }
}

static int stream_next(struct spoor_cursor *base, struct spoor_chunk *chunk, struct spoor_error *err)
{
    struct stream_cursor *s = (struct stream_cursor *)base;
    io_chunk_unmap(chunk);
    for (;;) {
        if (hold_ready(s))
            return hold_hand_out(s, chunk);
        if (s->done) {
            hold_end(s);
            return 0;
        }
        if (!s->cur.buf && chunk->buf) {
            /* Decode into the caller's buffer (it comes back with the chunk),
             * so a cursor per part touches no fresh memory. */
            s->cur.buf = chunk->buf;
            s->cur.cap = chunk->cap;
            chunk->buf = NULL;
            chunk->cap = 0;
        }
        int st = produce(s, err);
        if (st < 0)
            return st;
        /* What was just decoded may be zeros standing in for lost bytes (a
         * SIGBUS in map_guard.c, or a cut within the last page, which raises
         * none): nothing of it goes out. fstat per chunk, as in plain.c. */
        if (io_input_shrank(s->base.in))
            return -io_shrank(s->base.in, err);
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
    return hold_warning(s);
}

static void stream_close(struct spoor_cursor *base)
{
    struct stream_cursor *s = (struct stream_cursor *)base;
    s->ops->close(s->dec);
    hold_free(s);
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
    s->next_offset = start->offset;
    s->handed_end = start->offset;
    set_carry(s, start->carry, start->carry_len, start->offset);
    *out = &s->base;
    return SPOOR_OK;
}
