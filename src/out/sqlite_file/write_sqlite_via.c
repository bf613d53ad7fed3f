/* The same database written through SQLite's own API (spoor export --to
 * sqlite --via-sqlite), to check the file writer against: every row is
 * inserted with its values bound as the table holds them (SQLite applies
 * the column affinities, not write_sqlite_value.c), the indexes are built by
 * CREATE INDEX. The columns and their declarations are the writer's own
 * (write_sqlite.c), so the schema text is the same: since args columns
 * appear batch by batch and the CREATE TABLE text must be the final one,
 * rows go to an untyped staging table first (values kept as bound) and
 * into events at the end. Slow (SQLite's insert path), for tests. */
#include "out/sqlite_file/write_sqlite_internal.h"
#include "spoor/error.h"
#include "spoor/write.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct sqlw_via {
    sqlite3 *db;
    sqlite3_stmt *insert;       /* into stage, for the columns it has */
    size_t nstaged;             /* stage's columns (the generated one has none) */
    struct wbuf sql, text;
};

static void put(struct wbuf *b, const char *s) { wbuf_put(b, s, strlen(s)); }

static int via_fail(struct spoor_sqlite_writer *w, struct spoor_error *err)
{
    return spoor_fail(err, SPOOR_EIO, "cannot write %s: %s", w->name, sqlite3_errmsg(w->via->db));
}

int spoor_sqlite_writer_via_sqlite(struct spoor_sqlite_writer *w, struct spoor_error *err)
{
    sqlf_table_free(&w->events);
    sqlf_file_abort(&w->file);   /* the file stays, empty: SQLite takes it as a new database */
    w->file_open = false;
    w->via = spoor_xcalloc(1, sizeof *w->via);
    wbuf_init(&w->via->sql, NULL, 256);
    wbuf_init(&w->via->text, NULL, 256);
    if (sqlite3_open(w->path, &w->via->db) != SQLITE_OK ||
        sqlite3_exec(w->via->db, "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; BEGIN; CREATE TABLE stage(_)",
                     NULL, NULL, NULL) != SQLITE_OK)
        return via_fail(w, err);
    return SPOOR_OK;
}

/* Stage gets a column for each table column added since (but the
 * generated one), and the insert statement is made again. */
static int via_columns(struct spoor_sqlite_writer *w, struct spoor_error *err)
{
    struct sqlw_via *v = w->via;
    size_t want = w->ncolumns - (w->generated_col != SIZE_MAX);
    if (v->insert && v->nstaged == want)
        return SPOOR_OK;
    char stmt[64];
    for (; v->nstaged < want; v->nstaged++) {
        snprintf(stmt, sizeof stmt, "ALTER TABLE stage ADD COLUMN c%zu", v->nstaged);
        if (sqlite3_exec(v->db, stmt, NULL, NULL, NULL) != SQLITE_OK)
            return via_fail(w, err);
    }
    sqlite3_finalize(v->insert);
    v->sql.len = 0;
    put(&v->sql, "INSERT INTO stage VALUES(NULL");
    for (size_t i = 0; i < want; i++)
        wbuf_put(&v->sql, ",?", 2);
    put(&v->sql, ")");
    return sqlite3_prepare_v2(v->db, v->sql.data, (int)v->sql.len, &v->insert, NULL) == SQLITE_OK ? SPOOR_OK
                                                                                              : via_fail(w, err);
}

/* Binds a row's value of a view as the table holds it; text as UTF-8 (an
 * invalid byte becomes U+FFFD, as export.h promises). */
static void bind_value(struct sqlw_via *v, int at, const struct spoor_view *view, size_t row)
{
    if (!view || spoor_view_is_null(view, row)) {
        sqlite3_bind_null(v->insert, at);
    } else if (view->kind == SPOOR_VIEW_I64) {
        sqlite3_bind_int64(v->insert, at, view->i64[row]);
    } else if (view->kind == SPOOR_VIEW_F64) {
        sqlite3_bind_double(v->insert, at, view->f64[row]);
    } else {
        char ph[2];
        size_t len;
        const char *s = spoor_view_text(view, row, ph, &len);
        sqlw_utf8_repair(&v->text, s, len);
        sqlite3_bind_text(v->insert, at, v->text.data, (int)v->text.len, SQLITE_TRANSIENT);
    }
}

int sqlw_via_write(struct spoor_sqlite_writer *w, const uint32_t *sel, size_t n, struct spoor_error *err)
{
    if (via_columns(w, err) != SPOOR_OK)
        return err->code;
    struct sqlw_via *v = w->via;
    for (size_t i = 0; i < n; i++) {
        size_t row = sel ? sel[i] : i;
        int at = 1;
        for (size_t c = 0; c < w->ncolumns; c++)
            if (c != w->generated_col)
                bind_value(v, at++, c < w->main.n ? &w->main.views[c] : NULL, row);
        if (sqlite3_step(v->insert) != SQLITE_DONE)
            return via_fail(w, err);
        sqlite3_reset(v->insert);
    }
    return SPOOR_OK;
}

int sqlw_via_finish(struct spoor_sqlite_writer *w, struct spoor_error *err)
{
    struct sqlw_via *v = w->via;
    if (via_columns(w, err) != SPOOR_OK)
        return err->code;
    sqlite3_finalize(v->insert);
    v->insert = NULL;
    v->sql.len = 0;
    put(&v->sql, "INSERT INTO events SELECT ");
    for (size_t i = 0; i < v->nstaged; i++) {
        char col[32];
        wbuf_put(&v->sql, col, (size_t)snprintf(col, sizeof col, "%sc%zu", i ? "," : "", i));
    }
    put(&v->sql, " FROM stage ORDER BY rowid; DROP TABLE stage;");
    const char *indexes[3];
    size_t nindexes = sqlw_keys_statements(&w->keys, indexes);
    for (size_t i = 0; i < nindexes; i++) {
        put(&v->sql, indexes[i]);
        put(&v->sql, ";");
    }
    put(&v->sql, " COMMIT");
    wbuf_byte(&v->sql, '\0');
    if (sqlite3_exec(v->db, w->create.data, NULL, NULL, NULL) != SQLITE_OK ||
        sqlite3_exec(v->db, v->sql.data, NULL, NULL, NULL) != SQLITE_OK)
        return via_fail(w, err);
    int rc = sqlite3_close(v->db) == SQLITE_OK ? SPOOR_OK : via_fail(w, err);
    v->db = NULL;
    return rc;
}

void sqlw_via_free(struct sqlw_via *v)
{
    if (!v)
        return;
    sqlite3_finalize(v->insert);
    sqlite3_close(v->db);
    wbuf_release(&v->sql);
    wbuf_release(&v->text);
    free(v);
}
