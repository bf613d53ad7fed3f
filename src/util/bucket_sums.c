/* Sparse sums per (row, time bucket); see bucket_sums.h. */
#include "util/bucket_sums.h"

#include "spoor/error.h"
#include "util/grow.h"
#include "util/radix_sort.h"

#include <stdlib.h>
#include <string.h>

#define REL_BITS BUCKET_REL_BITS

void bucket_sums_init(struct bucket_sums *b, int shift)
{
    memset(b, 0, sizeof *b);
    b->shift = shift;
}

void bucket_sums_free(struct bucket_sums *b)
{
    spoor_id_map_free(&b->cells);
    free(b->count);
    free(b->sum);
    memset(b, 0, sizeof *b);
}

bool bucket_sums_fits(struct bucket_sums *b, int64_t bucket)
{
    if (!b->based)
        b->lo = b->hi = bucket;
    return bucket_range_fits(&b->based, &b->base, bucket);
}

uint32_t bucket_sums_cell(struct bucket_sums *b, uint32_t row, int64_t bucket)
{
    if (!bucket_sums_fits(b, bucket))
        return UINT32_MAX;
    int64_t rel = bucket - b->base;
    size_t n = b->cells.n;
    uint32_t id = spoor_id_map_id(&b->cells, (uint64_t)row << REL_BITS | (uint64_t)rel);
    if (id == n) {
        spoor_grow((void **)&b->count, &b->count_cap, id, sizeof *b->count);
        spoor_grow((void **)&b->sum, &b->sum_cap, id, sizeof *b->sum);
        b->count[id] = 0;
        b->sum[id] = 0;
        if (bucket < b->lo)
            b->lo = bucket;
        if (bucket > b->hi)
            b->hi = bucket;
    }
    return id;
}

bool bucket_sums_add(struct bucket_sums *b, uint32_t row, int64_t bucket, uint64_t count, int64_t sum)
{
    uint32_t id = bucket_sums_cell(b, row, bucket);
    if (id == UINT32_MAX)
        return false;
    b->count[id] += count;
    b->sum[id] += sum;
    return true;
}

bool bucket_sums_span(struct bucket_sums *b, uint32_t row, int64_t start, int64_t end, uint64_t count)
{
    int64_t first = start >> b->shift, last = end > start ? (end - 1) >> b->shift : first;
    bool ok = true;
    for (int64_t k = first; k <= last; k++) {
        int64_t from = k << b->shift, to = from + ((int64_t)1 << b->shift);
        int64_t busy = (end < to ? end : to) - (start > from ? start : from);
        ok &= bucket_sums_add(b, row, k, k == first ? count : 0, busy > 0 ? busy : 0);
    }
    return ok;
}

void bucket_sums_fit(struct bucket_sums *b, int64_t start, int64_t end, int64_t columns)
{
    int shift = b->shift;
    for (;;) {
        int64_t b0 = start >> shift, b1 = (end > start ? end - 1 : start) >> shift;
        int64_t lo = b->cells.n && (b->lo >> (shift - b->shift)) < b0 ? b->lo >> (shift - b->shift) : b0;
        int64_t hi = b->cells.n && (b->hi >> (shift - b->shift)) > b1 ? b->hi >> (shift - b->shift) : b1;
        if (hi - lo + 1 <= columns)
            break;
        shift++;
    }
    bucket_sums_coarsen(b, shift);
}

void bucket_sums_merge(struct bucket_sums *b, const struct bucket_sums *src)
{
    int up = b->shift - src->shift;
    for (size_t i = 0; i < src->cells.n; i++)
        bucket_sums_add(b, bucket_sums_row(src, i), bucket_sums_bucket(src, i) >> up, src->count[i], src->sum[i]);
}

void bucket_sums_coarsen(struct bucket_sums *b, int shift)
{
    if (shift <= b->shift)
        return;
    struct bucket_sums wide;
    bucket_sums_init(&wide, shift);
    bucket_sums_merge(&wide, b);
    bucket_sums_free(b);
    *b = wide;
}

/* The weight of the cells of sorted keys at `up` doublings: adjacent keys of
 * one row and coarser bucket merge. */
static uint64_t weight_at(int64_t base, const uint64_t *sorted, const uint32_t *order, const uint64_t *count,
                          size_t n, int up, uint64_t k)
{
    uint64_t weight = 0, group = 0;
    for (size_t i = 0; i < n; i++) {
        bool same = i && sorted[i] >> BUCKET_REL_BITS == sorted[i - 1] >> BUCKET_REL_BITS &&
                    (base + (int64_t)(sorted[i] & BUCKET_REL_MASK)) >> up ==
                        (base + (int64_t)(sorted[i - 1] & BUCKET_REL_MASK)) >> up;
        if (i && !same)
            weight += bucket_weight(group, k);
        group = (same ? group : 0) + (k ? count[order ? order[i] : i] : 0);
    }
    return n ? weight + bucket_weight(group, k) : 0;
}

/* Cells counted (k = 0) in one pass, not one per doubling: two adjacent
 * cells of a row merge from the doubling that drops the highest bit their
 * buckets differ in on, and the cells left at a doubling are n less the
 * adjacent pairs merged by then. */
static int fit_shift_counted(int shift, int64_t base, const uint64_t *sorted, size_t n, uint64_t cap)
{
    size_t merge_at[65] = {0};
    for (size_t i = 1; i < n; i++)
        if (sorted[i] >> BUCKET_REL_BITS == sorted[i - 1] >> BUCKET_REL_BITS) {
            int64_t a = base + (int64_t)(sorted[i] & BUCKET_REL_MASK), b = base + (int64_t)(sorted[i - 1] & BUCKET_REL_MASK);
            merge_at[spoor_bits_of((uint64_t)(a ^ b))]++;
        }
    int up = 0;
    uint64_t cells = n - merge_at[0];
    while (shift + up < 62 && cells > cap)
        cells -= merge_at[++up];
    return shift + up;
}

int bucket_keys_fit_shift(int shift, int64_t base, const uint64_t *sorted, const uint32_t *order,
                          const uint64_t *count, size_t n, uint64_t cap, uint64_t k)
{
    if (!k)
        return fit_shift_counted(shift, base, sorted, n, cap);
    int up = 0;
    while (shift + up < 62 && weight_at(base, sorted, order, count, n, up, k) > cap) /* a bucket per row: no further */
        up++;
    return shift + up;
}

int bucket_sums_fit_shift(const struct bucket_sums *b, uint64_t cap, uint64_t k)
{
    size_t n = b->cells.n;
    uint64_t *key = spoor_xmalloc((n ? n : 1) * sizeof *key), *sorted = spoor_xmalloc((n ? n : 1) * sizeof *sorted);
    uint32_t *order = spoor_xmalloc((n ? n : 1) * sizeof *order);
    struct spoor_key_span span = spoor_key_span_start();
    for (size_t i = 0; i < n; i++) {
        key[i] = b->cells.keys[i];
        spoor_key_span_add(&span, key[i]);
    }
    /* In (row, bucket) order, a coarser bucket's cells are adjacent. */
    spoor_radix_sort_rows(order, sorted, n, key, NULL, &span);
    int shift = bucket_keys_fit_shift(b->shift, b->base, sorted, order, b->count, n, cap, k);
    free(key);
    free(sorted);
    free(order);
    return shift;
}
