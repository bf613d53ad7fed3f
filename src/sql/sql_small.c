/* A module for small read-only tables kept in arrays (the lookups, meta):
 * a full scan, no push-down, one module registration per table. */
#include "sql/sql_internal.h"

#include <string.h>

struct small_aux {
    struct spoor_sql *s;
    const struct sql_small_table *d;
};

struct small_vtab {
    sqlite3_vtab base;
    struct small_aux aux;
};

struct small_cursor {
    sqlite3_vtab_cursor base;
    const struct small_aux *aux;
    size_t row, nrows;
};

static int small_connect(sqlite3 *db, void *aux, int argc, const char *const *argv, sqlite3_vtab **out,
                         char **errmsg)
{
    const struct small_aux *a = aux;
    int rc = sqlite3_declare_vtab(db, a->d->decl);
    if (rc != SQLITE_OK)
        return rc;
    struct small_vtab *v = sqlite3_malloc(sizeof *v);
    if (!v)
        return SQLITE_NOMEM;
    memset(v, 0, sizeof *v);
    v->aux = *a;
    *out = &v->base;
    return SQLITE_OK;
}

static int small_disconnect(sqlite3_vtab *vt)
{
    sqlite3_free(vt);
    return SQLITE_OK;
}

static int small_best_index(sqlite3_vtab *vt, sqlite3_index_info *info)
{
    const struct small_aux *a = &((struct small_vtab *)vt)->aux;
    size_t n = a->d->nrows(a->s, a->d);
    info->estimatedRows = (sqlite3_int64)n;
    info->estimatedCost = 10.0 + (double)n;
    return SQLITE_OK;
}

static int small_open(sqlite3_vtab *vt, sqlite3_vtab_cursor **out)
{
    struct small_cursor *c = sqlite3_malloc(sizeof *c);
    if (!c)
        return SQLITE_NOMEM;
    memset(c, 0, sizeof *c);
    c->aux = &((struct small_vtab *)vt)->aux;
    *out = &c->base;
    return SQLITE_OK;
}

static int small_close(sqlite3_vtab_cursor *cur)
{
    sqlite3_free(cur);
    return SQLITE_OK;
}

static int small_filter(sqlite3_vtab_cursor *cur, int idx_num, const char *idx_str, int argc,
                        sqlite3_value **argv)
{
    struct small_cursor *c = (struct small_cursor *)cur;
    c->row = 0;
    c->nrows = c->aux->d->nrows(c->aux->s, c->aux->d);
    return SQLITE_OK;
}

static int small_next(sqlite3_vtab_cursor *cur)
{
    ((struct small_cursor *)cur)->row++;
    return SQLITE_OK;
}

static int small_eof(sqlite3_vtab_cursor *cur)
{
    const struct small_cursor *c = (const struct small_cursor *)cur;
    return c->row >= c->nrows;
}

static int small_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int col)
{
    const struct small_cursor *c = (const struct small_cursor *)cur;
    c->aux->d->column(c->aux->s, c->aux->d, c->row, col, ctx);
    return SQLITE_OK;
}

static int small_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *rowid)
{
    *rowid = (sqlite3_int64)((const struct small_cursor *)cur)->row;
    return SQLITE_OK;
}

static const sqlite3_module small_module = {
    .xConnect = small_connect, /* no xCreate: eponymous only */
    .xBestIndex = small_best_index,
    .xDisconnect = small_disconnect,
    .xDestroy = small_disconnect,
    .xOpen = small_open,
    .xClose = small_close,
    .xFilter = small_filter,
    .xNext = small_next,
    .xEof = small_eof,
    .xColumn = small_column,
    .xRowid = small_rowid,
};

int sql_small_register(struct spoor_sql *s, const struct sql_small_table *d)
{
    struct small_aux *a = sqlite3_malloc(sizeof *a);
    if (!a)
        return SQLITE_NOMEM;
    *a = (struct small_aux){.s = s, .d = d};
    return sqlite3_create_module_v2(s->db, d->name, &small_module, a, sqlite3_free);
}
