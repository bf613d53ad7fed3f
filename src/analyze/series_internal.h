/* Private pieces of the series recipe: moment arithmetic (series_moments.c)
 * and the (group, time bucket) map of the resampler (series_buckets.c). */
#ifndef SPOOR_ANALYZE_SERIES_INTERNAL_H
#define SPOOR_ANALYZE_SERIES_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "spoor/series.h"

/* A capacity of at least n: cap doubled, or `first` doubled when there was none. */
static inline size_t series_grown(size_t cap, size_t first, size_t n)
{
    size_t c = cap ? cap : first;
    while (c < n)
        c *= 2;
    return c;
}

/* Local time slot (weekday * 24 + hour, Monday = 0) of a local ns time. */
unsigned series_hour_weekday_slot(int64_t local_ns);

void series_moments_init(struct spoor_moments *m);
void series_moments_merge(struct spoor_moments *a, const struct spoor_moments *b);
void series_comoments_merge(struct spoor_comoments *a, const struct spoor_comoments *b);
/* The co-moments of (y, x) from those of (x, y). */
struct spoor_comoments series_comoments_swapped(struct spoor_comoments c);
/* Co-moments over the rows where both x[r] and y[r] are numbers (not NaN). */
void series_comoments_of(const double *x, const double *y, size_t rows, struct spoor_comoments *out);
/* Sums of x[r] * y[r] and x[r] * z[r] (the co-moments of deviations from the
 * means) in out[0] and out[1]; z may be y. */
void series_dot2(const double *x, const double *y, const double *z, size_t rows, double out[2]);

/* Sums per (group, bucket): entries in order of first sight, each with `stride`
 * metric sums stored at sums + entry * stride. */
struct series_buckets {
    uint32_t *group;
    int64_t *bucket;
    uint64_t *rows;
    struct spoor_bucket_sum *sums;
    size_t n, cap, stride;
    uint32_t *slots;            /* open addressing: entry + 1, 0 = empty */
    size_t nslots;
};

void series_buckets_init(struct series_buckets *b, size_t stride);
void series_buckets_release(struct series_buckets *b);
/* No entry, and `stride` metric sums to an entry from now on. */
void series_buckets_clear(struct series_buckets *b, size_t stride);
/* A new empty entry for (group, bucket), not looked up: for a list of
 * entries that is never searched (the totals'). */
size_t series_buckets_append(struct series_buckets *b, uint32_t group, int64_t bucket);
/* The entry of (group, bucket), created empty when new. */
size_t series_buckets_get(struct series_buckets *b, uint32_t group, int64_t bucket);
/* Widens every entry to `stride` metrics (new ones empty). */
void series_buckets_widen(struct series_buckets *b, size_t stride);
/* The order of n entries by group (below ngroups), then bucket, stable: a
 * radix sort, one pass per byte the buckets span and one by group. The caller
 * frees the array. */
uint32_t *series_buckets_order(const uint32_t *group, const int64_t *bucket, size_t n, size_t ngroups);

/* Re-lays a rows x old_cols matrix of elem-byte cells as rows x new_cols, the
 * new cells copied from init. Returns the new block (the old one is freed). */
void *series_widen_matrix(void *p, size_t rows, size_t old_cols, size_t new_cols, size_t elem, const void *init);

#endif
