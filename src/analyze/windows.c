/* `spoor windows`: block-layer requests from the readers' batches, windowed
 * by the one windowing path (analyze/window_stream.c): every request added,
 * then every window finished at once (the watermark INT64_MAX), per device
 * or for all devices together, and each window's integer features (the
 * accumulator the kernel module shares) turned into the public doubles.
 *
 * Memory holds every read and write request (40 bytes each, plus sort keys):
 * rows come in completion order, and a request issued in a window may
 * complete any time later, so no window can be closed before the input ends
 * without trusting a bound on latency that the trace does not give. */
#include "spoor/windows.h"

#include <stdlib.h>
#include <string.h>

#include "analyze/window_stream.h"
#include "spoor/error.h"
#include "util/grow.h"

_Static_assert((int)SPOOR_WINDOW_READ == SPOOR_WF_READ && (int)SPOOR_WINDOW_WRITE == SPOOR_WF_WRITE &&
                   (int)SPOOR_WINDOW_NOPS == SPOOR_WF_NOPS,
               "the public operations are the accumulator's");

/* One operation's features, from the shared integers: Q16 values are exact
 * in a double (below 2^37 before the point). */
static void op_of_features(const struct spoor_wf_features *f, struct spoor_window_op *o)
{
    const double q = (double)(1 << SPOOR_WF_Q);
    *o = (struct spoor_window_op){
        .requests = f->requests, .bytes = f->bytes, .completions = f->completions,
        .size_mean = (double)f->size_mean_q16 / q, .size_median = (double)f->size_median,
        .iops = (double)f->iops_q16 / q, .bandwidth = (double)f->bandwidth_q16 / q,
        .lat_mean = (double)f->latency_mean_q16 / q, .lat_p50 = (double)f->latency_p50,
        .lat_p99 = (double)f->latency_p99, .with_previous = f->with_previous,
        .distance_mean = (double)f->distance_mean_q16 / q, .jump_ratio = (double)f->jump_ratio_q16 / q,
        .sequential_ratio = (double)f->sequential_ratio_q16 / q,
        .queue_depth_mean = (double)f->queue_depth_mean_q16 / q,
    };
}

struct collect {
    struct spoor_windows *out;
    size_t cap;
};

/* window_stream_advance(): a finished window, appended. */
static int add_window(void *ctx, const struct window_done *d)
{
    struct collect *c = ctx;
    spoor_reserve((void **)&c->out->windows, &c->cap, c->out->nwindows + 1, sizeof *c->out->windows);
    struct spoor_window *w = &c->out->windows[c->out->nwindows++];
    w->start_ns = d->start_ns;
    w->dev = d->dev;
    for (int op = 0; op < SPOOR_WINDOW_NOPS; op++)
        op_of_features(&d->f[op], &w->ops[op]);
    return 0;
}

int spoor_windows_load(const char *const *paths, size_t npaths, const struct spoor_load_opts *opts,
                       const struct spoor_windows_opts *wo, struct spoor_windows *out, struct spoor_load_result *res,
                       struct spoor_error *err)
{
    memset(out, 0, sizeof *out);
    struct window_stream *ws =
        window_stream_new(wo->every_ns, INT64_MIN, wo->by_dev ? 0 : WINDOW_STREAM_ALL_DEVICES);
    int st = window_stream_load(ws, paths, npaths, opts, "windows reads", res, err);
    struct collect c = {.out = out};
    if (st == SPOOR_OK)
        window_stream_advance(ws, INT64_MAX, add_window, &c);
    out->requests = window_stream_requests(ws);
    out->other_requests = window_stream_others(ws);
    const struct spoor_strpool *devs = window_stream_devices(ws);
    out->ndevs = spoor_strpool_count(devs);
    out->devs = spoor_xcalloc(out->ndevs ? out->ndevs : 1, sizeof *out->devs);
    for (size_t i = 0; i < out->ndevs; i++)
        out->devs[i] = spoor_xstrdup(spoor_strpool_get(devs, (uint32_t)i, NULL));
    window_stream_free(ws);
    return st;
}

void spoor_windows_free(struct spoor_windows *w)
{
    for (size_t i = 0; i < w->ndevs; i++)
        free(w->devs[i]);
    free(w->devs);
    free(w->windows);
    memset(w, 0, sizeof *w);
}
