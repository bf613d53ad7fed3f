/* The --where expression language: every operator, SQL null semantics, LIKE
 * and GLOB edge cases, precedence, literals, resolved file/host, errors with
 * positions, rebinding across tables with different string pools, and block
 * boundaries. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "events_fixture.h"
#include "ops/strmatch.h"
#include "spoor/expr.h"
#include "spoor/table.h"

static struct spoor_table *fixture(void)
{
    struct spoor_table *t = spoor_table_new();
    spoor_table_add_source(t, "/traces/run1.pfw.gz");
    size_t r;
    r = fx_row(t, 1000, 10, "open", "POSIX", 1, 1, 'X');
    fx_int(t, r, "size", 4096);
    fx_str(t, r, "fhash", "111");
    fx_int(t, r, "hhash", 42);
    fx_str(t, r, "qsize", "4096");
    r = fx_row(t, 2000, 20, "read", "POSIX", 1, 2, 'X');
    fx_int(t, r, "size", 100);
    fx_str(t, r, "fhash", "111");
    fx_str(t, r, "qsize", "abc");
    r = fx_row(t, 3000, FX_NULL, "write", "STDIO", 2, 3, 'B');
    fx_real(t, r, "ratio", 0.5);
    fx_str(t, r, "fname", "/tmp/x.log");
    fx_str(t, r, "qsize", "123456789012345678901234567890");
    r = fx_row(t, FX_NULL, 5, NULL, "app", FX_NULL, FX_NULL, 'i');
    fx_str(t, r, "note", "it's, \"quoted\"");
    fx_str(t, r, "hostname", "local");
    r = fx_row(t, 5000, 50, "Open", "POSIX", 3, 3, 'X');
    fx_int(t, r, "size", 0);
    fx_str(t, r, "fhash", "222");
    fx_real(t, r, "ratio", -1.25);
    r = fx_row(t, 6000, 60, "100%_done", "app", 4, 4, 'C');
    fx_str(t, r, "note", "");
    fx_lookup(t, SPOOR_LOOKUP_FILE, "111", "/data/a.h5");
    fx_lookup(t, SPOOR_LOOKUP_HOST, "42", "node1");
    return t;
}

/* The matching rows of t as "0,2,5", or "error: <message>". */
static const char *run(const struct spoor_table *t, const struct spoor_resolved *res, const char *text)
{
    static char out[1200];
    struct spoor_error err = {0};
    struct spoor_expr *e;
    if (spoor_expr_compile(text, &e, &err) != SPOOR_OK) {
        snprintf(out, sizeof out, "error: %s", err.msg);
        return out;
    }
    struct spoor_expr_ctx *c = spoor_expr_ctx_new(e);
    spoor_expr_bind(c, t, res);
    uint32_t *sel = malloc((t->nrows + 1) * sizeof *sel);
    size_t n = spoor_expr_select(c, sel);
    size_t len = 0;
    out[0] = '\0';
    for (size_t i = 0; i < n && len < sizeof out - 16; i++)
        len += (size_t)snprintf(out + len, sizeof out - len, "%s%u", i ? "," : "", sel[i]);
    free(sel);
    spoor_expr_ctx_free(c);
    spoor_expr_free(e);
    return out;
}

static struct spoor_table *T;

static int setup(void **state)
{
    T = fixture();
    return 0;
}

static int teardown(void **state)
{
    spoor_table_free(T);
    return 0;
}

#define WHERE(text, expected) assert_string_equal(run(T, NULL, text), expected)

static void test_comparisons(void **state)
{
    WHERE("dur = 20", "1");
    WHERE("dur == 20", "1");
    WHERE("dur != 20", "0,3,4,5");
    WHERE("dur <> 20", "0,3,4,5");
    WHERE("dur < 20", "0,3");
    WHERE("dur <= 20", "0,1,3");
    WHERE("dur > 20", "4,5");
    WHERE("dur >= 20", "1,4,5");
    WHERE("20 < dur", "4,5");
    WHERE("20 >= dur", "0,1,3");
    WHERE("dur > 19.5", "1,4,5");
    WHERE("dur = 20.0", "1");
    WHERE("ratio < 0", "4");
    WHERE("ratio >= -1.25", "2,4");
    WHERE("size > 99", "0,1");
    WHERE("pid = tid", "0,4,5");
    WHERE("dur > ts", "");
    WHERE("line = 3", "2");
}

static void test_null_semantics(void **state)
{
    /* A comparison with null is unknown, and NOT unknown is still unknown. */
    WHERE("NOT dur > 15", "0,3");
    WHERE("NOT (dur > 15)", "0,3");
    WHERE("dur > 15 OR dur IS NULL", "1,2,4,5");
    WHERE("dur IS NULL", "2");
    WHERE("dur IS NOT NULL", "0,1,3,4,5");
    WHERE("size IS NULL", "2,3,5");
    WHERE("name IS NULL", "3");
    WHERE("nosuch IS NULL", "0,1,2,3,4,5");
    WHERE("nosuch = 1", "");
    WHERE("NOT nosuch = 1", "");
    WHERE("dur = NULL", "");
    WHERE("NOT dur = NULL", "");
    WHERE("dur != NULL", "");
    /* unknown AND false is false; unknown OR true is true. */
    WHERE("NOT (dur > 100 AND ts > 0)", "0,1,3,4,5");
    WHERE("NOT (dur > 1 OR ts > 0)", "");
    WHERE("pid IN (1, NULL)", "0,1");
    WHERE("pid NOT IN (1, NULL)", "");
    WHERE("pid NOT IN (1, 2)", "4,5");
    /* An empty string in an args column is a value, not null. */
    WHERE("note = ''", "5");
    WHERE("note IS NOT NULL", "3,5");
}

static void test_logic_and_precedence(void **state)
{
    WHERE("cat = 'POSIX' AND name = 'open'", "0");
    WHERE("name = 'read' OR name = 'write' AND pid = 1", "1");
    WHERE("(name = 'read' OR name = 'write') AND pid = 1", "1");
    WHERE("NOT name = 'read' AND cat = 'POSIX'", "0,4");
    WHERE("NOT NOT name = 'read'", "1");
    WHERE("dur * 2 + 1 = 21", "0");
    WHERE("1 + dur * 2 = 21", "0");
    WHERE("(1 + dur) * 2 = 22", "0");
    WHERE("-dur < -25", "4,5");
    WHERE("dur - -5 = 15", "0");
    WHERE("dur / 3 = 3", "0");
    WHERE("dur % 7 = 3", "0");
    WHERE("ratio * 2 = 1", "2");
    WHERE("dur / 0 IS NULL", "0,1,2,3,4,5");
    WHERE("dur BETWEEN 10 AND 20", "0,1");
    WHERE("dur NOT BETWEEN 10 AND 20", "3,4,5");
    WHERE("dur BETWEEN 10 AND 20 AND pid = 1", "0,1");
    WHERE("1 = 1", "0,1,2,3,4,5");
    WHERE("1 = 2 OR 2 + 2 = 4", "0,1,2,3,4,5");
}

static void test_strings(void **state)
{
    WHERE("name = 'open'", "0");
    WHERE("name != 'open'", "1,2,4,5");
    WHERE("name = 'nothing'", "");
    WHERE("name != 'nothing'", "0,1,2,4,5");
    WHERE("name > 'p'", "1,2");
    WHERE("name < 'Z'", "4,5");
    WHERE("note = 'it''s, \"quoted\"'", "3");
    WHERE("name IN ('open', 'read', 'nope')", "0,1");
    WHERE("name NOT IN ('open', 'read')", "2,4,5");
    WHERE("cat = 'app' AND name IS NULL", "3");
    WHERE("\"size\" = 100", "1");
    WHERE("args.size = 100", "1");
    WHERE("\"args.size\" = 0", "4");
    WHERE("source = '/traces/run1.pfw.gz'", "0,1,2,3,4,5");
    WHERE("source LIKE '%run2%'", "");
}

static void test_numbers_meet_strings(void **state)
{
    /* A string spelling a number compares as that number, exactly at any width. */
    WHERE("qsize = 4096", "0");
    WHERE("qsize > 1000", "0,1,2"); /* "abc" is a string: after every number */
    WHERE("qsize = 123456789012345678901234567890", "2");
    WHERE("qsize = 123456789012345678901234567891", "");
    WHERE("qsize > 123456789012345678901234567889", "1,2");
    WHERE("qsize IN (4096, 'abc')", "0,1");
    /* Otherwise a number sorts before a string. */
    WHERE("qsize > 1e40", "1");
    WHERE("pid = '1'", "0,1");
    WHERE("pid = 'abc'", "");
    WHERE("pid != 'abc'", "0,1,2,4,5");
    WHERE("pid < 'abc'", "0,1,2,4,5");
    WHERE("size < 123456789012345678901234567890", "0,1,4");
    WHERE("size > -123456789012345678901234567890", "0,1,4");
    WHERE("pid = -9223372036854775808", "");
    WHERE("size LIKE '40%'", "0");
    WHERE("ratio LIKE '-1.25'", "4");
}

static void test_time_units(void **state)
{
    WHERE("dur >= 20ns", "1,4,5");
    WHERE("ts < 2.5us", "0,1");
    WHERE("ts >= 0.005ms", "4,5");
    WHERE("ts < 1s", "0,1,2,4,5");
    assert_string_equal(run(T, NULL, "ts < 99999999999s"), "error: time literal out of range at position 6");
}

static void test_like_glob(void **state)
{
    WHERE("name LIKE 'o%'", "0,4");
    WHERE("name LIKE 'OPEN'", "0,4");
    WHERE("name LIKE '_pen'", "0,4");
    WHERE("name LIKE '%e%'", "0,1,2,4,5");
    WHERE("name NOT LIKE '%e%'", "");
    WHERE("name LIKE '100\\%\\_%' ESCAPE '\\'", "5");
    WHERE("name LIKE '100%_%'", "5");
    WHERE("name GLOB 'O*'", "4");
    WHERE("name GLOB '[a-o]*'", "0");
    WHERE("name GLOB '[^o]*'", "1,2,4,5");
    WHERE("name GLOB '?ead'", "1");
    WHERE("name GLOB '*[%]*'", "5");
    WHERE("name NOT GLOB '*e*'", "");
    WHERE("ph LIKE 'x'", "0,1,4");
    WHERE("ph GLOB 'x'", "");
    WHERE("ph = 'X'", "0,1,4");
    WHERE("ph != 'X'", "2,3,5");
    WHERE("ph IN ('B', 'i')", "2,3");
    WHERE("ph > 'C'", "0,1,3,4");
}

static void test_strmatch(void **state)
{
#define LIKE(p, s) strmatch_like(p, strlen(p), s, strlen(s), 0)
#define GLOB(p, s) strmatch_glob(p, strlen(p), s, strlen(s))
    assert_true(LIKE("", ""));
    assert_false(LIKE("", "a"));
    assert_true(LIKE("%", ""));
    assert_true(LIKE("%%", "abc"));
    assert_false(LIKE("_", ""));
    assert_true(LIKE("_", "\xc3\xa9"));          /* one character, two bytes */
    assert_false(LIKE("__", "\xc3\xa9"));
    assert_true(LIKE("%a%b%c%", "xxaxxbxxcxx"));
    assert_false(LIKE("%a%b%c%", "xxaxxcxxbxx"));
    assert_true(LIKE("a%a", "aaa"));
    assert_false(LIKE("a%a", "ab"));
    assert_true(LIKE("\xc3\xa9t\xc3\xa9", "\xc3\xa9T\xc3\xa9"));
    assert_false(LIKE("\xc3\x89", "\xc3\xa9"));  /* no case folding beyond ASCII */
    assert_true(strmatch_like("a!%", 3, "a%", 2, '!'));
    assert_false(strmatch_like("a!%", 3, "ab", 2, '!'));
    assert_true(GLOB("*", ""));
    assert_true(GLOB("[]]", "]"));
    assert_true(GLOB("[a-]", "-"));
    assert_true(GLOB("[^]]", "a"));
    assert_false(GLOB("[^]]", "]"));
    assert_false(GLOB("[abc", "a"));             /* an unterminated class never matches */
    assert_true(GLOB("[\xc3\xa0-\xc3\xbf]", "\xc3\xa9"));
    assert_true(GLOB("?", "\xe2\x82\xac"));
    assert_false(GLOB("a", "A"));
    assert_true(GLOB("*.h5", "/a/b.h5"));
    assert_false(GLOB("*.h5", "/a/b.h55"));
    /* Backtracking stays polynomial on a pattern built to explode. */
    char s[4001];
    memset(s, 'a', 4000);
    s[4000] = '\0';
    assert_false(LIKE("%a%a%a%a%a%a%a%a%b", s));
    assert_false(GLOB("*a*a*a*a*a*a*a*a*b", s));
#undef LIKE
#undef GLOB
}

/* The file a resolver gives row `row`, or "-". */
static const char *file_of(const struct spoor_resolved *res, size_t row)
{
    return res->file[row] ? spoor_strpool_get(res->pool, res->file[row], NULL) : "-";
}

/* Hashes resolve within their own input, by the definition in force at the
 * row's line: rows of two inputs sharing hash text in one table, a
 * redefinition inside a batch, and one in a later batch. */
static void test_resolved_per_input_and_line(void **state)
{
    (void)state;
    struct spoor_table *t = spoor_table_new();
    uint32_t a = spoor_table_add_source(t, "a.pfw"), b = spoor_table_add_source(t, "b.pfw");
    uint32_t h = fx_intern(t, "11");
    struct spoor_lookup *files = &t->lookups[SPOOR_LOOKUP_FILE];
    spoor_lookup_put(files, a, h, fx_intern(t, "/a/one"), 2);
    spoor_lookup_put(files, b, h, fx_intern(t, "/b/one"), 2);
    spoor_lookup_put(files, a, h, fx_intern(t, "/a/two"), 6);
    const uint32_t src[] = {a, b, a, b, a, b, a};
    const uint64_t line[] = {1, 3, 3, 4, 5, 9, 7};
    for (size_t i = 0; i < 7; i++) {
        size_t r = fx_row(t, 1, 1, "read", "POSIX", 1, 1, 'X');
        t->src[r] = src[i];
        t->line[r] = line[i];
        fx_str(t, r, "fhash", "11");
    }
    struct spoor_resolver *r = spoor_resolver_new();
    const struct spoor_resolved *res = spoor_resolver_resolve(r, t);
    const char *want[] = {"-", "/b/one", "/a/one", "/b/one", "/a/one", "/b/one", "/a/two"};
    for (size_t i = 0; i < 7; i++)
        assert_string_equal(file_of(res, i), want[i]);
    spoor_resolver_free(r);
    spoor_table_free(t);

    /* Streaming: batch 1 defines 11 at line 2; batch 2 (its own pool) uses it,
     * redefines it at line 12 and uses it again; an input that never defined
     * 11 gets nothing from the others. */
    r = spoor_resolver_new();
    struct spoor_table *b1 = spoor_table_new();
    spoor_table_add_source(b1, "a.pfw");
    spoor_lookup_put(&b1->lookups[SPOOR_LOOKUP_FILE], 0, fx_intern(b1, "11"), fx_intern(b1, "/a/one"), 2);
    size_t row = fx_row(b1, 1, 1, "read", "POSIX", 1, 1, 'X');
    b1->line[row] = 3;
    fx_str(b1, row, "fhash", "11");
    assert_string_equal(file_of(spoor_resolver_resolve(r, b1), 0), "/a/one");
    struct spoor_table *b2 = spoor_table_new();
    spoor_table_add_source(b2, "a.pfw");
    fx_int(b2, fx_row(b2, 1, 1, "x", "y", 1, 1, 'X'), "zzz", 1); /* shifts ids against b1's pool */
    spoor_lookup_put(&b2->lookups[SPOOR_LOOKUP_FILE], 0, fx_intern(b2, "11"), fx_intern(b2, "/a/two"), 12);
    for (uint64_t l = 10; l <= 14; l += 4) {
        row = fx_row(b2, 1, 1, "read", "POSIX", 1, 1, 'X');
        b2->line[row] = l;
        fx_str(b2, row, "fhash", "11");
    }
    res = spoor_resolver_resolve(r, b2);
    assert_string_equal(file_of(res, 1), "/a/one");
    assert_string_equal(file_of(res, 2), "/a/two");
    struct spoor_table *other = spoor_table_new();
    spoor_table_add_source(other, "c.pfw");
    fx_str(other, fx_row(other, 1, 1, "read", "POSIX", 1, 1, 'X'), "fhash", "11");
    assert_string_equal(file_of(spoor_resolver_resolve(r, other), 0), "-");
    spoor_table_free(b1);
    spoor_table_free(b2);
    spoor_table_free(other);
    spoor_resolver_free(r);
}

static void test_resolved(void **state)
{
    struct spoor_resolver *r = spoor_resolver_new();
    const struct spoor_resolved *res = spoor_resolver_resolve(r, T);
    assert_int_equal(res->nrows, T->nrows);
    assert_string_equal(run(T, res, "file = '/data/a.h5'"), "0,1");
    assert_string_equal(run(T, res, "file LIKE '%.log'"), "2");
    assert_string_equal(run(T, res, "file IS NULL"), "3,4,5");
    assert_string_equal(run(T, res, "host = 'node1'"), "0");
    assert_string_equal(run(T, res, "host IN ('local')"), "3");
    assert_string_equal(run(T, res, "host IS NULL"), "1,2,4,5");
    /* Without a resolver file and host are null. */
    assert_string_equal(run(T, NULL, "file IS NULL"), "0,1,2,3,4,5");

    /* A later batch with its own pool resolves through what earlier ones defined. */
    struct spoor_table *t2 = spoor_table_new();
    spoor_table_add_source(t2, "/traces/run1.pfw.gz");
    size_t row = fx_row(t2, 1, 1, "x", "y", 1, 1, 'X');
    fx_int(t2, row, "zzz", 1); /* shifts string ids against the first pool */
    fx_int(t2, row, "hhash", 42);
    row = fx_row(t2, 1, 1, "x", "y", 1, 1, 'X');
    fx_str(t2, row, "fhash", "111");
    res = spoor_resolver_resolve(r, t2);
    assert_string_equal(run(t2, res, "host = 'node1'"), "0");
    assert_string_equal(run(t2, res, "file = '/data/a.h5'"), "1");
    spoor_table_free(t2);
    spoor_resolver_free(r);
}

static void expect_error(const char *text, const char *message)
{
    char want[600];
    snprintf(want, sizeof want, "error: %s", message);
    assert_string_equal(run(T, NULL, text), want);
}

static void test_errors(void **state)
{
    expect_error("", "empty expression");
    expect_error("dur >", "expected a value at position 6, found end of expression");
    expect_error("(dur > 1", "expected ')' at position 9, found end of expression");
    expect_error("name = 'abc", "unterminated string starting at position 8");
    expect_error("\"name = 1", "unterminated quoted name starting at position 1");
    expect_error("dur > 5 AND", "expected a value at position 12, found end of expression");
    expect_error("dur", "expected a condition at position 1, found a value (compare it, e.g. with = or IS NOT NULL)");
    expect_error("dur > 5 AND pid", "expected a condition at position 13, found a value (compare it, e.g. with = or IS NOT NULL)");
    expect_error("dur > 5 5", "expected AND, OR or the end at position 9, found '5'");
    expect_error("dur > 5xs", "unknown unit 'xs' after a number at position 8 (expected ns, us, ms or s)");
    expect_error("dur < ts < 5", "comparisons cannot be chained at position 10; join them with AND");
    expect_error("dur @ 5", "unexpected character '@' at position 5");
    expect_error("name LIKE 5", "expected a 'pattern' after LIKE at position 11, found '5'");
    expect_error("name GLOB 'a' ESCAPE 'b'", "ESCAPE goes with LIKE only, at position 15");
    expect_error("name LIKE 'a' ESCAPE 'bc'", "expected one 'c'haracter after ESCAPE at position 22, found ''bc''");
    expect_error("pid IN (tid)", "IN (...) takes literals only; position 9 is not one");
    expect_error("pid IN 1", "expected '(' after IN at position 8, found '1'");
    /* a control character inside a quoted token stays out of the one-line message */
    expect_error("name IN 'a\nb'", "expected '(' after IN at position 9, found ''a?b''");
    expect_error("pid IN (1 2)", "expected ',' or ')' in the IN list at position 11, found '2'");
    expect_error("name = 'a' + 1", "arithmetic on a string at position 8");
    expect_error("(dur > 1) + 1 = 2", "expected a value at position 1, found a condition");
    expect_error("dur > 1 = 1", "comparisons cannot be chained at position 9; join them with AND");
    expect_error("dur IS 5", "expected NULL after IS at position 8, found '5'");
    expect_error("dur NOT 5", "expected IN, LIKE, GLOB or BETWEEN after NOT at position 5, found 'NOT'");
    expect_error("dur BETWEEN 1 OR 2", "expected AND in BETWEEN at position 15, found 'OR'");
    expect_error("name = 'x' AND \x01", "unexpected byte 0x01 at position 16");
    expect_error("\"\" = 1", "empty column name at position 1");

    char deep[1000];
    memset(deep, '(', 300);
    strcpy(deep + 300, "dur > 1");
    memset(deep + 307, ')', 300);
    deep[607] = '\0';
    assert_non_null(strstr(run(T, NULL, deep), "nested too deeply"));
}

static void test_refs_and_suggestions(void **state)
{
    struct spoor_error err;
    struct spoor_expr *e;
    assert_int_equal(spoor_expr_compile("fil = 'x' AND size > 1 AND fil != 'y' OR args.ratio > 0", &e, &err), SPOOR_OK);
    const struct spoor_expr_ref *refs;
    assert_int_equal(spoor_expr_refs(e, &refs), 3);
    assert_string_equal(refs[0].name, "fil");
    assert_int_equal(refs[0].pos, 1);
    assert_int_equal(refs[0].field, SPOOR_FIELD_ARG);
    assert_string_equal(refs[2].name, "args.ratio");
    assert_int_equal(refs[2].key_len, 5);
    assert_false(spoor_expr_needs_order(e));
    struct spoor_expr_ctx *c = spoor_expr_ctx_new(e);
    spoor_expr_bind(c, T, NULL);
    assert_false(spoor_expr_ctx_found(c, 0));
    assert_true(spoor_expr_ctx_found(c, 1));
    assert_true(spoor_expr_ctx_found(c, 2));
    spoor_expr_ctx_free(c);
    spoor_expr_free(e);

    assert_int_equal(spoor_expr_compile("line > 1", &e, &err), SPOOR_OK);
    assert_true(spoor_expr_needs_order(e));
    spoor_expr_free(e);
    assert_int_equal(spoor_expr_compile("host = 'a'", &e, &err), SPOOR_OK);
    assert_true(spoor_expr_needs_order(e));
    spoor_expr_free(e);

    assert_string_equal(spoor_field_suggest("fil", NULL, 0), "file");
    assert_string_equal(spoor_field_suggest("nmae", NULL, 0), "name");
    assert_string_equal(spoor_field_suggest("durr", NULL, 0), "dur");
    const char *seen[] = {"fhash", "bytes_read"};
    assert_string_equal(spoor_field_suggest("bytes_raed", seen, 2), "bytes_read");
    assert_null(spoor_field_suggest("zzzzzz", seen, 2));
}

/* One context serves many tables with different pools and sizes. */
static void test_rebind(void **state)
{
    struct spoor_error err;
    struct spoor_expr *e;
    assert_int_equal(spoor_expr_compile("name = 'b' OR name LIKE 'c%' OR kind > 'm'", &e, &err), SPOOR_OK);
    struct spoor_expr_ctx *c = spoor_expr_ctx_new(e);
    uint32_t sel[8];
    for (int round = 0; round < 3; round++) {
        struct spoor_table *t = spoor_table_new();
        spoor_table_add_source(t, "x");
        /* Different interning orders give the same strings different ids. */
        const char *names[] = {"a", "b", "c1", "d"};
        for (int i = 0; i < 4; i++) {
            size_t r = fx_row(t, 0, 0, names[(i + round) % 4], "cat", 1, 1, 'X');
            if (round == 1)
                fx_str(t, r, "kind", i == 2 ? "z" : "a");
        }
        spoor_expr_bind(c, t, NULL);
        size_t n = spoor_expr_select(c, sel);
        size_t want = round == 1 ? 3 : 2;
        assert_int_equal(n, want);
        for (size_t i = 0; i < n; i++) {
            const char *nm = spoor_table_str(t, t->name[sel[i]]);
            bool kind_z = round == 1 && sel[i] == 2;
            assert_true(!strcmp(nm, "b") || !strcmp(nm, "c1") || kind_z);
        }
        spoor_table_free(t);
    }
    spoor_expr_ctx_free(c);
    spoor_expr_free(e);
}

/* Many rows: block boundaries, short-circuits and the fast kernels agree
 * with a plain loop. */
static void test_blocks(void **state)
{
    struct spoor_table *t = spoor_table_new();
    spoor_table_add_source(t, "x");
    enum { N = 5000 };
    for (int i = 0; i < N; i++) {
        size_t r = fx_row(t, i, i % 3 == 0 ? FX_NULL : i, i % 2 ? "odd" : "even", "c", i % 10, 0, 'X');
        if (i % 5 == 0)
            fx_int(t, r, "k", i);
        if (i % 7 == 0)
            fx_str(t, r, "s", i % 14 ? "seven" : "fourteen");
    }
    struct spoor_error err;
    struct spoor_expr *e;
    assert_int_equal(spoor_expr_compile("(dur BETWEEN 1000 AND 2999 AND name = 'odd') OR k IN (5, 4995) OR s LIKE 'f%'",
                                        &e, &err), SPOOR_OK);
    struct spoor_expr_ctx *c = spoor_expr_ctx_new(e);
    spoor_expr_bind(c, t, NULL);
    uint32_t *sel = malloc(N * sizeof *sel);
    size_t n = spoor_expr_select(c, sel);
    size_t want = 0;
    for (int i = 0; i < N; i++) {
        bool a = i % 3 != 0 && i >= 1000 && i <= 2999 && i % 2;
        bool b = i == 5 || i == 4995;
        bool d = i % 14 == 0;
        if (a || b || d) {
            assert_true(want < n);
            assert_int_equal(sel[want], i);
            want++;
        }
    }
    assert_int_equal(n, want);
    free(sel);
    spoor_expr_ctx_free(c);
    spoor_expr_free(e);
    spoor_table_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_comparisons),
        cmocka_unit_test(test_null_semantics),
        cmocka_unit_test(test_logic_and_precedence),
        cmocka_unit_test(test_strings),
        cmocka_unit_test(test_numbers_meet_strings),
        cmocka_unit_test(test_time_units),
        cmocka_unit_test(test_like_glob),
        cmocka_unit_test(test_strmatch),
        cmocka_unit_test(test_resolved),
        cmocka_unit_test(test_resolved_per_input_and_line),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_refs_and_suggestions),
        cmocka_unit_test(test_rebind),
        cmocka_unit_test(test_blocks),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
