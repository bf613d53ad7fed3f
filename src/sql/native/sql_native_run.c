/* Running a recognised query natively: WHERE through the --where evaluator,
 * grouping, finishing, ordering, then the rows through the same writers as
 * SQLite's (sql_output.c), with SQLite's column names. "integer overflow"
 * comes where SQLite raises it: before any row when a sorter runs (every
 * group is finished first), else at the group's place in the output. */
#include "sql/native/internal.h"

#include <stdlib.h>
#include <string.h>

struct result {
    struct sql_rows base;
    const struct native_query *q;
    const struct sql_cell *cells;   /* per group: keys, then aggregates */
    const bool *overflow;           /* per group */
    const size_t *order;
    size_t ngroups, ncells, pos, skipped, emitted;
};

static bool any(const bool *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (v[i])
            return true;
    return false;
}

static int result_next(struct sql_rows *r, struct sql_cell *out)
{
    struct result *res = (struct result *)r;
    const struct native_query *q = res->q;
    if (q->limit >= 0 && res->emitted >= (uint64_t)q->limit)
        return SQLITE_DONE;
    if (q->sorter && res->pos == 0 && any(res->overflow, res->ngroups))
        return SQLITE_ERROR;
    while (res->pos < res->ngroups) {
        size_t g = res->order[res->pos++];
        if (res->overflow[g])
            return SQLITE_ERROR;
        if (res->skipped < (uint64_t)(q->offset > 0 ? q->offset : 0)) {
            res->skipped++;
            continue;
        }
        for (size_t i = 0; i < q->nitems; i++)
            out[i] = res->cells[g * res->ncells + (q->items[i].agg ? q->nkeys : 0) + q->items[i].index];
        res->emitted++;
        return SQLITE_ROW;
    }
    return SQLITE_DONE;
}

static const char *result_errmsg(struct sql_rows *r)
{
    (void)r;
    return "integer overflow";
}

/* file and host as the session resolved them, for --where. */
static struct spoor_resolved resolved(struct spoor_sql *s)
{
    struct spoor_resolved res = {.nrows = s->t->nrows};
    for (size_t i = 0; i < s->cols.n; i++) {
        enum spoor_field f = s->cols.v[i].field;
        if (f == SPOOR_FIELD_FILE || f == SPOOR_FIELD_HOST) {
            const struct spoor_view *v = sql_view(s, i);
            res.pool = v->pool;
            *(f == SPOOR_FIELD_FILE ? &res.file : &res.host) = v->str;
        }
    }
    return res;
}

static bool needs_resolved(const struct spoor_expr *e)
{
    const struct spoor_expr_ref *refs;
    size_t n = spoor_expr_refs(e, &refs);
    for (size_t i = 0; i < n; i++)
        if (refs[i].field == SPOOR_FIELD_FILE || refs[i].field == SPOOR_FIELD_HOST)
            return true;
    return false;
}

/* The rows WHERE keeps, in order; NULL (all rows) without WHERE. */
static bool select_rows(struct spoor_sql *s, const char *where, uint32_t **sel, size_t *nsel, const char **why)
{
    *sel = NULL;
    *nsel = s->t->nrows;
    if (!where)
        return true;
    struct spoor_expr *e;
    struct spoor_error err = {0};
    if (spoor_expr_compile(where, &e, &err) != SPOOR_OK) {
        *why = "WHERE the --where compiler does not take";
        return false;
    }
    struct spoor_resolved res = needs_resolved(e) ? resolved(s) : (struct spoor_resolved){0};
    struct spoor_expr_ctx *ctx = spoor_expr_ctx_new(e);
    spoor_expr_bind(ctx, s->t, res.pool ? &res : NULL);
    *sel = spoor_xmalloc((s->t->nrows ? s->t->nrows : 1) * sizeof **sel);
    *nsel = spoor_expr_select(ctx, *sel);
    spoor_expr_ctx_free(ctx);
    spoor_expr_free(e);
    return true;
}

/* Keys and finished aggregates of every group; false when an answer would
 * depend on SQLite's row order. */
static bool finish_groups(struct spoor_sql *s, const struct native_query *q, const struct native_groups *g,
                          struct sql_cell *cells, bool *overflow)
{
    size_t ncells = q->nkeys + q->naggs;
    for (size_t i = 0; i < g->n; i++) {
        struct sql_cell *c = cells + i * ncells;
        overflow[i] = false;
        for (size_t k = 0; k < q->nkeys; k++)
            native_cell_at(sql_view(s, q->keys[k]), g->first_row[i], &c[k]);
        for (size_t a = 0; a < q->naggs; a++) {
            bool over;
            if (!native_finish(&q->aggs[a], &g->acc[i * q->naggs + a], &c[q->nkeys + a], &over))
                return false;
            overflow[i] |= over;
        }
    }
    return true;
}

static int write_result(const struct native_query *q, sqlite3_stmt *st, const struct spoor_sql_run *run,
                        size_t nth, const struct sql_cell *cells, const bool *overflow, size_t ngroups,
                        struct spoor_error *err)
{
    size_t ncells = q->nkeys + q->naggs;
    const char **names = spoor_xmalloc(q->nitems * sizeof *names);
    for (size_t i = 0; i < q->nitems; i++)
        names[i] = sqlite3_column_name(st, (int)i);
    size_t *order = native_order_groups(q, cells, ngroups, ncells);
    struct result r = {
        .base = {.ncols = (int)q->nitems, .names = names, .next = result_next, .errmsg = result_errmsg},
        .q = q, .cells = cells, .overflow = overflow, .order = order, .ngroups = ngroups, .ncells = ncells,
    };
    int status = sql_output_rows(&r.base, run->format, run->out, nth, err);
    free(order);
    free(names);
    return status;
}

bool sql_native_exec(struct spoor_sql *s, sqlite3_stmt *st, const char *text, size_t len,
                     const struct spoor_sql_run *run, size_t nth, int *status, const char **why,
                     struct spoor_error *err)
{
    if (sqlite3_bind_parameter_count(st) > 0) {
        *why = "the statement has parameters";
        return false;
    }
    struct native_query q;
    if (!native_parse(s, text, len, &q, why))
        return false;
    uint32_t *sel = NULL;
    size_t nsel = 0;
    bool ok = (size_t)sqlite3_column_count(st) == q.nitems;
    if (!ok)
        *why = "SQLite sees other result columns";
    ok = ok && select_rows(s, q.where, &sel, &nsel, why);
    if (ok) {
        struct native_groups g;
        native_group(s, &q, sel, nsel, &g);
        size_t ncells = q.nkeys + q.naggs;
        struct sql_cell *cells = spoor_xcalloc(g.n * ncells + 1, sizeof *cells);
        bool *overflow = spoor_xcalloc(g.n + 1, sizeof *overflow);
        ok = finish_groups(s, &q, &g, cells, overflow);
        if (ok)
            *status = write_result(&q, st, run, nth, cells, overflow, g.n, err);
        else
            *why = "the answer depends on the order SQLite adds rows in";
        free(overflow);
        free(cells);
        native_groups_free(&g);
    }
    free(sel);
    native_query_free(&q);
    return ok;
}
