/* Per-batch sums and their merge in input order. Map fills a batch's partial
 * on whatever worker runs it; the loader hands reduce the same batch table
 * (its slot is not reused before that reduce), so the table finds its partial
 * and reduce merges it into the run's totals. Batches are cut the same for any
 * number of threads, so the totals take the same merges in the same order and
 * come out the same to the last bit. Only the batch's groups and metrics are
 * touched, and there are as many partials as batches in flight. */
#include "analyze/series_run.h"
#include "spoor/error.h"

#include <stdlib.h>
#include <string.h>

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

struct series_partial *series_partial_take(struct spoor_series_run *run, const struct series_worker *w,
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

void series_partial_park(struct spoor_series_run *run, struct series_partial *p, const struct spoor_table *b)
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
            struct spoor_bucket_sum *to = &t->hour_weekday[s * t->mcap + p->id[k]];
            to->n += p->hour_weekday[s * n + k].n;
            to->sum += p->hour_weekday[s * n + k].sum;
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

void series_partial_reduce(struct spoor_series_run *run, const struct spoor_table *b)
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

void series_partials_free(struct spoor_series_run *run)
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

void series_totals_free(struct series_totals *t)
{
    free(t->moments);
    free(t->hour_weekday);
    free(t->comoments);
    series_buckets_release(&t->buckets);
}
