/* The series recipe's sums, below its flow (see series_internal.h): called by
 * every stage, they call none. Moments and co-moments of metric values:
 * batch accumulation about the batch mean and the pairwise merge (Chan,
 * Golub and LeVeque), which keeps variances and correlations accurate when
 * values carry a large common offset. Then the resampler's (group, time
 * bucket) -> metric sums map, whose memory grows with the distinct pairs
 * seen, not with rows. */
#include "analyze/series_internal.h"
#include "spoor/error.h"
#include "util/grow.h"
#include "util/radix_sort.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void series_moments_init(struct spoor_moments *m)
{
    *m = (struct spoor_moments){.min = INFINITY, .max = -INFINITY};
}

void series_moments_merge(struct spoor_moments *a, const struct spoor_moments *b)
{
    if (!b->n)
        return;
    if (!a->n) {
        *a = *b;
        return;
    }
    double na = (double)a->n, nb = (double)b->n, n = na + nb;
    double delta = b->mean - a->mean;
    a->mean += delta * nb / n;
    a->m2 += b->m2 + delta * delta * na * nb / n;
    a->sum += b->sum;
    a->n += b->n;
    if (b->min < a->min)
        a->min = b->min;
    if (b->max > a->max)
        a->max = b->max;
}

void series_comoments_merge(struct spoor_comoments *a, const struct spoor_comoments *b)
{
    if (!b->n)
        return;
    if (!a->n) {
        *a = *b;
        return;
    }
    double na = (double)a->n, nb = (double)b->n, n = na + nb, w = na * nb / n;
    double dx = b->mean_x - a->mean_x, dy = b->mean_y - a->mean_y;
    a->mean_x += dx * nb / n;
    a->mean_y += dy * nb / n;
    a->m2_x += b->m2_x + dx * dx * w;
    a->m2_y += b->m2_y + dy * dy * w;
    a->c_xy += b->c_xy + dx * dy * w;
    a->n += b->n;
}

struct spoor_comoments series_comoments_swapped(struct spoor_comoments c)
{
    double mean_x = c.mean_x, m2_x = c.m2_x;
    c.mean_x = c.mean_y;
    c.m2_x = c.m2_y;
    c.mean_y = mean_x;
    c.m2_y = m2_x;
    return c;
}

/* Two passes over the rows where both x and y hold a number (not NaN). */
void series_comoments_of(const double *x, const double *y, size_t rows, struct spoor_comoments *out)
{
    uint64_t n = 0;
    double sx = 0, sy = 0;
    for (size_t r = 0; r < rows; r++)
        if (x[r] == x[r] && y[r] == y[r]) {
            n++;
            sx += x[r];
            sy += y[r];
        }
    *out = (struct spoor_comoments){.n = n};
    if (!n)
        return;
    double mx = sx / (double)n, my = sy / (double)n, m2x = 0, m2y = 0, cxy = 0;
    for (size_t r = 0; r < rows; r++)
        if (x[r] == x[r] && y[r] == y[r]) {
            double dx = x[r] - mx, dy = y[r] - my;
            m2x += dx * dx;
            m2y += dy * dy;
            cxy += dx * dy;
        }
    *out = (struct spoor_comoments){n, mx, my, m2x, m2y, cxy};
}

/* Each product in four interleaved partial sums, which vectorise and do not
 * wait on each other's additions; two products in one pass over x. Each
 * product's sums are the same whether it is taken alone or with another. */
void series_dot2(const double *x, const double *y, const double *z, size_t rows, double out[2])
{
    typedef double pair __attribute__((vector_size(16)));
    pair sy0 = {0, 0}, sy1 = {0, 0}, sz0 = {0, 0}, sz1 = {0, 0};
    size_t r = 0;
    for (; r + 4 <= rows; r += 4) {
        pair x0, x1, y0, y1, z0, z1;
        memcpy(&x0, x + r, sizeof x0);
        memcpy(&x1, x + r + 2, sizeof x1);
        memcpy(&y0, y + r, sizeof y0);
        memcpy(&y1, y + r + 2, sizeof y1);
        memcpy(&z0, z + r, sizeof z0);
        memcpy(&z1, z + r + 2, sizeof z1);
        sy0 += x0 * y0;
        sy1 += x1 * y1;
        sz0 += x0 * z0;
        sz1 += x1 * z1;
    }
    out[0] = (sy0[0] + sy1[0]) + (sy0[1] + sy1[1]);
    out[1] = (sz0[0] + sz1[0]) + (sz0[1] + sz1[1]);
    for (; r < rows; r++) {
        out[0] += x[r] * y[r];
        out[1] += x[r] * z[r];
    }
}

double spoor_moments_std(const struct spoor_moments *m)
{
    return m->n < 2 ? NAN : sqrt(m->m2 / (double)(m->n - 1));
}

double spoor_comoments_r(const struct spoor_comoments *c)
{
    if (c->n < 2 || c->m2_x <= 0 || c->m2_y <= 0)
        return NAN;
    double r = c->c_xy / sqrt(c->m2_x * c->m2_y);
    return r > 1 ? 1 : r < -1 ? -1 : r;
}

/* The (group, time bucket) -> metric sums map. */

void series_buckets_init(struct series_buckets *b, size_t stride)
{
    *b = (struct series_buckets){.stride = stride};
    spoor_id_map_init(&b->ids, 2);
}

void series_buckets_release(struct series_buckets *b)
{
    free(b->group);
    free(b->bucket);
    free(b->rows);
    free(b->sums);
    spoor_id_map_free(&b->ids); /* keeps the width, for reuse */
    *b = (struct series_buckets){.ids = b->ids};
}

void series_buckets_clear(struct series_buckets *b, size_t stride)
{
    if (stride != b->stride) { /* no entry to keep: the sums re-laid as they come */
        b->stride = stride;
        b->sums = spoor_xrealloc(b->sums, (b->cap ? b->cap : 1) * (stride ? stride : 1) * sizeof *b->sums);
    }
    b->n = 0;
    spoor_id_map_clear(&b->ids);
}

static void grow_entries(struct series_buckets *b)
{
    struct spoor_lane lanes[] = {SPOOR_LANE(b->group), SPOOR_LANE(b->bucket), SPOOR_LANE(b->rows),
                                 {(void **)&b->sums, (b->stride ? b->stride : 1) * sizeof *b->sums}};
    spoor_reserve_lanes_to(&b->cap, b->n + 1, lanes, sizeof lanes / sizeof *lanes);
}

size_t series_buckets_append(struct series_buckets *b, uint32_t group, int64_t bucket)
{
    if (b->n == b->cap)
        grow_entries(b);
    size_t e = b->n++;
    b->group[e] = group;
    b->bucket[e] = bucket;
    b->rows[e] = 0;
    memset(b->sums + e * b->stride, 0, b->stride * sizeof *b->sums);
    return e;
}

/* The map's ids are the entries: get alone adds to a map's list. */
size_t series_buckets_get(struct series_buckets *b, uint32_t group, int64_t bucket)
{
    uint32_t e = spoor_id_map_id_words(&b->ids, (const uint64_t[2]){group, (uint64_t)bucket});
    return e < b->n ? e : series_buckets_append(b, group, bucket);
}

void *series_widen_matrix(void *p, size_t rows, size_t old_cols, size_t new_cols, size_t elem, const void *init)
{
    char *out = spoor_xmalloc((rows ? rows : 1) * (new_cols ? new_cols : 1) * elem);
    for (size_t r = 0; r < rows; r++) {
        char *dst = out + r * new_cols * elem;
        if (old_cols)
            memcpy(dst, (char *)p + r * old_cols * elem, old_cols * elem);
        for (size_t c = old_cols; c < new_cols; c++)
            memcpy(dst + c * elem, init, elem);
    }
    free(p);
    return out;
}

void series_buckets_widen(struct series_buckets *b, size_t stride)
{
    static const struct spoor_bucket_sum empty = {0, 0};
    b->sums = series_widen_matrix(b->sums, b->cap, b->stride, stride, sizeof *b->sums, &empty);
    b->stride = stride;
}

uint32_t *series_buckets_order(const uint32_t *group, const int64_t *bucket, size_t n, size_t ngroups)
{
    size_t cap = n ? n : 1;
    uint32_t *order = spoor_xmalloc(cap * sizeof *order);
    uint64_t *key = spoor_xmalloc(cap * sizeof *key), *spare = spoor_xmalloc(cap * sizeof *spare);
    int64_t low = INT64_MAX;
    for (size_t e = 0; e < n; e++)
        low = bucket[e] < low ? bucket[e] : low;
    uint64_t span = 0; /* the bits any bucket's offset from the lowest uses */
    for (size_t e = 0; e < n; e++)
        span |= (uint64_t)bucket[e] - (uint64_t)low;
    unsigned bucket_bits = spoor_bits_of(span), group_bits = spoor_bits_of(ngroups ? ngroups - 1 : 0);
    /* One key (group above, bucket below) when both fit a word; else by
     * bucket, then again by group. */
    bool one_key = bucket_bits + group_bits <= 64;
    struct spoor_key_span keys = spoor_key_span_start();
    for (size_t e = 0; e < n; e++) {
        uint64_t offset = (uint64_t)bucket[e] - (uint64_t)low;
        key[e] = one_key && group_bits ? (uint64_t)group[e] << bucket_bits | offset : offset;
        spoor_key_span_add(&keys, key[e]);
    }
    spoor_radix_sort_rows(order, NULL, n, key, spare, &keys);
    if (!one_key) {
        for (size_t e = 0; e < n; e++)
            key[e] = group[e];
        spoor_radix_sort_rows_again(order, n, key);
    }
    free(key);
    free(spare);
    return order;
}
