/* Writing a statement's rows: an aligned text table, CSV (RFC 4180), one
 * JSON array of objects, or JSON lines. Values are spelled by the row
 * writers' own helpers (out/write_internal.h), so numbers, escaping and
 * invalid UTF-8 come out as in spoor events. */
#include "out/write_internal.h"
#include "spoor/text_table.h"
#include "sql/sql_internal.h"

#include <stdlib.h>
#include <string.h>

/* One value; null is empty (table, CSV) or null (JSON). */
static void put_value(struct wbuf *b, sqlite3_stmt *st, int col, enum spoor_sql_format format)
{
    bool json = format == SPOOR_SQL_JSON || format == SPOOR_SQL_JSONL;
    switch (sqlite3_column_type(st, col)) {
    case SQLITE_NULL:
        if (json)
            wbuf_put(b, "null", 4);
        break;
    case SQLITE_INTEGER:
        wbuf_i64(b, sqlite3_column_int64(st, col));
        break;
    case SQLITE_FLOAT: {
        double d = sqlite3_column_double(st, col);
        if (!wbuf_f64(b, d)) { /* an infinity (SQLite has no NaN) */
            const char *text = json ? "null" : d > 0 ? "inf" : "-inf";
            wbuf_put(b, text, strlen(text));
        }
        break;
    }
    default: {
        const char *text = (const char *)sqlite3_column_text(st, col);
        size_t len = (size_t)sqlite3_column_bytes(st, col);
        if (json)
            json_text(b, text, len);
        else if (format == SPOOR_SQL_CSV)
            csv_text(b, text, len);
        else
            wbuf_put(b, text, len);
    }
    }
}

static int step_error(sqlite3_stmt *st, struct spoor_error *err)
{
    return spoor_fail(err, SPOOR_EFORMAT, "%s", sqlite3_errmsg(sqlite3_db_handle(st)));
}

/* Cells are collected first: a column is right-aligned when every value in
 * it is a number (or null). */
static int write_table(sqlite3_stmt *st, FILE *out, size_t nth, struct spoor_error *err)
{
    int ncols = sqlite3_column_count(st);
    const char **headers = spoor_xmalloc((size_t)ncols * sizeof *headers);
    bool *right = spoor_xmalloc((size_t)ncols * sizeof *right);
    for (int c = 0; c < ncols; c++) {
        headers[c] = sqlite3_column_name(st, c);
        right[c] = true;
    }
    struct wbuf cells; /* every cell, NUL-terminated, row after row */
    wbuf_init(&cells, NULL, 4096);
    size_t ncells = 0;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW)
        for (int c = 0; c < ncols; c++, ncells++) {
            int type = sqlite3_column_type(st, c);
            right[c] &= type == SQLITE_INTEGER || type == SQLITE_FLOAT || type == SQLITE_NULL;
            put_value(&cells, st, c, SPOOR_SQL_TABLE);
            wbuf_byte(&cells, '\0');
        }
    if (rc == SQLITE_DONE) {
        struct spoor_text_table *t = spoor_text_table_new((size_t)ncols, headers, right);
        const char *cell = cells.data;
        for (size_t i = 0; i < ncells; i++, cell += strlen(cell) + 1)
            spoor_text_table_cell(t, "%s", cell);
        if (nth)
            fputc('\n', out);
        spoor_text_table_print(t, out);
        spoor_text_table_free(t);
    }
    wbuf_release(&cells);
    free(right);
    free(headers);
    return rc == SQLITE_DONE ? SPOOR_OK : step_error(st, err);
}

static void put_header(struct wbuf *b, sqlite3_stmt *st, int ncols)
{
    for (int c = 0; c < ncols; c++) {
        const char *name = sqlite3_column_name(st, c);
        if (c)
            wbuf_byte(b, ',');
        csv_text(b, name, strlen(name));
    }
    wbuf_byte(b, '\n');
}

static void put_object(struct wbuf *b, sqlite3_stmt *st, int ncols, enum spoor_sql_format format)
{
    wbuf_byte(b, '{');
    for (int c = 0; c < ncols; c++) {
        const char *name = sqlite3_column_name(st, c);
        if (c)
            wbuf_put(b, ", ", 2);
        json_text(b, name, strlen(name));
        wbuf_put(b, ": ", 2);
        put_value(b, st, c, format);
    }
    wbuf_byte(b, '}');
}

static int write_stream(sqlite3_stmt *st, enum spoor_sql_format format, FILE *out, size_t nth,
                        struct spoor_error *err)
{
    int ncols = sqlite3_column_count(st);
    struct wbuf b;
    wbuf_init(&b, out, 1 << 16);
    if (format == SPOOR_SQL_CSV) {
        if (nth)
            wbuf_byte(&b, '\n');
        put_header(&b, st, ncols);
    }
    if (format == SPOOR_SQL_JSON)
        wbuf_byte(&b, '[');
    size_t rows = 0;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (format == SPOOR_SQL_CSV) {
            for (int c = 0; c < ncols; c++) {
                if (c)
                    wbuf_byte(&b, ',');
                put_value(&b, st, c, format);
            }
        } else {
            if (format == SPOOR_SQL_JSON)
                wbuf_put(&b, rows ? ",\n" : "\n", rows ? 2 : 1);
            put_object(&b, st, ncols, format);
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
        return step_error(st, err);
    if (error)
        return spoor_fail(err, SPOOR_EIO, "cannot write the result: %s", strerror(error));
    return SPOOR_OK;
}

int sql_output_write(sqlite3_stmt *st, enum spoor_sql_format format, FILE *out, size_t nth,
                     struct spoor_error *err)
{
    if (sqlite3_column_count(st) == 0) { /* CREATE, INSERT, ...: run it, nothing to show */
        int rc;
        while ((rc = sqlite3_step(st)) == SQLITE_ROW)
            ;
        return rc == SQLITE_DONE ? SPOOR_OK : step_error(st, err);
    }
    if (format == SPOOR_SQL_TABLE)
        return write_table(st, out, nth, err);
    return write_stream(st, format, out, nth, err);
}
