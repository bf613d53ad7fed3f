/* The one radix sort: row numbers ordered by 64-bit unsigned keys, stable
 * (equal keys keep the order they came in), for the sqlite export's indexes,
 * the sql session's indexes and the series' buckets. Signed keys go through
 * spoor_radix_signed_key first. */
#ifndef SPOOR_UTIL_RADIX_SORT_H
#define SPOOR_UTIL_RADIX_SORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What the sort needs to know of its keys, gathered while they are written
 * (one pass fewer): the smallest and largest, and whether they come in
 * order already. */
struct spoor_key_span {
    uint64_t min, max, last;
    uint64_t any, all;      /* the bits set in some key, in every key */
    bool ascending;
};

static inline struct spoor_key_span spoor_key_span_start(void)
{
    return (struct spoor_key_span){.min = UINT64_MAX, .all = UINT64_MAX, .ascending = true};
}

static inline void spoor_key_span_add(struct spoor_key_span *s, uint64_t k)
{
    s->min = k < s->min ? k : s->min;
    s->max = k > s->max ? k : s->max;
    s->any |= k;
    s->all &= k;
    s->ascending &= k >= s->last;
    s->last = k;
}

/* The bits v takes: 0 for 0, 64 for a value with its top bit set. */
static inline unsigned spoor_bits_of(uint64_t v)
{
    return v ? 64 - (unsigned)__builtin_clzll(v) : 0;
}

/* Signed order as unsigned order. */
static inline uint64_t spoor_radix_signed_key(int64_t k)
{
    return (uint64_t)k ^ (UINT64_C(1) << 63);
}

/* rows[0..n) = 0..n-1 ordered by key[row], ties in row order, and, unless
 * sorted is NULL, sorted[0..n) = the keys in that order (n words, key
 * itself or apart from spare: cheaper than reading key[rows[i]] back). key
 * (n words) is overwritten: the sort uses it as scratch, with spare (n words
 * more, or NULL: allocated when needed). span: of key[0..n), gathered in
 * row order. */
void spoor_radix_sort_rows(uint32_t *rows, uint64_t *sorted, size_t n, uint64_t *key, uint64_t *spare,
                           const struct spoor_key_span *span);
/* rows (row numbers into key_of_row, in any order) reordered by
 * key_of_row[row], ties kept in the order given: a sort by a second key
 * after one by the first. */
void spoor_radix_sort_rows_again(uint32_t *rows, size_t n, const uint64_t *key_of_row);

/* The smallest and largest of v[0..n) other than null (none: max < min). */
void spoor_int_span(const int64_t *v, size_t n, int64_t null, int64_t *min, int64_t *max);

/* Integers as keys in the same order, as narrow as they go: offsets from
 * the smallest + 1 (divided by a factor they all share, 1000 or 1) when
 * they fit, else the values with the sign bit flipped; null (SPOOR_NULL,
 * the smallest integer) is key 0. spoor_int_of_key reads a key back. */
struct spoor_int_keys {
    struct spoor_key_span span;
    int64_t min, null;
    uint64_t scale;         /* 0: sign bit flipped */
};

struct spoor_int_keys spoor_int_keys(uint64_t *key, const int64_t *v, size_t n, int64_t null);

static inline int64_t spoor_int_of_key(const struct spoor_int_keys *m, uint64_t k)
{
    if (k == 0)
        return m->null;
    return m->scale ? (int64_t)((k - 1) * m->scale + (uint64_t)m->min) : (int64_t)(k ^ (UINT64_C(1) << 63));
}

#endif
