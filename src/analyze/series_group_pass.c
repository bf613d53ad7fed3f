/* The group pass over a batch in group order (series_order.c), group by
 * group: per metric each span's count, sum, minimum and maximum, summed in
 * registers and added whole to the group's moments, its resample bucket and
 * its hour x weekday slot; then the squared deviations about the group's mean
 * and the co-moments, while the group's values are in the cache. */
#include "analyze/series_run.h"
#include "spoor/error.h"

#include <math.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

typedef double pair __attribute__((vector_size(16)));

/* Lane by lane: x when x < lo, else lo (so a NaN x keeps lo); one minpd on SSE2. */
static pair lower(pair x, pair lo)
{
#if defined(__SSE2__)
    return (pair)_mm_min_pd((__m128d)x, (__m128d)lo);
#else
    typedef int64_t pair_mask __attribute__((vector_size(16)));
    pair_mask less = x < lo;
    return (pair)(((pair_mask)x & less) | ((pair_mask)lo & ~less));
#endif
}

/* Lane by lane: x when x > hi, else hi. */
static pair higher(pair x, pair hi)
{
#if defined(__SSE2__)
    return (pair)_mm_max_pd((__m128d)x, (__m128d)hi);
#else
    typedef int64_t pair_mask __attribute__((vector_size(16)));
    pair_mask more = x > hi;
    return (pair)(((pair_mask)x & more) | ((pair_mask)hi & ~more));
#endif
}

static pair load_pair(const double *x)
{
    pair v;
    memcpy(&v, x, sizeof v);
    return v;
}

/* Count, sum, minimum and maximum of the numbers in x[0..len). Values with
 * gaps (NaN) take the scalar loop that tests each; gap-free ones go four pairs
 * of lanes a step first, folded two by two before the running values, so
 * each of those waits on one add, min or max per eight values (-20 % of the
 * group pass against one per four). */
static struct spoor_moments span_sums(const double *x, size_t len, bool gap_free)
{
    pair sum0 = {0, 0}, sum1 = {0, 0}, lo0 = {INFINITY, INFINITY}, lo1 = lo0, hi0 = -lo0, hi1 = hi0;
    size_t i = 0;
    if (gap_free)
        for (; i + 8 <= len; i += 8) {
            pair a = load_pair(x + i), b = load_pair(x + i + 2), c = load_pair(x + i + 4), d = load_pair(x + i + 6);
            sum0 += a + c;
            sum1 += b + d;
            lo0 = lower(lower(a, c), lo0);
            lo1 = lower(lower(b, d), lo1);
            hi0 = higher(higher(a, c), hi0);
            hi1 = higher(higher(b, d), hi1);
        }
    pair lo = lower(lo0, lo1), hi = higher(hi0, hi1);
    struct spoor_moments m = {.n = i,
                              .sum = (sum0[0] + sum1[0]) + (sum0[1] + sum1[1]),
                              .min = lo[0] < lo[1] ? lo[0] : lo[1],
                              .max = hi[0] > hi[1] ? hi[0] : hi[1]};
    for (; i < len; i++)
        if (x[i] == x[i]) {
            m.n++;
            m.sum += x[i];
            m.min = x[i] < m.min ? x[i] : m.min;
            m.max = x[i] > m.max ? x[i] : m.max;
        }
    return m;
}

/* Sum of the squared deviations about mean of the numbers in x[0..len); with
 * `write` each value becomes its deviation. Gap-free values go two pairs of
 * lanes a step first (four, as in span_sums, gained nothing here). */
static double squared_deviations(double *x, size_t len, double mean, bool gap_free, bool write)
{
    pair centre = {mean, mean}, sum0 = {0, 0}, sum1 = {0, 0};
    size_t i = 0;
    if (gap_free)
        for (; i + 4 <= len; i += 4) {
            pair a = load_pair(x + i), b = load_pair(x + i + 2);
            a -= centre;
            b -= centre;
            if (write) {
                memcpy(x + i, &a, sizeof a);
                memcpy(x + i + 2, &b, sizeof b);
            }
            sum0 += a * a;
            sum1 += b * b;
        }
    double sum = (sum0[0] + sum1[0]) + (sum0[1] + sum1[1]);
    for (; i < len; i++)
        if (x[i] == x[i]) {
            double d = x[i] - mean;
            sum += d * d;
            if (write)
                x[i] = d;
        }
    return sum;
}

static void add_to_sum(struct spoor_bucket_sum *s, const struct spoor_moments *part)
{
    s->n += part->n;
    s->sum += part->sum;
}

/* Metric k's count, sum, minimum and maximum over local group g, span by
 * span, each span's also added to its bucket's and slot's sums. */
static void group_sums(struct series_worker *w, const struct batch_view *v, size_t k, size_t g,
                       struct spoor_moments *m)
{
    series_moments_init(m);
    const double *x = v->values[k];
    struct series_partial *p = w->part;
    bool gap_free = v->numbers[k] == v->places;
    const struct series_span *end = &w->spans[w->group_spans[g + 1]];
    for (const struct series_span *s = &w->spans[w->group_spans[g]]; s < end; s++) {
        struct spoor_moments part = span_sums(x + (s->start - v->first), s[1].start - s->start, gap_free);
        m->n += part.n;
        m->sum += part.sum;
        m->min = part.min < m->min ? part.min : m->min;
        m->max = part.max > m->max ? part.max : m->max;
        if (s->entry != SERIES_NO_KEY)
            add_to_sum(&p->buckets.sums[(size_t)s->entry * p->n + k], &part);
        if (s->slot != SERIES_NO_KEY)
            add_to_sum(&p->hour_weekday[(size_t)s->slot * p->n + k], &part);
    }
}

/* The group's co-moments per metric pair (a, c), merged into the batch's.
 * With deviations (every value a number) the products of metric a with
 * metrics c and c + 1 are taken in one pass (series_dot2). */
static void group_comoments(struct series_worker *w, const struct batch_view *v, const struct spoor_moments *m,
                            uint32_t start, uint32_t len, bool deviate)
{
    size_t n = v->n;
    for (size_t a = 0; a < n; a++)
        for (size_t c = a + 1; c < n; c += 2) {
            const double *x = v->values[a] + (start - v->first);
            double dot[2];
            if (deviate)
                series_dot2(x, v->values[c] + (start - v->first), v->values[c + 1 < n ? c + 1 : c] + (start - v->first),
                            len, dot);
            for (size_t j = c; j < c + 2 && j < n; j++) {
                struct spoor_comoments part;
                if (deviate)
                    part = (struct spoor_comoments){len, m[a].mean, m[j].mean, m[a].m2, m[j].m2, dot[j - c]};
                else
                    series_comoments_of(x, v->values[j] + (start - v->first), len, &part);
                series_comoments_merge(&w->part->comoments[a * n + j], &part);
            }
        }
}

/* One local group, its values at places [start, start + len): per metric the
 * moments; with corr per pair the co-moments, as dot products of deviations
 * when every metric has a number in every row (the usual case; the
 * deviations are made in place while summing their squares), else over the
 * rows where both have one. Each group's moments are the batch's for that
 * group; the co-moments merge group by group into the batch's (the pairwise
 * update), so a batch with gaps in some groups costs the slow path in those
 * only, and a group's values are still in the cache. */
static void pass_group(struct series_worker *w, const struct batch_view *v, size_t g, bool corr)
{
    size_t n = v->n;
    struct spoor_moments *m = &w->part->moments[g * n];
    uint32_t start = w->spans[w->group_spans[g]].start, len = w->local_end[g] - start;
    bool complete = true;
    for (size_t k = 0; k < n; k++) {
        group_sums(w, v, k, g, &m[k]);
        complete = complete && m[k].n == len;
    }
    bool deviate = corr && complete && n >= 2;
    for (size_t k = 0; k < n; k++) {
        if (m[k].n) {
            m[k].mean = m[k].sum / (double)m[k].n;
            m[k].m2 = squared_deviations(v->values[k] + (start - v->first), len, m[k].mean,
                                         v->numbers[k] == v->places, deviate);
        }
    }
    if (corr)
        group_comoments(w, v, m, start, len, deviate);
}

/* Gathers the values of chunk c's groups (rows in row order, each value to
 * its place). */
static void gather_chunk(struct series_worker *w, struct batch_view *v, size_t c)
{
    uint32_t first = w->spans[w->group_spans[w->chunk_group[c]]].start;
    v->first = first;
    v->places = w->local_end[w->chunk_group[c + 1] - 1] - first;
    for (size_t k = 0; k < v->n; k++)
        v->numbers[k] = series_column_values(v->source[k], v->source[k] == v->cols[k]->f64, w->chunk_row + first,
                                             w->chunk_place + first, v->places, first, v->values[k],
                                             &w->non_numeric[v->id[k]]);
}

void series_group_pass(struct series_worker *w, struct batch_view *v, bool corr)
{
    for (size_t c = 0; c < w->nchunks; c++) {
        gather_chunk(w, v, c);
        for (size_t g = w->chunk_group[c]; g < w->chunk_group[c + 1]; g++)
            pass_group(w, v, g, corr);
    }
}
