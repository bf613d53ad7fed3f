/* The series recipe's streaming pass: each worker puts a batch's rows in
 * group order (series_order.c), then chunk by chunk reads each metric's values
 * in that order (series_values.c) and feeds per-group moments, co-moments,
 * hour x weekday and resampling sums (series_group_pass.c) into the batch's
 * partial, which reduce merges into the totals in input order
 * (series_partial.c). Metric and group ids are global (a registry under a
 * lock, touched once per batch and per new group), so partials and totals
 * merge index by index. */
#include "analyze/series_run.h"
#include "spoor/error.h"

#include <stdlib.h>
#include <string.h>

enum { NO_GROUP = UINT32_MAX };

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
    if (w->view_cap < b->ncols) {
        w->view_cap = b->ncols;
        w->view_id = spoor_xrealloc(w->view_id, w->view_cap * sizeof *w->view_id);
        w->view_col = spoor_xrealloc(w->view_col, w->view_cap * sizeof *w->view_col);
        w->view_n = spoor_xrealloc(w->view_n, w->view_cap * sizeof *w->view_n);
    }
    size_t n = 0;
    pthread_mutex_lock(&run->mu);
    for (size_t k = 0; k < b->ncols; k++) {
        size_t len;
        const char *name = spoor_strpool_get(b->pool, b->cols[k].name, &len);
        uint32_t id = series_metric_id(run, name, len);
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
 * (into local_end, where series_order_rows starts from them). */
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
    w->part = series_partial_take(run, w, &v, nlocal);
    series_order_rows(run, w, b, nlocal);
    series_group_pass(w, &v, run->opts.corr);
    series_partial_park(run, w->part, b);
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
        size_t len;
        const char *name = spoor_strpool_get(b->pool, b->cols[k].name, &len);
        uint32_t id = series_metric_id(run, name, len);
        if (id != SERIES_NOT_METRIC && run->rank[id] == SERIES_NO_RANK)
            run->rank[id] = run->next_rank++;
    }
    pthread_mutex_unlock(&run->mu);
    series_partial_reduce(run, b);
    return SPOOR_OK;
}

struct spoor_sink spoor_series_sink(struct spoor_series_run *run)
{
    return (struct spoor_sink){.ctx = run, .map = series_map, .reduce = series_reduce};
}
