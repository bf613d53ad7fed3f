/* Sparse sums per (row, time bucket); see bucket_sums.h. */
#include "analyze/bucket_sums.h"

#include "spoor/error.h"
#include "util/grow.h"

#include <stdlib.h>
#include <string.h>

#define REL_BITS 40
#define REL_HALF (1LL << (REL_BITS - 1))

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

uint32_t bucket_sums_cell(struct bucket_sums *b, uint32_t row, int64_t bucket)
{
    if (!b->based) {
        /* Room either side of the first bucket: rows come in any time order. */
        b->base = bucket - REL_HALF;
        b->based = true;
        b->lo = b->hi = bucket;
    }
    int64_t rel = bucket - b->base;
    if (rel < 0 || rel >= 2 * REL_HALF)
        return UINT32_MAX;
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
