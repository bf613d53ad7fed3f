/* Stage 1 of the series recipe (see series_internal.h): the run. Its options
 * (parsed from the command line's text), the registry of metrics and groups
 * (global ids under a lock, touched once per batch and per new group, so
 * partials and totals merge index by index), and the streaming pass: each
 * worker finds a batch's metric columns and local groups, then passes its
 * rows (series_rows.c) into the batch's partial; reduce merges the partials
 * into the totals in input order; the end turns those into the answer
 * (series_result.c). */
#include "analyze/series_internal.h"
#include "spoor/error.h"
#include "util/grow.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define SERIES_NOT_METRIC UINT32_MAX
#define SERIES_NO_RANK UINT32_MAX
enum { NO_GROUP = UINT32_MAX };

/* A capacity of at least n: cap doubled, or `first` doubled when there was none. */
static inline size_t series_grown(size_t cap, size_t first, size_t n)
{
    size_t c = cap ? cap : first;
    while (c < n)
        c *= 2;
    return c;
}

/* The option value of `spoor series` that is not a plain number or a
 * duration (spoor_parse_duration): a fixed UTC offset ("+05:30"). */
bool spoor_series_parse_offset(const char *s, int64_t *ns)
{
    if (!strcmp(s, "Z") || !strcmp(s, "0") || !strcmp(s, "UTC")) {
        *ns = 0;
        return true;
    }
    if (*s != '+' && *s != '-')
        return false;
    int sign = *s == '-' ? -1 : 1;
    const char *p = s + 1;
    size_t len = strlen(p);
    bool colon = len == 5 && p[2] == ':';
    if (len != 2 && len != 4 && !colon)
        return false;
    int digits[4], nd = 0;
    for (size_t i = 0; i < len; i++) {
        if (colon && i == 2)
            continue;
        if (!isdigit((unsigned char)p[i]))
            return false;
        digits[nd++] = p[i] - '0';
    }
    int hours = digits[0] * 10 + digits[1], minutes = nd == 4 ? digits[2] * 10 + digits[3] : 0;
    if (hours > 14 || minutes > 59)
        return false;
    *ns = sign * ((int64_t)hours * 3600 + minutes * 60) * 1000000000LL;
    return true;
}

struct spoor_series_run *spoor_series_begin(const struct spoor_series_opts *opts, int threads)
{
    struct spoor_series_run *run = spoor_xcalloc(1, sizeof *run);
    run->opts.has_group = opts->groups;
    run->opts.listed = opts->metrics != NULL;
    run->opts.profile = opts->profile;
    run->opts.corr = opts->corr;
    run->opts.resample_ns = opts->resample_ns;
    run->opts.utc_offset_ns = opts->utc_offset_ns;
    run->opts.profile_from_buckets =
        opts->profile && opts->resample_ns > 0 && 3600000000000LL % opts->resample_ns == 0;
    pthread_mutex_init(&run->mu, NULL);
    run->metric_names = spoor_strpool_new();
    run->groups = spoor_strpool_new();
    for (size_t i = 0; i < opts->nmetrics; i++) {
        spoor_strpool_intern(run->metric_names, opts->metrics[i], strlen(opts->metrics[i]));
        run->nmetrics = spoor_strpool_count(run->metric_names) - 1;
        run->rank = spoor_xrealloc(run->rank, run->nmetrics * sizeof *run->rank);
        run->rank[run->nmetrics - 1] = (uint32_t)(run->nmetrics - 1); /* listed: the order given */
    }
    run->next_rank = (uint32_t)run->nmetrics;
    run->nworkers = threads;
    run->workers = spoor_xcalloc((size_t)threads, sizeof *run->workers);
    series_buckets_init(&run->totals.buckets, 0);
    return run;
}

/* The id of the metric in batch column k, registering it when every numeric
 * column is a metric; SERIES_NOT_METRIC when it is none. Called with mu held. */
static uint32_t column_metric(struct spoor_series_run *run, const struct spoor_table *b, size_t k)
{
    size_t len;
    const char *name = spoor_strpool_get(b->pool, b->cols[k].name, &len);
    if (!len)
        return SERIES_NOT_METRIC;
    uint32_t id = spoor_strpool_find(run->metric_names, name, len);
    if (id != UINT32_MAX)
        return id - 1;
    if (run->opts.listed)
        return SERIES_NOT_METRIC;
    id = spoor_strpool_intern(run->metric_names, name, len);
    run->nmetrics = id;
    if (run->rank_cap < run->nmetrics) {
        run->rank_cap = run->nmetrics * 2;
        run->rank = spoor_xrealloc(run->rank, run->rank_cap * sizeof *run->rank);
    }
    run->rank[id - 1] = SERIES_NO_RANK;
    return id - 1;
}

/* Grows the worker's per-metric counts to n metrics. */
static void worker_widen(struct series_worker *w, size_t n)
{
    if (n <= w->mcap)
        return;
    size_t cap = series_grown(w->mcap, 8, n);
    w->non_numeric = spoor_xrealloc(w->non_numeric, cap * sizeof *w->non_numeric);
    memset(w->non_numeric + w->mcap, 0, (cap - w->mcap) * sizeof *w->non_numeric);
    w->mcap = cap;
}

static void worker_grow_groups(struct series_worker *w, size_t n)
{
    if (n <= w->gcap)
        return;
    size_t cap = series_grown(w->gcap, 16, n);
    w->group_rows = spoor_xrealloc(w->group_rows, cap * sizeof *w->group_rows);
    memset(w->group_rows + w->gcap, 0, (cap - w->gcap) * sizeof *w->group_rows);
    w->gcap = cap;
}

/* Finds the batch's metric columns, registering new metrics, sizes the value
 * arrays and finds each metric's values in row order. */
static void view_batch(struct spoor_series_run *run, struct series_worker *w, const struct spoor_table *b,
                       struct batch_view *v)
{
    struct spoor_lane lanes[] = {SPOOR_LANE(w->view_id), SPOOR_LANE(w->view_col), SPOOR_LANE(w->view_n)};
    spoor_reserve_lanes(&w->view_cap, b->ncols, lanes, sizeof lanes / sizeof *lanes);
    size_t n = 0;
    pthread_mutex_lock(&run->mu);
    for (size_t k = 0; k < b->ncols; k++) {
        uint32_t id = column_metric(run, b, k);
        if (id == SERIES_NOT_METRIC)
            continue;
        w->view_id[n] = id;
        w->view_col[n++] = &b->cols[k];
    }
    size_t nmetrics = run->nmetrics;
    pthread_mutex_unlock(&run->mu);
    worker_widen(w, nmetrics ? nmetrics : 1);

    if (w->values_rows < b->nrows || w->values_n < n) {
        for (size_t k = 0; k < w->values_n; k++)
            free(w->values[k]);
        w->values_rows = b->nrows > w->values_rows ? b->nrows : w->values_rows;
        w->values_n = n > w->values_n ? n : w->values_n;
        /* the arrays, then as many borrowed pointers: the sources */
        w->values = spoor_xrealloc(w->values, 2 * w->values_n * sizeof *w->values);
        for (size_t k = 0; k < w->values_n; k++)
            w->values[k] = spoor_xmalloc(2 * w->values_rows * sizeof **w->values);
    }
    *v = (struct batch_view){.n = n,
                             .id = w->view_id,
                             .cols = w->view_col,
                             .source = w->values + w->values_n,
                             .values = w->values,
                             .numbers = w->view_n};
    for (size_t k = 0; k < n; k++)
        v->source[k] = series_column_source(b, w->view_col[k], w->values[k] + w->values_rows,
                                            &w->non_numeric[w->view_id[k]]);
}

/* The group in string s, seen for the first time in the batch: its global id
 * comes from the registry (under the lock), and it gets a batch-local index
 * unless another string of the batch named it. */
static void first_sight(struct spoor_series_run *run, struct series_worker *w, const struct spoor_table *b, uint32_t s,
                        size_t *nlocal)
{
    size_t len;
    const char *text = spoor_strpool_get(b->pool, s, &len);
    pthread_mutex_lock(&run->mu);
    uint32_t g = spoor_strpool_intern(run->groups, text, len);
    pthread_mutex_unlock(&run->mu);
    w->gid_of_str[s] = g;
    worker_grow_groups(w, (size_t)g + 1);
    if (w->local_cap <= g) {
        size_t cap = series_grown(w->local_cap, 64, (size_t)g + 1);
        w->local_of = spoor_xrealloc(w->local_of, cap * sizeof *w->local_of);
        for (size_t i = w->local_cap; i < cap; i++)
            w->local_of[i] = NO_GROUP;
        w->local_cap = cap;
    }
    if (w->local_of[g] == NO_GROUP) {
        w->local_of[g] = (uint32_t)*nlocal;
        w->local_end[*nlocal] = 0; /* its rows, counted by group_rows */
        w->local_gid[(*nlocal)++] = g;
    }
}

/* The batch's local group of every row (global group 0 when no group field),
 * so per-batch sums use a small dense array, and each local group's rows
 * (into local_end, where series_rows_pass starts from them). */
static size_t group_rows(struct spoor_series_run *run, struct series_worker *w, const struct spoor_table *b)
{
    size_t pool_n = spoor_strpool_count(b->pool);
    if (w->gid_cap < pool_n) {
        w->gid_cap = pool_n;
        w->gid_of_str = spoor_xrealloc(w->gid_of_str, pool_n * sizeof *w->gid_of_str);
    }
    for (size_t i = 0; i < pool_n; i++)
        w->gid_of_str[i] = NO_GROUP;
    size_t nlocal = 0, r = 0;
    bool has_group = run->opts.has_group;
    while (r < b->nrows) {
        /* up to the next row whose group is new to the batch, with no call in
         * the loop, so it keeps its pointers in registers */
        const uint32_t *name = b->name, *gid_of_str = w->gid_of_str, *local_of = w->local_of;
        uint32_t *count = w->local_end, *row_local = w->row_local, g;
        for (; r < b->nrows && (g = gid_of_str[has_group ? name[r] : 0]) != NO_GROUP; r++) {
            row_local[r] = local_of[g];
            count[local_of[g]]++;
        }
        if (r < b->nrows)
            first_sight(run, w, b, has_group ? name[r] : 0, &nlocal);
    }
    for (size_t l = 0; l < nlocal; l++)
        w->group_rows[w->local_gid[l]] += w->local_end[l];
    return nlocal;
}

/* Scratch sized for a batch of `rows` rows (so at most `rows` local groups).
 * The per-row arrays share row_local's block: row_local padded to an even
 * number of words, so the found span starts after it have their int64
 * aligned, then the rest, thirteen words a row and five more (group_spans,
 * chunk_group and spans have an end mark each). */
static void worker_scratch(struct series_worker *w, size_t rows)
{
    if (w->row_cap >= rows)
        return;
    w->row_cap = rows;
    size_t padded = rows + (rows & 1);
    uint32_t *block = spoor_xrealloc(w->row_local, padded * sizeof *block + rows * sizeof *w->found +
                                                       (13 * rows + 5) * sizeof *block);
    w->row_local = block;
    w->found = (struct series_span_start *)(block + padded);
    uint32_t *rest = (uint32_t *)(w->found + rows);
    w->chunk_row = rest;
    w->chunk_place = rest + rows;
    w->chunk_next = rest + 2 * rows;
    w->local_chunk = rest + 3 * rows;
    w->local_end = rest + 4 * rows;
    w->local_slot = rest + 5 * rows;
    w->local_spans = rest + 6 * rows;
    w->group_spans = rest + 7 * rows;
    w->chunk_group = rest + 8 * rows + 1;
    w->spans = (struct series_span *)(rest + 9 * rows + 2);
    w->local_gid = spoor_xrealloc(w->local_gid, rows * sizeof *w->local_gid);
    w->local_bucket = spoor_xrealloc(w->local_bucket, rows * sizeof *w->local_bucket);
}

/* Each batch's sums (its partial) and their merge in input order. Map fills
 * a batch's partial on whatever worker runs it; the loader hands reduce the
 * same batch table (its slot is not reused before that reduce), so the table
 * finds its partial and reduce merges it into the run's totals. Batches are
 * cut the same for any number of threads, so the totals take the same merges
 * in the same order and come out the same to the last bit. Only the batch's
 * groups and metrics are touched, and there are as many partials as batches
 * in flight. */

/* Room for nlocal groups of n metrics; never NULL (memcpy and memset of no
 * bytes still want a real pointer), even with no metric or no group. */
static void partial_size(struct series_partial *p, size_t nlocal, size_t n)
{
    if (p->gid_cap < nlocal || !p->gid) {
        p->gid_cap = series_grown(p->gid_cap, 64, nlocal);
        p->gid = spoor_xrealloc(p->gid, p->gid_cap * sizeof *p->gid);
    }
    if (p->id_cap < n || !p->id) {
        p->id_cap = series_grown(p->id_cap, 8, n);
        p->id = spoor_xrealloc(p->id, p->id_cap * sizeof *p->id);
        p->hour_weekday = spoor_xrealloc(p->hour_weekday, SERIES_SLOTS * p->id_cap * sizeof *p->hour_weekday);
        p->comoments = spoor_xrealloc(p->comoments, p->id_cap * p->id_cap * sizeof *p->comoments);
    }
    if (p->moments_cap < nlocal * n || !p->moments) {
        p->moments_cap = series_grown(p->moments_cap, 512, nlocal * n);
        p->moments = spoor_xrealloc(p->moments, p->moments_cap * sizeof *p->moments);
    }
}

/* A partial for a batch of nlocal groups (w->local_gid) and v's metrics,
 * empty: a free one of the run's or a new one. */
static struct series_partial *partial_take(struct spoor_series_run *run, const struct series_worker *w,
                                           const struct batch_view *v, size_t nlocal)
{
    pthread_mutex_lock(&run->mu);
    struct series_partial *p = run->partials;
    while (p && p->busy)
        p = p->next;
    if (!p) {
        p = spoor_xcalloc(1, sizeof *p);
        series_buckets_init(&p->buckets, 0);
        p->next = run->partials;
        run->partials = p;
    }
    p->busy = true;
    pthread_mutex_unlock(&run->mu);

    size_t n = v->n;
    partial_size(p, nlocal, n);
    p->nlocal = nlocal;
    p->n = n;
    if (nlocal) /* a batch's view has no arrays when it has no group or no metric */
        memcpy(p->gid, w->local_gid, nlocal * sizeof *p->gid);
    if (n)
        memcpy(p->id, v->id, n * sizeof *p->id);
    memset(p->hour_weekday, 0, SERIES_SLOTS * n * sizeof *p->hour_weekday);
    if (run->opts.corr)
        memset(p->comoments, 0, n * n * sizeof *p->comoments);
    series_buckets_clear(&p->buckets, n);
    return p;
}

/* Map is done with p: it waits for the reduce of batch b. */
static void partial_park(struct spoor_series_run *run, struct series_partial *p, const struct spoor_table *b)
{
    pthread_mutex_lock(&run->mu);
    p->batch = b;
    pthread_mutex_unlock(&run->mu);
}

/* Room in the totals for metric ids below m and group ids below g. */
static void totals_grow(struct series_totals *t, size_t m, size_t g, bool corr)
{
    if (m > t->mcap) {
        size_t cap = series_grown(t->mcap, 8, m);
        struct spoor_moments empty;
        series_moments_init(&empty);
        static const struct spoor_bucket_sum zero_sum = {0, 0};
        static const struct spoor_comoments zero_co = {0};
        t->moments = series_widen_matrix(t->moments, t->gcap, t->mcap, cap, sizeof *t->moments, &empty);
        t->hour_weekday = series_widen_matrix(t->hour_weekday, SERIES_SLOTS, t->mcap, cap, sizeof *t->hour_weekday,
                                              &zero_sum);
        if (corr) { /* cap x cap, old cells kept at their (i, j) */
            t->comoments = series_widen_matrix(t->comoments, t->mcap, t->mcap, cap, sizeof *t->comoments, &zero_co);
            t->comoments = spoor_xrealloc(t->comoments, cap * cap * sizeof *t->comoments);
            for (size_t i = t->mcap * cap; i < cap * cap; i++)
                t->comoments[i] = zero_co;
        }
        series_buckets_widen(&t->buckets, cap);
        t->mcap = cap;
    }
    if (g > t->gcap) {
        size_t cap = series_grown(t->gcap, 16, g);
        t->moments = spoor_xrealloc(t->moments, cap * t->mcap * sizeof *t->moments);
        for (size_t i = t->gcap * t->mcap; i < cap * t->mcap; i++)
            series_moments_init(&t->moments[i]);
        t->gcap = cap;
    }
}

/* The partial's resample entries appended to the totals' with their sums at
 * the global metric ids. */
static void append_entries(struct series_totals *t, const struct series_partial *p)
{
    const struct series_buckets *b = &p->buckets;
    for (size_t e = 0; e < b->n; e++) {
        size_t at = series_buckets_append(&t->buckets, b->group[e], b->bucket[e]);
        t->buckets.rows[at] = b->rows[e];
        for (size_t k = 0; k < p->n; k++)
            t->buckets.sums[at * t->buckets.stride + p->id[k]] = b->sums[e * b->stride + k];
    }
}

static void merge_partial(struct series_totals *t, const struct series_partial *p, bool corr)
{
    size_t n = p->n, m = 0, g = 0;
    for (size_t k = 0; k < n; k++)
        m = p->id[k] + (size_t)1 > m ? p->id[k] + (size_t)1 : m;
    for (size_t l = 0; l < p->nlocal; l++)
        g = p->gid[l] + (size_t)1 > g ? p->gid[l] + (size_t)1 : g;
    totals_grow(t, m, g, corr);
    for (size_t l = 0; l < p->nlocal; l++)
        for (size_t k = 0; k < n; k++)
            series_moments_merge(&t->moments[(size_t)p->gid[l] * t->mcap + p->id[k]], &p->moments[l * n + k]);
    for (size_t s = 0; s < SERIES_SLOTS; s++)
        for (size_t k = 0; k < n; k++) {
            const struct spoor_bucket_sum *from = &p->hour_weekday[s * n + k];
            series_bucket_add(&t->hour_weekday[s * t->mcap + p->id[k]], from->n, from->sum);
        }
    if (corr)
        for (size_t a = 0; a < n; a++)
            for (size_t c = a + 1; c < n; c++) {
                uint32_t i = p->id[a], j = p->id[c];
                struct spoor_comoments part = p->comoments[a * n + c];
                if (i > j) /* the totals hold (i, j) with i < j */
                    part = series_comoments_swapped(part);
                series_comoments_merge(&t->comoments[(size_t)(i < j ? i : j) * t->mcap + (i < j ? j : i)], &part);
            }
    append_entries(t, p);
}

/* Merges batch b's partial, if it had one, into the totals and frees it for
 * another batch. Called by reduce, in input order. */
static void partial_reduce(struct spoor_series_run *run, const struct spoor_table *b)
{
    pthread_mutex_lock(&run->mu);
    struct series_partial *p = run->partials;
    while (p && !(p->busy && p->batch == b))
        p = p->next;
    pthread_mutex_unlock(&run->mu);
    if (!p) /* an empty batch: map made none */
        return;
    merge_partial(&run->totals, p, run->opts.corr);
    pthread_mutex_lock(&run->mu);
    p->batch = NULL;
    p->busy = false;
    pthread_mutex_unlock(&run->mu);
}

static int series_map(void *ctx, int worker, const struct spoor_table *b)
{
    struct spoor_series_run *run = ctx;
    struct series_worker *w = &run->workers[worker];
    if (!b->nrows)
        return SPOOR_OK;
    worker_scratch(w, b->nrows);
    struct batch_view v;
    view_batch(run, w, b, &v);
    size_t nlocal = group_rows(run, w, b);
    w->rows += b->nrows;
    w->part = partial_take(run, w, &v, nlocal);
    series_rows_pass(run, w, b, &v, nlocal);
    partial_park(run, w->part, b);
    for (size_t g = 0; g < nlocal; g++)
        w->local_of[w->local_gid[g]] = NO_GROUP;
    return SPOOR_OK;
}

/* In input order: metrics are listed in the order they first appear, and the
 * batch's sums join the totals. */
static int series_reduce(void *ctx, size_t input, const struct spoor_table *b)
{
    (void)input;
    struct spoor_series_run *run = ctx;
    pthread_mutex_lock(&run->mu);
    for (size_t k = 0; k < b->ncols; k++) {
        uint32_t id = column_metric(run, b, k);
        if (id != SERIES_NOT_METRIC && run->rank[id] == SERIES_NO_RANK)
            run->rank[id] = run->next_rank++;
    }
    pthread_mutex_unlock(&run->mu);
    partial_reduce(run, b);
    return SPOOR_OK;
}

struct spoor_sink spoor_series_sink(struct spoor_series_run *run)
{
    return (struct spoor_sink){.ctx = run, .map = series_map, .reduce = series_reduce};
}

static void worker_free(struct series_worker *w)
{
    free(w->group_rows);
    free(w->non_numeric);
    free(w->view_id);
    free(w->view_col);
    free(w->view_n);
    for (size_t k = 0; k < w->values_n; k++)
        free(w->values[k]);
    free(w->values);
    free(w->gid_of_str);
    free(w->local_of);
    free(w->row_local);
    free(w->local_gid);
    free(w->local_bucket);
}

static void partials_free(struct spoor_series_run *run)
{
    while (run->partials) {
        struct series_partial *p = run->partials;
        run->partials = p->next;
        free(p->gid);
        free(p->id);
        free(p->moments);
        free(p->hour_weekday);
        free(p->comoments);
        series_buckets_release(&p->buckets);
        free(p);
    }
}

static void totals_free(struct series_totals *t)
{
    free(t->moments);
    free(t->hour_weekday);
    free(t->comoments);
    series_buckets_release(&t->buckets);
}

void spoor_series_end(struct spoor_series_run *run, struct spoor_series *out)
{
    series_result(run, out);
    for (int k = 0; k < run->nworkers; k++)
        worker_free(&run->workers[k]);
    partials_free(run);
    totals_free(&run->totals);
    free(run->workers);
    free(run->rank);
    spoor_strpool_free(run->metric_names);
    spoor_strpool_free(run->groups);
    pthread_mutex_destroy(&run->mu);
    free(run);
}

int spoor_series_load(const char *const *paths, size_t npaths, const struct spoor_load_opts *opts,
                      const struct spoor_series_opts *so, struct spoor_series *out, struct spoor_load_result *res,
                      struct spoor_error *err)
{
    struct spoor_series_run *run = spoor_series_begin(so, spoor_load_threads(opts));
    struct spoor_sink sink = spoor_series_sink(run);
    int st = spoor_load(paths, npaths, opts, &sink, res, err);
    spoor_series_end(run, out);
    return st;
}
