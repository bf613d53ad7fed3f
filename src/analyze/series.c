/* The series recipe's streaming pass: each worker turns a batch into dense
 * value arrays (NaN = no number), then feeds per-group moments, hour x weekday
 * sums, co-moments and resampling buckets. Metric and group ids are global
 * (a registry under a lock, touched once per batch and per new group), so
 * worker accumulators merge index by index at the end (series_result.c). */
#include "analyze/series_run.h"
#include "spoor/error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { NO_GROUP = UINT32_MAX, DAY_HOURS = 24 };
static const int64_t ns_per_hour = 3600000000000LL;
static const int64_t ns_per_day = 86400000000000LL;

static int64_t floor_div(int64_t a, int64_t b) { return a / b - (a % b != 0 && (a < 0) != (b < 0)); }

/* Grows the worker's per-metric state to n metrics. */
static void worker_widen(struct series_worker *w, size_t n)
{
    if (n <= w->mcap)
        return;
    size_t cap = w->mcap ? w->mcap : 8;
    while (cap < n)
        cap *= 2;
    struct spoor_moments empty;
    series_moments_init(&empty);
    static const struct spoor_bucket_sum zero_sum = {0, 0};
    static const struct spoor_comoments zero_co = {0};
    static const uint64_t zero = 0;
    w->moments = series_widen_matrix(w->moments, w->gcap, w->mcap, cap, sizeof *w->moments, &empty);
    w->non_numeric = series_widen_matrix(w->non_numeric, 1, w->mcap, cap, sizeof *w->non_numeric, &zero);
    w->hour_weekday = series_widen_matrix(w->hour_weekday, SERIES_SLOTS, w->mcap, cap, sizeof *w->hour_weekday,
                                          &zero_sum);
    if (w->corr) {
        /* cap x cap, old cells kept at their (i, j) */
        w->comoments = series_widen_matrix(w->comoments, w->mcap, w->mcap, cap, sizeof *w->comoments, &zero_co);
        w->comoments = spoor_xrealloc(w->comoments, cap * cap * sizeof *w->comoments);
        for (size_t i = w->mcap * cap; i < cap * cap; i++)
            w->comoments[i] = zero_co;
    }
    series_buckets_widen(&w->buckets, cap);
    w->mcap = cap;
}

static void worker_grow_groups(struct series_worker *w, size_t n)
{
    if (n <= w->gcap)
        return;
    size_t cap = w->gcap ? w->gcap : 16;
    while (cap < n)
        cap *= 2;
    w->moments = spoor_xrealloc(w->moments, cap * w->mcap * sizeof *w->moments);
    for (size_t i = w->gcap * w->mcap; i < cap * w->mcap; i++)
        series_moments_init(&w->moments[i]);
    w->group_rows = spoor_xrealloc(w->group_rows, cap * sizeof *w->group_rows);
    memset(w->group_rows + w->gcap, 0, (cap - w->gcap) * sizeof *w->group_rows);
    w->gcap = cap;
}

/* The worker's view of one batch: metric id and values of each metric column. */
struct batch_view {
    size_t n;
    uint32_t *id;     /* global metric id per batch metric */
    double **values;  /* per batch metric: rows values, NaN = none */
};

/* Whether text is a whole finite number; its value in *v. */
static bool text_number(const char *s, double *v)
{
    char *end;
    *v = strtod(s, &end);
    return end != s && *end == '\0' && isfinite(*v);
}

/* column_values for a float column (the usual metric): 64 rows at a time, a
 * plain copy when all 64 are there and finite (1e999 reads as inf), else row
 * by row with the absent and non-finite ones made NaN. Reads the array under
 * unset rows too; what it holds there is never used. */
static void float_values(const struct spoor_column *c, size_t rows, double *out, uint64_t *non_numeric)
{
    const double *f = c->f64;
    for (size_t start = 0; start < rows; start += 64) {
        size_t end = rows - start < 64 ? rows : start + 64;
        bool all_there = c->valid[start >> 6] == (end - start == 64 ? ~0ULL : (1ULL << (end - start)) - 1);
        bool odd = false; /* some v - v is not 0: v is inf or NaN (an OR, not a chain of adds) */
        for (size_t r = start; r < end; r++) {
            out[r] = f[r];
            odd |= !(f[r] - f[r] == 0);
        }
        if (all_there && !odd)
            continue;
        for (size_t r = start; r < end; r++) {
            bool there = (c->valid[r >> 6] >> (r & 63)) & 1;
            out[r] = there && f[r] - f[r] == 0 ? f[r] : NAN;
            *non_numeric += there && f[r] - f[r] != 0;
        }
    }
}

/* Dense values of a column; counts values that are there but not numbers. */
static void column_values(const struct spoor_table *b, const struct spoor_column *c, double *out, uint64_t *non_numeric)
{
    if (c->typed && c->type == SPOOR_F64) {
        float_values(c, b->nrows, out, non_numeric);
        return;
    }
    const uint64_t *valid = c->valid;
    for (size_t r = 0; r < b->nrows; r++) {
        out[r] = NAN;
        if (!c->typed || !((valid[r >> 6] >> (r & 63)) & 1))
            continue;
        double v;
        if (c->type == SPOOR_F64)
            v = c->f64[r];
        else if (c->type == SPOOR_I64)
            v = (double)c->i64[r];
        else if (!text_number(spoor_table_str(b, c->str[r]), &v))
            v = NAN;
        if (isfinite(v))
            out[r] = v;
        else
            ++*non_numeric;
    }
}

/* Finds the batch's metric columns, registering new metrics. */
static void view_batch(struct spoor_series_run *run, struct series_worker *w, const struct spoor_table *b,
                       struct batch_view *v)
{
    if (w->view_cap < b->ncols) {
        w->view_cap = b->ncols;
        w->view_id = spoor_xrealloc(w->view_id, w->view_cap * sizeof *w->view_id);
        w->view_col = spoor_xrealloc(w->view_col, w->view_cap * sizeof *w->view_col);
        w->view_n = spoor_xrealloc(w->view_n, w->view_cap * sizeof *w->view_n);
        w->view_sum = spoor_xrealloc(w->view_sum, w->view_cap * sizeof *w->view_sum);
        w->view_m2 = spoor_xrealloc(w->view_m2, w->view_cap * sizeof *w->view_m2);
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
        w->values = spoor_xrealloc(w->values, w->values_n * sizeof *w->values);
        for (size_t k = 0; k < w->values_n; k++)
            w->values[k] = spoor_xmalloc(w->values_rows * sizeof **w->values);
    }
    for (size_t k = 0; k < n; k++)
        column_values(b, w->view_col[k], w->values[k], &w->non_numeric[w->view_id[k]]);
    *v = (struct batch_view){.n = n, .id = w->view_id, .values = w->values};
}

/* Global group id of every row (0 when no group field) and the batch's local
 * index of each, so per-batch sums use a small dense array. */
static size_t group_rows(struct spoor_series_run *run, struct series_worker *w, const struct spoor_table *b)
{
    size_t pool_n = spoor_strpool_count(b->pool);
    if (w->gid_cap < pool_n) {
        w->gid_cap = pool_n;
        w->gid_of_str = spoor_xrealloc(w->gid_of_str, pool_n * sizeof *w->gid_of_str);
    }
    for (size_t i = 0; i < pool_n; i++)
        w->gid_of_str[i] = NO_GROUP;
    size_t nlocal = 0;
    for (size_t r = 0; r < b->nrows; r++) {
        uint32_t s = run->opts.has_group ? b->name[r] : 0;
        if (w->gid_of_str[s] == NO_GROUP) {
            size_t len;
            const char *text = spoor_strpool_get(b->pool, s, &len);
            pthread_mutex_lock(&run->mu);
            uint32_t g = spoor_strpool_intern(run->groups, text, len);
            pthread_mutex_unlock(&run->mu);
            w->gid_of_str[s] = g;
            worker_grow_groups(w, (size_t)g + 1);
            if (w->local_cap <= g) {
                size_t cap = w->local_cap ? w->local_cap : 64;
                while (cap <= g)
                    cap *= 2;
                w->local_of = spoor_xrealloc(w->local_of, cap * sizeof *w->local_of);
                for (size_t i = w->local_cap; i < cap; i++)
                    w->local_of[i] = NO_GROUP;
                w->local_cap = cap;
            }
            if (w->local_of[g] == NO_GROUP) {
                w->local_of[g] = (uint32_t)nlocal;
                w->local_gid[nlocal++] = g;
            }
        }
        w->row_local[r] = w->local_of[w->gid_of_str[s]];
        w->group_rows[w->gid_of_str[s]]++;
    }
    return nlocal;
}

/* The batch's moments finished: per metric the group means, the batch's count
 * and sum, the squared deviations about the group means (a second pass), then
 * each (group, metric) merged into the worker's. add_rows gave the counts,
 * sums, minima and maxima. */
static void finish_moments(struct series_worker *w, const struct batch_view *v, size_t rows, size_t nlocal)
{
    size_t n = v->n;
    struct spoor_moments *local = w->local_moments;
    for (size_t k = 0; k < n; k++) {
        const double *x = v->values[k];
        w->view_n[k] = 0;
        w->view_sum[k] = 0;
        for (size_t g = 0; g < nlocal; g++) {
            struct spoor_moments *m = &local[g * n + k];
            m->mean = m->n ? m->sum / (double)m->n : 0;
            w->view_n[k] += m->n;
            w->view_sum[k] += m->sum;
        }
        for (size_t r = 0; r < rows; r++)
            if (x[r] == x[r]) {
                struct spoor_moments *m = &local[(size_t)w->row_local[r] * n + k];
                double d = x[r] - m->mean;
                m->m2 += d * d;
            }
        for (size_t g = 0; g < nlocal; g++)
            series_moments_merge(&w->moments[(size_t)w->local_gid[g] * w->mcap + v->id[k]], &local[g * n + k]);
    }
}

unsigned series_hour_weekday_slot(int64_t local_ns)
{
    int64_t day = floor_div(local_ns, ns_per_day);
    int64_t hour = (local_ns - day * ns_per_day) / ns_per_hour;
    int64_t weekday = ((day + 3) % 7 + 7) % 7; /* 1970-01-01 was a Thursday */
    return (unsigned)(weekday * DAY_HOURS + hour);
}

static void add_profile(struct series_worker *w, const struct spoor_table *b, const struct batch_view *v,
                        int64_t offset)
{
    int64_t last_ts = SPOOR_NULL;
    unsigned slot = 0;
    for (size_t r = 0; r < b->nrows; r++) {
        if (b->ts[r] == SPOOR_NULL)
            continue;
        if (b->ts[r] != last_ts) /* the groups of a table often share each time */
            slot = series_hour_weekday_slot((last_ts = b->ts[r]) + offset);
        w->hour_weekday_rows[slot]++;
        struct spoor_bucket_sum *sums = w->hour_weekday + (size_t)slot * w->mcap;
        for (size_t k = 0; k < v->n; k++) {
            double x = v->values[k][r];
            if (x == x) {
                sums[v->id[k]].n++;
                sums[v->id[k]].sum += x;
            }
        }
    }
}

/* Merges the co-moments of batch metrics a and c (global ids ordered i < j). */
static void merge_pair(struct series_worker *w, const struct batch_view *v, size_t a, size_t c,
                       struct spoor_comoments part)
{
    uint32_t i = v->id[a], j = v->id[c];
    if (i > j) {
        uint32_t t = i;
        i = j;
        j = t;
        double mx = part.mean_x, m2x = part.m2_x;
        part.mean_x = part.mean_y;
        part.m2_x = part.m2_y;
        part.mean_y = mx;
        part.m2_y = m2x;
    }
    series_comoments_merge(&w->comoments[(size_t)i * w->mcap + j], &part);
}

/* Sum of x[r] * y[r] in four interleaved partial sums: they vectorise and
 * do not wait on each other's additions. */
static double dot(const double *x, const double *y, size_t rows)
{
    typedef double pair __attribute__((vector_size(16)));
    pair s0 = {0, 0}, s1 = {0, 0};
    size_t r = 0;
    for (; r + 4 <= rows; r += 4) {
        pair x0, y0, x1, y1;
        memcpy(&x0, x + r, sizeof x0);
        memcpy(&y0, y + r, sizeof y0);
        memcpy(&x1, x + r + 2, sizeof x1);
        memcpy(&y1, y + r + 2, sizeof y1);
        s0 += x0 * y0;
        s1 += x1 * y1;
    }
    double sum = (s0[0] + s1[0]) + (s0[1] + s1[1]);
    for (; r < rows; r++)
        sum += x[r] * y[r];
    return sum;
}

/* Every metric holds a number in every row (the usual case): the values
 * become deviations from the batch means in place (so this runs last), then
 * every pair's co-moment is one dot product. */
static void add_comoments_complete(struct series_worker *w, const struct batch_view *v, size_t rows)
{
    size_t n = v->n;
    double *mean = w->view_sum;
    for (size_t k = 0; k < n; k++) {
        mean[k] /= (double)rows; /* the sums become means */
        double *x = v->values[k];
        for (size_t r = 0; r < rows; r++)
            x[r] -= mean[k];
    }
    double *m2 = w->view_m2;
    for (size_t k = 0; k < n; k++)
        m2[k] = dot(v->values[k], v->values[k], rows);
    for (size_t a = 0; a < n; a++)
        for (size_t c = a + 1; c < n; c++)
            merge_pair(w, v, a, c,
                       (struct spoor_comoments){rows, mean[a], mean[c], m2[a], m2[c],
                                                dot(v->values[a], v->values[c], rows)});
}

static void add_comoments(struct series_worker *w, const struct batch_view *v, size_t rows)
{
    if (v->n < 2)
        return;
    bool complete = true;
    for (size_t k = 0; k < v->n; k++)
        complete = complete && w->view_n[k] == rows;
    if (complete) {
        add_comoments_complete(w, v, rows);
        return;
    }
    for (size_t a = 0; a < v->n; a++)
        for (size_t c = a + 1; c < v->n; c++) {
            struct spoor_comoments part;
            series_comoments_of(v->values[a], v->values[c], rows, &part);
            merge_pair(w, v, a, c, part);
        }
}

/* The resample entry of a row's group and bucket: each group's last one is
 * remembered, as a group's rows mostly stay in its bucket. */
static size_t bucket_entry(struct series_worker *w, uint32_t local, int64_t bucket)
{
    if (w->local_bucket[local] != bucket) {
        w->local_bucket[local] = bucket;
        w->local_entry[local] = series_buckets_get(&w->buckets, w->local_gid[local], bucket);
    }
    return w->local_entry[local];
}

/* One pass over the rows feeds both per-row sums: each (group, metric)'s
 * count, sum, minimum and maximum, and when resampling each (group, bucket)'s
 * counts and sums. One pass loads each value and each row's group once, where
 * a pass per metric and another for the buckets loaded them again. */
static void add_rows(struct spoor_series_run *run, struct series_worker *w, const struct spoor_table *b,
                     const struct batch_view *v, size_t nlocal)
{
    size_t n = v->n, need = nlocal * n > 0 ? nlocal * n : 1; /* never NULL, even with no metric */
    if (w->local_moments_cap < need) {
        w->local_moments_cap = need;
        w->local_moments = spoor_xrealloc(w->local_moments, w->local_moments_cap * sizeof *w->local_moments);
    }
    for (size_t i = 0; i < nlocal * n; i++)
        series_moments_init(&w->local_moments[i]);
    for (size_t g = 0; g < nlocal; g++)
        w->local_bucket[g] = SPOOR_NULL;
    struct series_buckets *bk = &w->buckets;
    bool resample = run->opts.resample_ns > 0;
    int64_t last_ts = SPOOR_NULL, bucket = 0;
    for (size_t r = 0; r < b->nrows; r++) {
        uint32_t local = w->row_local[r];
        struct spoor_moments *m = w->local_moments + (size_t)local * n;
        struct spoor_bucket_sum *sums = NULL;
        if (resample && b->ts[r] != SPOOR_NULL) {
            if (b->ts[r] != last_ts)
                bucket = floor_div((last_ts = b->ts[r]) + run->opts.utc_offset_ns, run->opts.resample_ns);
            size_t e = bucket_entry(w, local, bucket);
            bk->rows[e]++;
            sums = bk->sums + e * bk->stride;
        }
        for (size_t k = 0; k < n; k++) {
            double x = v->values[k][r];
            if (x != x)
                continue;
            m[k].n++;
            m[k].sum += x;
            if (x < m[k].min)
                m[k].min = x;
            if (x > m[k].max)
                m[k].max = x;
            if (sums) {
                sums[v->id[k]].n++;
                sums[v->id[k]].sum += x;
            }
        }
    }
}

static void count_rows(struct series_worker *w, const struct spoor_table *b)
{
    w->rows += b->nrows;
    for (size_t r = 0; r < b->nrows; r++)
        w->rows_without_time += b->ts[r] == SPOOR_NULL;
}

/* Scratch sized for a batch of `rows` rows and at most `groups` groups. */
static void worker_scratch(struct series_worker *w, size_t rows)
{
    if (w->row_cap < rows) {
        w->row_cap = rows;
        w->row_local = spoor_xrealloc(w->row_local, rows * sizeof *w->row_local);
        w->local_gid = spoor_xrealloc(w->local_gid, rows * sizeof *w->local_gid);
        w->local_bucket = spoor_xrealloc(w->local_bucket, rows * sizeof *w->local_bucket);
        w->local_entry = spoor_xrealloc(w->local_entry, rows * sizeof *w->local_entry);
    }
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
    count_rows(w, b);
    add_rows(run, w, b, &v, nlocal);
    finish_moments(w, &v, b->nrows, nlocal);
    if (run->opts.profile && !run->opts.profile_from_buckets)
        add_profile(w, b, &v, run->opts.utc_offset_ns);
    if (run->opts.corr)
        add_comoments(w, &v, b->nrows); /* last: it may turn the values into deviations */
    for (size_t g = 0; g < nlocal; g++)
        w->local_of[w->local_gid[g]] = NO_GROUP;
    return SPOOR_OK;
}

/* In input order: metrics are listed in the order they first appear. */
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
    return SPOOR_OK;
}

struct spoor_sink spoor_series_sink(struct spoor_series_run *run)
{
    return (struct spoor_sink){.ctx = run, .map = series_map, .reduce = series_reduce};
}
