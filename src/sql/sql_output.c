/* Writing a result set: an aligned text table, CSV (RFC 4180), one JSON
 * array of objects, or JSON lines. Values are spelled by the row writers' own
 * helpers (out/write_internal.h), so numbers, escaping and invalid UTF-8 come
 * out as in spoor events. Rows come through struct sql_rows, from SQLite or
 * from the native executor alike. */
#include "out/write_internal.h"
#include "spoor/report.h"
#include "sql/sql_internal.h"

#include <stdlib.h>
#include <string.h>

/* One value; null is empty (table, CSV) or null (JSON). */
static void put_value(struct wbuf *b, const struct sql_cell *v, enum spoor_sql_format format)
{
    bool json = format == SPOOR_SQL_JSON || format == SPOOR_SQL_JSONL;
    switch (v->type) {
    case SQLITE_NULL:
        if (json)
            wbuf_put(b, "null", 4);
        break;
    case SQLITE_INTEGER:
        wbuf_i64(b, v->i);
        break;
    case SQLITE_FLOAT:
        if (!wbuf_f64(b, v->f)) { /* an infinity (SQLite has no NaN) */
            const char *text = json ? "null" : v->f > 0 ? "inf" : "-inf";
            wbuf_put(b, text, strlen(text));
        }
        break;
    default:
        if (json)
            json_text(b, v->text, v->len);
        else if (format == SPOOR_SQL_CSV)
            csv_text(b, v->text, v->len);
        else
            wbuf_put(b, v->text, v->len);
    }
}

static int next_error(struct sql_rows *r, struct spoor_error *err)
{
    return spoor_fail(err, SPOOR_EFORMAT, "%s", r->errmsg(r));
}

/* The table is laid out from its first SQL_TABLE_SAMPLE rows: a column is
 * right-aligned when every value in it there is a number (or null), and as
 * wide as the widest there. A longer result then streams, in bounded memory,
 * SQL_TABLE_FLUSH rows at a time; a later wider value widens its own line
 * (spoor_text_table_flush), nothing is cut. */
enum { SQL_TABLE_SAMPLE = 4096, SQL_TABLE_FLUSH = 1024 };

/* Adds the row's values to t, spelled through the scratch buffer b. */
static void add_row(struct spoor_text_table *t, struct wbuf *b, const struct sql_cell *row, int ncols)
{
    for (int c = 0; c < ncols; c++) {
        b->len = 0;
        put_value(b, &row[c], SPOOR_SQL_TABLE);
        spoor_text_table_textn(t, b->data, b->len);
    }
}

static int write_table(struct sql_rows *r, struct sql_cell *row, FILE *out, size_t nth, struct spoor_error *err)
{
    int ncols = r->ncols;
    bool *right = spoor_xmalloc((size_t)ncols * sizeof *right);
    for (int c = 0; c < ncols; c++)
        right[c] = true;
    struct wbuf cells; /* the sample's cells, NUL-terminated, row after row */
    wbuf_init(&cells, NULL, 4096);
    size_t ncells = 0, nrows = 0;
    int rc;
    while (nrows < SQL_TABLE_SAMPLE && (rc = r->next(r, row)) == SQLITE_ROW) {
        nrows++;
        for (int c = 0; c < ncols; c++, ncells++) {
            right[c] &= row[c].type != SQLITE_TEXT;
            put_value(&cells, &row[c], SPOOR_SQL_TABLE);
            wbuf_byte(&cells, '\0');
        }
    }
    bool more = nrows == SQL_TABLE_SAMPLE;
    if (more || rc == SQLITE_DONE) {
        struct spoor_text_table *t = spoor_text_table_new((size_t)ncols, r->names, right);
        const char *cell = cells.data;
        for (size_t i = 0; i < ncells; i++, cell += strlen(cell) + 1)
            spoor_text_table_text(t, cell);
        if (nth)
            fputc('\n', out);
        if (!more) {
            spoor_text_table_print(t, out);
        } else {
            spoor_text_table_print_head(t, out);
            fflush(out); /* the first rows show at once */
            struct wbuf b;
            wbuf_init(&b, NULL, 256);
            for (nrows = 0; (rc = r->next(r, row)) == SQLITE_ROW;) {
                add_row(t, &b, row, ncols);
                if (++nrows % SQL_TABLE_FLUSH == 0)
                    spoor_text_table_flush(t, out);
            }
            spoor_text_table_flush(t, out);
            wbuf_release(&b);
        }
        spoor_text_table_free(t);
    }
    wbuf_release(&cells);
    free(right);
    return rc == SQLITE_DONE ? SPOOR_OK : next_error(r, err);
}

static void put_header(struct wbuf *b, const struct sql_rows *r)
{
    for (int c = 0; c < r->ncols; c++) {
        if (c)
            wbuf_byte(b, ',');
        csv_text(b, r->names[c], strlen(r->names[c]));
    }
    wbuf_byte(b, '\n');
}

static void put_object(struct wbuf *b, const struct sql_rows *r, const struct sql_cell *row,
                       enum spoor_sql_format format)
{
    wbuf_byte(b, '{');
    for (int c = 0; c < r->ncols; c++) {
        if (c)
            wbuf_put(b, ", ", 2);
        json_text(b, r->names[c], strlen(r->names[c]));
        wbuf_put(b, ": ", 2);
        put_value(b, &row[c], format);
    }
    wbuf_byte(b, '}');
}

static int write_stream(struct sql_rows *r, struct sql_cell *row, enum spoor_sql_format format, FILE *out,
                        size_t nth, struct spoor_error *err)
{
    struct wbuf b;
    wbuf_init(&b, out, 1 << 16);
    if (format == SPOOR_SQL_CSV) {
        if (nth)
            wbuf_byte(&b, '\n');
        put_header(&b, r);
    }
    if (format == SPOOR_SQL_JSON)
        wbuf_byte(&b, '[');
    size_t rows = 0;
    int rc;
    while ((rc = r->next(r, row)) == SQLITE_ROW) {
        if (format == SPOOR_SQL_CSV) {
            for (int c = 0; c < r->ncols; c++) {
                if (c)
                    wbuf_byte(&b, ',');
                put_value(&b, &row[c], format);
            }
        } else {
            if (format == SPOOR_SQL_JSON)
                wbuf_put(&b, rows ? ",\n" : "\n", rows ? 2 : 1);
            put_object(&b, r, row, format);
        }
        if (format != SPOOR_SQL_JSON)
            wbuf_byte(&b, '\n');
        rows++;
    }
    if (format == SPOOR_SQL_JSON)
        wbuf_put(&b, rows ? "\n]\n" : "]\n", rows ? 3 : 2);
    wbuf_flush(&b);
    int error = b.error;
    wbuf_release(&b);
    if (rc != SQLITE_DONE)
        return next_error(r, err);
    if (error)
        return spoor_fail(err, SPOOR_EIO, "cannot write the result: %s", strerror(error));
    return SPOOR_OK;
}

int sql_output_rows(struct sql_rows *r, enum spoor_sql_format format, FILE *out, size_t nth,
                    struct spoor_error *err)
{
    struct sql_cell *row = spoor_xcalloc((size_t)r->ncols, sizeof *row);
    int status = format == SPOOR_SQL_TABLE ? write_table(r, row, out, nth, err)
                                           : write_stream(r, row, format, out, nth, err);
    free(row);
    return status;
}

/* ---- a prepared statement as a result set */

struct stmt_rows {
    struct sql_rows base;
    sqlite3_stmt *st;
};

static int stmt_next(struct sql_rows *r, struct sql_cell *cells)
{
    sqlite3_stmt *st = ((struct stmt_rows *)r)->st;
    int rc = sqlite3_step(st);
    if (rc != SQLITE_ROW)
        return rc;
    for (int c = 0; c < r->ncols; c++) {
        struct sql_cell *v = &cells[c];
        v->type = sqlite3_column_type(st, c);
        if (v->type == SQLITE_INTEGER) {
            v->i = sqlite3_column_int64(st, c);
        } else if (v->type == SQLITE_FLOAT) {
            v->f = sqlite3_column_double(st, c);
        } else if (v->type != SQLITE_NULL) {
            v->type = SQLITE_TEXT; /* a blob is written as its bytes */
            v->text = (const char *)sqlite3_column_text(st, c);
            v->len = (size_t)sqlite3_column_bytes(st, c);
        }
    }
    return rc;
}

static const char *stmt_errmsg(struct sql_rows *r)
{
    return sqlite3_errmsg(sqlite3_db_handle(((struct stmt_rows *)r)->st));
}

int sql_output_write(sqlite3_stmt *st, enum spoor_sql_format format, FILE *out, size_t nth,
                     struct spoor_error *err)
{
    int ncols = sqlite3_column_count(st);
    if (ncols == 0) { /* CREATE, INSERT, ...: run it, nothing to show */
        int rc;
        while ((rc = sqlite3_step(st)) == SQLITE_ROW)
            ;
        return rc == SQLITE_DONE ? SPOOR_OK : spoor_fail(err, SPOOR_EFORMAT, "%s", sqlite3_errmsg(sqlite3_db_handle(st)));
    }
    const char **names = spoor_xmalloc((size_t)ncols * sizeof *names);
    for (int c = 0; c < ncols; c++)
        names[c] = sqlite3_column_name(st, c);
    struct stmt_rows r = {.base = {.ncols = ncols, .names = names, .next = stmt_next, .errmsg = stmt_errmsg},
                          .st = st};
    int status = sql_output_rows(&r.base, format, out, nth, err);
    free(names);
    return status;
}
