/* The SQLite and Perfetto exporters: column types, nulls, args columns that
 * first appear in a later batch, name clashes, lookups (first wins), meta,
 * explicit columns, strings with quotes, newlines and invalid UTF-8, values
 * converted by column affinity exactly as SQLite's INSERT converts them, and
 * every database passing integrity_check and quick_check. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cJSON.h>
#include <cmocka.h>
#include <sqlite3.h>

#include "events_fixture.h"
#include "spoor/write.h"
#include "testutil.h"

static const char tricky[] = "say \"hi\"\nit's \xff ok";
static const char tricky_fixed[] = "say \"hi\"\nit's \xef\xbf\xbd ok";

/* Batch 1: metadata, an int, a string and a null dur. */
static struct spoor_table *first_batch(void)
{
    struct spoor_table *t = spoor_table_new();
    spoor_table_add_source(t, "a.pfw");
    fx_lookup(t, SPOOR_LOOKUP_FILE, "77", "/data/f");
    fx_lookup(t, SPOOR_LOOKUP_HOST, "5", "node1");
    fx_lookup(t, SPOOR_LOOKUP_PROCESS, "10", "rank 0");
    fx_lookup(t, SPOOR_LOOKUP_THREAD, "11", "main");
    size_t m = fx_row(t, FX_NULL, FX_NULL, "thread_name", NULL, 10, 11, 'M');
    fx_str(t, m, "name", "main");
    size_t r = fx_row(t, 1500, 2001, "read", "POSIX", 10, 11, 'X');
    fx_int(t, r, "size", 4096);
    fx_str(t, r, "fhash", "77");
    fx_str(t, r, "hhash", "5");
    r = fx_row(t, 3000, FX_NULL, tricky, "POSIX", 10, 11, 'i');
    fx_str(t, r, "mode", tricky);
    return t;
}

/* Batch 2: new args (a real, a case clash, a fixed name), an FH redefined
 * after its first row (lines go on from batch 1). */
static struct spoor_table *second_batch(void)
{
    struct spoor_table *t = spoor_table_new();
    spoor_table_add_source(t, "a.pfw");
    spoor_lookup_put(&t->lookups[SPOOR_LOOKUP_FILE], 0, fx_intern(t, "77"), fx_intern(t, "/other"), 11);
    size_t r = fx_row(t, -2500, 0, "write", "POSIX", 10, 12, 0);
    t->line[r] = 10;
    fx_int(t, r, "size", 7);
    fx_real(t, r, "ratio", 0.25);
    fx_str(t, r, "Size", "big");
    fx_str(t, r, "name", "inner");
    fx_str(t, r, "fhash", "77");
    return t;
}

static const char *db_path(const char *name)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", testutil_tmpdir(), name);
    remove(path);
    return path;
}

/* The first column of the first row of sql, as text (static storage). */
static const char *query(const char *path, const char *sql);

/* The checks SQLite makes of its own files, on every file written here. */
static void check_file(const char *path)
{
    assert_string_equal(query(path, "PRAGMA integrity_check"), "ok");
    assert_string_equal(query(path, "PRAGMA quick_check"), "ok");
}

/* Writes the batches (resolved in order) to a new database. */
static const char *export_from(const char *name, const char *const *cols, size_t ncols, const char *only_source,
                               struct spoor_sqlite_writer **keep, struct spoor_table **batches, int nbatches)
{
    const char *path = db_path(name);
    struct spoor_sqlite_writer *w;
    struct spoor_error err = {0};
    assert_int_equal(spoor_sqlite_writer_open(&w, path, path, cols, ncols, only_source, &err), SPOOR_OK);
    struct spoor_resolver *res = spoor_resolver_new();
    for (int i = 0; i < nbatches; i++)
        assert_int_equal(spoor_sqlite_writer_write(w, batches[i], spoor_resolver_resolve(res, batches[i]), NULL, 0,
                                                   &err),
                         SPOOR_OK);
    struct spoor_input_report in = {.path = "a.pfw", .lines = 4, .rows = 4};
    strcpy(in.dialect.name, "chrome");
    in.skips.total = 1;
    in.skips.nreasons = 1;
    in.skips.reason[0] = "malformed JSON";
    in.skips.count[0] = 1;
    struct spoor_load_result loaded = {.inputs = &in, .ninputs = 1};
    assert_int_equal(spoor_sqlite_writer_finish(w, &loaded, &err), SPOOR_OK);
    if (keep)
        *keep = w;
    else
        spoor_sqlite_writer_free(w);
    for (int i = 0; i < nbatches; i++)
        spoor_table_free(batches[i]);
    spoor_resolver_free(res);
    check_file(path);
    return path;
}

static const char *export_batches(const char *name, const char *const *cols, size_t ncols,
                                  struct spoor_sqlite_writer **keep, struct spoor_table **batches, int nbatches)
{
    return export_from(name, cols, ncols, NULL, keep, batches, nbatches);
}

static const char *export_db(const char *name, const char *const *cols, size_t ncols,
                             struct spoor_sqlite_writer **keep)
{
    struct spoor_table *batches[2] = {first_batch(), second_batch()};
    return export_batches(name, cols, ncols, keep, batches, 2);
}

static const char *query(const char *path, const char *sql)
{
    static char out[512];
    sqlite3 *db;
    assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK)
        fail_msg("%s: %s", sql, sqlite3_errmsg(db));
    out[0] = '\0';
    if (sqlite3_step(s) == SQLITE_ROW && sqlite3_column_text(s, 0))
        snprintf(out, sizeof out, "%s", (const char *)sqlite3_column_text(s, 0));
    sqlite3_finalize(s);
    sqlite3_close(db);
    return out;
}

static void sqlite_types_and_nulls(void **state)
{
    const char *db = export_db("types.db", NULL, 0, NULL);
    assert_string_equal(query(db, "SELECT count(*) FROM events"), "4");
    assert_string_equal(query(db, "SELECT typeof(ts) || typeof(dur) || typeof(size) FROM events WHERE name='read'"),
                        "integerintegerinteger");
    assert_string_equal(query(db, "SELECT count(*) FROM events WHERE dur IS NULL"), "2");
    assert_string_equal(query(db, "SELECT ts || ',' || dur FROM events WHERE name = 'write'"), "-2500,0");
    assert_string_equal(query(db, "SELECT ph FROM events WHERE name='read'"), "X");
    assert_string_equal(query(db, "SELECT count(*) FROM events WHERE ph IS NULL"), "1");
    assert_string_equal(query(db, "SELECT source || ':' || line FROM events WHERE name='read'"), "a.pfw:2");
    /* Declared types follow the first batch that had the column. */
    assert_string_equal(query(db, "SELECT type FROM pragma_table_info('events') WHERE name='size'"), "INTEGER");
    assert_string_equal(query(db, "SELECT type FROM pragma_table_info('events') WHERE name='mode'"), "TEXT");
}

/* One input: source is a generated column (the path once, in the schema),
 * read back like a stored one (SELECT * has it; table_info leaves it out,
 * table_xinfo has it); a quote in the path is escaped. */
static void sqlite_only_source_is_generated(void **state)
{
    char stored_cols[512];
    const char *db = export_db("stored.db", NULL, 0, NULL);
    snprintf(stored_cols, sizeof stored_cols, "%s",
             query(db, "SELECT group_concat(name || type, ',') FROM pragma_table_xinfo('events')"));
    struct spoor_table *batches[2] = {first_batch(), second_batch()};
    db = export_from("generated.db", NULL, 0, "a.pfw", NULL, batches, 2);
    assert_string_equal(query(db, "SELECT group_concat(name || type, ',') FROM pragma_table_xinfo('events')"),
                        stored_cols);
    assert_string_equal(query(db, "SELECT hidden FROM pragma_table_xinfo('events') WHERE name = 'source'"), "2");
    assert_string_equal(query(db, "SELECT count(*) FROM events WHERE source = 'a.pfw' AND typeof(source) = 'text'"),
                        "4");
    assert_string_equal(query(db, "SELECT source || ':' || line || ':' || file FROM events WHERE name='read'"),
                        "a.pfw:2:/data/f");
    struct spoor_table *again[2] = {first_batch(), second_batch()};
    db = export_from("quoted.db", NULL, 0, "it's \xff.pfw", NULL, again, 2);
    assert_string_equal(query(db, "SELECT DISTINCT source FROM events"), "it's \xef\xbf\xbd.pfw");
}

static void sqlite_columns_of_later_batches(void **state)
{
    const char *db = export_db("later.db", NULL, 0, NULL);
    assert_string_equal(query(db, "SELECT type FROM pragma_table_info('events') WHERE name='ratio'"), "REAL");
    assert_string_equal(query(db, "SELECT typeof(ratio) || ratio FROM events WHERE name='write'"), "real0.25");
    assert_string_equal(query(db, "SELECT count(*) FROM events WHERE ratio IS NULL"), "3");
    /* SQLite names ignore case, and args keys that are fixed names get a prefix. */
    assert_string_equal(query(db, "SELECT \"Size.1\" FROM events WHERE name='write'"), "big");
    assert_string_equal(query(db, "SELECT \"args.name\" FROM events WHERE name='write'"), "inner");
    assert_string_equal(query(db, "SELECT group_concat(name, ',') FROM pragma_table_info('events')"),
                        "ts,dur,name,cat,pid,tid,ph,line,source,file,host,args.name,size,fhash,hhash,mode,ratio,"
                        "Size.1");
}

static void sqlite_lookups_and_meta(void **state)
{
    const char *db = export_db("lookups.db", NULL, 0, NULL);
    assert_string_equal(query(db, "SELECT group_concat(path || '@' || source || ':' || line, ',') FROM files"),
                        "/data/f@a.pfw:0,/other@a.pfw:11");
    assert_string_equal(query(db, "SELECT name FROM hosts WHERE hash = '5'"), "node1");
    assert_string_equal(query(db, "SELECT typeof(pid) || name FROM procs"), "integerrank 0");
    assert_string_equal(query(db, "SELECT tid || name FROM threads"), "11main");
    /* file and host resolved through the lookups of earlier batches. */
    assert_string_equal(query(db, "SELECT file || '@' || host FROM events WHERE name='read'"), "/data/f@node1");
    assert_string_equal(query(db, "SELECT file FROM events WHERE name='write'"), "/data/f");
    assert_string_equal(query(db, "SELECT path || dialect || skipped || skipped_by_reason FROM meta"),
                        "a.pfwchrome1{\"malformed JSON\":1}");
    assert_string_equal(query(db, "SELECT group_concat(name, ',') FROM sqlite_master WHERE type = 'index' "
                                  "AND name LIKE 'events%'"),
                        "events_ts,events_name,events_pid_tid");
}

static void sqlite_text_is_valid_utf8(void **state)
{
    const char *db = export_db("text.db", NULL, 0, NULL);
    assert_string_equal(query(db, "SELECT mode FROM events WHERE mode IS NOT NULL"), tricky_fixed);
    assert_string_equal(query(db, "SELECT count(*) FROM events WHERE name = 'say \"hi\"' || char(10) || "
                                  "'it''s ' || char(65533) || ' ok'"),
                        "1");
}

static void sqlite_explicit_columns(void **state)
{
    static const char *const cols[] = {"ts", "name", "file", "ratio", "nope"};
    struct spoor_sqlite_writer *w;
    const char *db = export_db("explicit.db", cols, 5, &w);
    assert_string_equal(query(db, "SELECT group_concat(name, ',') FROM pragma_table_info('events')"),
                        "ts,name,file,ratio,nope");
    assert_string_equal(query(db, "SELECT typeof(ratio) FROM events WHERE name='write'"), "real");
    assert_string_equal(query(db, "SELECT count(*) FROM events WHERE nope IS NULL"), "4");
    /* No pid or tid column: no index on them. */
    assert_string_equal(query(db, "SELECT count(*) FROM sqlite_master WHERE name = 'events_pid_tid'"), "0");
    const char *missing[4];
    assert_int_equal(spoor_sqlite_writer_missing(w, missing, 4), 1);
    assert_string_equal(missing[0], "nope");
    spoor_sqlite_writer_free(w);
}

/* Rows of values whose types differ from their columns' declared types
 * (INTEGER n, REAL r, TEXT s from the first batch), mirrored in oracle
 * through SQLite's own INSERT. */
static const char *const n_texts[] = {"12", "1.5", " 7 ", "abc", "1e3", "9223372036854775808", "-0", "3.0", ""};
static const double s_reals[] = {0.1, 1e20, 2.0, -1e-5, 1e15, 123456789.125, 1.0 / 0.0, -2.5e-300, 7};
static const double n_reals[] = {3.0, 2.5, 1e300, -0.0, 9.2233720368547758e18, -4.0, 0.5, 1e-9, 12};
static const char *const r_texts[] = {"4", "x", " 2.5 ", "1e2", "+8", ".5", "5.", "-", "0x10"};
static const int64_t ints[] = {42, -1, INT64_MAX, INT64_MIN + 1, 0, 1, 255, -129, 1 << 23};
enum { NAFF = 9 };

static void bind_row(sqlite3_stmt *s, int which, int i)
{
    if (which == 0) {           /* batch 2: n text, r int, s int */
        sqlite3_bind_text(s, 1, n_texts[i], -1, SQLITE_STATIC);
        sqlite3_bind_int64(s, 2, ints[i]);
        sqlite3_bind_int64(s, 3, ints[NAFF - 1 - i]);
    } else {                    /* batch 3: n real, r text, s real */
        sqlite3_bind_double(s, 1, n_reals[i]);
        sqlite3_bind_text(s, 2, r_texts[i], -1, SQLITE_STATIC);
        sqlite3_bind_double(s, 3, s_reals[i]);
    }
}

static struct spoor_table *affinity_batch(int which)
{
    struct spoor_table *t = spoor_table_new();
    spoor_table_add_source(t, "a.pfw");
    for (int i = 0; i < NAFF; i++) {
        size_t r = fx_row(t, i, 1, "aff", "x", 1, 1, 'X');
        if (which == 0) {
            fx_str(t, r, "n", n_texts[i]);
            fx_int(t, r, "r", ints[i]);
            fx_int(t, r, "s", ints[NAFF - 1 - i]);
        } else {
            fx_real(t, r, "n", n_reals[i]);
            fx_str(t, r, "r", r_texts[i]);
            fx_real(t, r, "s", s_reals[i]);
        }
    }
    return t;
}

static void sqlite_affinity_as_sqlite_inserts(void **state)
{
    struct spoor_table *first = spoor_table_new();
    spoor_table_add_source(first, "a.pfw");
    size_t r = fx_row(first, 0, 1, "typed", "x", 1, 1, 'X');
    fx_int(first, r, "n", 5);
    fx_real(first, r, "r", 0.5);
    fx_str(first, r, "s", "x");
    struct spoor_table *batches[3] = {first, affinity_batch(0), affinity_batch(1)};
    const char *path = export_batches("affinity.db", NULL, 0, NULL, batches, 3);

    sqlite3 *oracle, *db;
    assert_int_equal(sqlite3_open(":memory:", &oracle), SQLITE_OK);
    assert_int_equal(sqlite3_exec(oracle, "CREATE TABLE o(n INTEGER, r REAL, s TEXT)", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_stmt *ins;
    assert_int_equal(sqlite3_prepare_v2(oracle, "INSERT INTO o VALUES(?,?,?)", -1, &ins, NULL), SQLITE_OK);
    for (int which = 0; which < 2; which++)
        for (int i = 0; i < NAFF; i++) {
            bind_row(ins, which, i);
            assert_int_equal(sqlite3_step(ins), SQLITE_DONE);
            sqlite3_reset(ins);
        }
    sqlite3_finalize(ins);
    assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    static const char pick[] = "SELECT typeof(n) || ':' || quote(n) || ' ' || typeof(r) || ':' || quote(r) || ' ' || "
                               "typeof(s) || ':' || quote(s) FROM %s ORDER BY rowid";
    char sql[512];
    sqlite3_stmt *a, *b;
    snprintf(sql, sizeof sql, pick, "o");
    assert_int_equal(sqlite3_prepare_v2(oracle, sql, -1, &a, NULL), SQLITE_OK);
    snprintf(sql, sizeof sql, pick, "events WHERE name = 'aff'");
    assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &b, NULL), SQLITE_OK);
    for (int i = 0; i < 2 * NAFF; i++) {
        assert_int_equal(sqlite3_step(a), SQLITE_ROW);
        assert_int_equal(sqlite3_step(b), SQLITE_ROW);
        assert_string_equal((const char *)sqlite3_column_text(b, 0), (const char *)sqlite3_column_text(a, 0));
    }
    assert_int_equal(sqlite3_step(b), SQLITE_DONE);
    sqlite3_finalize(a);
    sqlite3_finalize(b);
    sqlite3_close(oracle);
    sqlite3_close(db);
}

/* Batch 3 (given twice): args the earlier batches registered, a NULL tail,
 * a file through the lookups; its rows 0 and 2 are selected. */
static struct spoor_table *third_batch(void)
{
    struct spoor_table *t = spoor_table_new();
    spoor_table_add_source(t, "b.pfw");
    size_t r = fx_row(t, 5000, 10, "open", "POSIX", 10, 13, 'X');
    fx_int(t, r, "size", 300);
    fx_real(t, r, "ratio", 1.5);
    fx_str(t, r, "fhash", "77");
    fx_str(t, r, "mode", tricky);
    fx_row(t, FX_NULL, FX_NULL, NULL, NULL, FX_NULL, FX_NULL, 0);
    r = fx_row(t, 6000, 20, "close", "POSIX", 11, 14, 'X');
    fx_int(t, r, "size", 1);
    t->line[r] = 1000000;
    return t;
}

/* Every row of the events table, each value quoted (malloc'd). */
static char *dump(const char *path)
{
    sqlite3 *db;
    assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    sqlite3_stmt *s;
    assert_int_equal(sqlite3_prepare_v2(db, "SELECT * FROM events ORDER BY rowid", -1, &s, NULL), SQLITE_OK);
    size_t len = 0, cap = 4096;
    char *out = malloc(cap);
    out[0] = '\0';
    while (sqlite3_step(s) == SQLITE_ROW)
        for (int c = 0; c < sqlite3_column_count(s); c++) {
            const char *v = (const char *)sqlite3_column_text(s, c);
            char cell[512];
            int n = snprintf(cell, sizeof cell, "%d:%s|", sqlite3_column_type(s, c), v ? v : "NULL");
            if (len + (size_t)n + 1 > cap)
                out = realloc(out, cap *= 2);
            memcpy(out + len, cell, (size_t)n + 1);
            len += (size_t)n;
        }
    sqlite3_finalize(s);
    sqlite3_close(db);
    return out;
}

/* Writes batches 1, 2, 3, 3 (rows 0 and 2 of each 3); with prepare, as the
 * load's workers would: batch 1 before anything is written (its args have
 * no columns yet: encoded in order instead), the two batches 3 out of order
 * once their args have columns. */
static const char *export_prepared(const char *name, const char *const *cols, size_t ncols, bool prepare)
{
    static const uint32_t sel[] = {0, 2};
    struct spoor_table *b[4] = {first_batch(), second_batch(), third_batch(), third_batch()};
    const uint32_t *sel_of[4] = {NULL, NULL, sel, sel};
    size_t n_of[4] = {0, 0, 2, 2};
    const char *path = db_path(name);
    struct spoor_sqlite_writer *w;
    struct spoor_error err = {0};
    assert_int_equal(spoor_sqlite_writer_open(&w, path, path, cols, ncols, NULL, &err), SPOOR_OK);
    struct spoor_resolver *res = spoor_resolver_new();
    for (int i = 0; i < 4; i++) {
        if (prepare && i == 0)
            assert_int_equal(spoor_sqlite_writer_prepare(w, 1, b[0], NULL, 0), SPOOR_OK);
        if (prepare && i == 2) {
            assert_int_equal(spoor_sqlite_writer_prepare(w, 0, b[3], sel, 2), SPOOR_OK);
            assert_int_equal(spoor_sqlite_writer_prepare(w, 1, b[2], sel, 2), SPOOR_OK);
        }
        assert_int_equal(spoor_sqlite_writer_write(w, b[i], spoor_resolver_resolve(res, b[i]), sel_of[i], n_of[i], &err),
                         SPOOR_OK);
    }
    assert_int_equal(spoor_sqlite_writer_finish(w, &(struct spoor_load_result){0}, &err), SPOOR_OK);
    spoor_sqlite_writer_free(w);
    for (int i = 0; i < 4; i++)
        spoor_table_free(b[i]);
    spoor_resolver_free(res);
    check_file(path);
    return path;
}

/* Records encoded ahead on workers equal records encoded in input order,
 * with the deferred columns (line, file, host) at the default place, first,
 * between others and last. */
static void sqlite_prepared_equals_in_order(void **state)
{
    static const char *const firsts[] = {"line", "ts", "mode", "file", "size"};
    static const char *const between[] = {"ts", "file", "size", "line", "host", "name", "ratio"};
    static const char *const lasts[] = {"name", "pid", "tid", "line"};
    const struct {
        const char *const *cols;
        size_t n;
    } cases[] = {{NULL, 0}, {firsts, 5}, {between, 7}, {lasts, 4}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *want = dump(export_prepared("in-order.db", cases[i].cols, cases[i].n, false));
        char *got = dump(export_prepared("prepared.db", cases[i].cols, cases[i].n, true));
        assert_string_equal(got, want);
        assert_non_null(strstr(want, "1000000"));
        free(want);
        free(got);
    }
}

/* A batch of rows whose ts, pid and tid are given (FX_NULL: NULL). */
static struct spoor_table *keyed_batch(const int64_t *ts, const int64_t *pid, const int64_t *tid, size_t n)
{
    struct spoor_table *t = spoor_table_new();
    spoor_table_add_source(t, "a.pfw");
    for (size_t i = 0; i < n; i++)
        fx_row(t, ts[i], 1, i % 3 ? "b" : "a", "x", pid[i], tid[i], 'X');
    return t;
}

/* The rowids in the order an index gives them, and in the order SQLite
 * sorts the table itself (ties by rowid, as in an index). */
static void same_order(const char *path, const char *index, const char *by)
{
    char sql[256], want[512];
    snprintf(sql, sizeof sql, "SELECT group_concat(rowid) FROM (SELECT rowid FROM events NOT INDEXED ORDER BY %s, rowid)",
             by);
    snprintf(want, sizeof want, "%s", query(path, sql));
    snprintf(sql, sizeof sql, "SELECT group_concat(rowid) FROM (SELECT rowid FROM events INDEXED BY %s ORDER BY %s)",
             index, by);
    assert_string_equal(query(path, sql), want);
}

/* The indexes hold their rows in SQLite's order whichever way the keys are
 * sorted: ts offsets that all divide by 1000 (negative values too) or not,
 * ts spanning 64 bits, (pid, tid) spanning too much to pack into one key
 * (two sorts). */
static void sqlite_index_order(void **state)
{
    enum { N = 8 };
    static const int64_t common[N] = {-1000000, 5000, -3000, 1000, FX_NULL, 1000, -3000, 2000};
    static const int64_t uneven[N] = {-7, 5000, -3000, 1001, FX_NULL, 1000, 2000, 3};
    static const int64_t wide[N] = {5000, -3000, 1001, FX_NULL, 1000, -3000, 2000, INT64_MIN + 7};
    static const int64_t pid[N] = {INT64_MAX, INT64_MIN + 1, 5, 5, FX_NULL, 0, 5, 5};
    static const int64_t tid[N] = {1, INT64_MAX, -7, 3, 2, INT64_MIN + 1, 3, FX_NULL};
    const int64_t *ts_of[] = {common, uneven, wide};
    for (int i = 0; i < 3; i++) {
        struct spoor_table *batches[2] = {keyed_batch(ts_of[i], pid, tid, N), keyed_batch(ts_of[i], tid, pid, N)};
        const char *path = export_batches("order.db", NULL, 0, NULL, batches, 2);
        same_order(path, "events_ts", "ts");
        same_order(path, "events_pid_tid", "pid, tid");
        same_order(path, "events_name", "name");
    }
}

/* Integers of every width a record stores (1, 2, 3, 4, 6 and 8 bytes, and
 * 0 and 1 without a body), either side of each boundary, read back as
 * written. */
static void sqlite_integer_widths(void **state)
{
    enum { BITS = 16, N = 4 * BITS + 5 };
    static const int bits[BITS] = {7, 8, 15, 16, 23, 24, 31, 32, 39, 40, 47, 48, 55, 56, 61, 62};
    int64_t ts[N], one[N];
    size_t n = 0;
    for (int b = 0; b < BITS; b++) {
        int64_t p = (int64_t)1 << bits[b];
        ts[n++] = p - 1;
        ts[n++] = p;
        ts[n++] = -p;
        ts[n++] = -p - 1;
    }
    const int64_t ends[] = {0, 1, -1, INT64_MAX, INT64_MIN + 1};
    for (size_t i = 0; i < 5; i++)
        ts[n++] = ends[i];
    for (size_t i = 0; i < N; i++)
        one[i] = 1;
    struct spoor_table *batch = keyed_batch(ts, one, one, N);
    const char *path = export_batches("widths.db", NULL, 0, NULL, &batch, 1);
    for (size_t i = 0; i < N; i++) {
        char sql[64], want[32];
        snprintf(sql, sizeof sql, "SELECT ts FROM events WHERE rowid = %zu", i + 1);
        snprintf(want, sizeof want, "%lld", (long long)ts[i]);
        assert_string_equal(query(path, sql), want);
    }
    assert_string_equal(query(path, "PRAGMA integrity_check"), "ok");
    same_order(path, "events_ts", "ts");
}

static void sqlite_no_rows(void **state)
{
    struct spoor_table *empty = spoor_table_new();
    spoor_table_add_source(empty, "a.pfw");
    const char *db = export_batches("empty.db", NULL, 0, NULL, &empty, 1);
    assert_string_equal(query(db, "SELECT count(*) FROM events"), "0");
    assert_string_equal(query(db, "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name LIKE 'events%'"),
                        "3");
}

static void sqlite_open_fails_in_missing_dir(void **state)
{
    char path[512];
    snprintf(path, sizeof path, "%s/no/such/dir/x.db", testutil_tmpdir());
    struct spoor_sqlite_writer *w;
    struct spoor_error err = {0};
    assert_int_equal(spoor_sqlite_writer_open(&w, path, path, NULL, 0, NULL, &err), SPOOR_EIO);
    assert_non_null(strstr(err.msg, "x.db"));
    spoor_sqlite_writer_free(w);
}

/* The Perfetto text of both batches; with cols, explicit columns. */
static char *export_trace(const char *const *cols, size_t ncols)
{
    char *text;
    size_t len;
    FILE *fp = open_memstream(&text, &len);
    struct spoor_perfetto_writer *w = spoor_perfetto_writer_new(fp, NULL, cols, ncols);
    struct spoor_error err = {0};
    struct spoor_resolver *res = spoor_resolver_new();
    struct spoor_table *batches[2] = {first_batch(), second_batch()};
    for (int i = 0; i < 2; i++)
        assert_int_equal(spoor_perfetto_writer_write(w, batches[i], spoor_resolver_resolve(res, batches[i]), NULL, 0,
                                                     &err),
                         SPOOR_OK);
    assert_int_equal(spoor_perfetto_writer_finish(w, &err), SPOOR_OK);
    spoor_perfetto_writer_free(w);
    fclose(fp);
    for (int i = 0; i < 2; i++)
        spoor_table_free(batches[i]);
    spoor_resolver_free(res);
    return text;
}

static const cJSON *event_named(const cJSON *all, const char *name)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, all) {
        const cJSON *n = cJSON_GetObjectItemCaseSensitive(e, "name");
        if (cJSON_IsString(n) && !strcmp(n->valuestring, name))
            return e;
    }
    fail_msg("no event named %s", name);
    return NULL;
}

static void perfetto_events(void **state)
{
    char *text = export_trace(NULL, 0);
    /* One event per line; exact µs with the ns as decimals. */
    assert_memory_equal(text, "[\n{", 3);
    assert_non_null(strstr(text, "},\n{\"ph\":\"X\",\"name\":\"read\",\"cat\":\"POSIX\",\"pid\":10,\"tid\":11,"));
    assert_non_null(strstr(text, "\"ts\":1.5,\"dur\":2.001,"));
    assert_non_null(strstr(text, "\"ts\":-2.5,\"dur\":0,"));
    cJSON *all = cJSON_Parse(text);
    assert_true(cJSON_IsArray(all));
    const cJSON *read = event_named(all, "read");
    assert_int_equal(cJSON_GetObjectItem(read, "pid")->valueint, 10);
    assert_int_equal(cJSON_GetObjectItem(read, "tid")->valueint, 11);
    assert_string_equal(cJSON_GetObjectItem(read, "cat")->valuestring, "POSIX");
    const cJSON *args = cJSON_GetObjectItem(read, "args");
    assert_int_equal(cJSON_GetObjectItem(args, "size")->valueint, 4096);
    assert_string_equal(cJSON_GetObjectItem(args, "file")->valuestring, "/data/f");
    assert_string_equal(cJSON_GetObjectItem(args, "host")->valuestring, "node1");
    /* Escaped strings, invalid UTF-8 replaced. */
    const cJSON *odd = event_named(all, tricky_fixed);
    assert_string_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(odd, "args"), "mode")->valuestring, tricky_fixed);
    assert_null(cJSON_GetObjectItem(odd, "dur"));
    /* No ph: X with a dur. An args key "name" stays an arg. */
    const cJSON *write = event_named(all, "write");
    assert_string_equal(cJSON_GetObjectItem(write, "ph")->valuestring, "X");
    assert_string_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(write, "args"), "name")->valuestring, "inner");
    cJSON_Delete(all);
    free(text);
}

static void perfetto_names_from_lookups(void **state)
{
    char *text = export_trace(NULL, 0);
    cJSON *all = cJSON_Parse(text);
    const cJSON *proc = event_named(all, "process_name");
    assert_string_equal(cJSON_GetObjectItem(proc, "ph")->valuestring, "M");
    assert_int_equal(cJSON_GetObjectItem(proc, "pid")->valueint, 10);
    assert_string_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(proc, "args"), "name")->valuestring, "rank 0");
    /* thread_name: the trace's own row, then one from the lookup with its pid. */
    int threads = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, all) {
        const cJSON *n = cJSON_GetObjectItem(e, "name");
        if (!strcmp(n->valuestring, "thread_name")) {
            threads++;
            assert_int_equal(cJSON_GetObjectItem(e, "pid")->valueint, 10);
            assert_int_equal(cJSON_GetObjectItem(e, "tid")->valueint, 11);
        }
    }
    assert_int_equal(threads, 2);
    assert_int_equal(cJSON_GetArraySize(all), 6);
    cJSON_Delete(all);
    free(text);
}

static void perfetto_explicit_columns(void **state)
{
    static const char *const cols[] = {"name", "size", "host", "nope"};
    char *text = export_trace(cols, 4);
    cJSON *all = cJSON_Parse(text);
    const cJSON *args = cJSON_GetObjectItem(event_named(all, "read"), "args");
    assert_int_equal(cJSON_GetArraySize(args), 2);
    assert_int_equal(cJSON_GetObjectItem(args, "size")->valueint, 4096);
    assert_string_equal(cJSON_GetObjectItem(args, "host")->valuestring, "node1");
    /* Event fields stay whatever the list says. */
    assert_non_null(cJSON_GetObjectItem(event_named(all, "read"), "ts"));
    cJSON_Delete(all);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sqlite_types_and_nulls),
        cmocka_unit_test(sqlite_only_source_is_generated),
        cmocka_unit_test(sqlite_columns_of_later_batches),
        cmocka_unit_test(sqlite_lookups_and_meta),
        cmocka_unit_test(sqlite_text_is_valid_utf8),
        cmocka_unit_test(sqlite_explicit_columns),
        cmocka_unit_test(sqlite_affinity_as_sqlite_inserts),
        cmocka_unit_test(sqlite_prepared_equals_in_order),
        cmocka_unit_test(sqlite_index_order),
        cmocka_unit_test(sqlite_integer_widths),
        cmocka_unit_test(sqlite_no_rows),
        cmocka_unit_test(sqlite_open_fails_in_missing_dir),
        cmocka_unit_test(perfetto_events),
        cmocka_unit_test(perfetto_names_from_lookups),
        cmocka_unit_test(perfetto_explicit_columns),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
