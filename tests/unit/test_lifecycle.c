/* The lifecycle recipe, white-box (ops/lifecycle_pivot.h, analyze/lifecycle.h):
 * the Python-logging reader, spec parsing, the pivot (first times, repeats,
 * attributes, merging workers) and the analysis (delays, fill rule, groups,
 * kinds, top-N, compare, the boxes and util's quantile) on hand-made logs. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "analyze/lifecycle.h"
#include "ops/lc_entities.h"
#include "ops/lifecycle_pivot.h"
#include "read_harness.h"
#include "spoor/lifecycle.h"
#include "testutil.h"
#include "util/quantile.h"

static const struct spoor_read_opts sched_opts = {.field_ts = "at", .field_name = "entity", .field_cat = "action",
                                                  .ts_unit = SPOOR_UNIT_NS};

/* The prefix's own colons (the time) and colons in values both parse. */
static void test_pylog_fields(void **state)
{
    (void)state;
    const char text[] = "2024-05-01 12:00:00,123:INFO:cascade.gw:4711:entity=f(0, 1):ab;action=taskPlanned;"
                        "worker=h0:w1;n=42;at=1000\n"
                        "\n"
                        "Traceback (most recent call last):\n"
                        "2024-05-01 12:00:00,124:INFO:cascade.gw:4711:entity=f(0, 1):ab;action=taskFinished;at=x\n"
                        "2024-05-01 12:00:00,125:INFO:cascade.gw:4711:entity=g;action=taskStarted;=3;at=5\n"
                        "2024-05-01 12:00:00,126:INFO:cascade.gw:4711:entity=g;action=taskStarted;at=7\r\n";
    struct harness h;
    assert_int_equal(spoor_format_pylog.sniff(text, sizeof text - 1), 70);
    assert_int_equal(harness_load(&spoor_format_pylog, text, sizeof text - 1, sizeof text - 1, 0, &sched_opts, &h),
                     SPOOR_OK);
    struct spoor_table *t = h.table;
    assert_int_equal(t->nrows, 2);
    assert_string_equal(spoor_table_str(t, t->name[0]), "f(0, 1):ab");
    assert_string_equal(spoor_table_str(t, t->cat[0]), "taskPlanned");
    assert_true(t->ts[0] == 1000 && t->ts[1] == 7);
    assert_string_equal(harness_cell(&h, "worker", 0), "h0:w1");
    assert_int_equal(spoor_table_find_column(t, "n")->type, SPOOR_I64);
    assert_int_equal(t->line[1], 6);
    assert_int_equal(h.skips.total, 3);
    assert_int_equal(h.skips.sample[0].line, 3);
    assert_string_equal(h.skips.sample[0].reason, "not a log record with a k=v message");
    assert_string_equal(h.skips.sample[1].reason, "ts is not a number or an ISO-8601 time");
    assert_string_equal(h.skips.sample[2].reason, "empty key in k=v message");
    harness_free(&h);

    struct spoor_read_opts strict = sched_opts;
    strict.strict = true;
    assert_int_equal(harness_load(&spoor_format_pylog, text, sizeof text - 1, sizeof text - 1, 0, &strict, &h),
                     SPOOR_ESTRICT);
    assert_non_null(strstr(h.err.msg, "line 3"));
    harness_free(&h);
}

static void test_pylog_sniff(void **state)
{
    (void)state;
    assert_int_equal(spoor_format_pylog.sniff("{\"a\":1}\n", 8), 0);
    assert_int_equal(spoor_format_pylog.sniff("a,b=1,c\n1,2,3\n", 14), 0);
    assert_int_equal(spoor_format_pylog.sniff("t:INFO:x:1:a=1\n", 15), 70);
}

static void test_spec_errors(void **state)
{
    (void)state;
    struct spoor_lc_spec s = {0};
    struct spoor_error err;
    assert_int_equal(spoor_lc_spec_stages(&s, "a,,b", &err), SPOOR_EUSAGE);
    assert_int_equal(spoor_lc_spec_stages(&s, "a,b,a", &err), SPOOR_EUSAGE);
    assert_int_equal(spoor_lc_spec_stages(&s, "a,b,c", &err), SPOOR_OK);
    assert_int_equal(spoor_lc_spec_delay(&s, "x=c", &err), SPOOR_EUSAGE);
    assert_int_equal(spoor_lc_spec_delay(&s, "x=c-z", &err), SPOOR_EUSAGE);
    assert_non_null(strstr(err.msg, "'z' is not one of the --stages"));
    assert_int_equal(spoor_lc_spec_delay(&s, "x=c-a", &err), SPOOR_OK);
    assert_int_equal(spoor_lc_spec_delay(&s, "x=b-a", &err), SPOOR_EUSAGE);
    assert_int_equal(spoor_lc_spec_fill(&s, "b=c", &err), SPOOR_OK);
    assert_int_equal(spoor_lc_spec_finish(&s, &err), SPOOR_EUSAGE); /* --fill without --fill-if */
    assert_int_equal(spoor_lc_spec_fill_if(&s, "mode=local", &err), SPOOR_OK);
    assert_int_equal(spoor_lc_spec_top_by(&s, "nope", &err), SPOOR_EUSAGE);
    assert_int_equal(spoor_lc_spec_finish(&s, &err), SPOOR_OK);
    spoor_lc_spec_free(&s);
    assert_int_equal(spoor_lc_spec_preset(&s, "cascade-nothing", &err), SPOOR_EUSAGE);
    assert_int_equal(spoor_lc_spec_preset(&s, "cascade-tasks", &err), SPOOR_OK);
    assert_int_equal(spoor_lc_spec_finish(&s, &err), SPOOR_OK);
    assert_string_equal(s.delay[s.top_delay].name, "total");
    assert_int_equal(s.nby, 2);
    spoor_lc_spec_free(&s);
}

static void test_kind_and_relative(void **state)
{
    (void)state;
    assert_int_equal(spoor_lc_kind_len("retrieve(0, 11):ab", 18), 8);
    assert_int_equal(spoor_lc_kind_len("ds:ab", 5), 2);
    assert_int_equal(spoor_lc_kind_len("plain", 5), 5);
    assert_true(spoor_lc_relative(100, 150) == 0.5);
    assert_true(isnan(spoor_lc_relative(0, 5)));
}

/* Records: entity, stage, time, mode. */
struct rec {
    const char *entity, *stage;
    int64_t at;
    const char *mode;
};

static void feed(struct spoor_lc_pivot *p, int worker, const struct rec *r, size_t n)
{
    struct spoor_table *t = spoor_table_new();
    struct spoor_column *mode = spoor_table_column(t, spoor_table_intern(t, "mode", 4));
    for (size_t i = 0; i < n; i++) {
        size_t row = spoor_table_add_row(t);
        t->name[row] = spoor_table_intern(t, r[i].entity, strlen(r[i].entity));
        t->cat[row] = spoor_table_intern(t, r[i].stage, strlen(r[i].stage));
        t->ts[row] = r[i].at;
        struct spoor_value v = {.type = SPOOR_STR, .str = spoor_table_intern(t, r[i].mode, strlen(r[i].mode)),
                                .text = r[i].mode, .text_len = strlen(r[i].mode)};
        spoor_table_set(t, mode, row, &v);
    }
    struct spoor_sink sink = spoor_lc_pivot_sink(p);
    assert_int_equal(sink.map(sink.ctx, worker, t), SPOOR_OK);
    spoor_table_free(t);
}

/* The records each worker parsed. */
struct part {
    const struct rec *rec;
    size_t n;
};

static struct spoor_lc_pivot *pivot_of(const struct spoor_lc_spec *s, const struct part *parts, int workers)
{
    static const char *fields[SPOOR_LC_MAX_FIELDS];
    size_t n = spoor_lc_spec_fields(s, fields);
    struct spoor_lc_pivot *p = spoor_lc_pivot_begin(workers, s, fields, n);
    for (int w = 0; w < workers; w++)
        feed(p, w, parts[w].rec, parts[w].n);
    spoor_lc_pivot_merge(p);
    return p;
}

static void transmits_spec(struct spoor_lc_spec *s, size_t top)
{
    struct spoor_error err;
    *s = (struct spoor_lc_spec){.top = top};
    assert_int_equal(spoor_lc_spec_preset(s, "cascade-transmits", &err), SPOOR_OK);
    assert_int_equal(spoor_lc_spec_finish(s, &err), SPOOR_OK);
}

/* Transfers: one local (Planned and Finished only), one remote with a
 * repeated Started, one missing its Loaded; the log split over two workers. */
static void test_transfers(void **state)
{
    (void)state;
    struct spoor_lc_spec s;
    transmits_spec(&s, 2);
    const struct rec w0[] = {
        {"x(1):a@h1", "transmitPlanned", 100, "local"},
        {"x(2):b@h0", "transmitPlanned", 200, "remote"},
        {"x(2):b@h0", "transmitStarted", 260, "remote"},
        {"x(3):c@h0", "transmitPlanned", 300, "remote"},
        {"x(3):c@h0", "taskStarted", 300, "remote"},
    };
    const struct rec w1[] = {
        {"x(1):a@h1", "transmitFinished", 130, "local"},
        {"x(2):b@h0", "transmitStarted", 250, "remote"},
        {"x(2):b@h0", "transmitLoaded", 400, "remote"},
        {"x(2):b@h0", "transmitFinished", 1000, "remote"},
        {"x(3):c@h0", "transmitStarted", 310, "remote"},
        {"x(3):c@h0", "transmitFinished", 320, "remote"},
    };
    struct spoor_lc_pivot *p = pivot_of(&s, (const struct part[]){{w0, 5}, {w1, 6}}, 2);
    assert_int_equal(spoor_lc_pivot_entities(p), 3);
    struct spoor_lc_counts c = spoor_lc_pivot_counts(p);
    assert_int_equal(c.records, 11);
    assert_int_equal(c.other_stage, 1);
    struct spoor_lc_result r;
    spoor_lc_analyze(&s, p, NULL, &r);
    assert_int_equal(r.entities, 3);
    assert_int_equal(r.filled, 1);
    /* comm: local 30 (Finished - Planned), b 50 (first Started), c 10 */
    assert_int_equal(r.total[0].count, 3);
    assert_int_equal(r.total[0].sum, 90);
    assert_int_equal(r.total[0].min, 10);
    assert_int_equal(r.total[0].max, 50);
    /* load: local 0, b 150; c has no Loaded */
    assert_int_equal(r.total[1].count, 2);
    assert_int_equal(r.total[1].sum, 150);
    /* groups by mode (the preset's second --by) */
    assert_int_equal(r.ngroups[1], 2);
    assert_string_equal(r.group[1][0].value, "local");
    assert_int_equal(r.group[1][0].delay[3].sum, 30);
    assert_string_equal(r.group[1][1].value, "remote");
    assert_int_equal(r.group[1][1].entities, 2);
    assert_int_equal(r.group[1][1].delay[3].sum, 800 + 20);
    /* the worker field is absent: one group "" */
    assert_int_equal(r.ngroups[0], 1);
    assert_string_equal(r.group[0][0].value, "");
    assert_int_equal(r.nkinds, 1);
    assert_string_equal(r.kind[0].kind, "x");
    assert_int_equal(r.kind[0].complete, 2);
    assert_int_equal(r.kind[0].missing[2], 1);
    assert_int_equal(r.kind[0].repeated[1], 1);
    assert_int_equal(r.ntop, 2);
    assert_string_equal(r.top[0].name, "x(2):b@h0");
    assert_int_equal(r.top[0].delay[3], 800);
    assert_string_equal(r.top[1].name, "x(1):a@h1");
    spoor_lc_result_free(&r);

    /* Against a run where b is faster and a is absent, plus one new entity. */
    const struct rec o0[] = {
        {"x(2):b@h0", "transmitPlanned", 0, "remote"},
        {"x(2):b@h0", "transmitStarted", 10, "remote"},
        {"x(2):b@h0", "transmitLoaded", 20, "remote"},
        {"x(2):b@h0", "transmitFinished", 400, "remote"},
    };
    const struct rec o1[] = {
        {"x(3):c@h0", "transmitPlanned", 0, "remote"},
        {"x(3):c@h0", "transmitFinished", 40, "remote"},
        {"y:d", "transmitPlanned", 0, "remote"},
    };
    struct spoor_lc_pivot *o = pivot_of(&s, (const struct part[]){{o0, 4}, {o1, 3}}, 2);
    spoor_lc_analyze(&s, p, o, &r);
    assert_true(r.compared);
    assert_int_equal(r.matched, 2);
    assert_int_equal(r.only_here, 1);
    assert_int_equal(r.only_other, 1);
    assert_int_equal(r.diff[3].count, 2);
    assert_int_equal(r.diff[3].sum_a, 820);
    assert_int_equal(r.diff[3].sum_b, 440);
    assert_int_equal(r.ntop_diff, 2);
    assert_string_equal(r.top_diff[0].name, "x(2):b@h0");
    assert_int_equal(r.top_diff[0].other[3], 400);
    assert_int_equal(r.top_diff[1].other[3], 40);
    spoor_lc_result_free(&r);
    spoor_lc_pivot_free(o);
    spoor_lc_pivot_free(p);
    spoor_lc_spec_free(&s);
}

/* Quantiles by linear interpolation (numpy's default): even and odd counts,
 * one value, and values near 2^50 kept exact. */
static void test_quantile(void **state)
{
    (void)state;
    const int64_t even[] = {10, 20, 30, 40}, odd[] = {1, 2, 3, 4, 100}, one[] = {7};
    assert_true(spoor_quantile_sorted(even, 4, 0.25) == 17.5);
    assert_true(spoor_quantile_sorted(even, 4, 0.5) == 25);
    assert_true(spoor_quantile_sorted(even, 4, 0.75) == 32.5);
    assert_true(spoor_quantile_sorted(even, 4, 0) == 10 && spoor_quantile_sorted(even, 4, 1) == 40);
    assert_true(spoor_quantile_sorted(odd, 5, 0.25) == 2);
    assert_true(spoor_quantile_sorted(odd, 5, 0.5) == 3);
    assert_true(spoor_quantile_sorted(odd, 5, 0.75) == 4);
    assert_true(spoor_quantile_sorted(one, 1, 0.25) == 7 && spoor_quantile_sorted(one, 1, 0.75) == 7);
    const int64_t big[] = {(INT64_C(1) << 50) + 1, (INT64_C(1) << 50) + 2};
    assert_true(spoor_quantile_sorted(big, 2, 0.25) == (double)(INT64_C(1) << 50) + 1.25);
    const int64_t apart[] = {INT64_MIN + 1, INT64_MAX}; /* a step wider than int64_t */
    assert_true(spoor_quantile_sorted(apart, 2, 0.5) == 0.0);
}

/* Tukey's whiskers: outliers beyond 1.5 IQR counted, the whisker at the
 * farthest value inside, or at the box when that value lies inside it. */
static void test_box_of(void **state)
{
    (void)state;
    const int64_t tail[] = {1, 2, 3, 4, 100};
    struct spoor_lc_box b = spoor_lc_box_of(tail, 5);
    assert_true(b.p25 == 2 && b.median == 3 && b.p75 == 4);
    assert_true(b.low == 1 && b.high == 4); /* fences -1 and 7 */
    assert_int_equal(b.below, 0);
    assert_int_equal(b.above, 1);
    const int64_t gap[] = {0, 0, 1000, 1000, 1000, 1000, 1000, 1000};
    b = spoor_lc_box_of(gap, 8); /* p25 750, p75 1000, fences 375 and 1375 */
    assert_true(b.p25 == 750 && b.median == 1000 && b.p75 == 1000);
    assert_true(b.low == 750 && b.high == 1000);
    assert_int_equal(b.below, 2);
    assert_int_equal(b.above, 0);
    const int64_t one[] = {-5};
    b = spoor_lc_box_of(one, 1);
    assert_true(b.p25 == -5 && b.median == -5 && b.p75 == -5 && b.low == -5 && b.high == -5);
    assert_int_equal(b.below + b.above, 0);
}

/* Transfers of modes a (4: an even count), b (5: odd, one outlier), c (one)
 * and d (some stages missing); their total = Finished - Planned, and only d2
 * has a comm. The log is split over two workers; the boxes per mode and over
 * all come out of one sort per delay. */
static void test_group_boxes(void **state)
{
    (void)state;
    struct spoor_lc_spec s;
    transmits_spec(&s, 0);
    const struct rec w0[] = {
        {"a1", "transmitPlanned", 0, "a"},   {"a1", "transmitFinished", 10, "a"},
        {"a2", "transmitPlanned", 0, "a"},   {"a2", "transmitFinished", 20, "a"},
        {"b1", "transmitPlanned", 0, "b"},   {"b1", "transmitFinished", 1, "b"},
        {"b2", "transmitPlanned", 0, "b"},   {"b2", "transmitFinished", 100, "b"},
        {"b3", "transmitPlanned", 0, "b"},   {"c1", "transmitPlanned", 100, "c"},
        {"d1", "transmitPlanned", 0, "d"},   {"d1", "transmitStarted", 5, "d"},
        {"d3", "transmitPlanned", 0, "d"},
    };
    const struct rec w1[] = {
        {"a3", "transmitPlanned", 0, "a"},   {"a3", "transmitFinished", 30, "a"},
        {"a4", "transmitPlanned", 0, "a"},   {"a4", "transmitFinished", 40, "a"},
        {"b3", "transmitFinished", 2, "b"},  {"b4", "transmitPlanned", 0, "b"},
        {"b4", "transmitFinished", 3, "b"},  {"b5", "transmitPlanned", 0, "b"},
        {"b5", "transmitFinished", 4, "b"},  {"c1", "transmitFinished", 107, "c"},
        {"d2", "transmitPlanned", 0, "d"},   {"d2", "transmitFinished", 50, "d"},
    };
    struct spoor_lc_pivot *p = pivot_of(&s, (const struct part[]){{w0, 13}, {w1, 12}}, 2);
    struct spoor_lc_result r;
    spoor_lc_analyze(&s, p, NULL, &r);
    enum { COMM = 0, LOAD = 1, TOTAL = 3, MODE = 1 };
    assert_int_equal(r.ngroups[MODE], 4);
    const struct spoor_lc_group *a = &r.group[MODE][0], *b = &r.group[MODE][1], *c = &r.group[MODE][2],
                                *d = &r.group[MODE][3];
    assert_string_equal(d->value, "d");
    struct spoor_lc_box x = a->delay[TOTAL].box;
    assert_true(x.p25 == 17.5 && x.median == 25 && x.p75 == 32.5 && x.low == 10 && x.high == 40);
    x = b->delay[TOTAL].box;
    assert_true(x.p25 == 2 && x.median == 3 && x.p75 == 4 && x.low == 1 && x.high == 4);
    assert_int_equal(x.above, 1);
    x = c->delay[TOTAL].box;
    assert_true(x.p25 == 7 && x.median == 7 && x.p75 == 7 && x.low == 7 && x.high == 7);
    assert_int_equal(d->entities, 3);
    assert_int_equal(d->delay[TOTAL].count, 1);
    assert_true(d->delay[TOTAL].box.median == 50);
    assert_int_equal(d->delay[COMM].count, 1);
    assert_true(d->delay[COMM].box.p25 == 5 && d->delay[COMM].box.p75 == 5);
    assert_int_equal(a->delay[COMM].count, 0);
    assert_int_equal(r.total[LOAD].count, 0);
    /* over all: 1 2 3 4 7 10 20 30 40 50 100 */
    x = r.total[TOTAL].box;
    assert_int_equal(r.total[TOTAL].count, 11);
    assert_true(x.p25 == 3.5 && x.median == 10 && x.p75 == 35 && x.low == 1 && x.high == 50);
    assert_int_equal(x.below, 0);
    assert_int_equal(x.above, 1);
    /* the worker field is absent: one group "", the same box as over all */
    assert_int_equal(r.ngroups[0], 1);
    assert_memory_equal(&r.group[0][0].delay[TOTAL].box, &x, sizeof x);
    spoor_lc_result_free(&r);

    /* --compare: the other log's own groups, c's total now 9 and a new mode e; its
     * second worker parsed an empty batch */
    const struct rec o0[] = {{"c1", "transmitPlanned", 0, "c"}, {"c1", "transmitFinished", 9, "c"},
                             {"e1", "transmitPlanned", 0, "e"}};
    struct spoor_lc_pivot *o = pivot_of(&s, (const struct part[]){{o0, 3}, {NULL, 0}}, 2);
    spoor_lc_analyze(&s, p, o, &r);
    assert_int_equal(r.nother_groups[MODE], 2);
    assert_string_equal(r.other_group[MODE][0].value, "c");
    assert_true(r.other_group[MODE][0].delay[TOTAL].box.median == 9);
    assert_string_equal(r.other_group[MODE][1].value, "e");
    assert_int_equal(r.other_group[MODE][1].delay[TOTAL].count, 0);
    assert_true(r.group[MODE][2].delay[TOTAL].box.median == 7); /* this log's c as it was */
    spoor_lc_result_free(&r);
    spoor_lc_pivot_free(o);
    spoor_lc_pivot_free(p);
    spoor_lc_spec_free(&s);
}

static void mark_row(void *row, const void *ctx)
{
    *(uint64_t *)row = *(const uint64_t *)ctx;
}

/* Three workers: an entity seen by the second and third only stays with the
 * second, one seen by the first and third with the first; either way its
 * rows are folded (earliest times, counts added, the earlier record's
 * attribute, the later one's for a transfer's mode), and find() names the
 * one kept. */
static void test_merge_three_workers(void **state)
{
    (void)state;
    struct spoor_lc_spec s;
    transmits_spec(&s, 3);
    const char *fields[SPOOR_LC_MAX_FIELDS];
    size_t mode = spoor_lc_spec_fields(&s, fields) - 2; /* worker, mode, host */
    const struct rec w0[] = {{"b", "transmitPlanned", 50, "remote"}, {"d", "transmitPlanned", 7, "local"}};
    const struct rec w1[] = {{"a", "transmitPlanned", 10, "remote"}, {"a", "transmitStarted", 30, "remote"}};
    const struct rec w2[] = {{"a", "transmitStarted", 20, "remote"}, {"b", "transmitPlanned", 50, "local"},
                             {"b", "transmitFinished", 90, "redundant"}, {"c", "transmitPlanned", 5, "local"}};
    struct spoor_lc_pivot *p = pivot_of(&s, (const struct part[]){{w0, 2}, {w1, 2}, {w2, 4}}, 3);
    assert_int_equal(spoor_lc_pivot_entities(p), 4);
    assert_int_equal(spoor_lc_pivot_counts(p).records, 8);
    size_t a = spoor_lc_pivot_find(p, "a", 1), b = spoor_lc_pivot_find(p, "b", 1), c = spoor_lc_pivot_find(p, "c", 1);
    size_t d = spoor_lc_pivot_find(p, "d", 1);
    assert_true(a && b && c && d && a != b && b != c && a != c && d != c);
    assert_int_equal(spoor_lc_pivot_find(p, "e", 1), 0);
    assert_string_equal(spoor_lc_pivot_name(p, a), "a");
    assert_int_equal(spoor_lc_pivot_times(p, a)[0], 10);
    assert_int_equal(spoor_lc_pivot_times(p, a)[1], 20);
    assert_int_equal(spoor_lc_pivot_seen(p, a)[1], 2);
    assert_int_equal(spoor_lc_pivot_times(p, b)[3], 90);
    assert_int_equal(spoor_lc_pivot_seen(p, b)[0], 2);
    /* A transfer's mode is its latest record's (90, on the third worker), not
     * the earliest (50, remote and local on two workers). */
    assert_string_equal(spoor_lc_pivot_attr(p, b, mode), "redundant");
    assert_string_equal(spoor_lc_pivot_attr(p, c, mode), "local");
    assert_string_equal(spoor_lc_pivot_attr(p, a, mode), "remote");
    assert_int_equal(spoor_lc_pivot_attr_id(p, d, mode), spoor_lc_pivot_attr_id(p, c, mode)); /* w0's, w2's */
    spoor_lc_pivot_free(p);
    spoor_lc_spec_free(&s);
}

static uint32_t find(const struct lc_entities *e, const char *name, size_t len)
{
    return lc_entities_find_hashed(e, name, len, (uint32_t)spoor_hash_bytes(name, len));
}

/* The entity table: ids 1..n in order of first sight, names and fresh rows
 * intact across growth of the slots, rows and arena, equal hashes told apart
 * by the name. */
static void test_entity_table(void **state)
{
    (void)state;
    const uint64_t mark = 0x5eed;
    struct lc_entities e;
    lc_entities_init(&e, sizeof(uint64_t), mark_row, &mark);
    assert_int_equal(find(&e, "a", 1), 0);
    char name[32];
    enum { N = 20000 };
    for (uint32_t i = 0; i < N; i++) {
        int n = snprintf(name, sizeof name, "task(%u):x", i);
        uint32_t hash = i % 3 ? (uint32_t)spoor_hash_bytes(name, (size_t)n) : 7; /* collisions too */
        assert_int_equal(lc_entities_get(&e, name, (size_t)n, hash), i + 1);
        *(uint64_t *)lc_entities_row(&e, i + 1) += i;
    }
    lc_entities_reserve(&e, N);
    for (uint32_t i = 0; i < N; i += 997) {
        int n = snprintf(name, sizeof name, "task(%u):x", i);
        uint32_t hash = i % 3 ? (uint32_t)spoor_hash_bytes(name, (size_t)n) : 7;
        assert_int_equal(lc_entities_get(&e, name, (size_t)n, hash), i + 1);
        size_t len;
        assert_string_equal(lc_entities_name(&e, i + 1, &len), name);
        assert_int_equal(len, (size_t)n);
        assert_int_equal(*(uint64_t *)lc_entities_row(&e, i + 1), mark + i);
        if (i % 3)
            assert_int_equal(find(&e, name, (size_t)n), i + 1);
    }
    assert_int_equal(e.count, N);
    assert_int_equal(find(&e, "task(0):y", 9), 0);
    lc_entities_free(&e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pylog_fields),
        cmocka_unit_test(test_pylog_sniff),
        cmocka_unit_test(test_spec_errors),
        cmocka_unit_test(test_kind_and_relative),
        cmocka_unit_test(test_transfers),
        cmocka_unit_test(test_quantile),
        cmocka_unit_test(test_box_of),
        cmocka_unit_test(test_group_boxes),
        cmocka_unit_test(test_merge_three_workers),
        cmocka_unit_test(test_entity_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
