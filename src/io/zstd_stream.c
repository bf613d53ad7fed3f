/* The zstd decoder behind a stream cursor. Frames follow one another until
 * the input ends; a frame cut short or unreadable bytes end the input with a
 * warning after everything decodable was delivered. */
#include "io/zstd.h"

#include <stdio.h>
#include <stdlib.h>
#include <zstd.h>

#include "io/stream.h"

struct zstd_decoder {
    struct spoor_input *in;
    ZSTD_DCtx *dctx;
    struct io_window win;
    ZSTD_inBuffer src;          /* over the window */
    size_t frame_left;          /* last ZSTD_decompressStream() result: 0 = between frames */
    bool ended;
    char warning[160];
};

static uint64_t comp_pos(const struct zstd_decoder *d)
{
    return d->win.base + d->src.pos;
}

static int zstd_fill(void *dec, uint8_t *dst, size_t want, size_t *got, struct spoor_error *err)
{
    struct zstd_decoder *d = dec;
    ZSTD_outBuffer out = {dst, want, 0};
    *got = 0;
    while (out.pos < out.size && !d->ended) {
        if (d->src.pos == d->src.size) {
            uint64_t pos = comp_pos(d);
            long n = io_window_at(d->in, &d->win, pos, 1, err);
            if (n < 0)
                return (int)n;
            d->src = (ZSTD_inBuffer){d->win.buf, d->win.len, (size_t)(pos - d->win.base)};
        }
        if (d->src.pos == d->src.size) {
            if (d->frame_left != 0)
                snprintf(d->warning, sizeof d->warning, "truncated at byte %llu",
                         (unsigned long long)comp_pos(d));
            d->ended = true;
            break;
        }
        size_t before_in = d->src.pos, before_out = out.pos;
        size_t r = ZSTD_decompressStream(d->dctx, &out, &d->src);
        if (ZSTD_isError(r)) {
            snprintf(d->warning, sizeof d->warning, "corrupt zstd data at byte %llu (%s)",
                     (unsigned long long)comp_pos(d), ZSTD_getErrorName(r));
            d->ended = true;
            break;
        }
        d->frame_left = r;
        /* Neither input taken nor output given with room on both sides:
         * stop rather than spin. */
        if (d->src.pos == before_in && out.pos == before_out && out.pos < out.size) {
            snprintf(d->warning, sizeof d->warning, "corrupt zstd data at byte %llu",
                     (unsigned long long)comp_pos(d));
            d->ended = true;
        }
    }
    *got = out.pos;
    return d->ended ? IO_END : IO_MORE;
}

static uint64_t zstd_progress(const void *dec)
{
    return comp_pos(dec);
}

static const char *zstd_warning(const void *dec)
{
    const struct zstd_decoder *d = dec;
    return d->warning[0] ? d->warning : NULL;
}

static void zstd_close(void *dec)
{
    struct zstd_decoder *d = dec;
    ZSTD_freeDCtx(d->dctx);
    io_window_free(&d->win);
    free(d);
}

static const struct io_decoder_ops zstd_ops = {
    .fill = zstd_fill,
    .progress = zstd_progress,
    .warning = zstd_warning,
    .close = zstd_close,
};

static struct zstd_decoder *decoder_new(struct spoor_input *in)
{
    struct zstd_decoder *d = spoor_xcalloc(1, sizeof *d);
    d->in = in;
    d->dctx = ZSTD_createDCtx();
    return d;
}

int io_zstd_open(struct spoor_input *in, struct spoor_cursor **out)
{
    struct io_stream_start start = {.first_line = 1, .boundary = UINT64_MAX};
    return io_stream_open(in, &zstd_ops, decoder_new(in), &start, out);
}

size_t io_zstd_head(struct spoor_input *in, char *dst, size_t max)
{
    struct zstd_decoder *d = decoder_new(in);
    size_t got = 0;
    struct spoor_error err;
    zstd_fill(d, (uint8_t *)dst, max, &got, &err);
    zstd_close(d);
    return got;
}
