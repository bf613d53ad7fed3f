/* The events virtual table: one row per table row, values read from the
 * columns in place. An eponymous table: the module's name is the table's. */
#include "sql/sql_internal.h"

#include <stdlib.h>
#include <string.h>

struct events_vtab {
    sqlite3_vtab base;
    struct spoor_sql *s;
};

struct events_cursor {
    sqlite3_vtab_cursor base;
    struct spoor_sql *s;
    struct sql_filter filter;
    struct sql_path path;
    size_t i;               /* steps taken along the path */
    size_t row;             /* the current row */
};

static int events_connect(sqlite3 *db, void *aux, int argc, const char *const *argv, sqlite3_vtab **out,
                          char **errmsg)
{
    struct spoor_sql *s = aux;
    int rc = sqlite3_declare_vtab(db, s->cols.decl);
    if (rc != SQLITE_OK)
        return rc;
    struct events_vtab *v = sqlite3_malloc(sizeof *v);
    if (!v)
        return SQLITE_NOMEM;
    memset(v, 0, sizeof *v);
    v->s = s;
    *out = &v->base;
    return SQLITE_OK;
}

static int events_disconnect(sqlite3_vtab *vt)
{
    sqlite3_free(vt);
    return SQLITE_OK;
}

static int events_best_index(sqlite3_vtab *vt, sqlite3_index_info *info)
{
    return sql_plan_best_index(((struct events_vtab *)vt)->s, info);
}

static int events_open(sqlite3_vtab *vt, sqlite3_vtab_cursor **out)
{
    struct events_cursor *c = sqlite3_malloc(sizeof *c);
    if (!c)
        return SQLITE_NOMEM;
    memset(c, 0, sizeof *c);
    c->s = ((struct events_vtab *)vt)->s;
    *out = &c->base;
    return SQLITE_OK;
}

static int events_close(sqlite3_vtab_cursor *cur)
{
    sqlite3_free(cur);
    return SQLITE_OK;
}

static bool at_end(const struct events_cursor *c) { return c->i >= c->path.end - c->path.begin; }

/* Moves to the first row at or after step i that the filter keeps. */
static void settle(struct events_cursor *c)
{
    const struct sql_path *p = &c->path;
    for (; !at_end(c); c->i++) {
        size_t pos = p->desc ? p->end - 1 - c->i : p->begin + c->i;
        c->row = p->rows ? p->rows[pos] : pos;
        c->s->rows_visited++;
        if (sql_filter_keeps(c->s->t, &c->filter, c->row))
            return;
    }
}

static int events_filter(sqlite3_vtab_cursor *cur, int idx_num, const char *idx_str, int argc,
                         sqlite3_value **argv)
{
    struct events_cursor *c = (struct events_cursor *)cur;
    sql_plan_filter(c->s, idx_str, argc, argv, &c->filter);
    sql_plan_path(c->s, (enum sql_order)idx_num, &c->filter, &c->path);
    c->i = 0;
    settle(c);
    return SQLITE_OK;
}

static int events_next(sqlite3_vtab_cursor *cur)
{
    struct events_cursor *c = (struct events_cursor *)cur;
    c->i++;
    settle(c);
    return SQLITE_OK;
}

static int events_eof(sqlite3_vtab_cursor *cur) { return at_end((struct events_cursor *)cur); }

static int events_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int col)
{
    struct events_cursor *c = (struct events_cursor *)cur;
    const struct spoor_view *v = sql_view(c->s, (size_t)col);
    size_t row = c->row;
    if (spoor_view_is_null(v, row))
        return SQLITE_OK; /* the result is null unless set */
    switch (v->kind) {
    case SPOOR_VIEW_I64: sqlite3_result_int64(ctx, v->i64[row]); break;
    case SPOOR_VIEW_F64: sqlite3_result_double(ctx, v->f64[row]); break;
    case SPOOR_VIEW_PH: {
        char ph = (char)v->ph[row];
        sqlite3_result_text(ctx, &ph, 1, SQLITE_TRANSIENT);
        break;
    }
    default: {
        /* Pool strings and source names live as long as the session. */
        char phbuf[2];
        size_t len;
        const char *text = spoor_view_text(v, row, phbuf, &len);
        sqlite3_result_text(ctx, text, (int)len, SQLITE_STATIC);
        break;
    }
    }
    return SQLITE_OK;
}

static int events_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *rowid)
{
    *rowid = (sqlite3_int64)((struct events_cursor *)cur)->row;
    return SQLITE_OK;
}

static const sqlite3_module events_module = {
    .iVersion = 0,
    .xCreate = NULL, /* eponymous only */
    .xConnect = events_connect,
    .xBestIndex = events_best_index,
    .xDisconnect = events_disconnect,
    .xDestroy = events_disconnect,
    .xOpen = events_open,
    .xClose = events_close,
    .xFilter = events_filter,
    .xNext = events_next,
    .xEof = events_eof,
    .xColumn = events_column,
    .xRowid = events_rowid,
};

int sql_events_register(struct spoor_sql *s)
{
    return sqlite3_create_module(s->db, "events", &events_module, s);
}
