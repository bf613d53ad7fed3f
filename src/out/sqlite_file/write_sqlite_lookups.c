/* The lookups and meta of the SQLite export: small tables, so they are
 * gathered in an in-memory database with SQLite's own INSERT OR IGNORE and
 * copied into the finished file (ATTACH) at the end. A lookup row is one
 * definition: the input (source) that made it and the line it holds from. */
#include "out/sqlite_file/write_sqlite_internal.h"
#include "spoor/error.h"

#include <sqlite3.h>
#include <stdlib.h>

/* name, columns; lookups in enum spoor_lookup_kind order, then meta. */
static const char *const tables[][2] = {
    {"files", "(hash TEXT, path TEXT, source TEXT, line INTEGER, PRIMARY KEY(source, hash, line))"},
    {"hosts", "(hash TEXT, name TEXT, source TEXT, line INTEGER, PRIMARY KEY(source, hash, line))"},
    {"strings", "(hash TEXT, value TEXT, source TEXT, line INTEGER, PRIMARY KEY(source, hash, line))"},
    {"procs", "(pid INTEGER, name TEXT, source TEXT, line INTEGER, PRIMARY KEY(source, pid, line))"},
    {"threads", "(tid INTEGER, name TEXT, source TEXT, line INTEGER, PRIMARY KEY(source, tid, line))"},
    {"meta", "(input INTEGER PRIMARY KEY, path TEXT, format TEXT, dialect TEXT, ts_unit TEXT, dur_unit TEXT,"
             " assumed TEXT, lines INTEGER, rows INTEGER, bytes INTEGER, disk_bytes INTEGER, skipped INTEGER,"
             " skipped_by_reason TEXT, warning TEXT, redefined INTEGER)"},
};
enum { NTABLES = sizeof tables / sizeof tables[0] };

struct sqlw_lookups {
    sqlite3 *db;
    sqlite3_stmt *insert[SPOOR_LOOKUP_KINDS];
    struct wbuf scratch;
};

static int db_fail(sqlite3 *db, struct spoor_error *err, const char *what)
{
    return spoor_fail(err, SPOOR_EIO, "%s: %s", what, sqlite3_errmsg(db));
}

/* Runs format once per table with (schema, name, columns, name, name). */
static int exec_each(sqlite3 *db, const char *format, const char *schema, struct spoor_error *err)
{
    for (int i = 0; i < NTABLES; i++) {
        char *sql = sqlite3_mprintf(format, schema, tables[i][0], tables[i][1], tables[i][0], tables[i][0]);
        int rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
        sqlite3_free(sql);
        if (rc != SQLITE_OK)
            return db_fail(db, err, tables[i][0]);
    }
    return SPOOR_OK;
}

int sqlw_lookups_new(struct sqlw_lookups **out, struct spoor_error *err)
{
    struct sqlw_lookups *l = spoor_xcalloc(1, sizeof *l);
    *out = l;
    wbuf_init(&l->scratch, NULL, 256);
    if (sqlite3_open_v2(":memory:", &l->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK)
        return spoor_fail(err, SPOOR_EIO, "cannot open an in-memory database");
    if (exec_each(l->db, "CREATE TABLE %s.%s%s", "main", err) != SPOOR_OK)
        return err->code;
    for (int k = 0; k < SPOOR_LOOKUP_KINDS; k++) {
        char *sql = sqlite3_mprintf("INSERT OR IGNORE INTO %s VALUES(?,?,?,?)", tables[k][0]);
        int rc = sqlite3_prepare_v2(l->db, sql, -1, &l->insert[k], NULL);
        sqlite3_free(sql);
        if (rc != SQLITE_OK)
            return db_fail(l->db, err, "cannot prepare a lookup insert");
    }
    return SPOOR_OK;
}

void sqlw_lookups_free(struct sqlw_lookups *l)
{
    if (!l)
        return;
    for (int k = 0; k < SPOOR_LOOKUP_KINDS; k++)
        sqlite3_finalize(l->insert[k]);
    sqlite3_close(l->db);
    wbuf_release(&l->scratch);
    free(l);
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

int sqlw_lookups_add(struct sqlw_lookups *l, const struct spoor_table *t, struct spoor_error *err)
{
    for (int k = 0; k < SPOOR_LOOKUP_KINDS; k++) {
        const struct spoor_lookup *lk = &t->lookups[k];
        sqlite3_stmt *s = l->insert[k];
        for (size_t i = 0; i < lk->n; i++) {
            size_t klen, vlen;
            const char *key = spoor_strpool_get(t->pool, lk->keys[i], &klen);
            const char *value = spoor_strpool_get(t->pool, lk->values[i], &vlen);
            int rc = bind_key(s, key, klen, k == SPOOR_LOOKUP_PROCESS || k == SPOOR_LOOKUP_THREAD);
            if (rc == SQLITE_OK) {
                sqlw_utf8_repair(&l->scratch, value, vlen);
                rc = sqlite3_bind_text(s, 2, l->scratch.data, (int)l->scratch.len, SQLITE_TRANSIENT);
            }
            if (rc == SQLITE_OK)
                rc = lk->srcs[i] < t->nsources
                         ? sqlite3_bind_text(s, 3, t->sources[lk->srcs[i]], -1, SQLITE_TRANSIENT)
                         : sqlite3_bind_null(s, 3);
            if (rc == SQLITE_OK)
                rc = sqlite3_bind_int64(s, 4, (int64_t)lk->lines[i]);
            if (rc == SQLITE_OK)
                rc = sqlite3_step(s) == SQLITE_DONE ? SQLITE_OK : SQLITE_ERROR;
            sqlite3_reset(s);
            if (rc != SQLITE_OK)
                return db_fail(l->db, err, "cannot insert the lookups");
        }
    }
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

static int insert_meta(struct sqlw_lookups *l, const struct spoor_load_result *loaded, struct spoor_error *err)
{
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(l->db, "INSERT INTO meta VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", -1, &s, NULL) != SQLITE_OK)
        return db_fail(l->db, err, "cannot prepare the meta insert");
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
        skips_json(&l->scratch, &in->skips);
        sqlite3_bind_text(s, 13, l->scratch.data, -1, SQLITE_TRANSIENT);
        if (in->warning)
            sqlite3_bind_text(s, 14, in->warning, -1, SQLITE_TRANSIENT);
        else
            sqlite3_bind_null(s, 14);
        sqlite3_bind_int64(s, 15, (int64_t)in->redefined);
        rc = sqlite3_step(s) == SQLITE_DONE ? SQLITE_OK : SQLITE_ERROR;
        sqlite3_reset(s);
    }
    sqlite3_finalize(s);
    return rc == SQLITE_OK ? SPOOR_OK : db_fail(l->db, err, "cannot insert meta");
}

int sqlw_lookups_finish(struct sqlw_lookups *l, const struct spoor_load_result *loaded, const char *path,
                        const char *name, struct spoor_error *err)
{
    if (insert_meta(l, loaded, err) != SPOOR_OK)
        return err->code;
    sqlite3_stmt *attach;
    if (sqlite3_prepare_v2(l->db, "ATTACH ?1 AS out", -1, &attach, NULL) != SQLITE_OK)
        return db_fail(l->db, err, "cannot attach the database");
    sqlite3_bind_text(attach, 1, path, -1, SQLITE_STATIC);
    int rc = sqlite3_step(attach);
    sqlite3_finalize(attach);
    if (rc != SQLITE_DONE)
        return spoor_fail(err, SPOOR_EIO, "cannot write %s: %s", name, sqlite3_errmsg(l->db));
    /* The file is a temporary until renamed: no journal, no syncs. */
    if (sqlite3_exec(l->db, "PRAGMA out.journal_mode=OFF; PRAGMA out.synchronous=OFF; BEGIN", NULL, NULL, NULL) !=
            SQLITE_OK ||
        exec_each(l->db, "CREATE TABLE %s.%s%s; INSERT INTO out.%s SELECT * FROM main.%s", "out", err) !=
            SPOOR_OK ||
        sqlite3_exec(l->db, "COMMIT; DETACH out", NULL, NULL, NULL) != SQLITE_OK)
        return spoor_fail(err, SPOOR_EIO, "cannot write %s: %s", name, sqlite3_errmsg(l->db));
    return SPOOR_OK;
}
