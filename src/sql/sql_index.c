/* Row indexes: the row numbers of the table sorted by a key (ts, pid, a
 * string id, ...), ties in row order. A range or equality constraint becomes
 * a binary search and a contiguous span; walking an index in order also hands
 * rows out sorted by ts or grouped by name/cat.
 *
 * Sorting is an LSD radix sort on 16-bit digits (stable, O(n) per pass); a
 * pass is skipped when every key has the same digit there, which is most
 * passes for string ids, pids and the high bits of timestamps. */
#include "sql/sql_internal.h"

#include <stdlib.h>
#include <string.h>

int64_t *sql_index_keys(const struct spoor_table *t, enum sql_index_kind kind)
{
    int64_t *keys = spoor_xmalloc((t->nrows ? t->nrows : 1) * sizeof *keys);
    for (size_t r = 0; r < t->nrows; r++) {
        switch (kind) {
        case SQL_INDEX_TS: keys[r] = t->ts[r]; break;
        case SQL_INDEX_NAME: keys[r] = t->name[r]; break;
        case SQL_INDEX_CAT: keys[r] = t->cat[r]; break;
        case SQL_INDEX_PID: keys[r] = t->pid[r]; break;
        case SQL_INDEX_TID: keys[r] = t->tid[r]; break;
        case SQL_INDEX_CAT_NAME: keys[r] = (int64_t)((uint64_t)t->cat[r] << 32 | t->name[r]); break;
        case SQL_INDEXES: break;
        }
    }
    return keys;
}

/* Signed order as unsigned order. */
static uint64_t ordered(int64_t k) { return (uint64_t)k ^ (UINT64_C(1) << 63); }

struct sql_index *sql_index_new(int64_t *keys, size_t n)
{
    enum { BITS = 16, BUCKETS = 1 << BITS };
    struct sql_index *ix = spoor_xcalloc(1, sizeof *ix);
    size_t cap = n ? n : 1;
    uint32_t *rows = spoor_xmalloc(cap * sizeof *rows);
    for (size_t r = 0; r < n; r++)
        rows[r] = (uint32_t)r;
    int64_t *tmp_keys = spoor_xmalloc(cap * sizeof *tmp_keys);
    uint32_t *tmp_rows = spoor_xmalloc(cap * sizeof *tmp_rows);
    size_t *count = spoor_xmalloc(BUCKETS * sizeof *count);
    for (int shift = 0; shift < 64; shift += BITS) {
        memset(count, 0, BUCKETS * sizeof *count);
        for (size_t i = 0; i < n; i++)
            count[(ordered(keys[i]) >> shift) & (BUCKETS - 1)]++;
        if (n == 0 || count[(ordered(keys[0]) >> shift) & (BUCKETS - 1)] == n)
            continue;
        size_t sum = 0;
        for (size_t d = 0; d < BUCKETS; d++) {
            size_t c = count[d];
            count[d] = sum;
            sum += c;
        }
        for (size_t i = 0; i < n; i++) {
            size_t at = count[(ordered(keys[i]) >> shift) & (BUCKETS - 1)]++;
            tmp_keys[at] = keys[i];
            tmp_rows[at] = rows[i];
        }
        int64_t *k = keys;
        keys = tmp_keys;
        tmp_keys = k;
        uint32_t *r = rows;
        rows = tmp_rows;
        tmp_rows = r;
    }
    free(count);
    free(tmp_keys);
    free(tmp_rows);
    ix->keys = keys;
    ix->rows = rows;
    ix->n = n;
    return ix;
}

void sql_index_free(struct sql_index *ix)
{
    if (!ix)
        return;
    free(ix->keys);
    free(ix->rows);
    free(ix);
}

/* The first position whose key is >= k. */
static size_t lower_bound(const struct sql_index *ix, int64_t k)
{
    size_t lo = 0, hi = ix->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (ix->keys[mid] < k)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

void sql_index_span(const struct sql_index *ix, int64_t lo, int64_t hi, size_t *begin, size_t *end)
{
    *begin = lower_bound(ix, lo);
    *end = hi == INT64_MAX ? ix->n : lower_bound(ix, hi + 1);
    if (*end < *begin)
        *end = *begin;
}
