/* A session: an in-memory SQLite connection with the spoor modules
 * registered over one event table. */
#include "sql/sql_internal.h"

#include <stdlib.h>
#include <string.h>

static const char *const table_names[] = {"events", "files", "hosts", "strings", "procs", "threads", "meta", NULL};

const char *const *spoor_sql_table_names(void) { return table_names; }

static void bind_views(struct spoor_sql *s, const struct spoor_resolved *res)
{
    for (size_t i = 0; i < s->cols.n; i++) {
        const struct sql_column *c = &s->cols.v[i];
        size_t key_len = c->key ? strlen(c->key) : 0;
        spoor_view_bind(&s->views[i], c->field, c->key, key_len, s->t, res);
    }
}

/* file and host are resolved for every row on first use: a query that
 * never reads them does not pay for the lookups. */
const struct spoor_view *sql_view(struct spoor_sql *s, size_t col)
{
    enum spoor_field f = s->cols.v[col].field;
    if ((f == SPOOR_FIELD_FILE || f == SPOOR_FIELD_HOST) && !s->resolver) {
        s->resolver = spoor_resolver_new();
        bind_views(s, spoor_resolver_resolve(s->resolver, s->t));
    }
    return &s->views[col];
}

/* Indexes are built on first use, not at open: sorting by ts costs a pass
 * or two over the column and 12 bytes per row, and most sessions run one
 * query that needs one index or none. */
const struct sql_index *sql_index(struct spoor_sql *s, enum sql_index_kind kind)
{
    if (!s->index[kind]) {
        uint32_t *rank_of_id;
        int64_t *keys = sql_index_keys(s->t, kind, &rank_of_id);
        s->index[kind] = sql_index_new(keys, rank_of_id, s->t->nrows);
    }
    return s->index[kind];
}

int spoor_sql_open(const struct spoor_table *t, const struct spoor_load_result *loaded, struct spoor_sql **out,
                   struct spoor_error *err)
{
    if (t->nrows > UINT32_MAX)
        return spoor_fail(err, SPOOR_EUSAGE, "sql: %zu rows is more than an index can address (2^32)", t->nrows);
    struct spoor_sql *s = spoor_xcalloc(1, sizeof *s);
    s->t = t;
    s->loaded = loaded;
    sql_columns_init(&s->cols, t);
    s->views = spoor_xcalloc(s->cols.n, sizeof *s->views);
    bind_views(s, NULL);
    sql_meta_build(s);
    int rc = sqlite3_open_v2(":memory:", &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
    if (rc == SQLITE_OK)
        rc = sql_events_register(s);
    for (size_t i = 0; rc == SQLITE_OK && sql_lookup_tables[i].name; i++)
        rc = sql_small_register(s, &sql_lookup_tables[i]);
    if (rc == SQLITE_OK)
        rc = sql_small_register(s, &sql_meta_table);
    if (rc != SQLITE_OK) {
        spoor_fail(err, SPOOR_ENOMEM, "sql: cannot open SQLite: %s", s->db ? sqlite3_errmsg(s->db) : sqlite3_errstr(rc));
        spoor_sql_close(s);
        return SPOOR_ENOMEM;
    }
    *out = s;
    return SPOOR_OK;
}

void spoor_sql_close(struct spoor_sql *s)
{
    if (!s)
        return;
    sqlite3_close(s->db);
    for (int k = 0; k < SQL_INDEXES; k++)
        sql_index_free(s->index[k]);
    spoor_resolver_free(s->resolver);
    free(s->views);
    sql_columns_free(&s->cols);
    sql_meta_free(s);
    free(s);
}

sqlite3 *spoor_sql_db(struct spoor_sql *s) { return s->db; }

uint64_t spoor_sql_rows_visited(const struct spoor_sql *s) { return s->rows_visited; }

const char *spoor_sql_schema(struct spoor_sql *s, const char *table)
{
    if (!sqlite3_stricmp(table, "events"))
        return s->cols.decl;
    if (!sqlite3_stricmp(table, sql_meta_table.name))
        return sql_meta_table.decl;
    for (size_t i = 0; sql_lookup_tables[i].name; i++)
        if (!sqlite3_stricmp(table, sql_lookup_tables[i].name))
            return sql_lookup_tables[i].decl;
    return NULL;
}
