/* The SQLite file writer on its own: varints, tables of 0, 1 and many rows,
 * pages filled exactly, records spilling to overflow pages, an index with
 * long keys, and a second index written at the same time on another thread
 * (pages of both interleave; numbers left over go on the freelist, which
 * integrity_check counts). Every file must pass SQLite's integrity_check and
 * quick_check and read back the values written. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <pthread.h>
#include <sqlite3.h>

#include "out/sqlite_file/sqlite_file.h"
#include "testutil.h"

static void varints(void **state)
{
    static const struct {
        uint64_t v;
        size_t len;
        uint8_t first, last;
    } cases[] = {
        {0, 1, 0x00, 0x00},        {0x7f, 1, 0x7f, 0x7f},          {0x80, 2, 0x81, 0x00},
        {0x3fff, 2, 0xff, 0x7f},   {0x4000, 3, 0x81, 0x00},        {0x1fffff, 3, 0xff, 0x7f},
        {0x200000, 4, 0x81, 0x00}, {UINT64_C(1) << 56, 9, 0x80, 0x00},
        {UINT64_MAX, 9, 0xff, 0xff},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint8_t buf[9];
        size_t n = sqlf_varint(buf, cases[i].v);
        assert_int_equal(n, cases[i].len);
        assert_int_equal(sqlf_varint_len(cases[i].v), n);
        assert_int_equal(buf[0], cases[i].first);
        assert_int_equal(buf[n - 1], cases[i].last);
    }
}

/* The text of row i, len bytes. */
static char *row_text(size_t i, size_t len)
{
    char *s = malloc(len + 1);
    for (size_t k = 0; k < len; k++)
        s[k] = (char)('a' + (i * 7 + k) % 26);
    s[len] = '\0';
    return s;
}

/* t(k INTEGER, x TEXT, r REAL, z) with rows i = 1..n: k = i * mult - big,
 * x of length len(i), r = i / 4, z NULL; an index on x (text, BINARY). */
struct spec {
    size_t n;
    size_t (*len)(size_t i);
    int64_t mult;
    bool two_indexes;           /* also t_k on k, written concurrently */
};

struct sorted {
    char **text;
    uint32_t *rows;
};

static void text_record(void *ctx, size_t i, struct sqlf_buf *out)
{
    struct sorted *s = ctx;
    struct sqlf_record rec = {0};
    uint32_t row = s->rows[i];
    sqlf_record_text(&rec, s->text[row], strlen(s->text[row]));
    sqlf_record_int(&rec, row + 1);
    sqlf_record_finish(&rec, out);
    sqlf_record_free(&rec);
}

/* The t_k entry i: k is increasing when mult > 0, so rows are in order. */
static void int_record(void *ctx, size_t i, struct sqlf_buf *out)
{
    const struct spec *sp = ctx;
    size_t row = sp->mult > 0 ? i : sp->n - 1 - i;
    struct sqlf_record rec = {0};
    sqlf_record_int(&rec, (int64_t)(row + 1) * sp->mult - 3);
    sqlf_record_int(&rec, (int64_t)row + 1);
    sqlf_record_finish(&rec, out);
    sqlf_record_free(&rec);
}

struct int_index {
    struct sqlf_file *f;
    const struct spec *sp;
    uint32_t root;
};

static void *write_int_index(void *arg)
{
    struct int_index *x = arg;
    x->root = sqlf_index_write(x->f, x->sp->n, int_record, (void *)x->sp);
    return NULL;
}

static char **sort_text;
static int by_text(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    int c = strcmp(sort_text[x], sort_text[y]);
    return c ? c : (x > y) - (x < y);
}

static const char *write_db(const char *name, const struct spec *sp)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", testutil_tmpdir(), name);
    struct sqlf_file f;
    struct spoor_error err = {0};
    assert_int_equal(sqlf_file_open(&f, path, path, &err), SPOOR_OK);
    struct sqlf_table t;
    sqlf_table_start(&t, &f, false);
    struct sqlf_record rec = {0};
    struct sqlf_buf bytes = {0};
    char **text = calloc(sp->n + 1, sizeof *text);
    for (size_t i = 0; i < sp->n; i++) {
        text[i] = row_text(i, sp->len(i));
        sqlf_record_clear(&rec);
        sqlf_record_int(&rec, (int64_t)(i + 1) * sp->mult - 3);
        sqlf_record_text(&rec, text[i], strlen(text[i]));
        sqlf_record_real(&rec, (double)(i + 1) / 4);
        sqlf_record_null(&rec);
        sqlf_record_finish(&rec, &bytes);
        sqlf_table_add(&t, i + 1, bytes.p, bytes.len);
    }
    struct sqlf_object objects[3] = {
        {.type = "table", .name = "t", .table = "t", .sql = "CREATE TABLE t(k INTEGER, x TEXT, r REAL, z)",
         .root = sqlf_table_finish(&t, NULL)},
        {.type = "index", .name = "t_x", .table = "t", .sql = "CREATE INDEX t_x ON t(x)"},
        {.type = "index", .name = "t_k", .table = "t", .sql = "CREATE INDEX t_k ON t(k)"},
    };
    struct sorted s = {.text = text, .rows = malloc((sp->n + 1) * sizeof *s.rows)};
    for (size_t i = 0; i < sp->n; i++)
        s.rows[i] = (uint32_t)i;
    sort_text = text;
    qsort(s.rows, sp->n, sizeof *s.rows, by_text);
    struct int_index k = {.f = &f, .sp = sp};
    pthread_t thread;
    if (sp->two_indexes)
        assert_int_equal(pthread_create(&thread, NULL, write_int_index, &k), 0);
    objects[1].root = sqlf_index_write(&f, sp->n, text_record, &s);
    if (sp->two_indexes) {
        assert_int_equal(pthread_join(thread, NULL), 0);
        objects[2].root = k.root;
    }
    assert_int_equal(sqlf_finish(&f, objects, sp->two_indexes ? 3 : 2, &err), SPOOR_OK);
    for (size_t i = 0; i < sp->n; i++)
        free(text[i]);
    free(text);
    free(s.rows);
    sqlf_record_free(&rec);
    sqlf_buf_free(&bytes);
    return path;
}

static sqlite3_int64 int_of(sqlite3 *db, const char *sql)
{
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK)
        fail_msg("%s: %s", sql, sqlite3_errmsg(db));
    assert_int_equal(sqlite3_step(s), SQLITE_ROW);
    sqlite3_int64 v = sqlite3_column_int64(s, 0);
    sqlite3_finalize(s);
    return v;
}

static void check_text(sqlite3 *db, const char *sql, const char *want)
{
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK)
        fail_msg("%s: %s", sql, sqlite3_errmsg(db));
    assert_int_equal(sqlite3_step(s), SQLITE_ROW);
    assert_string_equal((const char *)sqlite3_column_text(s, 0), want);
    sqlite3_finalize(s);
}

/* integrity_check and quick_check say ok; every row reads back. */
static void check_db(const char *path, const struct spec *sp)
{
    sqlite3 *db;
    assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    check_text(db, "PRAGMA integrity_check", "ok");
    check_text(db, "PRAGMA quick_check", "ok");
    assert_int_equal(int_of(db, "SELECT count(*) FROM t"), (sqlite3_int64)sp->n);
    sqlite3_stmt *s;
    assert_int_equal(sqlite3_prepare_v2(db, "SELECT rowid, k, x, r, z IS NULL FROM t", -1, &s, NULL), SQLITE_OK);
    for (size_t i = 0; i < sp->n; i++) {
        assert_int_equal(sqlite3_step(s), SQLITE_ROW);
        assert_int_equal(sqlite3_column_int64(s, 0), (sqlite3_int64)i + 1);
        assert_int_equal(sqlite3_column_int64(s, 1), (sqlite3_int64)(i + 1) * sp->mult - 3);
        char *want = row_text(i, sp->len(i));
        assert_string_equal((const char *)sqlite3_column_text(s, 2), want);
        free(want);
        assert_true(sqlite3_column_double(s, 3) == (double)(i + 1) / 4);
        assert_int_equal(sqlite3_column_int(s, 4), 1);
    }
    assert_int_equal(sqlite3_step(s), SQLITE_DONE);
    sqlite3_finalize(s);
    /* The index serves an ordered scan with the same rows. */
    assert_int_equal(int_of(db, "SELECT count(*) FROM t INDEXED BY t_x WHERE x >= ''"), (sqlite3_int64)sp->n);
    if (sp->two_indexes) {
        assert_int_equal(int_of(db, "SELECT count(*) FROM t INDEXED BY t_k WHERE k >= -9223372036854775807"),
                         (sqlite3_int64)sp->n);
    }
    sqlite3_close(db);
}

static void run(const char *name, const struct spec *sp)
{
    check_db(write_db(name, sp), sp);
}

static size_t short_text(size_t i)
{
    return i % 13;
}

/* A 69-byte record (header 4, a 1-byte int, 56 text bytes, a real) in a
 * 71-byte cell (+2 for its pointer): 56 cells fill a leaf's 4088 bytes. */
static size_t exact_text(size_t i)
{
    (void)i;
    return 56;
}

/* Around the local payload limits, and far beyond a page. */
static size_t huge_text(size_t i)
{
    static const size_t lens[] = {470, 480, 490, 1000, 1010, 4030, 4040, 4050, 4060, 4100, 8200, 100000, 3};
    return lens[i % (sizeof lens / sizeof lens[0])];
}

static void zero_rows(void **state)
{
    run("zero.db", &(struct spec){0, short_text, 1, false});
}

static void one_row(void **state)
{
    run("one.db", &(struct spec){1, short_text, 1, false});
}

static void many_rows(void **state)
{
    run("many.db", &(struct spec){50000, short_text, 1000003, false});
}

static void pages_filled_exactly(void **state)
{
    /* k = -4..-115: one byte each; rowids < 128: one byte each. */
    run("exact.db", &(struct spec){112, exact_text, -1, false});
}

static void overflow_pages(void **state)
{
    run("huge.db", &(struct spec){60, huge_text, 1, false});
}

static void concurrent_indexes(void **state)
{
    run("two.db", &(struct spec){50000, short_text, -1000003, true});
    run("two-huge.db", &(struct spec){600, huge_text, 7, true});
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(varints),
        cmocka_unit_test(zero_rows),
        cmocka_unit_test(one_row),
        cmocka_unit_test(many_rows),
        cmocka_unit_test(pages_filled_exactly),
        cmocka_unit_test(overflow_pages),
        cmocka_unit_test(concurrent_indexes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
