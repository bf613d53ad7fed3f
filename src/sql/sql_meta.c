/* The meta table: (source, key, value) facts about the load. source is null
 * for the whole table (rows, inputs, args_columns) and the input's path for
 * its dialect, units, lines, rows, bytes and skipped lines (in total and
 * "skipped:<reason>"). Built once when the session opens. */
#include "sql/sql_internal.h"

#include <stdio.h>
#include <stdlib.h>

struct sql_meta_row {
    const char *source;     /* NULL or an input's path (owned by the load result) */
    char *key;
    char *text;             /* NULL: the value is `number` */
    int64_t number;
};

static struct sql_meta_row *add(struct spoor_sql *s, const char *source, const char *key)
{
    s->meta = spoor_xrealloc(s->meta, (s->nmeta + 1) * sizeof *s->meta);
    struct sql_meta_row *m = &s->meta[s->nmeta++];
    *m = (struct sql_meta_row){.source = source, .key = spoor_xstrdup(key)};
    return m;
}

static void add_number(struct spoor_sql *s, const char *source, const char *key, int64_t v)
{
    add(s, source, key)->number = v;
}

static void add_text(struct spoor_sql *s, const char *source, const char *key, const char *v)
{
    add(s, source, key)->text = spoor_xstrdup(v);
}

static void add_input(struct spoor_sql *s, const struct spoor_input_report *in)
{
    const char *p = in->path;
    add_text(s, p, "dialect", in->dialect.name);
    add_text(s, p, "ts_unit", spoor_unit_name(in->dialect.ts_unit));
    add_text(s, p, "dur_unit", spoor_unit_name(in->dialect.dur_unit));
    add_number(s, p, "pid_tid_swapped", in->dialect.pid_tid_swapped);
    if (in->dialect.assumed[0])
        add_text(s, p, "assumed", in->dialect.assumed);
    add_number(s, p, "lines", (int64_t)in->lines);
    add_number(s, p, "rows", (int64_t)in->rows);
    add_number(s, p, "bytes", (int64_t)in->bytes);
    add_number(s, p, "disk_bytes", (int64_t)in->disk_bytes);
    add_number(s, p, "skipped", (int64_t)in->skips.total);
    add_number(s, p, "redefined", (int64_t)in->redefined);
    for (size_t k = 0; k < in->skips.nreasons; k++) {
        char key[256];
        snprintf(key, sizeof key, "skipped:%s", in->skips.reason[k]);
        add_number(s, p, key, (int64_t)in->skips.count[k]);
    }
    if (in->warning)
        add_text(s, p, "warning", in->warning);
}

void sql_meta_build(struct spoor_sql *s)
{
    add_number(s, NULL, "rows", (int64_t)s->t->nrows);
    add_number(s, NULL, "inputs", (int64_t)s->t->nsources);
    add_number(s, NULL, "args_columns", (int64_t)s->t->ncols);
    for (size_t i = 0; s->loaded && i < s->loaded->ninputs; i++)
        add_input(s, &s->loaded->inputs[i]);
}

void sql_meta_free(struct spoor_sql *s)
{
    for (size_t i = 0; i < s->nmeta; i++) {
        free(s->meta[i].key);
        free(s->meta[i].text);
    }
    free(s->meta);
}

static size_t meta_rows(const struct spoor_sql *s, const struct sql_small_table *d) { return s->nmeta; }

static void meta_column(const struct spoor_sql *s, const struct sql_small_table *d, size_t row, int col,
                        sqlite3_context *ctx)
{
    const struct sql_meta_row *m = &s->meta[row];
    if (col == 0 && m->source)
        sqlite3_result_text(ctx, m->source, -1, SQLITE_STATIC);
    else if (col == 1)
        sqlite3_result_text(ctx, m->key, -1, SQLITE_STATIC);
    else if (col == 2 && m->text)
        sqlite3_result_text(ctx, m->text, -1, SQLITE_STATIC);
    else if (col == 2)
        sqlite3_result_int64(ctx, m->number);
}

const struct sql_small_table sql_meta_table = {
    "meta", "CREATE TABLE meta(source TEXT, key TEXT, value)", meta_rows, meta_column, 0,
};
