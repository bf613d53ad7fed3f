/* spoor sql's native path against SQLite, byte for byte in every format:
 * hand-written queries that must run natively, ones that must fall back,
 * integer overflow, and a seeded generator over columns, aggregates, WHERE
 * forms, ORDER BY and LIMIT, on a hand-made table and on shared traces. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "spoor/load.h"
#include "sql_native_diff.h"
#include "testutil.h"

struct session {
    struct spoor_table *t;
    struct spoor_load_result res;
    struct spoor_sql *s;
};

static void same(struct spoor_sql *s, const char *query, bool native)
{
    bool ran;
    char *msg = diff_query(s, query, &ran);
    if (msg)
        fail_msg("%s", msg);
    if (ran != native)
        fail_msg("%s ran %s", query, ran ? "natively" : "in SQLite");
}

static const char *const native_queries[] = {
    "SELECT cat, name, count(*), sum(dur) FROM events GROUP BY 1, 2",
    "SELECT cat, name, count(*), sum(dur) FROM events GROUP BY cat, name;",
    "select Cat, COUNT(*), Sum( dur ) from EVENTS group by CAT",
    "SELECT count(*), count(dur), sum(dur), total(dur), avg(dur), min(dur), max(dur) FROM events",
    "SELECT count(*), sum(dur), avg(size), min(name), max(name) FROM events WHERE cat = 'nothing'",
    "SELECT name, min(cat), max(cat), min(ts), max(ts) FROM events GROUP BY name",
    "SELECT ph, count(*) AS n FROM events GROUP BY ph ORDER BY n DESC, ph LIMIT 3",
    "SELECT pid, tid, count(*) FROM events GROUP BY pid, tid ORDER BY 3 DESC LIMIT 5 OFFSET 1",
    "SELECT pid, tid, count(*) FROM events GROUP BY pid, tid ORDER BY count(*), pid DESC LIMIT 2, 4",
    "SELECT tid, pid, count(*) FROM events GROUP BY pid, tid ORDER BY pid DESC, tid DESC",
    "SELECT cat, count(*) AS \"the count\" FROM events GROUP BY cat ORDER BY \"the count\" LIMIT -1",
    "SELECT cat AS c, avg(dur) AS 'a' FROM events GROUP BY cat ORDER BY a DESC",
    "SELECT source, file, host, count(*) FROM events GROUP BY source, file, host",
    "SELECT line, count(*) FROM events WHERE line BETWEEN 3 AND 40 GROUP BY line ORDER BY 1 DESC",
    "SELECT count(*) FROM events WHERE name >= 'r' AND NOT (cat IS NULL OR dur < 100)",
    "SELECT count(*), sum(dur) FROM events WHERE name NOT IN ('read', 'open', NULL)",
    "SELECT name, count(*) FROM events WHERE name IN ('read', 'open') OR ph = 'X' GROUP BY 1",
    "SELECT count(*) FROM events WHERE ts >= -5 AND ts <> 3000 AND dur != 74 AND tid IS NOT NULL",
    "SELECT count(*) -- a comment\n FROM /* another */ events WHERE (((dur > 10)))",
    "SELECT cat, count(*) FROM events GROUP BY cat LIMIT 0",
    "SELECT count(*) FROM events LIMIT 1 OFFSET 1",
    "SELECT cat FROM events GROUP BY cat",
};

static const char *const fallback_queries[] = {
    "SELECT name FROM events LIMIT 3",
    "SELECT DISTINCT cat FROM events",
    "SELECT cat, count(*) FROM events GROUP BY cat HAVING count(*) > 1",
    "SELECT cat, count(DISTINCT name) FROM events GROUP BY cat",
    "SELECT cat, name, count(*) FROM events GROUP BY cat",
    "SELECT upper(cat), count(*) FROM events GROUP BY 1",
    "SELECT count(*) FROM events WHERE name = 5",
    "SELECT count(*) FROM events WHERE dur = '5'",
    "SELECT count(*) FROM events WHERE dur > 1.5",
    "SELECT count(*) FROM events WHERE dur + 1 > 5",
    "SELECT count(*) FROM events WHERE name LIKE 'r_\xc3\xa9'",
    "SELECT count(*) FROM events WHERE name = 'read' COLLATE NOCASE",
    "SELECT count(*) FROM events e",
    "SELECT count(*) FROM files",
    "SELECT count(*) FROM events, meta WHERE meta.key = 'rows'", /* a join; files x events would cost seconds */
    "SELECT count(*) FROM events WHERE name IN (SELECT name FROM events)",
    "SELECT cat, count(*) c FROM events GROUP BY cat",
    "SELECT cat AS c, count(*) FROM events GROUP BY c",
    "SELECT count(*) OVER () FROM events",
    "SELECT cat, count(*) FROM events GROUP BY cat ORDER BY cat NULLS LAST",
    "SELECT 1",
};

static void check_lists(struct spoor_sql *s)
{
    for (size_t i = 0; i < sizeof native_queries / sizeof *native_queries; i++)
        same(s, native_queries[i], true);
    for (size_t i = 0; i < sizeof fallback_queries / sizeof *fallback_queries; i++)
        same(s, fallback_queries[i], false);
}

/* ---- the generator */

static uint64_t rng_state;

static unsigned rnd(unsigned n)
{
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (unsigned)(rng_state >> 33) % n;
}

static const char *pick(const char *const *v, size_t n) { return v[rnd((unsigned)n)]; }
#define PICK(v) pick(v, sizeof v / sizeof *v)

static const char *const keys[] = {"name", "cat", "pid", "tid", "ph", "source", "file", "host", "size", "fhash", "\"args.name\"", "note", "line"};
static const char *const aggs[] = {"count(*)", "count(%s)", "sum(%s)", "total(%s)", "avg(%s)", "min(%s)", "max(%s)"};
static const char *const agg_cols[] = {"dur", "ts", "size", "ratio", "name", "cat", "mixed", "note", "huge", "zero", "tid", "Size"};
static const char *const conds[] = {
    "dur > 300", "dur <= 120", "ts BETWEEN -1000 AND 100000", "name = 'read'", "name <> 'open'",
    "cat IS NULL", "cat IS NOT NULL", "name IN ('read', 'write', 'r\xc3\xa9')", "cat NOT IN ('POSIX')",
    "name LIKE '%e%'", "name NOT LIKE 'R%'", "cat GLOB '*IX'", "size < 0", "ratio > 10.5", "ratio = 3",
    "pid = 1", "tid <> 101", "ph = 'X'", "file = '/data/f.dat'", "file IS NULL", "note LIKE '%1%'",
    "mixed > 100", "dur = NULL", "size IN (1, NULL)", "line > 250", "name > 'o'", "source LIKE '/a%'",
};

static void gen_where(char *buf, size_t cap)
{
    unsigned n = rnd(4);
    size_t at = 0;
    at += (size_t)snprintf(buf + at, cap - at, n ? " WHERE " : "");
    for (unsigned i = 0; i < n; i++)
        at += (size_t)snprintf(buf + at, cap - at, "%s%s%s", i ? (rnd(2) ? " AND " : " OR ") : "",
                               rnd(4) ? "" : "NOT ", PICK(conds));
}

static void gen_query(char *q, size_t cap)
{
    char items[512] = "", group[256] = "", where[512], order[256] = "", agg[64];
    unsigned nkeys = rnd(4), naggs = rnd(4) + (nkeys == 0);
    const char *chosen[4];
    for (unsigned k = 0; k < nkeys; k++) {
        chosen[k] = PICK(keys);
        snprintf(items + strlen(items), sizeof items - strlen(items), "%s%s", k ? ", " : "", chosen[k]);
        snprintf(group + strlen(group), sizeof group - strlen(group), "%s%s", k ? ", " : " GROUP BY ",
                 rnd(2) ? chosen[k] : (char[]){(char)('1' + k), 0});
    }
    for (unsigned a = 0; a < naggs; a++) {
        snprintf(agg, sizeof agg, PICK(aggs), PICK(agg_cols));
        snprintf(items + strlen(items), sizeof items - strlen(items), "%s%s AS a%u", nkeys + a ? ", " : "", agg, a);
    }
    gen_where(where, sizeof where);
    unsigned norder = rnd(4);
    for (unsigned o = 0; o < norder; o++) {
        unsigned which = rnd(nkeys + naggs + 1);
        char term[64];
        if (which == nkeys + naggs)
            snprintf(term, sizeof term, "count(*)");
        else if (which >= nkeys && rnd(2))
            snprintf(term, sizeof term, "a%u", which - nkeys);
        else
            snprintf(term, sizeof term, "%u", which + 1);
        snprintf(order + strlen(order), sizeof order - strlen(order), "%s%s%s", o ? ", " : " ORDER BY ", term,
                 rnd(3) ? (rnd(2) ? " DESC" : "") : " ASC");
    }
    char limit[64] = "";
    if (rnd(3) == 0)
        snprintf(limit, sizeof limit, " LIMIT %d%s", (int)rnd(6) - 1, rnd(2) ? " OFFSET 2" : "");
    snprintf(q, cap, "SELECT %s FROM events%s%s%s%s", items, where, group, order, limit);
}

static void check_generated(struct spoor_sql *s, uint64_t seed, unsigned n, unsigned min_native)
{
    rng_state = seed;
    unsigned ran_native = 0;
    for (unsigned i = 0; i < n; i++) {
        char q[2048];
        gen_query(q, sizeof q);
        bool native;
        char *msg = diff_query(s, q, &native);
        if (msg)
            fail_msg("%s", msg);
        ran_native += native;
    }
    if (ran_native < min_native)
        fail_msg("only %u of %u generated queries ran natively", ran_native, n);
}

/* ---- the hand-made table */

static int open_hand(void **state)
{
    struct session *h = calloc(1, sizeof *h);
    h->t = diff_table();
    struct spoor_error err;
    assert_int_equal(spoor_sql_open(h->t, NULL, &h->s, &err), SPOOR_OK);
    *state = h;
    return 0;
}

static int close_session(void **state)
{
    struct session *h = *state;
    spoor_sql_close(h->s);
    spoor_table_free(h->t);
    spoor_load_result_free(&h->res);
    free(h);
    return 0;
}

static void test_hand_lists(void **state) { check_lists(((struct session *)*state)->s); }

static void test_hand_generated(void **state) { check_generated(((struct session *)*state)->s, 1, 300, 100); }

/* Overflow is an error from either path; sums whose answer depends on the
 * order SQLite adds in, and min/max of a zero, go to SQLite. */
static void test_overflow_and_order(void **state)
{
    struct spoor_sql *s = ((struct session *)*state)->s;
    same(s, "SELECT sum(wide) FROM events", true);
    same(s, "SELECT cat, sum(wide) FROM events GROUP BY cat", true);
    same(s, "SELECT cat, sum(wide) FROM events GROUP BY cat ORDER BY 2", true);
    same(s, "SELECT cat, sum(wide) FROM events GROUP BY cat LIMIT 1", true);
    same(s, "SELECT total(size), avg(size) FROM events", true);
    same(s, "SELECT total(wide), avg(wide) FROM events", false);
    same(s, "SELECT count(*) FROM events WHERE name LIKE 'r%'", false); /* bad UTF-8 in the pool */
    same(s, "SELECT sum(huge) FROM events", false);
    same(s, "SELECT min(zero) FROM events", false);
    struct diff_run r = diff_once(s, "SELECT sum(wide) FROM events", SPOOR_SQL_CSV, false);
    assert_int_equal(r.status, SPOOR_EFORMAT);
    assert_non_null(strstr(r.text, "integer overflow"));
    assert_true(r.native);
    free(r.text);
}

/* ---- shared traces */

static int open_shared(void **state)
{
    static char p0[4096], p1[4096];
    snprintf(p0, sizeof p0, "%s", testutil_data("pfw/dftracer-dlio-pytorch-2023.pfw.gz"));
    snprintf(p1, sizeof p1, "%s", testutil_data("pfw/dftracer-cm1-2024-rank0.pfw.gz"));
    const char *paths[] = {p0, p1};
    struct session *h = calloc(1, sizeof *h);
    struct spoor_load_opts opts = {.threads = 2, .input.no_index = true, .no_cache = true};
    opts.read.args = SPOOR_ARGS_ALL;
    struct spoor_error err;
    assert_int_equal(spoor_load_table(paths, 2, &opts, &h->t, &h->res, &err), SPOOR_OK);
    assert_int_equal(spoor_sql_open(h->t, &h->res, &h->s, &err), SPOOR_OK);
    *state = h;
    return 0;
}

static void test_shared_lists(void **state)
{
    struct spoor_sql *s = ((struct session *)*state)->s;
    check_lists(s);
    same(s, "SELECT name, count(*) FROM events WHERE name LIKE '%stat%' AND cat NOT GLOB 'P*' GROUP BY 1", true);
    same(s, "SELECT count(*) FROM events WHERE cat GLOB 'P*' OR name LIKE 'o_en%' ESCAPE '!'", true);
    same(s, "SELECT count(*) FROM events WHERE name LIKE 'a!' ESCAPE '!'", false);
}

static void test_shared_generated(void **state) { check_generated(((struct session *)*state)->s, 2, 60, 10); }

int main(void)
{
    const struct CMUnitTest hand[] = {
        cmocka_unit_test(test_hand_lists),
        cmocka_unit_test(test_overflow_and_order),
        cmocka_unit_test(test_hand_generated),
    };
    const struct CMUnitTest shared[] = {
        cmocka_unit_test(test_shared_lists),
        cmocka_unit_test(test_shared_generated),
    };
    int failed = cmocka_run_group_tests_name("native sql on a hand-made table", hand, open_hand, close_session);
    testutil_data("pfw"); /* skips (77) without the shared data */
    return failed | cmocka_run_group_tests_name("native sql on shared traces", shared, open_shared, close_session);
}
