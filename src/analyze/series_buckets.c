/* The resampler's (group, time bucket) -> metric sums map. Memory grows with
 * the distinct pairs seen, not with rows. */
#include "analyze/series_internal.h"
#include "spoor/error.h"

#include <stdlib.h>
#include <string.h>

void series_buckets_init(struct series_buckets *b, size_t stride)
{
    *b = (struct series_buckets){.stride = stride};
}

void series_buckets_release(struct series_buckets *b)
{
    free(b->group);
    free(b->bucket);
    free(b->rows);
    free(b->sums);
    free(b->slots);
    *b = (struct series_buckets){0};
}

static size_t slot_of(uint32_t group, int64_t bucket, size_t mask)
{
    uint64_t h = ((uint64_t)bucket * 0x9e3779b97f4a7c15ULL) ^ ((uint64_t)group * 0xc2b2ae3d27d4eb4fULL);
    return (size_t)(h ^ (h >> 29)) & mask;
}

static void rehash(struct series_buckets *b, size_t nslots)
{
    free(b->slots);
    b->slots = spoor_xcalloc(nslots, sizeof *b->slots);
    b->nslots = nslots;
    for (size_t e = 0; e < b->n; e++) {
        size_t i = slot_of(b->group[e], b->bucket[e], nslots - 1);
        while (b->slots[i])
            i = (i + 1) & (nslots - 1);
        b->slots[i] = (uint32_t)(e + 1);
    }
}

static void set_cap(struct series_buckets *b, size_t cap)
{
    b->cap = cap;
    b->group = spoor_xrealloc(b->group, cap * sizeof *b->group);
    b->bucket = spoor_xrealloc(b->bucket, cap * sizeof *b->bucket);
    b->rows = spoor_xrealloc(b->rows, cap * sizeof *b->rows);
    b->sums = spoor_xrealloc(b->sums, cap * (b->stride ? b->stride : 1) * sizeof *b->sums);
}

void series_buckets_clear(struct series_buckets *b, size_t stride)
{
    if (stride != b->stride) { /* no entry to keep: the sums re-laid as they come */
        b->stride = stride;
        b->sums = spoor_xrealloc(b->sums, (b->cap ? b->cap : 1) * (stride ? stride : 1) * sizeof *b->sums);
    }
    b->n = 0;
    if (b->slots)
        memset(b->slots, 0, b->nslots * sizeof *b->slots);
}

size_t series_buckets_append(struct series_buckets *b, uint32_t group, int64_t bucket)
{
    if (b->n == b->cap)
        set_cap(b, b->cap ? b->cap * 2 : 64);
    size_t e = b->n++;
    b->group[e] = group;
    b->bucket[e] = bucket;
    b->rows[e] = 0;
    memset(b->sums + e * b->stride, 0, b->stride * sizeof *b->sums);
    return e;
}

size_t series_buckets_get(struct series_buckets *b, uint32_t group, int64_t bucket)
{
    if ((b->n + 1) * 2 > b->nslots)
        rehash(b, b->nslots ? b->nslots * 2 : 256);
    size_t mask = b->nslots - 1, i = slot_of(group, bucket, mask);
    for (; b->slots[i]; i = (i + 1) & mask) {
        size_t e = b->slots[i] - 1;
        if (b->group[e] == group && b->bucket[e] == bucket)
            return e;
    }
    size_t e = series_buckets_append(b, group, bucket);
    b->slots[i] = (uint32_t)(e + 1);
    return e;
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

/* One stable counting-sort pass of the entries in `from` into `to`, by the
 * digit (key[e] >> shift) & mask, below radix. */
static void order_pass(const uint32_t *from, uint32_t *to, size_t n, const uint64_t *key, unsigned shift,
                       uint64_t mask, size_t radix, size_t *count)
{
    memset(count, 0, radix * sizeof *count);
    for (size_t i = 0; i < n; i++)
        count[key[from[i]] >> shift & mask]++;
    for (size_t d = 0, at = 0; d < radix; d++) {
        size_t c = count[d];
        count[d] = at;
        at += c;
    }
    for (size_t i = 0; i < n; i++)
        to[count[key[from[i]] >> shift & mask]++] = from[i];
}

uint32_t *series_buckets_order(const uint32_t *group, const int64_t *bucket, size_t n, size_t ngroups)
{
    size_t radix = ngroups > 256 ? ngroups : 256;
    uint32_t *order = spoor_xmalloc((n ? n : 1) * sizeof *order);
    uint32_t *other = spoor_xmalloc((n ? n : 1) * sizeof *other);
    uint64_t *key = spoor_xmalloc((n ? n : 1) * sizeof *key);
    size_t *count = spoor_xmalloc(radix * sizeof *count);
    int64_t low = INT64_MAX;
    for (size_t e = 0; e < n; e++)
        low = bucket[e] < low ? bucket[e] : low;
    uint64_t span = 0; /* the bits any bucket's offset from the lowest uses */
    for (size_t e = 0; e < n; e++) {
        order[e] = (uint32_t)e;
        key[e] = (uint64_t)bucket[e] - (uint64_t)low;
        span |= key[e];
    }
    for (unsigned shift = 0; shift < 64 && span >> shift; shift += 8) {
        order_pass(order, other, n, key, shift, 255, 256, count);
        uint32_t *swap = order;
        order = other;
        other = swap;
    }
    for (size_t e = 0; e < n; e++)
        key[e] = group[e];
    order_pass(order, other, n, key, 0, UINT64_MAX, radix, count);
    free(order);
    free(key);
    free(count);
    return other;
}
