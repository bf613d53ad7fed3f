/* `spoor windows`: block-layer requests gathered from the readers' batches
 * (in input order: completion order), put back in issue order per device,
 * and summed per window (and device), reads and writes apart, by the
 * accumulator the kernel module shares (features/window_features.c).
 *
 * Memory holds every read and write request (40 bytes each, plus sort keys):
 * rows come in completion order, and a request issued in a window may
 * complete any time later, so no window can be closed before the input ends
 * without trusting a bound on latency that the trace does not give. */
#include "spoor/windows.h"

#include <stdlib.h>
#include <string.h>

#include "analyze/window_requests.h"
#include "features/window_features.h"
#include "spoor/error.h"
#include "spoor/table.h"
#include "util/grow.h"
#include "util/radix_sort.h"

_Static_assert((int)SPOOR_WINDOW_READ == SPOOR_WF_READ && (int)SPOOR_WINDOW_WRITE == SPOOR_WF_WRITE &&
                   (int)SPOOR_WINDOW_NOPS == SPOOR_WF_NOPS,
               "the public operations are the accumulator's");

struct gather {
    struct window_request *reqs;
    size_t n, cap;
    struct spoor_strpool *devs;   /* device names; id 0 is "" */
    uint64_t other;
};

/* reduce(): the reads and writes of a batch, appended in input order. */
static int gather_batch(void *ctx, size_t input, const struct spoor_table *b)
{
    (void)input;
    struct gather *g = ctx;
    window_requests_of_batch(b, g->devs, &g->reqs, &g->n, &g->cap, &g->other);
    return SPOOR_OK;
}

/* rows reordered by key_of_row, ties kept, unless they are in that order
 * already (one device; the windows of one device, read in issue order). */
static void sort_again(uint32_t *rows, size_t n, const uint64_t *key_of_row)
{
    size_t i = 1;
    while (i < n && key_of_row[rows[i - 1]] <= key_of_row[rows[i]])
        i++;
    if (i < n)
        spoor_radix_sort_rows_again(rows, n, key_of_row);
}

/* rows: the requests by device, then issue time (ties in input order). */
static uint32_t *issue_order(const struct gather *g, uint64_t *key, uint64_t *spare)
{
    uint32_t *rows = spoor_xmalloc((g->n ? g->n : 1) * sizeof *rows);
    struct spoor_key_span span = spoor_key_span_start();
    for (size_t i = 0; i < g->n; i++) {
        key[i] = spoor_radix_signed_key(g->reqs[i].ts);
        spoor_key_span_add(&span, key[i]);
    }
    spoor_radix_sort_rows(rows, NULL, g->n, key, spare, &span);
    for (size_t i = 0; i < g->n; i++)
        key[i] = g->reqs[i].dev;
    sort_again(rows, g->n, key);
    return rows;
}

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

/* The (window, device) group of a time of request q: windows from t0. */
static uint64_t group_of(const struct window_request *q, int64_t ts, int64_t t0, const struct spoor_windows_opts *wo,
                         uint64_t ndevs)
{
    return (uint64_t)((ts - t0) / wo->every_ns) * ndevs + (wo->by_dev ? q->dev : 0);
}

/* The windows of the requests, through the accumulator the kernel module
 * shares (features/window_features.h). A request's issue counts in the group
 * of its issue time, its completion in the group of its completion time.
 * rows (each device's requests in issue order) are regrouped by issue group
 * (into key, room for n words), stably, so each device's issues reach the
 * accumulator in issue order and distances run across windows; a completion
 * in its issue's group goes with it, and the few completing in a later group
 * ("late") are sorted apart and merged in. */
static void make_windows(const struct gather *g, uint32_t *rows, uint64_t *key, const struct spoor_windows_opts *wo,
                         struct spoor_windows *out)
{
    if (!g->n)
        return;
    int64_t t0 = INT64_MAX;
    for (size_t i = 0; i < g->n; i++)
        t0 = g->reqs[i].ts < t0 ? g->reqs[i].ts : t0;
    uint64_t ndevs = wo->by_dev ? spoor_strpool_count(g->devs) : 1;
    size_t n = g->n, nlate = 0;
    for (size_t i = 0; i < n; i++)
        key[i] = group_of(&g->reqs[i], g->reqs[i].ts, t0, wo, ndevs);
    sort_again(rows, n, key);
    for (size_t i = 0; i < n; i++)
        nlate += group_of(&g->reqs[i], g->reqs[i].ts + g->reqs[i].dur, t0, wo, ndevs) != key[i];
    size_t room = nlate ? nlate : 1;
    uint32_t *late = spoor_xmalloc(room * sizeof *late), *order = spoor_xmalloc(room * sizeof *order);
    uint64_t *late_key = spoor_xmalloc(room * sizeof *late_key);
    for (size_t i = 0, j = 0; i < n; i++) {
        uint64_t done = group_of(&g->reqs[i], g->reqs[i].ts + g->reqs[i].dur, t0, wo, ndevs);
        if (done != key[i]) {
            order[j] = (uint32_t)j;
            late_key[j] = done;
            late[j++] = (uint32_t)i;
        }
    }
    sort_again(order, nlate, late_key);
    struct spoor_wf_track *tracks = spoor_xcalloc(spoor_strpool_count(g->devs) + 1, sizeof *tracks);
    struct spoor_wf_window *acc = spoor_xmalloc(sizeof *acc);
    spoor_wf_clear(acc);
    size_t cap = 0;
    for (size_t i = 0, j = 0; i < n || j < nlate;) {
        uint64_t group = i < n ? key[rows[i]] : UINT64_MAX;
        group = j < nlate && late_key[order[j]] < group ? late_key[order[j]] : group;
        for (; i < n && key[rows[i]] == group; i++) {
            const struct window_request *q = &g->reqs[rows[i]];
            spoor_wf_issue(acc, &tracks[q->dev], q->op, q->sector, q->bytes, q->queue_depth);
            if (group_of(q, q->ts + q->dur, t0, wo, ndevs) == group) /* never before its issue */
                spoor_wf_complete(acc, q->op, (uint64_t)q->dur);
        }
        for (; j < nlate && late_key[order[j]] == group; j++)
            spoor_wf_complete(acc, g->reqs[late[order[j]]].op, (uint64_t)g->reqs[late[order[j]]].dur);
        struct spoor_wf_features f[SPOOR_WF_NOPS];
        spoor_wf_finish(acc, (uint64_t)wo->every_ns, f);
        spoor_reserve((void **)&out->windows, &cap, out->nwindows + 1, sizeof *out->windows);
        struct spoor_window *w = &out->windows[out->nwindows++];
        w->start_ns = t0 + (int64_t)(group / ndevs) * wo->every_ns;
        w->dev = (uint32_t)(group % ndevs);
        for (int op = 0; op < SPOOR_WINDOW_NOPS; op++)
            op_of_features(&f[op], &w->ops[op]);
    }
    free(acc);
    free(tracks);
    free(late);
    free(order);
    free(late_key);
}

int spoor_windows_load(const char *const *paths, size_t npaths, const struct spoor_load_opts *opts,
                       const struct spoor_windows_opts *wo, struct spoor_windows *out, struct spoor_load_result *res,
                       struct spoor_error *err)
{
    memset(out, 0, sizeof *out);
    struct gather g = {.devs = spoor_strpool_new()};
    struct spoor_sink sink = {.ctx = &g, .reduce = gather_batch};
    int st = spoor_load(paths, npaths, opts, &sink, res, err);
    for (size_t i = 0; st == SPOOR_OK && i < res->ninputs; i++)
        if (!window_input_is_block(&res->inputs[i]))
            st = spoor_fail(err, SPOOR_EFORMAT,
                            "%s: not a block-layer trace (read as %s); windows reads blkparse, ftrace or lttng",
                            res->inputs[i].path, res->inputs[i].dialect.name);
    if (st == SPOOR_OK) {
        uint64_t *key = spoor_xmalloc((g.n ? g.n : 1) * sizeof *key), *spare = spoor_xmalloc((g.n ? g.n : 1) * 8);
        uint32_t *rows = issue_order(&g, key, spare);
        free(spare);
        make_windows(&g, rows, key, wo, out);
        free(rows);
        free(key);
    }
    out->requests = g.n;
    out->other_requests = g.other;
    out->ndevs = spoor_strpool_count(g.devs);
    out->devs = spoor_xcalloc(out->ndevs ? out->ndevs : 1, sizeof *out->devs);
    for (size_t i = 0; i < out->ndevs; i++)
        out->devs[i] = spoor_xstrdup(spoor_strpool_get(g.devs, (uint32_t)i, NULL));
    spoor_strpool_free(g.devs);
    free(g.reqs);
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
