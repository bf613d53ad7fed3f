/* Holding decoded output back until the decoder vouches for it, and dropping
 * what it reports damaged.
 *
 * A gzip member's CRC and length are checked only at its end, after all of
 * its output was decoded; a corrupt one can decode to plausible garbage
 * (`ext4_file_ope"hhasht: "X`) for a long way. So finished chunks wait here
 * until the member they end in checks out, and when one fails, every line
 * that touches its output is dropped: the queued and decoded bytes from the
 * start of the line the member began in up to where decoding resumes, and
 * the rest of a line cut there (after a broken-off decode, the first line
 * that follows). Readers never see them, so sinks (which
 * accumulate in map() on worker threads) never count them.
 *
 * Holding is bounded (IO_HOLD): once a member has decoded that much, what
 * waits goes out unchecked, and damage found in the member later is a hard
 * error, since its first lines are already with the reader. Holding costs no
 * copy (buffers are swapped); the cursor stops decoding as soon as a held
 * chunk may go (a member ended, or passed IO_HOLD), so parsing waits at most
 * for the rest of the member a chunk ends in. */
#include "io/stream_hold.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void hold_finish(struct stream_cursor *s, size_t len, uint64_t offset)
{
    if (len == 0 && !s->drop.why)
        return;
    if (s->nheld == s->held_cap) {
        s->held_cap = s->held_cap ? 2 * s->held_cap : 8;
        s->held = spoor_xrealloc(s->held, s->held_cap * sizeof *s->held);
    }
    struct spoor_chunk *h = &s->held[s->nheld++];
    *h = s->cur;
    h->data = h->buf;
    h->len = len;
    h->offset = offset;
    h->first_line = s->first_line;
    h->dropped = s->drop;
    s->first_line = 0;
    s->drop = (struct spoor_drop){0};
    s->cur = s->nspare ? s->spare[--s->nspare] : (struct spoor_chunk){0};
    s->filling = false;
}

bool hold_ready(struct stream_cursor *s)
{
    if (s->nheld == 0)
        return false;
    if (s->done || !s->ops->verified)
        return true;
    uint64_t verified = s->ops->verified(s->dec);
    const struct spoor_chunk *h = &s->held[0];
    if (h->offset + h->len <= verified)
        return true;
    /* Everything decoded past `verified` is of the member being decoded. */
    uint64_t decoded = s->filling ? s->cur.offset + s->cur.len : s->carry_offset + s->carry_len;
    return decoded > verified && decoded - verified >= IO_HOLD;
}

static void add_spare(struct stream_cursor *s, char *buf, size_t cap)
{
    if (s->nspare == s->spare_cap) {
        s->spare_cap = s->spare_cap ? 2 * s->spare_cap : 8;
        s->spare = spoor_xrealloc(s->spare, s->spare_cap * sizeof *s->spare);
    }
    s->spare[s->nspare++] = (struct spoor_chunk){.buf = buf, .cap = cap};
}

int hold_hand_out(struct stream_cursor *s, struct spoor_chunk *chunk)
{
    struct spoor_chunk h = s->held[0];
    memmove(s->held, s->held + 1, --s->nheld * sizeof *s->held);
    if (chunk->buf)
        add_spare(s, chunk->buf, chunk->cap);
    chunk->buf = h.buf;
    chunk->cap = h.cap;
    chunk->data = h.buf;
    chunk->len = h.len;
    chunk->offset = s->next_offset;
    chunk->first_line = h.first_line;
    chunk->dropped = h.dropped;
    s->next_offset += h.len;
    s->handed_end = h.offset + h.len;
    if (h.dropped.why) {
        if (s->ndrops++ == 0)
            s->first = h.dropped;
        s->dropped_lines += h.dropped.lines;
    }
    return 1;
}

/* Bytes of the piece [off, off + len) that stay: the lines that end before
 * decoded offset `start` (pieces begin at line starts). */
static size_t kept(const char *buf, size_t len, uint64_t off, uint64_t start)
{
    if (off >= start)
        return 0;
    size_t n = start - off < len ? (size_t)(start - off) : len;
    const char *nl = memrchr(buf, '\n', n);
    return nl ? (size_t)(nl - buf) + 1 : 0;
}

/* What a drop removes, walked from the end backwards. */
struct tally {
    uint64_t newlines;
    int last;                   /* the last byte dropped; -1 before any */
};

static void tally(struct tally *t, const char *p, size_t n)
{
    if (n && t->last < 0)
        t->last = (unsigned char)p[n - 1];
    for (const char *end = p + n; (p = memchr(p, '\n', (size_t)(end - p))) != NULL; p++)
        t->newlines++;
}

/* d absorbs an earlier drop that its lines now run into. */
static void merge(struct spoor_drop *d, const struct spoor_drop *old)
{
    if (!old->why)
        return;
    d->lines += old->lines;
    if (old->from < d->from) {
        d->from = old->from;
        d->why = old->why;
    }
}

int hold_drop(struct stream_cursor *s, const struct io_damage *dmg, struct spoor_error *err)
{
    struct spoor_chunk *c = &s->cur;
    uint64_t start = dmg->out_start;
    if (start < s->handed_end)
        return -spoor_fail(err, SPOOR_EFORMAT,
                          "%s: corrupt gzip member at bytes %llu-%llu (%s), found after its first "
                          "%zu MiB were read: they cannot be taken back",
                          s->base.in->path, (unsigned long long)dmg->comp_start,
                          (unsigned long long)dmg->comp_end, dmg->why, IO_HOLD >> 20);
    struct spoor_drop d = {.from = dmg->comp_start, .to = dmg->comp_end, .why = dmg->why};
    struct tally t = {.newlines = dmg->unsent_newlines, .last = dmg->unsent_last};
    size_t keep = kept(c->buf, c->len, c->offset, start);
    tally(&t, c->buf + keep, c->len - keep);
    if (keep == 0) {
        merge(&d, &s->drop);
        s->drop = (struct spoor_drop){0};
    }
    /* Queued chunks ending in '\n' before the line that reaches the damage stay. */
    bool reached = c->offset < start;
    while (!reached && s->nheld > 0) {
        struct spoor_chunk *h = &s->held[s->nheld - 1];
        size_t k = kept(h->buf, h->len, h->offset, start);
        tally(&t, h->buf + k, h->len - k);
        reached = h->offset < start;
        if (k > 0) {
            h->len = k;
        } else {
            merge(&d, &h->dropped);
            add_spare(s, h->buf, h->cap);
            s->nheld--;
        }
    }
    /* A line the drop cut is dropped whole: its rest, up to the next newline
     * of the output that follows, goes too. Where decoding broke off, or the
     * member's header was lost, where its lines ended is not known: the
     * output that follows is taken to start inside a line (at worst one good
     * line is dropped, never a piece of one read as a line). */
    bool cut = !dmg->whole || (t.last >= 0 && t.last != '\n');
    d.lines += t.newlines + cut;
    s->skip_piece = cut;
    s->first_line = 0;
    if (keep > 0) {
        hold_finish(s, keep, c->offset);
        s->drop = d;
        return 1;
    }
    s->drop = d;
    c->len = 0;
    c->offset = dmg->out_end;
    return 0;
}

void hold_skip_piece(struct stream_cursor *s)
{
    struct spoor_chunk *c = &s->cur;
    const char *nl = memchr(c->buf, '\n', c->len);
    size_t n = nl ? (size_t)(nl - c->buf) + 1 : c->len;
    memmove(c->buf, c->buf + n, c->len - n);
    c->len -= n;
    c->offset += n;
    s->skip_piece = !nl;
}

void hold_end(struct stream_cursor *s)
{
    if (s->ndrops == 0 || s->warning[0])
        return;
    const char *also = s->ops->warning(s->dec);
    int n = snprintf(s->warning, sizeof s->warning, "corrupt gzip member at bytes %llu-%llu (%s): ",
                     (unsigned long long)s->first.from, (unsigned long long)s->first.to, s->first.why);
    if (n > 0 && (size_t)n < sizeof s->warning)
        n += s->first.lines
                 ? snprintf(s->warning + n, sizeof s->warning - (size_t)n, "dropped %llu lines",
                            (unsigned long long)s->first.lines)
                 : snprintf(s->warning + n, sizeof s->warning - (size_t)n, "none of its lines could be read");
    if (s->ndrops > 1 && n > 0 && (size_t)n < sizeof s->warning)
        n += snprintf(s->warning + n, sizeof s->warning - (size_t)n,
                      ", and %zu more damaged stretches (%llu lines in all)", s->ndrops - 1,
                      (unsigned long long)s->dropped_lines);
    if (also && n > 0 && (size_t)n < sizeof s->warning)
        snprintf(s->warning + n, sizeof s->warning - (size_t)n, "; %s", also);
}

const char *hold_warning(const struct stream_cursor *s)
{
    return s->warning[0] ? s->warning : s->ops->warning(s->dec);
}

void hold_free(struct stream_cursor *s)
{
    for (size_t i = 0; i < s->nheld; i++)
        free(s->held[i].buf);
    for (size_t i = 0; i < s->nspare; i++)
        free(s->spare[i].buf);
    free(s->held);
    free(s->spare);
    free(s->cur.buf);
}
