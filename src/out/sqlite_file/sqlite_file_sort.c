/* Index keys sorted natively with an LSD radix sort, stable, so equal keys
 * keep the order they came in (rowid order, as an index wants). Keys are
 * taken relative to the smallest; when a key's significant bits and a row
 * number fit 64 bits together, each row is one word (key above, row below)
 * and only the key's digits are sorted, up to 16 bits a pass (a 27-bit span
 * of microseconds: 2 passes of 14 bits), between the caller's spare words
 * and its keys; keys of 16 bits or less ((pid, tid) offsets of 14 bits, name
 * ranks) are counted once and the rows placed directly.
 * Otherwise (key, row) pairs are sorted a byte a pass, skipping bytes every
 * key shares. Keys already in order (a time-ordered trace's timestamps,
 * as the span gathered with them says) are not sorted. */
#include "out/sqlite_file/sqlite_file.h"
#include "spoor/error.h"
#include "util/huge_array.h"

#include <stdlib.h>
#include <string.h>

enum { MAX_DIGIT = 16 };

static unsigned bits_of(uint64_t v)
{
    return v ? 64 - (unsigned)__builtin_clzll(v) : 0;
}

/* Keys wider than MAX_DIGIT bits: at least two passes, the last placing
 * the rows. a: n words of scratch; key is read first, then sorted into.
 * The key's bits are split into as few passes of at most MAX_DIGIT bits as
 * they need, evenly: a pass over the rows costs more than a larger table
 * of counts. */
static void sort_words(uint32_t *rows, size_t n, uint64_t *key, uint64_t *a, uint64_t min, unsigned key_bits,
                       unsigned row_bits)
{
    uint64_t *b = key;
    unsigned passes = (key_bits + MAX_DIGIT - 1) / MAX_DIGIT;
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
        if (d + 1 == passes) {      /* the last pass places the rows themselves */
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
static void sort_short(uint32_t *rows, size_t n, const uint64_t *key, uint64_t min, unsigned key_bits)
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
    free(count);
}

struct pair {
    uint64_t key;
    uint32_t row;
};

static void sort_pairs(uint32_t *rows, size_t n, const uint64_t *key_of_row, uint64_t min)
{
    struct pair *a = spoor_huge_alloc(n * sizeof *a), *b = spoor_huge_alloc(n * sizeof *b);
    size_t count[8][256];
    memset(count, 0, sizeof count);
    for (size_t i = 0; i < n; i++) {
        uint64_t k = key_of_row[rows[i]] - min;
        a[i] = (struct pair){k, rows[i]};
        for (int d = 0; d < 8; d++)
            count[d][(k >> (8 * d)) & 0xff]++;
    }
    for (int d = 0; d < 8; d++) {
        size_t *c = count[d];
        if (c[(a[0].key >> (8 * d)) & 0xff] == n)
            continue;       /* every key has this byte */
        size_t sum = 0;
        for (int v = 0; v < 256; v++) {
            size_t t = c[v];
            c[v] = sum;
            sum += t;
        }
        for (size_t i = 0; i < n; i++)
            b[c[(a[i].key >> (8 * d)) & 0xff]++] = a[i];
        struct pair *t = a;
        a = b;
        b = t;
    }
    for (size_t i = 0; i < n; i++)
        rows[i] = a[i].row;
    spoor_huge_free(a, n * sizeof *a);
    spoor_huge_free(b, n * sizeof *b);
}

void sqlf_sort_rows(uint32_t *rows, size_t n, uint64_t *key, uint64_t *spare, const struct sqlf_span *span)
{
    uint64_t min = span->min;
    bool ascending = span->ascending;
    unsigned key_bits = n ? bits_of(span->max - min) : 0, row_bits = bits_of(n ? n - 1 : 0);
    if (!ascending && key_bits <= MAX_DIGIT) {
        sort_short(rows, n, key, min, key_bits);
        return;
    }
    if (!ascending && key_bits + row_bits <= 64) {
        sort_words(rows, n, key, spare, min, key_bits, row_bits);
        return;
    }
    for (size_t i = 0; i < n; i++)
        rows[i] = (uint32_t)i;
    if (!ascending)         /* in order already (a time-ordered trace's ts): a stable sort keeps it */
        sort_pairs(rows, n, key, min);
}

void sqlf_sort_rows_again(uint32_t *rows, size_t n, const uint64_t *key_of_row)
{
    uint64_t min = UINT64_MAX;
    for (size_t i = 0; i < n; i++)
        min = key_of_row[i] < min ? key_of_row[i] : min;
    if (n > 1)
        sort_pairs(rows, n, key_of_row, min);
}
