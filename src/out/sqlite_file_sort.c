/* Index keys sorted natively: an LSD radix sort over (key, row) pairs, one
 * byte a pass, skipping bytes every key shares (the high bytes of timestamps,
 * pids). Stable, so equal keys keep the order they came in (rowid order, as
 * an index wants). */
#include "out/sqlite_file.h"
#include "spoor/error.h"

#include <stdlib.h>
#include <string.h>

struct pair {
    uint64_t key;
    uint32_t row;
};

void sqlf_sort_rows(uint32_t *rows, size_t n, const uint64_t *key_of_row)
{
    if (n < 2)
        return;
    struct pair *a = spoor_xmalloc(n * sizeof *a), *b = spoor_xmalloc(n * sizeof *b);
    size_t count[8][256];
    memset(count, 0, sizeof count);
    for (size_t i = 0; i < n; i++) {
        uint64_t k = key_of_row[rows[i]];
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
    free(a);
    free(b);
}
