/* SQLite output (see spoor/write.h), written as a database file directly
 * (sqlite_file.h): each row becomes a record appended to the events table's
 * leaves as it arrives, so the file itself is the spill and memory holds only
 * the index keys. A record may be shorter than the final table (args
 * columns appear later): SQLite reads the missing values as NULL, as after
 * ALTER TABLE ADD COLUMN. Records are encoded here, in input order, and
 * written onto their leaf; when the caller prepares batches on the load's
 * workers (write_sqlite_prepare.c), only what those could not encode.
 * At the end: the indexes from natively sorted keys, page 1 with the schema,
 * then the lookups and meta through SQLite. */
#include "out/sqlite_file/write_sqlite_internal.h"
#include "spoor/error.h"
#include "spoor/write.h"
#include "util/grow.h"

#include <stdlib.h>
#include <string.h>

static enum sqlw_affinity fixed_affinity(enum spoor_field field)
{
    switch (field) {
    case SPOOR_FIELD_TS: case SPOOR_FIELD_DUR: case SPOOR_FIELD_PID: case SPOOR_FIELD_TID: case SPOOR_FIELD_LINE:
        return SQLW_INTEGER;
    case SPOOR_FIELD_ARG:
        return SQLW_BLOB;   /* explicit args columns: typed by their values */
    default:
        return SQLW_TEXT;
    }
}

/* Reserves a column name as SQLite compares them (ASCII case folded):
 * false when an earlier column has it. */
static bool claim_name(struct spoor_sqlite_writer *w, const char *name, size_t len)
{
    char *lower = spoor_xmalloc(len + 1);
    for (size_t i = 0; i < len; i++)
        lower[i] = (char)(name[i] >= 'A' && name[i] <= 'Z' ? name[i] + 32 : name[i]);
    size_t before = spoor_strpool_count(w->names_lower);
    bool fresh = spoor_strpool_intern(w->names_lower, lower, len) >= before;
    free(lower);
    return fresh;
}

/* Appends a column to the table (its declaration to CREATE TABLE). */
static void add_column(struct spoor_sqlite_writer *w, const char *name, size_t len, enum sqlw_affinity aff)
{
    static const char *const decl[] = {"", " INTEGER", " REAL", " TEXT"};
    spoor_reserve((void **)&w->affinity, &w->affinity_cap, w->ncolumns + 1, sizeof *w->affinity);
    w->affinity[w->ncolumns++] = aff;
    if (w->ncolumns > 1)
        wbuf_byte(&w->create, ',');
    sqlw_put_quoted(&w->create, name, len, '"');
    wbuf_put(&w->create, decl[aff], strlen(decl[aff]));
}

/* Declares the last column generated: always the text value, stored in the
 * schema once instead of in every record (a VIRTUAL column takes no place in
 * records; SQLite 3.31 and later read it). */
static void make_generated(struct spoor_sqlite_writer *w, const char *value)
{
    wbuf_put(&w->create, " GENERATED ALWAYS AS (", 22);
    sqlw_put_quoted(&w->create, value, strlen(value), '\'');
    wbuf_put(&w->create, ") VIRTUAL", 9);
    w->generated_col = w->ncolumns - 1;
}

/* The columns that only input order knows: line numbers are absolute and
 * file and host resolved only there. */
static void deferred_columns(struct spoor_sqlite_writer *w)
{
    w->deferred_from = w->deferred_to = 0;
    for (size_t i = 0; i < w->ncols; i++) {
        enum spoor_field field = w->cols[i].field;
        if (field != SPOOR_FIELD_LINE && field != SPOOR_FIELD_FILE && field != SPOOR_FIELD_HOST)
            continue;
        if (w->deferred_from == w->deferred_to)
            w->deferred_from = i;
        w->deferred_to = i + 1;
    }
}

static size_t column_of_field(const struct spoor_sqlite_writer *w, enum spoor_field field)
{
    for (size_t i = 0; i < w->ncols; i++)
        if (w->cols[i].field == field)
            return i;
    return SIZE_MAX;
}

int spoor_sqlite_writer_open(struct spoor_sqlite_writer **out, const char *path, const char *name,
                             const char *const *columns, size_t ncolumns, const char *only_source,
                             struct spoor_error *err)
{
    struct spoor_sqlite_writer *w = spoor_xcalloc(1, sizeof *w);
    *out = w;
    w->path = spoor_xstrdup(path);
    w->name = spoor_xstrdup(name);
    w->defaults = !columns;
    w->generated_col = SIZE_MAX;
    size_t n = 0;
    if (w->defaults)
        while (spoor_field_names[n])
            n++;
    else
        n = ncolumns;
    w->cols = spoor_xcalloc(n ? n : 1, sizeof *w->cols);
    for (size_t i = 0; i < n; i++)
        out_col_init(&w->cols[w->ncols++], w->defaults ? spoor_field_names[i] : columns[i]);
    pthread_mutex_init(&w->mu, NULL);
    w->keys_seen = spoor_strpool_new();
    w->names_lower = spoor_strpool_new();
    wbuf_init(&w->create, NULL, 4096);
    wbuf_put(&w->create, "CREATE TABLE events(", 20);
    for (size_t i = 0; i < w->ncols; i++) {
        const char *name = w->cols[i].label.text;
        if (!claim_name(w, name, strlen(name)))
            return spoor_fail(err, SPOOR_EIO, "cannot write %s: duplicate column name: %s", w->name, name);
        add_column(w, name, strlen(name), fixed_affinity(w->cols[i].field));
        if (only_source && w->cols[i].field == SPOOR_FIELD_SOURCE)
            make_generated(w, only_source);
    }
    w->ts_col = column_of_field(w, SPOOR_FIELD_TS);
    w->name_col = column_of_field(w, SPOOR_FIELD_NAME);
    w->pid_col = column_of_field(w, SPOOR_FIELD_PID);
    w->tid_col = column_of_field(w, SPOOR_FIELD_TID);
    deferred_columns(w);
    sqlw_keys_init(&w->keys, w->ts_col != SIZE_MAX, w->name_col != SIZE_MAX,
                   w->pid_col != SIZE_MAX && w->tid_col != SIZE_MAX);
    if (sqlw_lookups_new(&w->lookups, err) != SPOOR_OK || sqlf_file_open(&w->file, w->path, w->name, err) != SPOOR_OK)
        return err->code;
    w->file_open = true;
    sqlf_table_start(&w->events, &w->file, false);
    return SPOOR_OK;
}

void spoor_sqlite_writer_free(struct spoor_sqlite_writer *w)
{
    if (!w)
        return;
    if (w->file_open)
        sqlf_file_abort(&w->file);
    sqlf_table_free(&w->events);
    sqlw_keys_free(&w->keys);
    sqlw_lookups_free(w->lookups);
    for (size_t i = 0; i < w->ncols; i++)
        label_free(&w->cols[i].label);
    free(w->cols);
    free(w->affinity);
    free(w->column_of_key);
    free(w->resolved_utf8);
    sqlw_encoder_free(&w->main);
    for (size_t i = 0; i < w->nworkers; i++) {
        if (w->workers[i])
            sqlw_encoder_free(w->workers[i]);
        free(w->workers[i]);
    }
    free(w->workers);
    sqlw_prepared_free(w);
    spoor_strpool_free(w->keys_seen);
    spoor_strpool_free(w->names_lower);
    wbuf_release(&w->create);
    sqlf_buf_free(&w->bytes);
    sqlw_via_free(w->via);
    pthread_mutex_destroy(&w->mu);
    free(w->path);
    free(w->name);
    free(w);
}

size_t spoor_sqlite_writer_missing(const struct spoor_sqlite_writer *w, const char **names, size_t max)
{
    return w->defaults ? 0 : out_cols_missing(w->cols, w->ncols, names, max);
}

/* Adds an args column for key, typed as the batch holds it. */
static void add_args_column(struct spoor_sqlite_writer *w, const char *key, size_t len, enum spoor_type type)
{
    const char *k;
    size_t klen;
    bool reserved = spoor_field_parse(key, len, &k, &klen) != SPOOR_FIELD_ARG || (len > 5 && !memcmp(key, "args.", 5));
    struct wbuf name;
    wbuf_init(&name, NULL, len + 16);
    if (reserved)
        wbuf_put(&name, "args.", 5);
    wbuf_put(&name, key, len);
    size_t base = name.len;
    for (unsigned suffix = 1; !claim_name(w, name.data, name.len); suffix++) {
        name.len = base;
        char tag[16];
        wbuf_put(&name, tag, (size_t)snprintf(tag, sizeof tag, ".%u", suffix));
    }
    add_column(w, name.data, name.len, type == SPOOR_I64 ? SQLW_INTEGER : type == SPOOR_F64 ? SQLW_REAL : SQLW_TEXT);
    wbuf_release(&name);
}

/* Binds a batch args column to its table column, adding it when its key is
 * new and typed (a column that holds no value yet waits). */
static void bind_args_column(struct spoor_sqlite_writer *w, const struct spoor_table *t, const struct spoor_column *c)
{
    size_t len;
    const char *key = spoor_strpool_get(t->pool, c->name, &len);
    pthread_mutex_lock(&w->mu);
    uint32_t id = spoor_strpool_intern(w->keys_seen, key, len);
    spoor_grow((void **)&w->column_of_key, &w->column_of_key_cap, id, sizeof *w->column_of_key);
    uint32_t column = w->column_of_key[id];
    if (!column && c->typed) {
        add_args_column(w, key, len, c->type);
        column = w->column_of_key[id] = (uint32_t)w->ncolumns;
        sqlw_encoder_add(&w->main, w->affinity[column - 1]);
    }
    pthread_mutex_unlock(&w->mu);
    if (column)
        spoor_view_bind(&w->main.views[column - 1], SPOOR_FIELD_ARG, key, len, t, NULL);
}

/* Binds the writer's own encoder to a batch (in input order). */
static void bind_batch(struct spoor_sqlite_writer *w, const struct spoor_table *t, const struct spoor_resolved *res)
{
    sqlw_encoder_start(&w->main, t, w->affinity, w->ncolumns, w->name_col != SIZE_MAX);
    if (res) {
        size_t n = spoor_strpool_count(res->pool);
        w->resolved_utf8 = plain_flags(w->resolved_utf8, &w->resolved_utf8_cap, w->resolved_utf8_n, n);
        w->resolved_utf8_n = n;
    }
    for (size_t i = 0; i < w->ncols; i++)
        out_col_bind(&w->cols[i], &w->main.views[i], t, res);
    if (w->defaults)
        for (size_t i = 0; i < t->ncols; i++)
            bind_args_column(w, t, &t->cols[i]);
    sqlw_encoder_plan(w, &w->main);
}

/* One row, every column encoded here: its record to the table (written
 * onto the leaf page, unless it spills to overflow pages), its keys to the
 * indexes. */
static void add_row(struct spoor_sqlite_writer *w, size_t row)
{
    struct sqlw_row_keys keys = sqlw_keys_next(&w->keys);
    struct sqlf_record *rec = &w->main.rec;
    sqlf_record_clear(rec);
    sqlw_encode(w, &w->main, 0, w->main.n, row, &keys);
    uint8_t *at = sqlf_table_place(&w->events, ++w->rowid, sqlf_record_len(rec));
    if (at) {
        sqlf_record_write(rec, at);
    } else {
        sqlf_record_finish(rec, &w->bytes);
        sqlf_table_add(&w->events, w->rowid, w->bytes.p, w->bytes.len);
    }
}

int spoor_sqlite_writer_write(struct spoor_sqlite_writer *w, const struct spoor_table *t,
                              const struct spoor_resolved *res, const uint32_t *sel, size_t n,
                              struct spoor_error *err)
{
    if (!sel)
        n = t->nrows;
    if (sqlw_lookups_add(w->lookups, t, err) != SPOOR_OK)
        return err->code;
    if (!n)
        return SPOOR_OK;
    bind_batch(w, t, res);
    if (w->via)
        return sqlw_via_write(w, sel, n, err);
    if (!sqlw_prepared_write(w, t))
        for (size_t i = 0; i < n; i++)
            add_row(w, sel ? sel[i] : i);
    return SPOOR_OK;
}

int spoor_sqlite_writer_finish(struct spoor_sqlite_writer *w, const struct spoor_load_result *loaded,
                               struct spoor_error *err)
{
    wbuf_put(&w->create, ")", 2);
    if (w->via) {
        if (sqlw_via_finish(w, err) != SPOOR_OK)
            return err->code;
        return sqlw_lookups_finish(w->lookups, loaded, w->path, w->name, err);
    }
    struct sqlf_object objects[4] = {
        {.type = "table", .name = "events", .table = "events", .sql = w->create.data,
         .root = sqlf_table_finish(&w->events, NULL)},
    };
    size_t n = 1 + sqlw_keys_write(&w->keys, &w->file, objects + 1);
    sqlw_keys_free(&w->keys);
    w->file_open = false;
    if (sqlf_finish(&w->file, objects, n, err) != SPOOR_OK)
        return err->code;
    return sqlw_lookups_finish(w->lookups, loaded, w->path, w->name, err);
}
