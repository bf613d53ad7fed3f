/* The attribution dataset: the engine's per-call function lists turned into a
 * dense table with one column per kernel function (or cat). */
#include "spoor/attribute.h"

#include "ops/event_bytes.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A kernel column: its (cat, name) ids (name 0 by cat) and its texts. */
struct col_key {
    uint64_t key;
    const char *cat, *name;
    size_t col;
};

static uint64_t fn_key(const struct spoor_attr_fn *f, enum spoor_attr_columns by)
{
    return (uint64_t)f->cat << 32 | (by == SPOOR_ATTR_BY_CAT ? 0 : f->name);
}

static int by_key(const void *a, const void *b)
{
    uint64_t x = ((const struct col_key *)a)->key, y = ((const struct col_key *)b)->key;
    return (x > y) - (x < y);
}

static int by_text(const void *a, const void *b)
{
    const struct col_key *x = a, *y = b;
    int c = strcmp(x->cat, y->cat);
    return c ? c : strcmp(x->name, y->name);
}

/* The distinct columns of every call's functions, numbered by cat then name
 * and left sorted by key for lookups. Returns how many. */
static size_t collect_columns(const struct spoor_table *t, const struct spoor_attribution *a,
                              enum spoor_attr_columns by, struct col_key **out)
{
    size_t nfns = a->first[a->ncalls], n = 0;
    struct col_key *keys = spoor_xmalloc((nfns ? nfns : 1) * sizeof *keys);
    for (size_t i = 0; i < nfns; i++)
        keys[i].key = fn_key(&a->fns[i], by);
    qsort(keys, nfns, sizeof *keys, by_key);
    for (size_t i = 0; i < nfns; i++) {
        if (n && keys[n - 1].key == keys[i].key)
            continue;
        keys[n].key = keys[i].key;
        keys[n].cat = spoor_table_str(t, (uint32_t)(keys[i].key >> 32));
        keys[n].name = by == SPOOR_ATTR_BY_CAT ? "" : spoor_table_str(t, (uint32_t)keys[i].key);
        n++;
    }
    qsort(keys, n, sizeof *keys, by_text);
    for (size_t i = 0; i < n; i++)
        keys[i].col = i;
    *out = keys;
    return n;
}

static char *column_name(const struct col_key *k, enum spoor_attr_columns by)
{
    size_t clen = strlen(k->cat), nlen = strlen(k->name);
    char *s = spoor_xmalloc(clen + nlen + 2);
    memcpy(s, k->cat, clen);
    if (by == SPOOR_ATTR_BY_CAT) {
        s[clen] = '\0';
    } else {
        s[clen] = '.';
        memcpy(s + clen + 1, k->name, nlen + 1);
    }
    return s;
}

/* An integer args value of a row, or SPOOR_NULL (reals are truncated). */
static int64_t arg_int(const struct spoor_column *c, size_t row)
{
    if (!c || !spoor_column_valid(c, row))
        return SPOOR_NULL;
    if (c->type == SPOOR_I64)
        return c->i64[row];
    if (c->type == SPOOR_F64 && fabs(c->f64[row]) < 9e18)
        return (int64_t)c->f64[row];
    return SPOOR_NULL;
}

static void fill_row(const struct spoor_table *t, const struct event_bytes *bytes, const struct spoor_resolved *res,
                     uint32_t r, const struct spoor_attribution *a, size_t i, struct spoor_attr_row *row)
{
    static const double mib = 1024.0 * 1024.0;
    int64_t id = arg_int(spoor_table_find_column(t, "call_id"), r);
    row->call_id = id != SPOOR_NULL ? id : (int64_t)t->line[r];
    row->ts = t->ts[r];
    row->dur = t->dur[r];
    row->name = spoor_table_str(t, t->name[r]);
    row->file = res && res->file[r] ? spoor_strpool_get(res->pool, res->file[r], NULL) : NULL;
    row->size = event_bytes_of(bytes, t, r);
    bool timed = row->dur != SPOOR_NULL && row->dur > 0;
    row->bandwidth = timed && row->size != SPOOR_NULL ? (double)row->size / mib / ((double)row->dur * 1e-9) : NAN;
    row->unattributed = a->unattributed[i];
    row->coverage = timed && a->covered[i] != SPOOR_NULL ? (double)a->covered[i] / (double)row->dur : NAN;
}

int spoor_attr_dataset_build(const struct spoor_table *t, const struct spoor_resolved *res, const uint32_t *calls,
                             size_t ncalls, const uint32_t *events, size_t nevents,
                             const struct spoor_attr_opts *opts, enum spoor_attr_columns by,
                             struct spoor_attr_dataset *out, struct spoor_error *err)
{
    memset(out, 0, sizeof *out);
    struct spoor_attribution a;
    int st = spoor_attribute(t, calls, ncalls, events, nevents, opts, &a, err);
    if (st != SPOOR_OK)
        return st;
    struct col_key *cols;
    out->ncols = collect_columns(t, &a, by, &cols);
    out->col_names = spoor_xmalloc((out->ncols ? out->ncols : 1) * sizeof *out->col_names);
    for (size_t c = 0; c < out->ncols; c++)
        out->col_names[c] = column_name(&cols[c], by);
    qsort(cols, out->ncols, sizeof *cols, by_key);

    out->nrows = ncalls;
    out->rows = spoor_xmalloc((ncalls ? ncalls : 1) * sizeof *out->rows);
    size_t cells = ncalls * out->ncols;
    out->ns = spoor_xcalloc(cells ? cells : 1, sizeof *out->ns);
    struct event_bytes bytes;
    event_bytes_bind(&bytes, t);
    for (size_t i = 0; i < ncalls; i++) {
        fill_row(t, &bytes, res, calls[i], &a, i, &out->rows[i]);
        for (size_t f = a.first[i]; f < a.first[i + 1]; f++) {
            struct col_key k = {.key = fn_key(&a.fns[f], by)};
            const struct col_key *c = bsearch(&k, cols, out->ncols, sizeof *cols, by_key);
            out->ns[i * out->ncols + c->col] += a.fns[f].ns;
        }
    }
    free(cols);
    spoor_attribution_free(&a);
    return SPOOR_OK;
}

void spoor_attr_dataset_free(struct spoor_attr_dataset *d)
{
    for (size_t c = 0; c < d->ncols; c++)
        free(d->col_names[c]);
    free(d->col_names);
    free(d->rows);
    free(d->ns);
    memset(d, 0, sizeof *d);
}
