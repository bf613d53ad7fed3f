/* An LSD radix sort of row numbers by their keys, stable, so equal keys
 * keep the order they came in (row order, as an index wants). Keys are
 * taken relative to the smallest; when a key's significant bits and a row
 * number fit 64 bits together, each row is one word (key above, row below)
 * and only the key's digits are sorted, up to 16 bits a pass (a 27-bit span
 * of microseconds: 2 passes of 14 bits), between the caller's spare words
 * and its keys; keys of 16 bits or less ((pid, tid) offsets of 14 bits, name
 * ranks, few series buckets) are counted once and the rows placed directly.
 * Keys whose differing bits come in runs with shared bits between (cat << 32
 * | name) are packed to those runs first when that is narrower. Otherwise
 * (key, row) pairs are sorted a run of up to 16 bits a pass, bits every key
 * shares skipped. Keys already in order (a time-ordered trace's timestamps,
 * as the span gathered with them says) are not sorted. */
#include "util/radix_sort.h"

#include "spoor/error.h"
#include "util/huge_array.h"

#include <stdlib.h>
#include <string.h>

enum { MAX_DIGIT = 16 };

/* Keys wider than MAX_DIGIT bits: at least two passes, the last placing
 * the rows (and the keys, if sorted is wanted). Words are made in key or in
 * spare, whichever makes the last pass read spare: sorted may be key.
 * The key's bits are split into as few passes of at most MAX_DIGIT bits as
 * they need, evenly: a pass over the rows costs more than a larger table
 * of counts. */
static void sort_words(uint32_t *rows, uint64_t *sorted, size_t n, uint64_t *key, uint64_t *spare, uint64_t min,
                       unsigned key_bits, unsigned row_bits)
{
    unsigned passes = (key_bits + MAX_DIGIT - 1) / MAX_DIGIT;
    uint64_t *a = passes % 2 ? spare : key, *b = passes % 2 ? key : spare;
    unsigned digit = passes ? (key_bits + passes - 1) / passes : 0;
    size_t buckets = (size_t)1 << digit, mask = buckets - 1;
    size_t *count = spoor_xcalloc((passes ? passes : 1) * buckets, sizeof *count);
    for (size_t i = 0; i < n; i++) {
        uint64_t k = key[i] - min;
        a[i] = k << row_bits | i;
        for (unsigned d = 0; d < passes; d++)
            count[d * buckets + ((k >> (digit * d)) & mask)]++;
    }
    uint64_t row_mask = row_bits ? (UINT64_C(1) << row_bits) - 1 : 0;
    for (unsigned d = 0; d < passes; d++) {
        size_t *c = count + d * buckets, sum = 0;
        for (size_t v = 0; v < buckets; v++) {
            size_t t = c[v];
            c[v] = sum;
            sum += t;
        }
        unsigned shift = row_bits + digit * d;
        if (d + 1 == passes && sorted) {    /* the last pass places the rows themselves */
            for (size_t i = 0; i < n; i++) {
                size_t at = c[(a[i] >> shift) & mask]++;
                rows[at] = (uint32_t)(a[i] & row_mask);
                sorted[at] = (a[i] >> row_bits) + min;
            }
            break;
        }
        if (d + 1 == passes) {
            for (size_t i = 0; i < n; i++)
                rows[c[(a[i] >> shift) & mask]++] = (uint32_t)(a[i] & row_mask);
            break;
        }
        for (size_t i = 0; i < n; i++)
            b[c[(a[i] >> shift) & mask]++] = a[i];
        uint64_t *t = a;
        a = b;
        b = t;
    }
    free(count);
}

/* Keys of at most MAX_DIGIT bits ((pid, tid) offsets, name ranks): one
 * counting pass, each row placed straight from its key (no words built and
 * taken apart again). */
static void sort_short(uint32_t *rows, uint64_t *sorted, size_t n, const uint64_t *key, uint64_t min,
                       unsigned key_bits)
{
    size_t buckets = (size_t)1 << key_bits, sum = 0;
    size_t *count = spoor_xcalloc(buckets, sizeof *count);
    for (size_t i = 0; i < n; i++)
        count[key[i] - min]++;
    for (size_t v = 0; v < buckets; v++) {
        size_t t = count[v];
        count[v] = sum;
        sum += t;
    }
    for (size_t i = 0; i < n; i++)
        rows[count[key[i] - min]++] = (uint32_t)i;
    for (size_t v = 0, at = 0; sorted && v < buckets; v++)     /* count[v]: where bucket v ends */
        for (; at < count[v]; at++)
            sorted[at] = min + v;
    free(count);
}

/* The bits the keys differ in, as runs of at most MAX_DIGIT bits, each from
 * the lowest differing bit left: bits every key shares cost nothing (a rank
 * pair cat << 32 | name, a null's top bit beside small values). Runs start
 * at least MAX_DIGIT apart: 4 at most. */
enum { MAX_RUNS = 64 / MAX_DIGIT };
struct runs {
    unsigned n, bits;
    unsigned shift[MAX_RUNS], at[MAX_RUNS];     /* where each run is in a key, packed */
    uint64_t mask[MAX_RUNS];                    /* 0 past the n runs: all four are applied */
    uint64_t shared;        /* the bits outside the runs, the same in every key */
};

static struct runs runs_of(uint64_t differ, uint64_t shared)
{
    struct runs r = {.shared = shared & ~differ};
    while (differ) {
        unsigned low = (unsigned)__builtin_ctzll(differ);
        unsigned width = spoor_bits_of((differ >> low) & ((UINT64_C(1) << MAX_DIGIT) - 1));
        r.shift[r.n] = low;
        r.at[r.n] = r.bits;
        r.mask[r.n++] = (UINT64_C(1) << width) - 1;
        r.bits += width;
        differ = low + width >= 64 ? 0 : differ >> (low + width) << (low + width);
    }
    return r;
}

/* The runs of k side by side, lowest first: the same order in fewer bits.
 * Unrolled (a loop over the runs cost more than the sort). */
static uint64_t pack(const struct runs *r, uint64_t k)
{
    return (k >> r->shift[0] & r->mask[0]) << r->at[0] | (k >> r->shift[1] & r->mask[1]) << r->at[1]
         | (k >> r->shift[2] & r->mask[2]) << r->at[2] | (k >> r->shift[3] & r->mask[3]) << r->at[3];
}

static uint64_t unpack(const struct runs *r, uint64_t p)
{
    return r->shared | (p >> r->at[0] & r->mask[0]) << r->shift[0] | (p >> r->at[1] & r->mask[1]) << r->shift[1]
         | (p >> r->at[2] & r->mask[2]) << r->shift[2] | (p >> r->at[3] & r->mask[3]) << r->shift[3];
}

struct pair {
    uint64_t key;
    uint32_t row;
};

/* (key, row) pairs, a run a pass. */
static void sort_pairs(uint32_t *rows, uint64_t *sorted, size_t n, const uint64_t *key_of_row)
{
    struct pair *a = spoor_huge_alloc(n * sizeof *a), *b = spoor_huge_alloc(n * sizeof *b);
    uint64_t any = 0, all = UINT64_MAX;
    for (size_t i = 0; i < n; i++) {
        a[i] = (struct pair){key_of_row[rows[i]], rows[i]};
        any |= a[i].key;
        all &= a[i].key;
    }
    struct runs r = runs_of(any ^ all, all);
    size_t buckets = (size_t)1 << MAX_DIGIT;
    size_t *count = spoor_xcalloc((r.n ? r.n : 1) * buckets, sizeof *count);
    for (size_t i = 0; i < n; i++)
        for (unsigned d = 0; d < r.n; d++)
            count[d * buckets + (a[i].key >> r.shift[d] & r.mask[d])]++;
    for (unsigned d = 0; d < r.n; d++) {
        size_t *c = count + d * buckets, sum = 0;
        uint64_t mask = r.mask[d];
        for (size_t v = 0; v <= mask; v++) {
            size_t t = c[v];
            c[v] = sum;
            sum += t;
        }
        for (size_t i = 0; i < n; i++)
            b[c[a[i].key >> r.shift[d] & mask]++] = a[i];
        struct pair *t = a;
        a = b;
        b = t;
    }
    free(count);
    for (size_t i = 0; i < n; i++)
        rows[i] = a[i].row;
    for (size_t i = 0; sorted && i < n; i++)
        sorted[i] = a[i].key;
    spoor_huge_free(a, n * sizeof *a);
    spoor_huge_free(b, n * sizeof *b);
}

/* Keys narrow enough, as offsets from the smallest or as their runs packed,
 * whichever is narrower: counted once, or sorted as words. */
static bool sort_narrow(uint32_t *rows, uint64_t *sorted, size_t n, uint64_t *key, uint64_t *spare,
                        const struct spoor_key_span *span)
{
    unsigned key_bits = spoor_bits_of(span->max - span->min), row_bits = spoor_bits_of(n - 1);
    struct runs r = runs_of(span->any ^ span->all, span->all);
    bool packed = r.bits < key_bits;
    if ((packed ? r.bits : key_bits) > MAX_DIGIT && (packed ? r.bits : key_bits) + row_bits > 64)
        return false;
    if (packed) {
        for (size_t i = 0; i < n; i++)
            key[i] = pack(&r, key[i]);
        key_bits = r.bits;
    }
    uint64_t min = packed ? 0 : span->min;
    if (key_bits <= MAX_DIGIT) {
        sort_short(rows, sorted, n, key, min, key_bits);
    } else {
        uint64_t *own = spare ? NULL : spoor_huge_alloc(n * sizeof *own);
        sort_words(rows, sorted, n, key, spare ? spare : own, min, key_bits, row_bits);
        if (own)
            spoor_huge_free(own, n * sizeof *own);
    }
    for (size_t i = 0; packed && sorted && i < n; i++)
        sorted[i] = unpack(&r, sorted[i]);
    return true;
}

void spoor_radix_sort_rows(uint32_t *rows, uint64_t *sorted, size_t n, uint64_t *key, uint64_t *spare,
                           const struct spoor_key_span *span)
{
    bool ascending = span->ascending || n < 2;
    if (!ascending && sort_narrow(rows, sorted, n, key, spare, span))
        return;
    for (size_t i = 0; i < n; i++)
        rows[i] = (uint32_t)i;
    if (!ascending)
        sort_pairs(rows, sorted, n, key);
    else if (sorted && sorted != key)   /* in order already (a time-ordered trace's ts): a stable sort keeps it */
        memcpy(sorted, key, n * sizeof *sorted);
}

void spoor_radix_sort_rows_again(uint32_t *rows, size_t n, const uint64_t *key_of_row)
{
    if (n > 1)
        sort_pairs(rows, NULL, n, key_of_row);
}

void spoor_int_span(const int64_t *v, size_t n, int64_t null, int64_t *min, int64_t *max)
{
    *min = INT64_MAX;
    *max = INT64_MIN;
    for (size_t i = 0; i < n; i++)
        if (v[i] != null) {
            *min = v[i] < *min ? v[i] : *min;
            *max = v[i] > *max ? v[i] : *max;
        }
}

/* Offsets that are all multiples of COMMON are divided by it (timestamps
 * read in microseconds, stored in nanoseconds): 10 bits fewer to sort, one
 * pass of three on a trace's ts. */
enum { COMMON = 1000 };

struct spoor_int_keys spoor_int_keys(uint64_t *key, const int64_t *v, size_t n, int64_t null)
{
    int64_t min, max;
    spoor_int_span(v, n, null, &min, &max);
    struct spoor_int_keys m = {.span = spoor_key_span_start(), .min = min, .null = null};
    if (min <= max && (uint64_t)max - (uint64_t)min >= UINT64_MAX >> 1) {
        for (size_t i = 0; i < n; i++) {
            key[i] = v[i] == null ? 0 : spoor_radix_signed_key(v[i]);
            spoor_key_span_add(&m.span, key[i]);
        }
        return m;
    }
    /* Divided on the way; undone when some offset leaves a remainder. */
    uint64_t rest = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t offset = (uint64_t)v[i] - (uint64_t)min, whole = offset / COMMON;
        key[i] = v[i] == null ? 0 : whole + 1;
        rest |= v[i] == null ? 0 : offset - whole * COMMON;
        spoor_key_span_add(&m.span, key[i]);
    }
    m.scale = COMMON;
    if (!rest)
        return m;
    m.span = spoor_key_span_start();
    m.scale = 1;
    for (size_t i = 0; i < n; i++) {
        key[i] = v[i] == null ? 0 : (uint64_t)v[i] - (uint64_t)min + 1;
        spoor_key_span_add(&m.span, key[i]);
    }
    return m;
}
