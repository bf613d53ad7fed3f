/* The group pass over a batch in group order (series_order.c): per metric and
 * group, each span's count, sum, minimum and maximum, summed in registers and
 * added whole to the group's moments, its resample bucket and its hour x
 * weekday slot; then the squared deviations about the group's batch mean over
 * its values, still in the cache. The kernels take two pairs of lanes a step
 * and treat NaN as no number by masks, so one loop serves batches with and
 * without gaps. */
#include "analyze/series_run.h"
#include "spoor/error.h"

#include <math.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

typedef double pair __attribute__((vector_size(16)));
typedef int64_t pair_mask __attribute__((vector_size(16)));

/* Lane by lane: x when x < lo, else lo (so a NaN x keeps lo); one minpd on SSE2. */
static pair lower(pair x, pair lo)
{
#if defined(__SSE2__)
    return (pair)_mm_min_pd((__m128d)x, (__m128d)lo);
#else
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
    pair_mask more = x > hi;
    return (pair)(((pair_mask)x & more) | ((pair_mask)hi & ~more));
#endif
}

/* x where it is a number, else 0. */
static pair numbers_only(pair x) { return (pair)((pair_mask)x & (x == x)); }

/* Count, sum, minimum and maximum of the numbers in x[0..len). */
static struct spoor_moments span_sums(const double *x, size_t len)
{
    pair sum0 = {0, 0}, sum1 = {0, 0}, lo0 = {INFINITY, INFINITY}, lo1 = lo0, hi0 = -lo0, hi1 = hi0;
    pair_mask count = {0, 0}; /* minus the count: a true compare is -1 */
    size_t i = 0;
    for (; i + 4 <= len; i += 4) {
        pair a, b;
        memcpy(&a, x + i, sizeof a);
        memcpy(&b, x + i + 2, sizeof b);
        count += (a == a) + (b == b);
        sum0 += numbers_only(a);
        sum1 += numbers_only(b);
        lo0 = lower(a, lo0);
        lo1 = lower(b, lo1);
        hi0 = higher(a, hi0);
        hi1 = higher(b, hi1);
    }
    pair lo = lower(lo0, lo1), hi = higher(hi0, hi1);
    struct spoor_moments m = {.n = (uint64_t)-(count[0] + count[1]),
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
 * `write` each value becomes its deviation. */
static double squared_deviations(double *x, size_t len, double mean, bool write)
{
    pair centre = {mean, mean}, sum0 = {0, 0}, sum1 = {0, 0};
    size_t i = 0;
    for (; i + 4 <= len; i += 4) {
        pair a, b;
        memcpy(&a, x + i, sizeof a);
        memcpy(&b, x + i + 2, sizeof b);
        a = numbers_only(a - centre);
        b = numbers_only(b - centre);
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

/* Metric k's moments over local group g, fed into its spans' tables. */
static void group_moments(struct series_worker *w, const struct batch_view *v, size_t k, size_t g, bool deviate)
{
    struct spoor_moments *m = &w->local_moments[g * v->n + k];
    series_moments_init(m);
    double *x = v->values[k];
    uint32_t id = v->id[k];
    const struct series_span *first = &w->spans[w->group_spans[g]], *end = &w->spans[w->group_spans[g + 1]];
    for (const struct series_span *s = first; s < end; s++) {
        struct spoor_moments part = span_sums(x + s->start, s[1].start - s->start);
        m->n += part.n;
        m->sum += part.sum;
        m->min = part.min < m->min ? part.min : m->min;
        m->max = part.max > m->max ? part.max : m->max;
        if (s->entry != SERIES_NO_KEY)
            add_to_sum(&w->buckets.sums[(size_t)s->entry * w->buckets.stride + id], &part);
        if (s->slot != SERIES_NO_KEY)
            add_to_sum(&w->hour_weekday[(size_t)s->slot * w->mcap + id], &part);
    }
    if (m->n) {
        m->mean = m->sum / (double)m->n;
        m->m2 = squared_deviations(x + first->start, end->start - first->start, m->mean, deviate);
    }
}

void series_group_pass(struct series_worker *w, const struct batch_view *v, size_t nlocal, bool deviate)
{
    size_t n = v->n, need = nlocal * n > 0 ? nlocal * n : 1; /* never NULL, even with no metric */
    if (w->local_moments_cap < need) {
        w->local_moments_cap = need;
        w->local_moments = spoor_xrealloc(w->local_moments, w->local_moments_cap * sizeof *w->local_moments);
    }
    for (size_t k = 0; k < n; k++) {
        w->view_n[k] = 0;
        w->view_sum[k] = 0;
        for (size_t g = 0; g < nlocal; g++) {
            group_moments(w, v, k, g, deviate);
            const struct spoor_moments *m = &w->local_moments[g * n + k];
            w->view_n[k] += m->n;
            w->view_sum[k] += m->sum;
            series_moments_merge(&w->moments[(size_t)w->local_gid[g] * w->mcap + v->id[k]], m);
        }
    }
}
