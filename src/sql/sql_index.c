/* Row indexes: the row numbers of the table sorted by a key (ts, pid, a
 * string id, ...), ties in row order. A range or equality constraint becomes
 * a binary search and a contiguous span; walking an index in order also hands
 * rows out sorted by ts or grouped by name/cat.
 *
 * String columns are sorted by the rank of their text, not by id, so the
 * same walk serves ORDER BY name.
 *
 * Sorting is util's radix sort (stable): keys already in order (a
 * time-ordered trace's ts) are not sorted, narrow ones (string ranks, pids)
 * are counted once. */
#include "sql/sql_internal.h"
#include "util/radix_sort.h"

#include <stdlib.h>
#include <string.h>

/* The rank of every string id that occurs in col, in SQLite's binary order
 * (bytewise, shorter first on a tie): sorting by rank sorts by the text, so
 * walking a name or cat index also serves ORDER BY name. Only the distinct
 * ids are sorted. Id 0 (null) is "" and ranks first, as nulls sort in SQL. */
static const struct spoor_strpool *rank_pool;

static int by_text(const void *a, const void *b)
{
    size_t la, lb;
    const char *sa = spoor_strpool_get(rank_pool, *(const uint32_t *)a, &la);
    const char *sb = spoor_strpool_get(rank_pool, *(const uint32_t *)b, &lb);
    int c = memcmp(sa, sb, la < lb ? la : lb);
    return c ? c : (la > lb) - (la < lb);
}

static uint32_t *string_ranks(const struct spoor_table *t, const uint32_t *col)
{
    size_t nids = spoor_strpool_count(t->pool);
    uint32_t *rank = spoor_xmalloc((nids ? nids : 1) * sizeof *rank);
    memset(rank, 0xff, nids * sizeof *rank);
    uint32_t *distinct = spoor_xmalloc((nids ? nids : 1) * sizeof *distinct);
    size_t n = 0;
    for (size_t r = 0; r < t->nrows; r++)
        if (rank[col[r]] == UINT32_MAX) {
            rank[col[r]] = 0;
            distinct[n++] = col[r];
        }
    rank_pool = t->pool; /* qsort has no context argument; sessions are single-threaded */
    qsort(distinct, n, sizeof *distinct, by_text);
    for (size_t i = 0; i < n; i++)
        rank[distinct[i]] = (uint32_t)i;
    free(distinct);
    return rank;
}

int64_t *sql_index_keys(const struct spoor_table *t, enum sql_index_kind kind, uint32_t **rank_of_id)
{
    int64_t *keys = spoor_xmalloc((t->nrows ? t->nrows : 1) * sizeof *keys);
    const int64_t *ints = kind == SQL_INDEX_TS ? t->ts : kind == SQL_INDEX_PID ? t->pid : t->tid;
    *rank_of_id = NULL;
    if (kind == SQL_INDEX_TS || kind == SQL_INDEX_PID || kind == SQL_INDEX_TID) {
        memcpy(keys, ints, t->nrows * sizeof *keys);
    } else if (kind == SQL_INDEX_CAT_NAME) {
        uint32_t *cat = string_ranks(t, t->cat), *name = string_ranks(t, t->name);
        for (size_t r = 0; r < t->nrows; r++)
            keys[r] = (int64_t)((uint64_t)cat[t->cat[r]] << 32 | name[t->name[r]]);
        free(cat);
        free(name);
    } else {
        const uint32_t *col = kind == SQL_INDEX_NAME ? t->name : t->cat;
        *rank_of_id = string_ranks(t, col);
        for (size_t r = 0; r < t->nrows; r++)
            keys[r] = (*rank_of_id)[col[r]];
    }
    return keys;
}

struct sql_index *sql_index_new(int64_t *keys, uint32_t *rank_of_id, size_t n)
{
    struct sql_index *ix = spoor_xcalloc(1, sizeof *ix);
    uint64_t *key = (uint64_t *)keys; /* the keys in place as unsigned ones, sorted in place, read back */
    uint32_t *rows = spoor_xmalloc((n ? n : 1) * sizeof *rows);
    struct spoor_key_span span = spoor_key_span_start();
    for (size_t r = 0; r < n; r++) {
        key[r] = spoor_radix_signed_key(keys[r]);
        spoor_key_span_add(&span, key[r]);
    }
    spoor_radix_sort_rows(rows, key, n, key, NULL, &span);
    for (size_t i = 0; i < n; i++)
        keys[i] = (int64_t)(key[i] ^ spoor_radix_signed_key(0));
    ix->keys = keys;
    ix->rank_of_id = rank_of_id;
    ix->rows = rows;
    ix->n = n;
    return ix;
}

void sql_index_free(struct sql_index *ix)
{
    if (!ix)
        return;
    free(ix->keys);
    free(ix->rank_of_id);
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

int64_t sql_index_key_of_id(const struct sql_index *ix, uint32_t id)
{
    return ix->rank_of_id[id] == UINT32_MAX ? -1 : (int64_t)ix->rank_of_id[id];
}
