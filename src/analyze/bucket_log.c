/* Sparse sums per (row, time bucket) as an append-only log; see bucket_log.h. */
#include "analyze/bucket_log.h"

#include "spoor/error.h"
#include "util/grow.h"
#include "util/radix_sort.h"

#include <stdlib.h>
#include <string.h>

void bucket_log_init(struct bucket_log *l, int shift)
{
    memset(l, 0, sizeof *l);
    l->shift = shift;
}

void bucket_log_free(struct bucket_log *l)
{
    free(l->rec);
    free(l->merged);
    free(l->words);
    free(l->order);
    memset(l, 0, sizeof *l);
}

void bucket_log_grow(struct bucket_log *l)
{
    l->cap = l->cap ? 2 * l->cap : 4096;
    l->rec = spoor_xrealloc(l->rec, l->cap * sizeof *l->rec);
}

bool bucket_log_span(struct bucket_log *l, uint32_t row, int64_t start, int64_t end, uint64_t count)
{
    int64_t first = start >> l->shift, last = end > start ? (end - 1) >> l->shift : first;
    if (!bucket_log_fits(l, first) || !bucket_log_fits(l, last))
        return false;
    for (int64_t k = first; k <= last; k++) {
        int64_t from = k << l->shift, to = from + ((int64_t)1 << l->shift);
        int64_t busy = (end < to ? end : to) - (start > from ? start : from);
        bucket_log_add(l, row, k, k == first ? count : 0, busy > 0 ? busy : 0);
    }
    return true;
}

size_t bucket_log_compact(struct bucket_log *l)
{
    /* Only the records added since the last compaction are sorted, then
     * merged with the compacted ones: a widening step adds few. */
    size_t done = l->distinct, n = l->n - done;
    if (!n)
        return done;
    const struct bucket_rec *added = l->rec + done;
    spoor_reserve((void **)&l->words, &l->words_cap, 2 * n, sizeof *l->words);
    spoor_reserve((void **)&l->order, &l->order_cap, n, sizeof *l->order);
    spoor_reserve((void **)&l->merged, &l->merged_cap, l->n, sizeof *l->merged);
    uint64_t *key = l->words;
    struct spoor_key_span span = spoor_key_span_start();
    for (size_t i = 0; i < n; i++) {
        key[i] = added[i].key;
        spoor_key_span_add(&span, key[i]);
    }
    spoor_radix_sort_rows(l->order, NULL, n, key, key + n, &span);
    struct bucket_rec *out = l->merged;
    size_t u = 0;
    for (size_t i = 0, j = 0; i < done || j < n;) {
        const struct bucket_rec *next = j < n ? &added[l->order[j]] : NULL, *r;
        if (next && (i == done || next->key < l->rec[i].key)) {
            r = next;
            j++;
        } else {
            r = &l->rec[i++];
        }
        if (u && out[u - 1].key == r->key) {
            out[u - 1].count += r->count;
            out[u - 1].sum += r->sum;
        } else {
            out[u++] = *r;
        }
    }
    l->merged = l->rec;
    l->rec = out;
    size_t cap = l->cap;
    l->cap = l->merged_cap;
    l->merged_cap = cap;
    l->n = l->distinct = u;
    return u;
}

int bucket_log_fit_shift(struct bucket_log *l, uint64_t cap)
{
    spoor_reserve((void **)&l->words, &l->words_cap, l->n, sizeof *l->words);
    for (size_t i = 0; i < l->n; i++)
        l->words[i] = l->rec[i].key;
    return bucket_keys_fit_shift(l->shift, l->base, l->words, NULL, NULL, l->n, cap, 0);
}

void bucket_log_coarsen(struct bucket_log *l, int shift)
{
    bucket_log_compact(l);
    int up = shift - l->shift;
    if (up <= 0)
        return;
    /* Halving buckets keeps (row, bucket) order: equal cells are adjacent. */
    int64_t base = l->base >> up;
    size_t u = 0;
    for (size_t i = 0; i < l->n; i++) {
        struct bucket_rec r = l->rec[i];
        int64_t bucket = (l->base + (int64_t)(r.key & BUCKET_REL_MASK)) >> up;
        r.key = (r.key >> BUCKET_REL_BITS) << BUCKET_REL_BITS | (uint64_t)(bucket - base);
        if (u && l->rec[u - 1].key == r.key) {
            l->rec[u - 1].count += r.count;
            l->rec[u - 1].sum += r.sum;
        } else {
            l->rec[u++] = r;
        }
    }
    l->n = l->distinct = u;
    l->base = base;
    l->shift = shift;
}
