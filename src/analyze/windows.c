/* `spoor windows`: block-layer requests gathered from the readers' batches
 * (in input order: completion order), put back in issue order per device,
 * and summed per window (and device), reads and writes apart.
 *
 * Memory holds every read and write request (40 bytes each, plus sort keys):
 * rows come in completion order, and a request issued in a window may
 * complete any time later, so no window can be closed before the input ends
 * without trusting a bound on latency that the trace does not give. */
#include "spoor/windows.h"

#include <stdlib.h>
#include <string.h>

#include "spoor/error.h"
#include "spoor/table.h"
#include "util/grow.h"
#include "util/quantile.h"
#include "util/radix_sort.h"

enum { SECTOR_BYTES = 512, JUMP_BYTES = 1 << 20 };

/* One read or write request as the windows need it. After the issue-order
 * pass, `sector` holds the distance from the previous request's end instead
 * (-1: none before it). */
struct request {
    int64_t ts, dur, sector;
    uint32_t bytes, queue_depth, dev;
    uint8_t op;
};

struct gather {
    struct request *reqs;
    size_t n, cap;
    struct spoor_strpool *devs;   /* device names; id 0 is "" */
    uint64_t other;
};

static int64_t int_at(const struct spoor_column *c, size_t row)
{
    if (!c || !spoor_column_valid(c, row))
        return SPOOR_NULL;
    return c->type == SPOOR_I64 ? c->i64[row] : c->type == SPOOR_F64 ? (int64_t)c->f64[row] : SPOOR_NULL;
}

/* reduce(): the reads and writes of a batch, appended in input order. */
static int gather_batch(void *ctx, size_t input, const struct spoor_table *b)
{
    (void)input;
    struct gather *g = ctx;
    const struct spoor_column *dev = spoor_table_find_column(b, "dev");
    const struct spoor_column *sector = spoor_table_find_column(b, "sector");
    const struct spoor_column *bytes = spoor_table_find_column(b, "bytes");
    const struct spoor_column *depth = spoor_table_find_column(b, "queue_depth");
    if (!dev || dev->type != SPOOR_STR || !sector || !bytes || !depth)
        return SPOOR_OK; /* not a block trace: told after the load, by its format */
    uint32_t read_id = spoor_strpool_find(b->pool, "read", 4), write_id = spoor_strpool_find(b->pool, "write", 5);
    uint32_t last_batch_dev = UINT32_MAX, last_dev = 0;
    spoor_reserve((void **)&g->reqs, &g->cap, g->n + b->nrows, sizeof *g->reqs);
    for (size_t r = 0; r < b->nrows; r++) {
        int64_t s = int_at(sector, r), n = int_at(bytes, r), q = int_at(depth, r);
        bool rw = b->name[r] == read_id || b->name[r] == write_id;
        if (!rw || s == SPOOR_NULL || n == SPOOR_NULL || q == SPOOR_NULL || !spoor_column_valid(dev, r)) {
            g->other++;
            continue;
        }
        if (dev->str[r] != last_batch_dev) {
            size_t len;
            const char *name = spoor_strpool_get(b->pool, dev->str[r], &len);
            last_batch_dev = dev->str[r];
            last_dev = spoor_strpool_intern(g->devs, name, len);
        }
        g->reqs[g->n++] = (struct request){.ts = b->ts[r], .dur = b->dur[r], .sector = s, .bytes = (uint32_t)n,
                                           .queue_depth = (uint32_t)q, .dev = last_dev,
                                           .op = b->name[r] == read_id ? SPOOR_WINDOW_READ : SPOOR_WINDOW_WRITE};
    }
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

/* Each request's distance from the end of the one before it of the same
 * device and operation, in issue order, in place of its sector. */
static void measure_distances(struct gather *g, const uint32_t *rows)
{
    int64_t prev_end[SPOOR_WINDOW_NOPS];
    uint32_t dev = UINT32_MAX;
    for (size_t i = 0; i < g->n; i++) {
        struct request *q = &g->reqs[rows[i]];
        if (q->dev != dev) {
            dev = q->dev;
            prev_end[0] = prev_end[1] = -1;
        }
        int64_t start = q->sector, prev = prev_end[q->op];
        prev_end[q->op] = start + q->bytes / SECTOR_BYTES;
        q->sector = prev < 0 ? -1 : start > prev ? start - prev : prev - start;
    }
}

/* Room to sort one group's values: keys (overwritten by the sort), their
 * spare, the sorted values and the row numbers the sort orders. */
struct scratch {
    uint64_t *lat, *size, *spare, *sorted;
    uint32_t *rows;
};

/* values[0..n) (non-negative) sorted into s->sorted, through the one radix sort. */
static const int64_t *sorted_values(uint64_t *values, size_t n, struct scratch *s)
{
    struct spoor_key_span span = spoor_key_span_start();
    for (size_t i = 0; i < n; i++)
        spoor_key_span_add(&span, values[i]);
    spoor_radix_sort_rows(s->rows, s->sorted, n, values, s->spare, &span);
    return (const int64_t *)s->sorted;
}

/* The sums of one operation over reqs[rows[0..n)] (those of op only). */
static void sum_op(const struct request *reqs, const uint32_t *rows, size_t n, uint8_t op, struct scratch *s,
                   struct spoor_window_op *o)
{
    size_t k = 0;
    double lat_sum = 0, depth_sum = 0, dist_sum = 0;
    uint64_t jumps = 0, sequential = 0;
    *o = (struct spoor_window_op){0};
    for (size_t i = 0; i < n; i++) {
        const struct request *q = &reqs[rows[i]];
        if (q->op != op)
            continue;
        s->lat[k] = (uint64_t)q->dur; /* a completion is never before its issue */
        s->size[k++] = q->bytes;
        o->bytes += q->bytes;
        lat_sum += (double)q->dur;
        depth_sum += q->queue_depth;
        if (q->sector >= 0) {
            o->with_previous++;
            dist_sum += (double)q->sector;
            jumps += q->sector * SECTOR_BYTES > JUMP_BYTES;
            sequential += q->sector == 0;
        }
    }
    o->requests = k;
    if (k) {
        o->size_mean = (double)o->bytes / (double)k;
        o->size_median = spoor_quantile_sorted(sorted_values(s->size, k, s), k, 0.5);
        o->lat_mean = lat_sum / (double)k;
        const int64_t *lat = sorted_values(s->lat, k, s);
        o->lat_p50 = spoor_quantile_sorted(lat, k, 0.5);
        o->lat_p99 = spoor_quantile_sorted(lat, k, 0.99);
        o->queue_depth_mean = depth_sum / (double)k;
    }
    if (o->with_previous) {
        o->distance_mean = dist_sum / (double)o->with_previous;
        o->jump_ratio = (double)jumps / (double)o->with_previous;
        o->sequential_ratio = (double)sequential / (double)o->with_previous;
    }
}

/* The windows of the requests: rows regrouped by (window, device) and summed
 * group by group. */
static void make_windows(const struct gather *g, uint32_t *rows, uint64_t *key, const struct spoor_windows_opts *wo,
                         struct spoor_windows *out)
{
    if (!g->n)
        return;
    int64_t t0 = INT64_MAX;
    for (size_t i = 0; i < g->n; i++)
        t0 = g->reqs[i].ts < t0 ? g->reqs[i].ts : t0;
    uint64_t ndevs = wo->by_dev ? spoor_strpool_count(g->devs) : 1;
    for (size_t i = 0; i < g->n; i++) {
        const struct request *q = &g->reqs[i];
        key[i] = (uint64_t)((q->ts - t0) / wo->every_ns) * ndevs + (wo->by_dev ? q->dev : 0);
    }
    sort_again(rows, g->n, key);
    struct scratch s = {0};
    size_t cap = 0, room = 0;
    for (size_t i = 0; i < g->n;) {
        size_t j = i;
        while (j < g->n && key[rows[j]] == key[rows[i]])
            j++;
        if (j - i > room) {
            room = 2 * (j - i);
            s.lat = spoor_xrealloc(s.lat, room * sizeof *s.lat);
            s.size = spoor_xrealloc(s.size, room * sizeof *s.size);
            s.spare = spoor_xrealloc(s.spare, room * sizeof *s.spare);
            s.sorted = spoor_xrealloc(s.sorted, room * sizeof *s.sorted);
            s.rows = spoor_xrealloc(s.rows, room * sizeof *s.rows);
        }
        spoor_reserve((void **)&out->windows, &cap, out->nwindows + 1, sizeof *out->windows);
        struct spoor_window *w = &out->windows[out->nwindows++];
        w->start_ns = t0 + (int64_t)(key[rows[i]] / ndevs) * wo->every_ns;
        w->dev = (uint32_t)(key[rows[i]] % ndevs);
        for (uint8_t op = 0; op < SPOOR_WINDOW_NOPS; op++)
            sum_op(g->reqs, rows + i, j - i, op, &s, &w->ops[op]);
        i = j;
    }
    free(s.lat);
    free(s.size);
    free(s.spare);
    free(s.sorted);
    free(s.rows);
}

static bool is_block_format(const struct spoor_input_report *in)
{
    const char *name = in->dialect.format ? in->dialect.format->name : "";
    return !strcmp(name, "blkparse") || !strcmp(name, "ftrace") || !strcmp(name, "lttng");
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
        if (!is_block_format(&res->inputs[i]))
            st = spoor_fail(err, SPOOR_EFORMAT,
                            "%s: not a block-layer trace (read as %s); windows reads blkparse, ftrace or lttng",
                            res->inputs[i].path, res->inputs[i].dialect.name);
    if (st == SPOOR_OK) {
        uint64_t *key = spoor_xmalloc((g.n ? g.n : 1) * sizeof *key), *spare = spoor_xmalloc((g.n ? g.n : 1) * 8);
        uint32_t *rows = issue_order(&g, key, spare);
        free(spare);
        measure_distances(&g, rows);
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
