/* SQLite output (see export.h): one transaction, journal and syncs off (the
 * file is a temporary until renamed), one prepared INSERT with bound values,
 * re-prepared only when a new args column is added; indexes after the rows. */
#include "ops/strmatch.h"
#include "out/write_internal.h"
#include "spoor/error.h"
#include "spoor/export.h"

#include <sqlite3.h>
#include <stdlib.h>

static const char schema[] =
    "PRAGMA journal_mode=OFF;"
    "PRAGMA synchronous=OFF;"
    "PRAGMA locking_mode=EXCLUSIVE;"
    "PRAGMA page_size=65536;"
    "PRAGMA cache_size=-65536;"
    "PRAGMA threads=4;"
    "BEGIN;"
    "CREATE TABLE files(hash TEXT PRIMARY KEY, path TEXT);"
    "CREATE TABLE hosts(hash TEXT PRIMARY KEY, name TEXT);"
    "CREATE TABLE strings(hash TEXT PRIMARY KEY, value TEXT);"
    "CREATE TABLE procs(pid INTEGER PRIMARY KEY, name TEXT);"
    "CREATE TABLE threads(tid INTEGER PRIMARY KEY, name TEXT);"
    "CREATE TABLE meta(input INTEGER PRIMARY KEY, path TEXT, format TEXT, dialect TEXT, ts_unit TEXT,"
    " dur_unit TEXT, assumed TEXT, lines INTEGER, rows INTEGER, bytes INTEGER, disk_bytes INTEGER,"
    " skipped INTEGER, skipped_by_reason TEXT, warning TEXT);";

/* Lookup kind -> table, in enum spoor_lookup_kind order. */
static const char *const lookup_inserts[SPOOR_LOOKUP_KINDS] = {
    "INSERT OR IGNORE INTO files VALUES(?,?)",  "INSERT OR IGNORE INTO hosts VALUES(?,?)",
    "INSERT OR IGNORE INTO strings VALUES(?,?)", "INSERT OR IGNORE INTO procs VALUES(?,?)",
    "INSERT OR IGNORE INTO threads VALUES(?,?)",
};

/* Text of one view: whether each string id is valid UTF-8 is learned once. */
enum { UTF8_UNKNOWN, UTF8_VALID, UTF8_INVALID };

struct spoor_sqlite_writer {
    sqlite3 *db;
    char *path;
    sqlite3_stmt *insert, *lookup[SPOOR_LOOKUP_KINDS];

    struct out_col *cols;       /* the explicit list, or the fixed default columns */
    size_t ncols;
    bool defaults;              /* args columns follow, added as they appear */
    struct spoor_view *views;   /* per column of the table: fixed, then args */
    size_t nviews, views_cap;

    /* Default mode: args column of each key (registry id -> column + 1). */
    struct spoor_strpool *keys;
    uint32_t *column_of_key;
    size_t column_of_key_cap;
    struct spoor_strpool *names_lower;  /* column names as SQLite compares them */

    uint8_t *batch_utf8, *resolved_utf8;
    size_t batch_utf8_cap, resolved_utf8_n, resolved_utf8_cap;
    struct wbuf scratch;        /* SQL text; repaired UTF-8 */
};

static int db_fail(struct spoor_sqlite_writer *w, struct spoor_error *err, const char *what)
{
    return spoor_fail(err, SPOOR_EIO, "cannot write %s: %s: %s", w->path, what, sqlite3_errmsg(w->db));
}

static bool utf8_valid(const char *s, size_t len)
{
    for (size_t i = 0; i < len;) {
        if ((unsigned char)s[i] < 0x80) {
            i++;
            continue;
        }
        unsigned cp;
        size_t n = strmatch_utf8(s + i, len - i, &cp);
        if (n == 1)
            return false;
        i += n;
    }
    return true;
}

/* s with every invalid byte replaced by U+FFFD, into b (cleared first). */
static void utf8_repair(struct wbuf *b, const char *s, size_t len)
{
    b->len = 0;
    for (size_t i = 0; i < len;) {
        unsigned cp;
        size_t n = (unsigned char)s[i] < 0x80 ? 1 : strmatch_utf8(s + i, len - i, &cp);
        if (n == 1 && (unsigned char)s[i] >= 0x80)
            wbuf_put(b, "\xef\xbf\xbd", 3);
        else
            wbuf_put(b, s + i, n);
        i += n;
    }
}

/* Appends a quoted SQL identifier; NUL and invalid UTF-8 become U+FFFD. */
static void put_ident(struct wbuf *b, const char *name, size_t len)
{
    struct wbuf fixed;
    wbuf_init(&fixed, NULL, len * 3 + 1);
    utf8_repair(&fixed, name, len);
    wbuf_byte(b, '"');
    for (size_t i = 0; i < fixed.len; i++) {
        char c = fixed.data[i];
        if (c == '\0')
            wbuf_put(b, "\xef\xbf\xbd", 3);
        else if (c == '"')
            wbuf_put(b, "\"\"", 2);
        else
            wbuf_byte(b, c);
    }
    wbuf_byte(b, '"');
    wbuf_release(&fixed);
}

static int exec(struct spoor_sqlite_writer *w, const char *sql, struct spoor_error *err)
{
    if (sqlite3_exec(w->db, sql, NULL, NULL, NULL) != SQLITE_OK)
        return db_fail(w, err, sql);
    return SPOOR_OK;
}

static const char *decl_type(enum spoor_field field)
{
    switch (field) {
    case SPOOR_FIELD_TS: case SPOOR_FIELD_DUR: case SPOOR_FIELD_PID: case SPOOR_FIELD_TID: case SPOOR_FIELD_LINE:
        return " INTEGER";
    case SPOOR_FIELD_ARG:
        return "";          /* explicit args columns: typed by their values */
    default:
        return " TEXT";
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

static int create_events(struct spoor_sqlite_writer *w, struct spoor_error *err)
{
    struct wbuf *b = &w->scratch;
    b->len = 0;
    wbuf_put(b, "CREATE TABLE events(", 20);
    for (size_t i = 0; i < w->ncols; i++) {
        const char *name = w->cols[i].label.text;
        if (i)
            wbuf_byte(b, ',');
        put_ident(b, name, strlen(name));
        claim_name(w, name, strlen(name));
        const char *type = decl_type(w->cols[i].field);
        wbuf_put(b, type, strlen(type));
    }
    wbuf_put(b, ")", 2);
    return exec(w, b->data, err);
}

int spoor_sqlite_writer_open(struct spoor_sqlite_writer **out, const char *path, const char *const *columns,
                             size_t ncolumns, struct spoor_error *err)
{
    struct spoor_sqlite_writer *w = spoor_xcalloc(1, sizeof *w);
    *out = w;
    w->path = spoor_xstrdup(path);
    w->defaults = !columns;
    size_t n = 0;
    if (w->defaults)
        while (spoor_field_names[n])
            n++;
    else
        n = ncolumns;
    w->cols = spoor_xcalloc(n ? n : 1, sizeof *w->cols);
    for (size_t i = 0; i < n; i++)
        out_col_init(&w->cols[w->ncols++], w->defaults ? spoor_field_names[i] : columns[i]);
    w->keys = spoor_strpool_new();
    w->names_lower = spoor_strpool_new();
    wbuf_init(&w->scratch, NULL, 4096);
    /* No mutex per call: the loader's reduce calls one batch at a time. */
    int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX;
    if (sqlite3_open_v2(path, &w->db, flags, NULL) != SQLITE_OK)
        return db_fail(w, err, "cannot open the database");
    if (exec(w, schema, err) != SPOOR_OK || create_events(w, err) != SPOOR_OK)
        return err->code;
    for (int k = 0; k < SPOOR_LOOKUP_KINDS; k++)
        if (sqlite3_prepare_v2(w->db, lookup_inserts[k], -1, &w->lookup[k], NULL) != SQLITE_OK)
            return db_fail(w, err, lookup_inserts[k]);
    return SPOOR_OK;
}

void spoor_sqlite_writer_free(struct spoor_sqlite_writer *w)
{
    if (!w)
        return;
    sqlite3_finalize(w->insert);
    for (int k = 0; k < SPOOR_LOOKUP_KINDS; k++)
        sqlite3_finalize(w->lookup[k]);
    sqlite3_close(w->db);
    for (size_t i = 0; i < w->ncols; i++)
        label_free(&w->cols[i].label);
    free(w->cols);
    free(w->views);
    free(w->column_of_key);
    free(w->batch_utf8);
    free(w->resolved_utf8);
    spoor_strpool_free(w->keys);
    spoor_strpool_free(w->names_lower);
    wbuf_release(&w->scratch);
    free(w->path);
    free(w);
}

size_t spoor_sqlite_writer_missing(const struct spoor_sqlite_writer *w, const char **names, size_t max)
{
    return w->defaults ? 0 : out_cols_missing(w->cols, w->ncols, names, max);
}

static void grow_views(struct spoor_sqlite_writer *w, size_t n)
{
    if (n <= w->views_cap)
        return;
    w->views_cap = n * 2;
    w->views = spoor_xrealloc(w->views, w->views_cap * sizeof *w->views);
}

static int prepare_insert(struct spoor_sqlite_writer *w, struct spoor_error *err)
{
    sqlite3_finalize(w->insert);
    w->insert = NULL;
    struct wbuf *b = &w->scratch;
    b->len = 0;
    wbuf_put(b, "INSERT INTO events VALUES(", 26);
    for (size_t i = 0; i < w->nviews; i++)
        wbuf_put(b, i ? ",?" : "?", i ? 2 : 1);
    wbuf_put(b, ")", 2);
    if (sqlite3_prepare_v2(w->db, b->data, -1, &w->insert, NULL) != SQLITE_OK)
        return db_fail(w, err, "cannot prepare the insert");
    return SPOOR_OK;
}

/* Adds an args column for key, typed as the batch holds it. */
static int add_column(struct spoor_sqlite_writer *w, const char *key, size_t len, enum spoor_type type,
                      struct spoor_error *err)
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
    struct wbuf *b = &w->scratch;
    b->len = 0;
    wbuf_put(b, "ALTER TABLE events ADD COLUMN ", 30);
    put_ident(b, name.data, name.len);
    const char *decl = type == SPOOR_I64 ? " INTEGER" : type == SPOOR_F64 ? " REAL" : " TEXT";
    wbuf_put(b, decl, strlen(decl) + 1);
    wbuf_release(&name);
    return exec(w, b->data, err);
}

/* The table column (index into views) of a batch args column, adding it
 * when its key is new; SIZE_MAX while it holds no value. */
static int args_column(struct spoor_sqlite_writer *w, const struct spoor_table *t, const struct spoor_column *c,
                       size_t *column, struct spoor_error *err)
{
    size_t len;
    const char *key = spoor_strpool_get(t->pool, c->name, &len);
    uint32_t id = spoor_strpool_intern(w->keys, key, len);
    w->column_of_key = id_map_reserve(w->column_of_key, &w->column_of_key_cap, id);
    *column = SIZE_MAX;
    if (!w->column_of_key[id]) {
        if (!c->typed)
            return SPOOR_OK;
        int st = add_column(w, key, len, c->type, err);
        if (st != SPOOR_OK)
            return st;
        grow_views(w, w->nviews + 1);
        w->column_of_key[id] = (uint32_t)++w->nviews;
        if (prepare_insert(w, err) != SPOOR_OK)
            return err->code;
    }
    *column = w->column_of_key[id] - 1;
    spoor_view_bind(&w->views[*column], SPOOR_FIELD_ARG, key, len, t, NULL);
    return SPOOR_OK;
}

static int bind_batch(struct spoor_sqlite_writer *w, const struct spoor_table *t, const struct spoor_resolved *res,
                      struct spoor_error *err)
{
    w->batch_utf8 = plain_flags(w->batch_utf8, &w->batch_utf8_cap, 0, spoor_strpool_count(t->pool));
    if (res) {
        size_t n = spoor_strpool_count(res->pool);
        w->resolved_utf8 = plain_flags(w->resolved_utf8, &w->resolved_utf8_cap, w->resolved_utf8_n, n);
        w->resolved_utf8_n = n;
    }
    if (!w->insert) {
        w->nviews = w->ncols;
        grow_views(w, w->nviews);
        if (prepare_insert(w, err) != SPOOR_OK)
            return err->code;
    }
    for (size_t i = 0; i < w->ncols; i++)
        out_col_bind(&w->cols[i], &w->views[i], t, res);
    if (!w->defaults)
        return SPOOR_OK;
    for (size_t i = w->ncols; i < w->nviews; i++)
        w->views[i].kind = SPOOR_VIEW_NULL;
    for (size_t i = 0; i < t->ncols; i++) {
        size_t column;
        int st = args_column(w, t, &t->cols[i], &column, err);
        if (st != SPOOR_OK)
            return st;
    }
    return SPOOR_OK;
}

static int bind_text(struct spoor_sqlite_writer *w, int param, const char *s, size_t len, uint8_t *known)
{
    uint8_t state = known ? *known : UTF8_UNKNOWN;
    if (state == UTF8_UNKNOWN) {
        state = utf8_valid(s, len) ? UTF8_VALID : UTF8_INVALID;
        if (known)
            *known = state;
    }
    if (state == UTF8_VALID)
        return sqlite3_bind_text(w->insert, param, s, (int)len, SQLITE_STATIC);
    utf8_repair(&w->scratch, s, len);
    return sqlite3_bind_text(w->insert, param, w->scratch.data, (int)w->scratch.len, SQLITE_TRANSIENT);
}

static int bind_value(struct spoor_sqlite_writer *w, int param, const struct spoor_view *v, size_t row)
{
    if (spoor_view_is_null(v, row))
        return sqlite3_bind_null(w->insert, param);
    switch (v->kind) {
    case SPOOR_VIEW_I64:
        return sqlite3_bind_int64(w->insert, param, v->i64[row]);
    case SPOOR_VIEW_F64:
        return sqlite3_bind_double(w->insert, param, v->f64[row]);
    case SPOOR_VIEW_STR: {
        uint32_t id = v->str[row];
        size_t len;
        const char *s = spoor_strpool_get(v->pool, id, &len);
        return bind_text(w, param, s, len, v->stable_ids ? &w->resolved_utf8[id] : &w->batch_utf8[id]);
    }
    default: {
        char ph[2];
        size_t len;
        const char *s = spoor_view_text(v, row, ph, &len);
        return bind_text(w, param, s, len, NULL);
    }
    }
}

static int insert_row(struct spoor_sqlite_writer *w, size_t row)
{
    for (size_t i = 0; i < w->nviews; i++) {
        int rc = bind_value(w, (int)i + 1, &w->views[i], row);
        if (rc != SQLITE_OK)
            return rc;
    }
    int rc = sqlite3_step(w->insert);
    sqlite3_reset(w->insert);
    return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/* Binds a lookup key: procs and threads are keyed by an integer. */
static int bind_key(sqlite3_stmt *s, const char *key, size_t len, bool integer)
{
    char *end;
    long long v = integer ? strtoll(key, &end, 10) : 0;
    if (integer && end != key && !*end)
        return sqlite3_bind_int64(s, 1, v);
    return sqlite3_bind_text(s, 1, key, (int)len, SQLITE_TRANSIENT);
}

static int insert_lookups(struct spoor_sqlite_writer *w, const struct spoor_table *t)
{
    for (int k = 0; k < SPOOR_LOOKUP_KINDS; k++) {
        const struct spoor_lookup *l = &t->lookups[k];
        sqlite3_stmt *s = w->lookup[k];
        for (size_t i = 0; i < l->n; i++) {
            size_t klen, vlen;
            const char *key = spoor_strpool_get(t->pool, l->keys[i], &klen);
            const char *value = spoor_strpool_get(t->pool, l->values[i], &vlen);
            int rc = bind_key(s, key, klen, k == SPOOR_LOOKUP_PROCESS || k == SPOOR_LOOKUP_THREAD);
            if (rc == SQLITE_OK) {
                utf8_repair(&w->scratch, value, vlen);
                rc = sqlite3_bind_text(s, 2, w->scratch.data, (int)w->scratch.len, SQLITE_TRANSIENT);
            }
            if (rc == SQLITE_OK)
                rc = sqlite3_step(s) == SQLITE_DONE ? SQLITE_OK : SQLITE_ERROR;
            sqlite3_reset(s);
            if (rc != SQLITE_OK)
                return rc;
        }
    }
    return SQLITE_OK;
}

int spoor_sqlite_writer_write(struct spoor_sqlite_writer *w, const struct spoor_table *t,
                              const struct spoor_resolved *res, const uint32_t *sel, size_t n,
                              struct spoor_error *err)
{
    if (!sel)
        n = t->nrows;
    if (insert_lookups(w, t) != SQLITE_OK)
        return db_fail(w, err, "cannot insert the lookups");
    if (!n)
        return SPOOR_OK;
    int st = bind_batch(w, t, res, err);
    if (st != SPOOR_OK)
        return st;
    for (size_t i = 0; i < n; i++)
        if (insert_row(w, sel ? sel[i] : i) != SQLITE_OK)
            return db_fail(w, err, "cannot insert a row");
    return SPOOR_OK;
}

/* {"reason": count, ...} */
static void skips_json(struct wbuf *b, const struct spoor_skips *s)
{
    b->len = 0;
    wbuf_byte(b, '{');
    for (size_t i = 0; i < s->nreasons; i++) {
        if (i)
            wbuf_byte(b, ',');
        json_text(b, s->reason[i], strlen(s->reason[i]));
        wbuf_byte(b, ':');
        wbuf_i64(b, (int64_t)s->count[i]);
    }
    wbuf_put(b, "}", 2);
}

static int insert_meta(struct spoor_sqlite_writer *w, const struct spoor_load_result *loaded,
                       struct spoor_error *err)
{
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(w->db, "INSERT INTO meta VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?)", -1, &s, NULL) != SQLITE_OK)
        return db_fail(w, err, "cannot prepare the meta insert");
    int rc = SQLITE_OK;
    for (size_t i = 0; i < loaded->ninputs && rc == SQLITE_OK; i++) {
        const struct spoor_input_report *in = &loaded->inputs[i];
        const char *text[] = {in->path,
                              in->dialect.format ? in->dialect.format->name : NULL,
                              in->dialect.name,
                              spoor_unit_name(in->dialect.ts_unit),
                              spoor_unit_name(in->dialect.dur_unit),
                              in->dialect.assumed};
        sqlite3_bind_int64(s, 1, (int64_t)i);
        for (int k = 0; k < 6; k++) {
            if (!text[k] || !*text[k])
                sqlite3_bind_null(s, k + 2);
            else
                sqlite3_bind_text(s, k + 2, text[k], -1, SQLITE_TRANSIENT);
        }
        const uint64_t counts[] = {in->lines, in->rows, in->bytes, in->disk_bytes, in->skips.total};
        for (int k = 0; k < 5; k++)
            sqlite3_bind_int64(s, k + 8, (int64_t)counts[k]);
        skips_json(&w->scratch, &in->skips);
        sqlite3_bind_text(s, 13, w->scratch.data, -1, SQLITE_TRANSIENT);
        if (in->warning)
            sqlite3_bind_text(s, 14, in->warning, -1, SQLITE_TRANSIENT);
        else
            sqlite3_bind_null(s, 14);
        rc = sqlite3_step(s) == SQLITE_DONE ? SQLITE_OK : SQLITE_ERROR;
        sqlite3_reset(s);
    }
    sqlite3_finalize(s);
    return rc == SQLITE_OK ? SPOOR_OK : db_fail(w, err, "cannot insert meta");
}

static bool has_column(const struct spoor_sqlite_writer *w, enum spoor_field field)
{
    for (size_t i = 0; i < w->ncols; i++)
        if (w->cols[i].field == field)
            return true;
    return false;
}

/* Indexes are built once the rows are in: cheaper than keeping them sorted. */
static int create_indexes(struct spoor_sqlite_writer *w, struct spoor_error *err)
{
    if (has_column(w, SPOOR_FIELD_TS) && exec(w, "CREATE INDEX events_ts ON events(ts)", err) != SPOOR_OK)
        return err->code;
    if (has_column(w, SPOOR_FIELD_NAME) && exec(w, "CREATE INDEX events_name ON events(name)", err) != SPOOR_OK)
        return err->code;
    if (has_column(w, SPOOR_FIELD_PID) && has_column(w, SPOOR_FIELD_TID) &&
        exec(w, "CREATE INDEX events_pid_tid ON events(pid, tid)", err) != SPOOR_OK)
        return err->code;
    return SPOOR_OK;
}

int spoor_sqlite_writer_finish(struct spoor_sqlite_writer *w, const struct spoor_load_result *loaded,
                               struct spoor_error *err)
{
    if (insert_meta(w, loaded, err) != SPOOR_OK || create_indexes(w, err) != SPOOR_OK)
        return err->code;
    sqlite3_finalize(w->insert);
    w->insert = NULL;
    for (int k = 0; k < SPOOR_LOOKUP_KINDS; k++) {
        sqlite3_finalize(w->lookup[k]);
        w->lookup[k] = NULL;
    }
    if (exec(w, "COMMIT", err) != SPOOR_OK)
        return err->code;
    if (sqlite3_close(w->db) != SQLITE_OK)
        return db_fail(w, err, "cannot close the database");
    w->db = NULL;
    return SPOOR_OK;
}
