/* spoor sql's session: every table and column, nulls and types on a table
 * built by hand; push-down (fewer rows visited, same answers as the query
 * with the constraint hidden behind a unary +), grouped delivery, GROUP BY
 * against the stats recipe, parameters, several statements and error
 * offsets on two shared traces loaded together. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "events_fixture.h"
#include "spoor/load.h"
#include "spoor/sql.h"
#include "sql/sql_internal.h"
#include "spoor/stats.h"
#include "testutil.h"

/* ---- helpers */

struct capture {
    char *text;
    size_t len;
    FILE *fp;
};

/* Runs query, returns its CSV output (caller frees) and the status. */
static char *run_fmt(struct spoor_sql *s, const char *query, enum spoor_sql_format format,
                     const struct spoor_sql_param *params, size_t nparams, int *status, long *offset)
{
    struct capture c = {0};
    c.fp = open_memstream(&c.text, &c.len);
    struct spoor_sql_run run = {.params = params, .nparams = nparams, .format = format, .out = c.fp};
    struct spoor_error err = {0};
    *status = spoor_sql_exec(s, query, &run, &err);
    if (offset)
        *offset = run.error_offset;
    fclose(c.fp);
    return c.text;
}

static char *csv(struct spoor_sql *s, const char *query)
{
    int status;
    char *out = run_fmt(s, query, SPOOR_SQL_CSV, NULL, 0, &status, NULL);
    if (status != SPOOR_OK)
        fail_msg("query failed: %s", query);
    return out;
}

/* The single value of a one-row, one-column query, as text. */
static char *scalar(struct spoor_sql *s, const char *query)
{
    char *out = csv(s, query);
    char *nl = strchr(out, '\n');
    assert_non_null(nl);
    char *value = strdup(nl + 1);
    free(out);
    value[strcspn(value, "\n")] = '\0';
    return value;
}

static int64_t number(struct spoor_sql *s, const char *query)
{
    char *v = scalar(s, query);
    int64_t n = strtoll(v, NULL, 10);
    free(v);
    return n;
}

static void assert_scalar(struct spoor_sql *s, const char *query, const char *want)
{
    char *v = scalar(s, query);
    if (strcmp(v, want))
        fail_msg("%s: got '%s', want '%s'", query, v, want);
    free(v);
}

/* ---- a table built by hand */

static struct spoor_table *hand_table(void)
{
    struct spoor_table *t = spoor_table_new();
    spoor_table_add_source(t, "hand.pfw");
    fx_row(t, 100, 10, "open", "POSIX", 1, 2, 'X');
    fx_str(t, 0, "fhash", "h1");
    fx_int(t, 0, "size", 4096);
    fx_real(t, 0, "ratio", 0.5);
    fx_int(t, 0, "ts", 7);          /* collides with a fixed name */
    fx_str(t, 0, "Size", "big");    /* collides with size in SQL's case-insensitive names */
    fx_str(t, 0, "say", "a \"quoted\", text");
    fx_row(t, FX_NULL, FX_NULL, NULL, NULL, FX_NULL, FX_NULL, 'M');
    fx_lookup(t, SPOOR_LOOKUP_FILE, "h1", "/a/b");
    fx_lookup(t, SPOOR_LOOKUP_HOST, "77", "node1");
    fx_lookup(t, SPOOR_LOOKUP_STRING, "s1", "hello");
    fx_lookup(t, SPOOR_LOOKUP_PROCESS, "1", "rank 0");
    fx_lookup(t, SPOOR_LOOKUP_THREAD, "2", "main");
    return t;
}

static void test_columns_and_types(void **state)
{
    struct spoor_table *t = hand_table();
    struct spoor_sql *s;
    struct spoor_error err;
    assert_int_equal(spoor_sql_open(t, NULL, &s, &err), SPOOR_OK);

    char *header = csv(s, "SELECT * FROM events LIMIT 0");
    assert_string_equal(header, "ts,dur,name,cat,pid,tid,ph,line,source,file,host,fhash,size,ratio,args.ts,"
                                "args.Size,say\n");
    free(header);
    assert_scalar(s, "SELECT typeof(ts) || typeof(dur) || typeof(name) || typeof(pid) || typeof(line) "
                     "|| typeof(size) || typeof(ratio) || typeof(\"args.ts\") FROM events WHERE rowid = 0",
                  "integerintegertextintegerintegerintegerrealinteger");
    char *row0 = csv(s, "SELECT ts, dur, name, cat, pid, tid, ph, line, source, file, host, size, ratio, "
                        "\"args.ts\", \"args.Size\", say FROM events WHERE rowid = 0");
    assert_string_equal(row0, "ts,dur,name,cat,pid,tid,ph,line,source,file,host,size,ratio,args.ts,args.Size,say\n"
                              "100,10,open,POSIX,1,2,X,1,hand.pfw,/a/b,,4096,0.5,7,big,\"a \"\"quoted\"\", text\"\n");
    free(row0);
    /* Absent values are null: fixed columns, strings, args, file and host. */
    assert_scalar(s, "SELECT count(*) FROM events WHERE rowid = 1 AND ts IS NULL AND dur IS NULL AND name IS NULL "
                     "AND cat IS NULL AND pid IS NULL AND tid IS NULL AND size IS NULL AND ratio IS NULL "
                     "AND fhash IS NULL AND file IS NULL AND host IS NULL AND ph = 'M' AND line = 2",
                  "1");
    assert_scalar(s, "SELECT count(*) FROM events WHERE host IS NULL", "2");

    /* The lookups, keys of procs and threads as integers. */
    assert_scalar(s, "SELECT hash || '=' || name FROM files", "h1=/a/b");
    assert_scalar(s, "SELECT hash || '=' || name FROM hosts", "77=node1");
    assert_scalar(s, "SELECT hash || '=' || value FROM strings", "s1=hello");
    assert_scalar(s, "SELECT typeof(pid) || ':' || pid || '=' || name FROM procs", "integer:1=rank 0");
    assert_scalar(s, "SELECT typeof(tid) || ':' || tid || '=' || name FROM threads", "integer:2=main");
    assert_scalar(s, "SELECT value FROM meta WHERE key = 'rows' AND source IS NULL", "2");
    assert_scalar(s, "SELECT value FROM meta WHERE key = 'args_columns'", "6");

    /* A join of events with a lookup. */
    assert_scalar(s, "SELECT f.name FROM events e JOIN files f ON e.fhash = f.hash", "/a/b");

    const char *const *names = spoor_sql_table_names();
    size_t n = 0;
    for (; names[n]; n++)
        assert_non_null(spoor_sql_schema(s, names[n]));
    assert_int_equal(n, 7);
    assert_null(spoor_sql_schema(s, "nope"));
    spoor_sql_close(s);
    spoor_table_free(t);
}

/* What a query can read, from its text: the columns it names, count(*) none;
 * *, NATURAL and no text at all everything; file the keys it resolves from. */
static void assert_reads(const struct spoor_table *t, const char *query, unsigned fixed, const char *args)
{
    struct spoor_snapshot_need need;
    spoor_sql_columns_read(t, query, &need);
    bool all = !strcmp(args, "*");
    assert_int_equal(need.fixed, all ? ~0u : fixed);
    assert_int_equal(need.all_args, all);
    char got[256] = "";
    for (size_t i = 0; i < need.nargs; i++)
        snprintf(got + strlen(got), sizeof got - strlen(got), "%s%s", i ? "," : "", spoor_table_str(t, need.args[i]));
    if (!all && strcmp(got, args))
        fail_msg("%s: reads args %s, want %s", query, got, args);
    free(need.args);
}

static void test_columns_read(void **state)
{
    struct spoor_table *t = hand_table();
    enum { TS = 1u << SPOOR_SNAP_TS, DUR = 1u << SPOOR_SNAP_DUR, NAME = 1u << SPOOR_SNAP_NAME,
           CAT = 1u << SPOOR_SNAP_CAT };
    assert_reads(t, "SELECT cat, name, count(*), sum(dur) FROM events GROUP BY 1, 2", CAT | NAME | DUR, "");
    assert_reads(t, "select count( * ) from EVENTS", 0, "");
    assert_reads(t, "SELECT [TS] FROM events WHERE \"say\" IS NULL -- ratio", TS, "ratio,say");
    assert_reads(t, "SELECT \"args.Size\" FROM events", 0, "size,Size");
    assert_reads(t, "SELECT \"args.ts\" FROM events", TS, "ts"); /* the word ts too: more, never less */
    assert_reads(t, "SELECT file FROM events", 0, "fhash");
    assert_reads(t, "SELECT * FROM events", 0, "*");
    assert_reads(t, "SELECT e.name FROM events e", NAME, "");
    assert_reads(t, "SELECT e.* FROM events e", 0, "*");
    assert_reads(t, "SELECT dur*2 FROM events", 0, "*");
    assert_reads(t, "SELECT name FROM events NATURAL JOIN procs", 0, "*");
    assert_reads(t, NULL, 0, "*");
    spoor_table_free(t);
}

static void test_formats(void **state)
{
    struct spoor_table *t = hand_table();
    struct spoor_sql *s;
    struct spoor_error err;
    assert_int_equal(spoor_sql_open(t, NULL, &s, &err), SPOOR_OK);
    int st;
    const char *q = "SELECT name, size, ratio, say FROM events ORDER BY line";
    char *json = run_fmt(s, q, SPOOR_SQL_JSON, NULL, 0, &st, NULL);
    assert_string_equal(json, "[\n{\"name\": \"open\", \"size\": 4096, \"ratio\": 0.5, \"say\": \"a \\\"quoted\\\", text\"},\n"
                              "{\"name\": null, \"size\": null, \"ratio\": null, \"say\": null}\n]\n");
    free(json);
    char *jsonl = run_fmt(s, "SELECT name FROM events WHERE name = 'open'", SPOOR_SQL_JSONL, NULL, 0, &st, NULL);
    assert_string_equal(jsonl, "{\"name\": \"open\"}\n");
    free(jsonl);
    char *empty = run_fmt(s, "SELECT name FROM events WHERE 0", SPOOR_SQL_JSON, NULL, 0, &st, NULL);
    assert_string_equal(empty, "[]\n");
    free(empty);
    char *table = run_fmt(s, "SELECT name, size FROM events ORDER BY line", SPOOR_SQL_TABLE, NULL, 0, &st, NULL);
    assert_string_equal(table, "name  size\nopen  4096\n          \n");
    free(table);
    spoor_sql_close(s);
    spoor_table_free(t);
}

/* ---- two shared traces loaded together: 2023 (pid 0, many tids) and 2024 (one pid) */

struct loaded {
    struct spoor_table *t;
    struct spoor_load_result res;
    struct spoor_sql *s;
    const char *paths[2];
};

static int load_shared(void **state)
{
    static char p0[4096], p1[4096];
    struct loaded *l = calloc(1, sizeof *l);
    snprintf(p0, sizeof p0, "%s", testutil_data("pfw/dftracer-dlio-pytorch-2023.pfw.gz"));
    snprintf(p1, sizeof p1, "%s", testutil_data("pfw/dftracer-cm1-2024-rank0.pfw.gz"));
    l->paths[0] = p0;
    l->paths[1] = p1;
    struct spoor_load_opts opts = {.threads = 2, .input.no_index = true, .no_cache = true};
    opts.read.args = SPOOR_ARGS_ALL;
    struct spoor_error err;
    assert_int_equal(spoor_load_table(l->paths, 2, &opts, &l->t, &l->res, &err), SPOOR_OK);
    assert_int_equal(spoor_sql_open(l->t, &l->res, &l->s, &err), SPOOR_OK);
    *state = l;
    return 0;
}

static int unload_shared(void **state)
{
    struct loaded *l = *state;
    spoor_sql_close(l->s);
    spoor_table_free(l->t);
    spoor_load_result_free(&l->res);
    free(l);
    return 0;
}

/* Runs the pushed query and its twin with the constraint hidden; same
 * answer, and the pushed one visits fewer than `most` rows while the twin
 * visits them all. */
static void assert_pushed(struct spoor_sql *s, const struct spoor_table *t, const char *pushed, const char *hidden,
                          uint64_t most)
{
    uint64_t before = spoor_sql_rows_visited(s);
    char *a = csv(s, pushed);
    uint64_t visited = spoor_sql_rows_visited(s) - before;
    before = spoor_sql_rows_visited(s);
    char *b = csv(s, hidden);
    uint64_t all = spoor_sql_rows_visited(s) - before;
    if (strcmp(a, b))
        fail_msg("%s\n  -> %s\n%s\n  -> %s", pushed, a, hidden, b);
    if (visited > most || all != t->nrows)
        fail_msg("%s: visited %llu (at most %llu), hidden %llu of %zu", pushed, (unsigned long long)visited,
                 (unsigned long long)most, (unsigned long long)all, t->nrows);
    free(a);
    free(b);
}

static void test_pushdown(void **state)
{
    struct loaded *l = *state;
    struct spoor_sql *s = l->s;
    size_t n = l->t->nrows;
    char q1[512], q2[512];
    /* A ts a tenth of the way in and one 12% in. */
    int64_t t1 = number(s, "SELECT ts FROM events WHERE ts IS NOT NULL ORDER BY +ts LIMIT 1 OFFSET 10000");
    int64_t t2 = number(s, "SELECT ts FROM events WHERE ts IS NOT NULL ORDER BY +ts LIMIT 1 OFFSET 12000");
    const char *agg = "SELECT count(*), sum(dur), min(line), max(line), sum(line), count(DISTINCT name) FROM events";
    const char *ops[][2] = {{"ts < %lld", "+ts < %lld"}, {"ts <= %lld", "+ts <= %lld"},
                            {"ts > %lld", "+ts > %lld"}, {"ts >= %lld", "+ts >= %lld"}};
    /* One-sided: the first two from below, the last two from above. */
    for (int i = 0; i < 4; i++) {
        int64_t at = i < 2 ? t1 : number(s, "SELECT ts FROM events ORDER BY +ts DESC LIMIT 1 OFFSET 10000");
        char w1[64], w2[64];
        snprintf(w1, sizeof w1, ops[i][0], (long long)at);
        snprintf(w2, sizeof w2, ops[i][1], (long long)at);
        snprintf(q1, sizeof q1, "%s WHERE %s", agg, w1);
        snprintf(q2, sizeof q2, "%s WHERE %s", agg, w2);
        assert_pushed(s, l->t, q1, q2, 10100);
    }
    snprintf(q1, sizeof q1, "%s WHERE ts BETWEEN %lld AND %lld", agg, (long long)t1, (long long)t2);
    snprintf(q2, sizeof q2, "%s WHERE +ts BETWEEN %lld AND %lld", agg, (long long)t1, (long long)t2);
    assert_pushed(s, l->t, q1, q2, 2100);
    snprintf(q1, sizeof q1, "%s WHERE ts = %lld", agg, (long long)t1);
    snprintf(q2, sizeof q2, "%s WHERE +ts = %lld", agg, (long long)t1);
    assert_pushed(s, l->t, q1, q2, 50);
    /* ts against a real, text that reads as a number, and nothing in range. */
    snprintf(q1, sizeof q1, "%s WHERE ts >= %lld.5 AND ts < '%lld'", agg, (long long)t1, (long long)t2);
    /* (Text meets ts with the column's integer affinity, which +ts drops.) */
    snprintf(q2, sizeof q2, "%s WHERE +ts >= %lld.5 AND +ts < %lld", agg, (long long)t1, (long long)t2);
    assert_pushed(s, l->t, q1, q2, 2100);
    assert_pushed(s, l->t, "SELECT count(*) FROM events WHERE ts > 9e18", "SELECT count(*) FROM events WHERE +ts > 9e18",
                  0);

    int64_t opens = number(s, "SELECT count(*) FROM events WHERE +name = 'open'");
    assert_true(opens > 0 && (size_t)opens < n / 10);
    assert_pushed(s, l->t, "SELECT count(*), sum(dur) FROM events WHERE name = 'open'",
                  "SELECT count(*), sum(dur) FROM events WHERE +name = 'open'", (uint64_t)opens);
    assert_pushed(s, l->t, "SELECT count(*) FROM events WHERE name = 'no such name'",
                  "SELECT count(*) FROM events WHERE +name = 'no such name'", 0);
    int64_t posix = number(s, "SELECT count(*) FROM events WHERE +cat = 'POSIX'");
    assert_pushed(s, l->t, "SELECT count(*), max(ts) FROM events WHERE cat = 'POSIX'",
                  "SELECT count(*), max(ts) FROM events WHERE +cat = 'POSIX'", (uint64_t)posix);
    /* Both: the shorter list is walked. */
    assert_pushed(s, l->t, "SELECT count(*) FROM events WHERE cat = 'POSIX' AND name = 'open'",
                  "SELECT count(*) FROM events WHERE +cat = 'POSIX' AND +name = 'open'", (uint64_t)opens);
    int64_t rank0 = number(s, "SELECT count(*) FROM events WHERE +pid = 3537780");
    assert_true(rank0 > 0 && (size_t)rank0 < n / 5);
    assert_pushed(s, l->t, "SELECT count(*), sum(dur) FROM events WHERE pid = 3537780",
                  "SELECT count(*), sum(dur) FROM events WHERE +pid = 3537780", (uint64_t)rank0);
    int64_t tid = number(s, "SELECT tid FROM events GROUP BY tid ORDER BY count(*) DESC LIMIT 1");
    int64_t in_tid = number(s, "SELECT count(*) FROM events GROUP BY tid ORDER BY count(*) DESC LIMIT 1");
    snprintf(q1, sizeof q1, "SELECT count(*), min(ts) FROM events WHERE tid = %lld", (long long)tid);
    snprintf(q2, sizeof q2, "SELECT count(*), min(ts) FROM events WHERE +tid = %lld", (long long)tid);
    assert_pushed(s, l->t, q1, q2, (uint64_t)in_tid);
    /* NOCASE is not pushed (ids are exact), and stays correct. */
    assert_int_equal(number(s, "SELECT count(*) FROM events WHERE name = 'OPEN' COLLATE NOCASE"), opens);
}

static void test_ordering(void **state)
{
    struct loaded *l = *state;
    struct spoor_sql *s = l->s;
    const char *pairs[][2] = {
        {"SELECT ts, line FROM events ORDER BY ts, line LIMIT 50",
         "SELECT ts, line FROM events ORDER BY +ts, line LIMIT 50"},
        {"SELECT ts FROM events WHERE ts > 1698352100000000000 ORDER BY ts DESC LIMIT 50",
         "SELECT ts FROM events WHERE +ts > 1698352100000000000 ORDER BY +ts DESC LIMIT 50"},
        {"SELECT cat, name, count(*), sum(dur) FROM events GROUP BY cat, name ORDER BY 1, 2",
         "SELECT cat, name, count(*), sum(dur) FROM events GROUP BY +cat, +name ORDER BY 1, 2"},
        {"SELECT name, count(*) FROM events GROUP BY name ORDER BY 1",
         "SELECT name, count(*) FROM events GROUP BY +name ORDER BY 1"},
        {"SELECT cat, count(*) FROM events GROUP BY cat ORDER BY 1 DESC",
         "SELECT cat, count(*) FROM events GROUP BY +cat ORDER BY 1 DESC"},
        {"SELECT cat, name FROM events ORDER BY cat DESC, name DESC LIMIT 3000",
         "SELECT cat, name FROM events ORDER BY +cat DESC, +name DESC LIMIT 3000"},
        {"SELECT name, count(*) FROM events GROUP BY name", "SELECT name, count(*) FROM events GROUP BY +name"},
    };
    for (size_t i = 0; i < sizeof pairs / sizeof *pairs; i++) {
        char *a = csv(s, pairs[i][0]);
        char *b = csv(s, pairs[i][1]);
        assert_string_equal(a, b);
        free(a);
        free(b);
    }
    /* SQLite trusts the grouped delivery: no sorter for the GROUP BY. */
    char *plan = csv(s, "EXPLAIN QUERY PLAN SELECT cat, name, count(*) FROM events GROUP BY cat, name");
    assert_null(strstr(plan, "TEMP B-TREE"));
    free(plan);
    plan = csv(s, "EXPLAIN QUERY PLAN SELECT ts FROM events ORDER BY ts");
    assert_null(strstr(plan, "TEMP B-TREE"));
    free(plan);
    plan = csv(s, "EXPLAIN QUERY PLAN SELECT cat, name, count(*) FROM events GROUP BY +cat, +name");
    assert_non_null(strstr(plan, "TEMP B-TREE"));
    free(plan);
}

/* GROUP BY cat, name gives the stats recipe's counts and sums. */
static void test_group_by_equals_stats(void **state)
{
    struct loaded *l = *state;
    struct spoor_load_opts opts = {.threads = 2, .input.no_index = true, .no_cache = true};
    opts.read.args = SPOOR_ARGS_LISTED;
    opts.read.arg_keys = spoor_stats_arg_keys;
    opts.read.n_arg_keys = spoor_stats_n_arg_keys;
    struct spoor_stats_run *run = spoor_stats_begin(2);
    struct spoor_sink sink = spoor_stats_sink(run);
    struct spoor_load_result res;
    struct spoor_error err;
    assert_int_equal(spoor_load(l->paths, 2, &opts, &sink, &res, &err), SPOOR_OK);
    struct spoor_stats stats;
    spoor_stats_end(run, &stats);
    assert_int_equal(number(l->s, "SELECT count(*) FROM events WHERE ph IS NOT 'M'"), (int64_t)stats.events);
    assert_int_equal(number(l->s, "SELECT count(*) FROM events WHERE ph = 'M'"), (int64_t)stats.metadata_events);
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_prepare_v2(spoor_sql_db(l->s),
                                        "SELECT coalesce(cat, ''), coalesce(name, ''), count(*), count(dur), "
                                        "sum(dur), min(dur), max(dur) FROM events WHERE ph IS NOT 'M' "
                                        "GROUP BY cat, name ORDER BY 1, 2",
                                        -1, &st, NULL),
                     SQLITE_OK);
    size_t groups = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        const char *cat = (const char *)sqlite3_column_text(st, 0), *name = (const char *)sqlite3_column_text(st, 1);
        const struct spoor_stats_group *g = NULL;
        for (size_t i = 0; i < stats.nby_name && !g; i++)
            if (!strcmp(stats.by_name[i].cat, cat) && !strcmp(stats.by_name[i].name, name))
                g = &stats.by_name[i];
        if (!g)
            fail_msg("group %s/%s is not in stats", cat, name);
        assert_int_equal(sqlite3_column_int64(st, 2), g->dur.count);
        assert_int_equal(sqlite3_column_int64(st, 3), g->dur.timed);
        if (g->dur.timed) {
            assert_int_equal(sqlite3_column_int64(st, 4), g->dur.sum);
            assert_int_equal(sqlite3_column_int64(st, 5), g->dur.min);
            assert_int_equal(sqlite3_column_int64(st, 6), g->dur.max);
        }
        groups++;
    }
    sqlite3_finalize(st);
    assert_int_equal(groups, stats.nby_name);
    assert_true(groups > 10);
    spoor_stats_free(&stats);
    spoor_load_result_free(&res);
}

static void test_params(void **state)
{
    struct loaded *l = *state;
    int st;
    struct spoor_sql_param inject = {"n", "x' OR 1=1 --"};
    char *out = run_fmt(l->s, "SELECT count(*) FROM events WHERE name = :n", SPOOR_SQL_CSV, &inject, 1, &st, NULL);
    assert_int_equal(st, SPOOR_OK);
    assert_string_equal(out, "count(*)\n0\n");
    free(out);
    struct spoor_sql_param params[] = {{":n", "open"}, {"i", "42"}, {"$r", "1.5"}, {"t", "12abc"}, {"big", "1e400"}};
    out = run_fmt(l->s, "SELECT count(*) > 0, typeof(:i), typeof(@r), typeof($t), typeof(:big), :i + 1 "
                        "FROM events WHERE name = :n",
                  SPOOR_SQL_CSV, params, 5, &st, NULL);
    assert_int_equal(st, SPOOR_OK);
    assert_string_equal(strchr(out, '\n') + 1, "1,integer,real,text,text,43\n");
    free(out);
    /* The same parameter in every statement; a missing one is an error. */
    out = run_fmt(l->s, "SELECT :i; SELECT :i * 2", SPOOR_SQL_CSV, params, 5, &st, NULL);
    assert_string_equal(out, ":i\n42\n\n:i * 2\n84\n");
    free(out);
    out = run_fmt(l->s, "SELECT :missing", SPOOR_SQL_CSV, params, 5, &st, NULL);
    assert_int_equal(st, SPOOR_EUSAGE);
    free(out);
    out = run_fmt(l->s, "SELECT ?", SPOOR_SQL_CSV, params, 5, &st, NULL);
    assert_int_equal(st, SPOOR_EUSAGE);
    free(out);
}

static void test_statements_and_errors(void **state)
{
    struct loaded *l = *state;
    int st;
    long offset;
    char *out = run_fmt(l->s,
                        "CREATE TEMP TABLE o AS SELECT ts FROM events WHERE name = 'open';\n"
                        "-- a comment\n"
                        "SELECT count(*) AS n FROM o; SELECT 'a,b' AS x;",
                        SPOOR_SQL_CSV, NULL, 0, &st, &offset);
    assert_int_equal(st, SPOOR_OK);
    assert_int_equal(offset, -1);
    char want[128];
    snprintf(want, sizeof want, "n\n%lld\n\nx\n\"a,b\"\n",
             (long long)number(l->s, "SELECT count(*) FROM events WHERE name = 'open'"));
    assert_string_equal(out, want);
    free(out);

    const char *q = "SELECT 1;\nSELECT nme\n  FROM events";
    out = run_fmt(l->s, q, SPOOR_SQL_CSV, NULL, 0, &st, &offset);
    assert_int_equal(st, SPOOR_EUSAGE);
    assert_int_equal(offset, strstr(q, "nme") - q);
    free(out);
    struct capture c = {0};
    c.fp = open_memstream(&c.text, &c.len);
    spoor_sql_print_caret(c.fp, q, offset);
    fclose(c.fp);
    assert_string_equal(c.text, "SELECT nme\n       ^\n");
    free(c.text);

    out = run_fmt(l->s, "SELECT 1 FORM events", SPOOR_SQL_CSV, NULL, 0, &st, &offset);
    assert_int_equal(st, SPOOR_EUSAGE);
    assert_int_equal(offset, 14);
    free(out);
    /* An error while running has no position. */
    out = run_fmt(l->s, "SELECT abs(-9223372036854775807 - 1)", SPOOR_SQL_CSV, NULL, 0, &st, &offset);
    assert_int_equal(st, SPOOR_EFORMAT);
    assert_int_equal(offset, -1);
    free(out);
}

int main(void)
{
    const struct CMUnitTest hand[] = {
        cmocka_unit_test(test_columns_and_types),
        cmocka_unit_test(test_columns_read),
        cmocka_unit_test(test_formats),
    };
    const struct CMUnitTest shared[] = {
        cmocka_unit_test(test_pushdown),
        cmocka_unit_test(test_ordering),
        cmocka_unit_test(test_group_by_equals_stats),
        cmocka_unit_test(test_params),
        cmocka_unit_test(test_statements_and_errors),
    };
    int failed = cmocka_run_group_tests_name("sql on a hand-made table", hand, NULL, NULL);
    testutil_data("pfw"); /* skips (77) without the shared data */
    return failed | cmocka_run_group_tests_name("sql on shared traces", shared, load_shared, unload_shared);
}
