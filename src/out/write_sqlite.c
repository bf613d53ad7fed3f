/* SQLite output (see export.h), written as a database file directly
 * (sqlite_file.h): each row becomes a record appended to the events table's
 * leaves as it arrives, so the file itself is the spill and memory holds only
 * the index keys. A record may be shorter than the final table (args
 * columns appear later): SQLite reads the missing values as NULL, as after
 * ALTER TABLE ADD COLUMN. At the end: the indexes from natively sorted keys,
 * page 1 with the schema, then the lookups and meta through SQLite. */
#include "out/write_sqlite_internal.h"
#include "spoor/error.h"
#include "spoor/export.h"

#include <stdlib.h>

struct spoor_sqlite_writer {
    char *path;
    struct sqlf_file file;
    bool file_open;
    struct sqlf_table events;
    struct sqlw_keys keys;
    struct sqlw_lookups *lookups;
    uint64_t rowid;

    struct out_col *cols;       /* the explicit list, or the fixed default columns */
    size_t ncols;
    bool defaults;              /* args columns follow, added as they appear */
    struct spoor_view *views;   /* per table column: fixed, then args */
    enum sqlw_affinity *affinity;
    size_t generated_col;       /* source as a generated column (only_source), or SIZE_MAX */
    size_t nviews, views_cap;
    struct wbuf create;         /* CREATE TABLE events(..., without the ')' */
    size_t ts_col, name_col, pid_col, tid_col;  /* SIZE_MAX: absent */

    /* Default mode: args column of each key (registry id -> column + 1). */
    struct spoor_strpool *keys_seen;
    uint32_t *column_of_key;
    size_t column_of_key_cap;
    struct spoor_strpool *names_lower;  /* column names as SQLite compares them */

    uint32_t *name_key_of_id;   /* the batch's name ids -> name index key + 1; 0 = not yet */
    size_t name_key_cap;
    uint8_t *batch_utf8, *resolved_utf8;
    size_t batch_utf8_cap, resolved_utf8_n, resolved_utf8_cap;
    struct wbuf scratch;
    struct sqlf_record rec;
    struct sqlf_buf bytes;
};

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

static void grow_views(struct spoor_sqlite_writer *w, size_t n)
{
    if (n <= w->views_cap)
        return;
    w->views_cap = n * 2;
    w->views = spoor_xrealloc(w->views, w->views_cap * sizeof *w->views);
    w->affinity = spoor_xrealloc(w->affinity, w->views_cap * sizeof *w->affinity);
}

/* Appends a column to the table (its declaration to CREATE TABLE). */
static void add_column(struct spoor_sqlite_writer *w, const char *name, size_t len, enum sqlw_affinity aff)
{
    static const char *const decl[] = {"", " INTEGER", " REAL", " TEXT"};
    grow_views(w, w->nviews + 1);
    w->views[w->nviews] = (struct spoor_view){.kind = SPOOR_VIEW_NULL};
    w->affinity[w->nviews++] = aff;
    if (w->nviews > 1)
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
    w->generated_col = w->nviews - 1;
}

static size_t column_of_field(const struct spoor_sqlite_writer *w, enum spoor_field field)
{
    for (size_t i = 0; i < w->ncols; i++)
        if (w->cols[i].field == field)
            return i;
    return SIZE_MAX;
}

int spoor_sqlite_writer_open(struct spoor_sqlite_writer **out, const char *path, const char *const *columns,
                             size_t ncolumns, const char *only_source, struct spoor_error *err)
{
    struct spoor_sqlite_writer *w = spoor_xcalloc(1, sizeof *w);
    *out = w;
    w->path = spoor_xstrdup(path);
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
    w->keys_seen = spoor_strpool_new();
    w->names_lower = spoor_strpool_new();
    wbuf_init(&w->scratch, NULL, 4096);
    wbuf_init(&w->create, NULL, 4096);
    wbuf_put(&w->create, "CREATE TABLE events(", 20);
    for (size_t i = 0; i < w->ncols; i++) {
        const char *name = w->cols[i].label.text;
        if (!claim_name(w, name, strlen(name)))
            return spoor_fail(err, SPOOR_EIO, "cannot write %s: duplicate column name: %s", path, name);
        add_column(w, name, strlen(name), fixed_affinity(w->cols[i].field));
        if (only_source && w->cols[i].field == SPOOR_FIELD_SOURCE)
            make_generated(w, only_source);
    }
    w->ts_col = column_of_field(w, SPOOR_FIELD_TS);
    w->name_col = column_of_field(w, SPOOR_FIELD_NAME);
    w->pid_col = column_of_field(w, SPOOR_FIELD_PID);
    w->tid_col = column_of_field(w, SPOOR_FIELD_TID);
    sqlw_keys_init(&w->keys, w->ts_col != SIZE_MAX, w->name_col != SIZE_MAX,
                   w->pid_col != SIZE_MAX && w->tid_col != SIZE_MAX);
    if (sqlw_lookups_new(&w->lookups, err) != SPOOR_OK || sqlf_file_open(&w->file, w->path, err) != SPOOR_OK)
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
    free(w->views);
    free(w->affinity);
    free(w->column_of_key);
    free(w->batch_utf8);
    free(w->resolved_utf8);
    free(w->name_key_of_id);
    spoor_strpool_free(w->keys_seen);
    spoor_strpool_free(w->names_lower);
    wbuf_release(&w->scratch);
    wbuf_release(&w->create);
    sqlf_record_free(&w->rec);
    sqlf_buf_free(&w->bytes);
    free(w->path);
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
    uint32_t id = spoor_strpool_intern(w->keys_seen, key, len);
    w->column_of_key = id_map_reserve(w->column_of_key, &w->column_of_key_cap, id);
    if (!w->column_of_key[id]) {
        if (!c->typed)
            return;
        add_args_column(w, key, len, c->type);
        w->column_of_key[id] = (uint32_t)w->nviews;
    }
    spoor_view_bind(&w->views[w->column_of_key[id] - 1], SPOOR_FIELD_ARG, key, len, t, NULL);
}

static void bind_batch(struct spoor_sqlite_writer *w, const struct spoor_table *t, const struct spoor_resolved *res)
{
    w->batch_utf8 = plain_flags(w->batch_utf8, &w->batch_utf8_cap, 0, spoor_strpool_count(t->pool));
    if (res) {
        size_t n = spoor_strpool_count(res->pool);
        w->resolved_utf8 = plain_flags(w->resolved_utf8, &w->resolved_utf8_cap, w->resolved_utf8_n, n);
        w->resolved_utf8_n = n;
    }
    for (size_t i = 0; i < w->ncols; i++)
        out_col_bind(&w->cols[i], &w->views[i], t, res);
    if (w->name_col != SIZE_MAX) {
        size_t n = spoor_strpool_count(t->pool);
        if (n > w->name_key_cap) {
            w->name_key_cap = n;
            w->name_key_of_id = spoor_xrealloc(w->name_key_of_id, n * sizeof *w->name_key_of_id);
        }
        memset(w->name_key_of_id, 0, n * sizeof *w->name_key_of_id);
    }
    if (!w->defaults)
        return;
    for (size_t i = w->ncols; i < w->nviews; i++)
        w->views[i].kind = SPOOR_VIEW_NULL;
    for (size_t i = 0; i < t->ncols; i++)
        bind_args_column(w, t, &t->cols[i]);
}

static int64_t int_key(const struct sqlw_value *v)
{
    return v->type == SQLW_INT ? v->i : SPOOR_NULL;
}

/* The name index key of a row's name value: interned once per batch string. */
static uint32_t name_key(struct spoor_sqlite_writer *w, const struct spoor_view *v, size_t row,
                         const struct sqlw_value *value)
{
    if (value->type != SQLW_TEXT_VALUE)
        return 0;
    uint32_t *cached = v->kind == SPOOR_VIEW_STR ? &w->name_key_of_id[v->str[row]] : NULL;
    if (cached && *cached)
        return *cached;
    uint32_t key = spoor_strpool_intern(w->keys.names, value->s, value->len) + 1;
    if (cached)
        *cached = key;
    return key;
}

/* One row: its record to the table, its keys to the indexes. */
static void add_row(struct spoor_sqlite_writer *w, size_t row)
{
    struct sqlw_keys *k = &w->keys;
    sqlw_keys_grow(k);
    sqlf_record_clear(&w->rec);
    for (size_t i = 0; i < w->nviews; i++) {
        if (i == w->generated_col)
            continue;
        const struct spoor_view *v = &w->views[i];
        uint8_t *known = v->kind != SPOOR_VIEW_STR ? NULL : v->stable_ids ? w->resolved_utf8 : w->batch_utf8;
        struct sqlw_value value;
        sqlw_convert(&w->scratch, w->affinity[i], v, row, known, &value);
        sqlw_record_value(&w->rec, &value);
        if (i == w->ts_col && k->ts)
            k->ts_of[k->n] = int_key(&value);
        if (i == w->pid_col && k->pid_tid)
            k->pid_of[k->n] = int_key(&value);
        if (i == w->tid_col && k->pid_tid)
            k->tid_of[k->n] = int_key(&value);
        if (i == w->name_col && k->name)
            k->name_of[k->n] = name_key(w, v, row, &value);
    }
    k->n++;
    sqlf_record_finish(&w->rec, &w->bytes);
    sqlf_table_add(&w->events, ++w->rowid, w->bytes.p, w->bytes.len);
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
    for (size_t i = 0; i < n; i++)
        add_row(w, sel ? sel[i] : i);
    return SPOOR_OK;
}

int spoor_sqlite_writer_finish(struct spoor_sqlite_writer *w, const struct spoor_load_result *loaded,
                               struct spoor_error *err)
{
    wbuf_put(&w->create, ")", 2);
    struct sqlf_object objects[4] = {
        {.type = "table", .name = "events", .table = "events", .sql = w->create.data,
         .root = sqlf_table_finish(&w->events, NULL)},
    };
    size_t n = 1 + sqlw_keys_write(&w->keys, &w->file, objects + 1);
    sqlw_keys_free(&w->keys);
    w->file_open = false;
    if (sqlf_finish(&w->file, objects, n, err) != SPOOR_OK)
        return err->code;
    return sqlw_lookups_finish(w->lookups, loaded, w->path, err);
}
