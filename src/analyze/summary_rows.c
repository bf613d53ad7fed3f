/* Per row: the file it touched (resolved from fhash/fname), the bytes it moved
 * and whether it is compute; and the rows in start order. */
#include "summary_internal.h"

#include "spoor/resolve.h"

#include <stdlib.h>
#include <string.h>

/* A numeric args value as int64, or SPOOR_NULL. */
static int64_t arg_at(const struct spoor_column *c, size_t r)
{
    if (!c || !spoor_column_valid(c, r))
        return SPOOR_NULL;
    if (c->type == SPOOR_I64)
        return c->i64[r];
    if (c->type == SPOOR_F64 && c->f64[r] > -9.2e18 && c->f64[r] < 9.2e18)
        return (int64_t)c->f64[r];
    return SPOOR_NULL;
}

static int64_t row_bytes(const struct spoor_column *size_sum, const struct spoor_column *size,
                         const struct spoor_column *ret, const struct spoor_column *count, size_t r)
{
    int64_t v = arg_at(size_sum, r);
    if (v == SPOOR_NULL)
        v = arg_at(size, r);
    /* ret is bytes only for calls that ask for a count (read, write, ...):
     * for open it is a descriptor, for lseek an offset. */
    if (v == SPOOR_NULL && arg_at(count, r) != SPOOR_NULL)
        v = arg_at(ret, r);
    return v >= 0 ? v : SPOOR_NULL;
}

/* The compute list in ids of the table's pool: cats flagged in is_cat, and
 * (cat, name) pairs; an entry "a.b.c" may be cat "a" name "b.c" or cat "a.b"
 * name "c", so every dot is tried. Returns the number of pairs. */
static size_t compute_ids(const struct spoor_table *t, const char *list, bool *is_cat, uint64_t **pairs)
{
    size_t npairs = 0;
    *pairs = spoor_xmalloc((strlen(list) + 1) * sizeof **pairs);
    for (const char *p = list; *p;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        uint32_t id = spoor_strpool_find(t->pool, p, len);
        if (id != UINT32_MAX)
            is_cat[id] = true;
        for (size_t dot = 0; dot < len; dot++) {
            if (p[dot] != '.')
                continue;
            uint32_t cat = spoor_strpool_find(t->pool, p, dot);
            uint32_t name = spoor_strpool_find(t->pool, p + dot + 1, len - dot - 1);
            if (cat != UINT32_MAX && name != UINT32_MAX)
                (*pairs)[npairs++] = (uint64_t)cat << 32 | name;
        }
        p += len + (end != NULL);
    }
    return npairs;
}

static bool is_compute(const struct spoor_table *t, size_t r, const bool *is_cat, const uint64_t *pairs,
                       size_t npairs)
{
    if (is_cat[t->cat[r]])
        return true;
    uint64_t key = (uint64_t)t->cat[r] << 32 | t->name[r];
    for (size_t i = 0; i < npairs; i++)
        if (pairs[i] == key)
            return true;
    return false;
}

void summary_rows_build(const struct spoor_table *t, const char *compute, struct summary_rows *out)
{
    memset(out, 0, sizeof *out);
    out->n = t->nrows;
    out->resolver = spoor_resolver_new();
    const struct spoor_resolved *res = spoor_resolver_resolve(out->resolver, t);
    out->file = res->file;
    out->files = res->pool;
    out->bytes = spoor_xmalloc((t->nrows ? t->nrows : 1) * sizeof *out->bytes);
    out->order = summary_start_order(t);
    out->compute = spoor_xcalloc(t->nrows ? t->nrows : 1, sizeof *out->compute);
    const struct spoor_column *size_sum = spoor_table_find_column(t, "size_sum");
    const struct spoor_column *size = spoor_table_find_column(t, "size");
    const struct spoor_column *ret = spoor_table_find_column(t, "ret");
    const struct spoor_column *count = spoor_table_find_column(t, "count");
    bool *is_cat = spoor_xcalloc(spoor_strpool_count(t->pool), sizeof *is_cat);
    uint64_t *pairs;
    size_t npairs = compute_ids(t, compute, is_cat, &pairs);
    for (size_t r = 0; r < t->nrows; r++) {
        out->bytes[r] = row_bytes(size_sum, size, ret, count, r);
        out->compute[r] = summary_is_event(t, r) && is_compute(t, r, is_cat, pairs, npairs);
    }
    free(is_cat);
    free(pairs);
}

void summary_rows_free(struct summary_rows *r)
{
    spoor_resolver_free(r->resolver);
    free(r->bytes);
    free(r->compute);
    free(r->order);
    memset(r, 0, sizeof *r);
}
