/* The gzip decoder behind a stream cursor: ISA-L inflate over the input's
 * compressed bytes (read through a window, window.c), member after member.
 * It decodes straight into the chunk buffer, so
 * the first scan runs at ISA-L's speed; checkpoints cost one state copy per
 * chunk (their compression happens elsewhere, see index.c). It tells the
 * stream how far its output is vouched for (members whose trailer checked
 * out) and reports a damaged member, then goes on at the next one. */
#include "io/gzip.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "io/gzip_damage.h"
#include "io/gzip_snapshot.h"
#include "io/index.h"
#include "io/index_file.h"
#include "io/stream.h"

struct gz_decoder {
    struct spoor_input *in;
    struct inflate_state *st;
    struct io_window win;       /* st->next_in points into it */
    uint64_t out;               /* uncompressed offset of the next output byte */
    bool ended;
    bool building;
    bool indexed;               /* reads with a loaded index: checked against it */
    size_t nckpt;               /* checkpoints in that index */
    uint64_t member_out, member_comp; /* where the current member started */
    bool member_found;          /* ... found by a search after damage, not a trailer */
    uint64_t verified;          /* output up to here is in members that checked out */
    struct io_damage damage;    /* found by the last fill, for the stream to take */
    bool has_damage, damaged_any;
    uint64_t last_out, last_comp;   /* where the last checkpoint was taken */
    size_t next_ckpt;           /* loaded index: the checkpoint at the next boundary */
    size_t stop_ckpt;           /* the checkpoint that ends the part, SIZE_MAX for none */
    char warning[200];
};

static uint64_t comp_pos(const struct gz_decoder *d)
{
    return d->win.base + (d->st->next_in ? (uint64_t)(d->st->next_in - d->win.buf) : 0);
}

/* Gives ISA-L the compressed bytes from pos on (the window's size at most). */
static int feed_at(struct gz_decoder *d, uint64_t pos, size_t need, struct spoor_error *err)
{
    long n = io_window_at(d->in, &d->win, pos, need, err);
    if (n < 0)
        return (int)n;
    d->st->next_in = d->win.buf + (pos - d->win.base);
    d->st->avail_in = (uint32_t)n;
    return SPOOR_OK;
}

static int feed(struct gz_decoder *d, struct spoor_error *err)
{
    return d->st->avail_in ? SPOOR_OK : feed_at(d, comp_pos(d), 1, err);
}

/* All of the input was given to ISA-L. */
static bool input_done(const struct gz_decoder *d)
{
    return d->st->avail_in == 0 && d->win.eof && comp_pos(d) == d->win.base + d->win.len;
}

static int start_member(struct gz_decoder *d, uint64_t pos, bool found, struct spoor_error *err)
{
    isal_inflate_reset(d->st);
    d->st->crc_flag = ISAL_GZIP;
    d->member_out = d->out;
    d->member_comp = pos;
    d->member_found = found;
    return feed_at(d, pos, 1, err);
}

/* Records damage for the stream, which drops the output [out_start, d->out)
 * decoded from the compressed bytes from comp_start on. */
static void record_damage(struct gz_decoder *d, uint64_t out_start, uint64_t comp_start, const char *why)
{
    d->damage = (struct io_damage){
        .out_start = out_start,
        .out_end = d->out,
        .comp_start = comp_start,
        .why = why,
        .unsent_last = -1,
    };
    d->has_damage = d->damaged_any = true;
}

/* After damage: goes on at the member found at `at` (by_search: past bytes
 * that are not one), or ends there, at the end of the input. The damage
 * runs up to it. */
static int resume_at(struct gz_decoder *d, int found, uint64_t at, bool by_search, struct spoor_error *err)
{
    d->damage.comp_end = at;
    if (found)
        return start_member(d, at, by_search, err);
    d->ended = true;
    return feed_at(d, at, 1, err);     /* no bytes: progress reads `at` */
}

/* What ISA-L decoded before an error but had not output yet. */
static void count_unsent(const struct inflate_state *st, struct io_damage *dmg)
{
    const uint8_t *p = st->tmp_out_buffer + st->tmp_out_processed;
    const uint8_t *end = st->tmp_out_buffer + st->tmp_out_valid;
    if (p >= end)
        return;
    dmg->unsent_last = end[-1];
    for (; (p = memchr(p, '\n', (size_t)(end - p))) != NULL; p++)
        dmg->unsent_newlines++;
}

/* The current member is damaged. After a checksum mismatch the next member
 * should follow the trailer that was read, but damaged deflate data can make
 * a trailer of any 8 bytes, before the member's true end or after it: unless
 * a member header follows, the search starts inside the member (re-read
 * through the window; a stream searches what the window still holds). With
 * a loaded index the damage means the index is wrong about the file: the
 * read ends (and fails). */
static int damaged(struct gz_decoder *d, int ret, struct spoor_error *err)
{
    if (d->indexed) {
        snprintf(d->warning, sizeof d->warning, "%s at byte %llu", io_gzip_why(ret),
                 (unsigned long long)comp_pos(d));
        d->ended = true;
        return SPOOR_OK;
    }
    uint64_t from = d->member_comp + 1;
    if (ret == ISAL_INCORRECT_CHECKSUM) {
        uint64_t end = comp_pos(d) - (uint64_t)(d->st->read_in_length / 8);
        int next = io_gzip_member_at(d->in, &d->win, end, err);
        if (next < 0)
            return next;
        if (next)
            from = end;
    }
    struct io_damage unsent = {.unsent_last = -1};
    count_unsent(d->st, &unsent);
    record_damage(d, d->member_out, d->member_comp, io_gzip_why(ret));
    d->damage.unsent_newlines = unsent.unsent_newlines;
    d->damage.unsent_last = unsent.unsent_last;
    d->damage.whole = ret == ISAL_INCORRECT_CHECKSUM && from != d->member_comp + 1;
    uint64_t at = 0;
    int found = io_gzip_find_member(d->in, &d->win, from, &at, err);
    return found < 0 ? found : resume_at(d, found, at, at != from, err);
}

/* The sidecar disagrees with the trace: remove it so the next read rebuilds
 * it, and fail this read rather than deliver doubtful bytes. Returns the
 * status (positive). */
static int index_mismatch(const struct gz_decoder *d, uint64_t at, const char *detail,
                          struct spoor_error *err)
{
    char sidecar[4200];
    spoor_index_path(d->in->path, sidecar, sizeof sidecar);
    unlink(sidecar);
    return spoor_fail(err, SPOOR_EFORMAT,
                       "%s: the checkpoint index does not match the data at byte %llu (%s); "
                       "removed it, run again to rebuild it",
                       d->in->path, (unsigned long long)at, detail);
}

/* Moves *at past the zero bytes there; returns how many bytes are left from
 * the first one that is not zero (0 at the end of the input, negative with
 * err set on a read error). */
static long skip_zeros(struct gz_decoder *d, uint64_t *at, struct spoor_error *err)
{
    long n;
    while ((n = io_window_at(d->in, &d->win, *at, 1, err)) > 0) {
        const uint8_t *p = d->win.buf + (*at - d->win.base);
        long k = 0;
        while (k < n && p[k] == 0)
            k++;
        *at += (uint64_t)k;
        if (k < n)
            break;
    }
    return n;
}

/* The size of the input: a stream's is known once it was read to its end. */
static int input_size(struct gz_decoder *d, uint64_t from, uint64_t *size, struct spoor_error *err)
{
    long n;
    while (d->in->stream && (n = io_window_at(d->in, &d->win, from, 1, err)) != 0) {
        if (n < 0)
            return (int)n;
        from += (uint64_t)n;
    }
    *size = d->in->size;
    return SPOOR_OK;
}

/* A member ended: start the next one, or end the input, noting what trails. */
static int next_member(struct gz_decoder *d, struct spoor_error *err)
{
    uint64_t pos = comp_pos(d) - (uint64_t)(d->st->read_in_length / 8);
    long left = io_window_at(d->in, &d->win, pos, 2, err);
    if (left <= 0) {
        d->ended = left == 0;
        return (int)left;
    }
    const uint8_t *p = d->win.buf + (pos - d->win.base);
    if (left >= 2 && p[0] == 0x1f && p[1] == 0x8b)
        return start_member(d, pos, false, err);
    uint64_t i = pos, size = 0;
    long rest = skip_zeros(d, &i, err);
    if (rest > 0 && !d->indexed) {
        /* Not zero padding: a damaged header, when members follow it. */
        int found = io_gzip_find_member(d->in, &d->win, i, &i, err);
        if (found != 0) {
            if (found > 0)
                record_damage(d, d->out, pos, io_gzip_why(ISAL_INVALID_WRAPPER));
            return found < 0 ? found : resume_at(d, found, i, true, err);
        }
    }
    int st = rest < 0 ? (int)rest : input_size(d, i, &size, err);
    if (st < 0)
        return st;
    if (rest == 0)
        snprintf(d->warning, sizeof d->warning,
                 "ignored %llu bytes of zero padding after the last gzip member",
                 (unsigned long long)(size - pos));
    else
        snprintf(d->warning, sizeof d->warning,
                 "ignored %llu bytes of trailing garbage after the last gzip member at byte %llu",
                 (unsigned long long)(size - pos), (unsigned long long)pos);
    d->ended = true;
    return feed_at(d, size, 1, err); /* the window may have moved: progress reads the end */
}

static int gz_fill(void *dec, uint8_t *dst, size_t want, size_t *got, struct spoor_error *err)
{
    struct gz_decoder *d = dec;
    struct inflate_state *st = d->st;
    size_t produced = 0;
    while (produced < want && !d->ended && !d->has_damage) {
        int fed = st->block_state == ISAL_BLOCK_FINISH ? next_member(d, err) : feed(d, err);
        if (fed < 0)
            return fed;
        if (st->block_state == ISAL_BLOCK_FINISH || d->ended || d->has_damage)
            continue;
        size_t room = want - produced;
        st->next_out = dst + produced;
        st->avail_out = (uint32_t)(room < UINT32_MAX ? room : UINT32_MAX);
        uint32_t before = st->avail_out;
        int ret = isal_inflate(st);
        size_t n = before - st->avail_out;
        produced += n;
        d->out += n;
        int bad = SPOOR_OK;
        if (ret < 0) {
            bad = damaged(d, ret, err);
        } else if (st->block_state == ISAL_BLOCK_FINISH) {
            d->verified = d->out;
            break;      /* output held for this member's check may go now */
        } else if (st->avail_out > 0) {
            /* Short of output without an error: the input ran out. A member
             * found by searching past damage is no member that was cut short. */
            bool done = input_done(d);
            if (done && !d->member_found) {
                snprintf(d->warning, sizeof d->warning, "truncated at byte %llu",
                         (unsigned long long)comp_pos(d));
                d->ended = true;
            } else if (done || (st->avail_in > 0 && n == 0)) {
                bad = damaged(d, ISAL_INVALID_BLOCK, err);
            }
        }
        if (bad < 0)
            return bad;
    }
    *got = produced;
    if (!d->ended)
        return IO_MORE;
    /* The index was built from a clean scan of this very file (same
     * fingerprint): damage, or an end before the next checkpoint, means the
     * index is wrong about it. */
    if (d->indexed && (d->warning[0] || d->next_ckpt < d->nckpt))
        return -index_mismatch(d, comp_pos(d), d->warning[0] ? d->warning : "early end", err);
    return IO_END;
}

/* A chunk was cut at a line start: take a checkpoint there when one is due.
 * The part it starts needs the bytes [cut, end) back, which the snapshot's
 * history holds as long as they are within its last 32 KiB. */
static void gz_cut(void *dec, uint64_t end, uint64_t cut, const uint8_t *tail)
{
    struct gz_decoder *d = dec;
    const struct inflate_state *st = d->st;
    if (!d->building || d->ended || d->damaged_any || end != d->out)
        return;
    uint64_t comp = comp_pos(d);
    if (end - d->last_out < d->in->chunk_size / 2 || comp - d->last_comp < d->in->chunk_size / 8)
        return;
    size_t back = (size_t)(end - cut);
    if (back > io_snapshot_history(st) || !io_snapshot_valid(st) ||
        (back && memcmp(io_snapshot_tail(st, back), tail, back) != 0))
        return;
    size_t len = io_snapshot_size(st);
    uint8_t *raw = spoor_xmalloc(len);
    io_snapshot_save(st, raw);
    struct io_ckpt ck = {
        .out = end,
        .cut = cut,
        .comp = comp,
        .crc = st->crc,
        .carry_crc = (uint32_t)crc32(0, tail, (uInt)back),
    };
    io_index_add(d->in->index, &ck, raw, (uint32_t)len);
    d->last_out = end;
    d->last_comp = comp;
}

/* Output reached checkpoint next_ckpt: the CRC so far, and the bytes from
 * its line start (which the next part takes from its snapshot), must be what
 * the index recorded. */
static int gz_boundary(void *dec, const uint8_t *before, size_t avail, uint64_t *next,
                       uint64_t *stop_cut, struct spoor_error *err)
{
    struct gz_decoder *d = dec;
    struct io_index *idx = d->in->index;
    struct io_ckpt ck = io_index_at(idx, d->next_ckpt);
    size_t back = (size_t)(ck.out - ck.cut);
    if (ck.out != d->out || ck.crc != d->st->crc)
        return -index_mismatch(d, ck.out, "checksum", err);
    if (back > avail || crc32(0, before - back, (uInt)back) != ck.carry_crc)
        return -index_mismatch(d, ck.cut, "line start", err);
    if (d->next_ckpt == d->stop_ckpt) {
        *stop_cut = ck.cut;
        return 1;
    }
    d->next_ckpt++;
    *next = d->next_ckpt < io_index_count(idx) ? io_index_at(idx, d->next_ckpt).out : UINT64_MAX;
    return 0;
}

/* Output of a member is vouched for once its trailer checks out. Parts read
 * with a loaded index are checked at every checkpoint instead (see
 * gz_boundary), and a mismatch fails the read. A truncated last member is
 * vouched for at the end: deflate decodes a prefix exactly. */
static uint64_t gz_verified(const void *dec)
{
    const struct gz_decoder *d = dec;
    return d->indexed || d->ended ? UINT64_MAX : d->verified;
}

static bool gz_damage(void *dec, struct io_damage *out)
{
    struct gz_decoder *d = dec;
    if (!d->has_damage)
        return false;
    *out = d->damage;
    d->has_damage = false;
    return true;
}

static uint64_t gz_progress(const void *dec)
{
    return comp_pos(dec);
}

static const char *gz_warning(const void *dec)
{
    const struct gz_decoder *d = dec;
    return d->warning[0] ? d->warning : NULL;
}

static void gz_close(void *dec)
{
    struct gz_decoder *d = dec;
    if (d) {
        if (d->building && d->ended && !d->warning[0] && !d->damaged_any) {
            d->in->scan_complete = true;
            d->in->scan_total = d->out;
        }
        io_window_free(&d->win);
        free(d->st);
        free(d);
    }
}

static const struct io_decoder_ops gz_ops = {
    .fill = gz_fill,
    .cut = gz_cut,
    .boundary = gz_boundary,
    .verified = gz_verified,
    .damage = gz_damage,
    .progress = gz_progress,
    .warning = gz_warning,
    .close = gz_close,
};

static struct gz_decoder *decoder_new(struct spoor_input *in)
{
    struct gz_decoder *d = spoor_xcalloc(1, sizeof *d);
    d->in = in;
    /* Zeroed: isal_inflate_init() leaves some fields (hist_bits among them)
     * as they were, and they steer decoding. */
    d->st = spoor_xcalloc(1, sizeof *d->st);
    isal_inflate_init(d->st);
    d->st->crc_flag = ISAL_GZIP;
    d->stop_ckpt = SIZE_MAX;
    return d;
}

int io_gzip_open(struct spoor_input *in, size_t from, size_t stop, bool building,
                 struct spoor_cursor **out, struct spoor_error *err)
{
    struct gz_decoder *d = decoder_new(in);
    d->building = building;
    d->stop_ckpt = stop;
    struct io_stream_start start = {.first_line = 1, .boundary = UINT64_MAX};
    size_t count = in->index_mode == IO_INDEX_LOADED ? io_index_count(in->index) : 0;
    d->indexed = count > 0;
    d->nckpt = count;
    if (from != SIZE_MAX) {
        struct io_ckpt ck = io_index_at(in->index, from);
        uint8_t *raw = NULL;
        size_t len = 0;
        size_t back = (size_t)(ck.out - ck.cut);
        if (io_index_snapshot(in->index, from, &raw, &len) != SPOOR_OK ||
            !io_snapshot_load(d->st, raw, len) || back > io_snapshot_history(d->st) ||
            crc32(0, io_snapshot_tail(d->st, back), (uInt)back) != ck.carry_crc) {
            free(raw);
            int st = index_mismatch(d, ck.comp, "damaged checkpoint", err);
            gz_close(d);
            return st;
        }
        free(raw);
        d->win.base = ck.comp;  /* the first feed reads from there */
        d->st->next_in = NULL;
        d->st->avail_in = 0;
        d->out = ck.out;
        start.offset = ck.cut;
        start.carry = io_snapshot_tail(d->st, back);
        start.carry_len = back;
        start.first_line = ck.line;
        d->next_ckpt = from + 1;
    }
    if (d->next_ckpt < count)
        start.boundary = io_index_at(in->index, d->next_ckpt).out;
    else
        d->stop_ckpt = SIZE_MAX;
    return io_stream_open(in, &gz_ops, d, &start, out);
}

size_t io_gzip_head(struct spoor_input *in, char *dst, size_t max)
{
    struct gz_decoder *d = decoder_new(in);
    size_t got = 0;
    uint64_t dropped = 0;       /* decoded bytes of damaged members left out */
    struct spoor_error err;
    struct io_damage dmg;
    int st = in->size > 0 ? IO_MORE : IO_END;
    while (st == IO_MORE && got < max) {
        size_t n = 0;
        st = gz_fill(d, (uint8_t *)dst + got, max - got, &n, &err);
        got += n;
        if (gz_damage(d, &dmg)) {
            got = (size_t)(dmg.out_start - dropped);
            dropped += dmg.out_end - dmg.out_start;
        }
    }
    gz_close(d);
    return got;
}
