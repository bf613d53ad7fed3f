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

/* Whether "cat" or "cat.name" is an entry of the comma-separated list. */
static bool listed(const char *list, const char *cat, const char *name)
{
    size_t clen = strlen(cat), nlen = strlen(name);
    for (const char *p = list; *p;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == clen && !memcmp(p, cat, clen))
            return true;
        if (len == clen + 1 + nlen && !memcmp(p, cat, clen) && p[clen] == '.' && !memcmp(p + clen + 1, name, nlen))
            return true;
        p += len + (end != NULL);
    }
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
    /* Compute is decided once per (cat, name) pair seen, cached by the last pair. */
    uint32_t last_cat = UINT32_MAX, last_name = UINT32_MAX;
    bool last = false;
    for (size_t r = 0; r < t->nrows; r++) {
        out->bytes[r] = row_bytes(size_sum, size, ret, count, r);
        if (t->cat[r] != last_cat || t->name[r] != last_name) {
            last_cat = t->cat[r];
            last_name = t->name[r];
            last = listed(compute, spoor_table_str(t, last_cat), spoor_table_str(t, last_name));
        }
        out->compute[r] = last && summary_is_event(t, r);
    }
}

void summary_rows_free(struct summary_rows *r)
{
    spoor_resolver_free(r->resolver);
    free(r->bytes);
    free(r->compute);
    free(r->order);
    memset(r, 0, sizeof *r);
}
