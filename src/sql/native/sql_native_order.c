/* Finishing aggregates and ordering groups exactly as SQLite 3.40 does:
 * values compare NULL < numbers < text (BINARY: memcmp, then length), ints
 * and reals by value; groups come sorted by their keys, then a stable sort
 * by ORDER BY. */
#include "sql/native/internal.h"

#include <stdlib.h>
#include <string.h>

static int rank(int type) { return type == SQLITE_NULL ? 0 : type == SQLITE_TEXT ? 2 : 1; }

/* An integer against a real, exactly (as sqlite3IntFloatCompare). */
static int int_real_cmp(int64_t i, double r)
{
    if (r < -9223372036854775808.0)
        return 1;
    if (r >= 9223372036854775808.0)
        return -1;
    int64_t t = (int64_t)r; /* toward zero; r - t is exact */
    if (i != t)
        return i < t ? -1 : 1;
    double frac = r - (double)t;
    return frac > 0 ? -1 : frac < 0 ? 1 : 0;
}

int native_cell_cmp(const struct sql_cell *a, const struct sql_cell *b)
{
    int ra = rank(a->type), rb = rank(b->type);
    if (ra != rb)
        return ra < rb ? -1 : 1;
    if (ra == 0)
        return 0;
    if (ra == 2) {
        size_t n = a->len < b->len ? a->len : b->len;
        int c = memcmp(a->text, b->text, n);
        return c ? (c < 0 ? -1 : 1) : (a->len > b->len) - (a->len < b->len);
    }
    if (a->type == SQLITE_INTEGER && b->type == SQLITE_INTEGER)
        return (a->i > b->i) - (a->i < b->i);
    if (a->type == SQLITE_FLOAT && b->type == SQLITE_FLOAT)
        return (a->f > b->f) - (a->f < b->f);
    return a->type == SQLITE_INTEGER ? int_real_cmp(a->i, b->f) : -int_real_cmp(b->i, a->f);
}

/* SQLite 3.40 adds in row order, into an int64 (an error on overflow) and a
 * double. The exact sum stands for both when no order could tell: the double
 * is exact while every partial sum stays within 2^53, and the int64 cannot
 * overflow on the way while the magnitudes add up to at most 2^63 - 1. */
bool native_finish(const struct native_agg *a, const struct native_acc *acc, struct sql_cell *out, bool *overflow)
{
    static const uint64_t exact_double = (uint64_t)1 << 53;
    *overflow = false;
    out->type = SQLITE_NULL;
    switch (a->kind) {
    case AGG_COUNT_STAR:
    case AGG_COUNT:
        out->type = SQLITE_INTEGER;
        out->i = acc->n;
        return true;
    case AGG_SUM:
        if (!acc->n)
            return true;
        if (acc->sum > INT64_MAX || acc->sum < INT64_MIN) {
            *overflow = true; /* the last partial sum overflows in any order */
            return true;
        }
        out->type = SQLITE_INTEGER;
        out->i = (int64_t)acc->sum;
        return acc->abs <= (uint64_t)INT64_MAX;
    case AGG_TOTAL:
    case AGG_AVG:
        if (a->kind == AGG_AVG && !acc->n)
            return true;
        out->type = SQLITE_FLOAT;
        out->f = (double)acc->sum;
        if (a->kind == AGG_AVG)
            out->f /= (double)acc->n;
        return acc->abs <= exact_double;
    case AGG_MIN:
    case AGG_MAX:
        if (acc->n)
            *out = acc->ext;
        /* 0.0 and -0.0 tie: SQLite keeps whichever came first. */
        return !(acc->n && out->type == SQLITE_FLOAT && out->f == 0);
    }
    return false;
}

struct sort_ctx {
    const struct native_query *q;
    const struct sql_cell *cells;   /* per group: keys, then aggregates */
    size_t ncells;
};

static const struct sql_cell *ref_cell(const struct sort_ctx *c, size_t group, struct native_ref ref)
{
    return &c->cells[group * c->ncells + (ref.agg ? c->q->nkeys : 0) + ref.index];
}

static int by_keys(const struct sort_ctx *c, size_t a, size_t b)
{
    for (size_t k = 0; k < c->q->nkeys; k++) {
        struct native_ref ref = {.agg = false, .index = k};
        int r = native_cell_cmp(ref_cell(c, a, ref), ref_cell(c, b, ref));
        if (r)
            return c->q->key_desc[k] ? -r : r;
    }
    return 0;
}

static int by_order(const struct sort_ctx *c, size_t a, size_t b)
{
    for (size_t i = 0; i < c->q->norder; i++) {
        const struct native_order *o = &c->q->order[i];
        int r = native_cell_cmp(ref_cell(c, a, o->ref), ref_cell(c, b, o->ref));
        if (r)
            return o->desc ? -r : r;
    }
    return by_keys(c, a, b); /* ties stay in key order: SQLite's sorter is stable */
}

static _Thread_local const struct sort_ctx *current;

static int compare(const void *pa, const void *pb)
{
    return by_order(current, *(const size_t *)pa, *(const size_t *)pb);
}

size_t *native_order_groups(const struct native_query *q, const struct sql_cell *cells, size_t ngroups,
                            size_t ncells)
{
    size_t *order = spoor_xmalloc((ngroups ? ngroups : 1) * sizeof *order);
    for (size_t i = 0; i < ngroups; i++)
        order[i] = i;
    struct sort_ctx c = {.q = q, .cells = cells, .ncells = ncells};
    current = &c;
    qsort(order, ngroups, sizeof *order, compare);
    current = NULL;
    return order;
}
