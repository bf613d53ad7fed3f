/* The series recipe: the UTC offset option, moment merging that keeps precision under
 * large offsets, and a run over hand-made batches on two workers (metrics in
 * input order, groups in natural order, missing and non-numeric values
 * counted, hour/weekday slots and resampling buckets). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <string.h>

#include <cmocka.h>

#include "spoor/series.h"

static const int64_t hour_ns = 3600000000000LL;
static const int64_t monday_ns = 1704067200000000000LL; /* 2024-01-01T00:00:00Z */

static void test_parse_offset(void **state)
{
    (void)state;
    int64_t ns;
    assert_true(spoor_series_parse_offset("+05:30", &ns) && ns == 5 * hour_ns + hour_ns / 2);
    assert_true(spoor_series_parse_offset("-08", &ns) && ns == -8 * hour_ns);
    assert_true(spoor_series_parse_offset("+0530", &ns) && ns == 5 * hour_ns + hour_ns / 2);
    assert_true(spoor_series_parse_offset("Z", &ns) && ns == 0);
    const char *bad[] = {"5", "+5", "+15:00", "+05:60", "+05:", "++05", ""};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        assert_false(spoor_series_parse_offset(bad[i], &ns));
}

/* A batch of rows (time in hours after Monday 00:00 UTC, group, cpu as a
 * number or NaN = absent, mem as text). */
struct row {
    int64_t hour;
    const char *group;
    double cpu;
    const char *mem;
};

static struct spoor_table *batch(const struct row *rows, size_t n)
{
    struct spoor_table *t = spoor_table_new();
    struct spoor_column *cpu = spoor_table_column(t, spoor_table_intern(t, "cpu", 3));
    struct spoor_column *mem = spoor_table_column(t, spoor_table_intern(t, "mem", 3));
    for (size_t i = 0; i < n; i++) {
        size_t r = spoor_table_add_row(t);
        t->ts[r] = rows[i].hour < 0 ? SPOOR_NULL : monday_ns + rows[i].hour * hour_ns;
        t->name[r] = spoor_table_intern(t, rows[i].group, strlen(rows[i].group));
        cpu = &t->cols[0];
        if (!isnan(rows[i].cpu))
            spoor_table_set(t, cpu, r, &(struct spoor_value){.type = SPOOR_F64, .f64 = rows[i].cpu});
        mem = &t->cols[1];
        uint32_t s = spoor_table_intern(t, rows[i].mem, strlen(rows[i].mem));
        spoor_table_set(t, mem, r, &(struct spoor_value){.type = SPOOR_STR, .str = s});
    }
    return t;
}

/* A run of two workers: batch b mapped on worker 1, then batch a on worker 0,
 * reduced in the order a, b. */
static void run_two_workers(const struct spoor_series_opts *opts, const struct row *a, size_t na, const struct row *b,
                            size_t nb, struct spoor_series *s)
{
    struct spoor_series_run *run = spoor_series_begin(opts, 2);
    struct spoor_sink sink = spoor_series_sink(run);
    struct spoor_table *ta = batch(a, na), *tb = batch(b, nb);
    assert_int_equal(sink.map(sink.ctx, 1, tb), 0);
    assert_int_equal(sink.map(sink.ctx, 0, ta), 0);
    assert_int_equal(sink.reduce(sink.ctx, 0, ta), 0);
    assert_int_equal(sink.reduce(sink.ctx, 0, tb), 0);
    spoor_series_end(run, s);
    spoor_table_free(ta);
    spoor_table_free(tb);
}

static void test_run_on_two_workers(void **state)
{
    (void)state;
    const struct row a[] = {{0, "node10", 1.0, "5"}, {1, "node2", 3.0, "7"}, {-1, "node2", NAN, "n/a"}};
    const struct row b[] = {{25, "node10", 5.0, "9"}, {1, "node2", 7.0, "11"}};
    struct spoor_series_opts opts = {.groups = true, .profile = true, .corr = true, .resample_ns = 24 * hour_ns};
    struct spoor_series s;
    run_two_workers(&opts, a, 3, b, 2, &s);

    assert_int_equal(s.rows, 5);
    assert_int_equal(s.rows_without_time, 1);
    assert_int_equal(s.nmetrics, 2);
    assert_string_equal(s.metrics[0].name, "cpu");
    assert_int_equal(s.metrics[0].all.n, 4);
    assert_int_equal(s.metrics[0].missing, 1);
    assert_true(s.metrics[0].all.sum == 16.0);
    assert_true(s.metrics[0].all.min == 1.0 && s.metrics[0].all.max == 7.0);
    assert_string_equal(s.metrics[1].name, "mem");
    assert_int_equal(s.metrics[1].non_numeric, 1);
    assert_int_equal(s.metrics[1].missing, 0);

    assert_int_equal(s.ngroups, 2);
    assert_string_equal(s.groups[0], "node2"); /* natural order */
    assert_string_equal(s.groups[1], "node10");
    const struct spoor_moments *n2 = &s.group_moments[0 * 2 + 0];
    assert_int_equal(n2->n, 2);
    assert_true(n2->sum == 10.0);
    assert_true(fabs(spoor_moments_std(n2) - sqrt(8.0)) < 1e-12);

    /* Monday 01:00 holds two cpu values (3 and 7); Tuesday 01:00 one (5). */
    assert_int_equal(s.hour_weekday[(0 * 24 + 1) * 2 + 0].n, 2);
    assert_true(s.hour_weekday[(0 * 24 + 1) * 2 + 0].sum == 10.0);
    assert_int_equal(s.hour_weekday[(1 * 24 + 1) * 2 + 0].n, 1);
    assert_int_equal(s.hour_weekday_rows[1 * 24 + 1], 1);

    /* mem = 2 cpu + 3 wherever both are numbers: r = 1. */
    assert_int_equal(s.comoments[0 * 2 + 1].n, 4);
    assert_true(fabs(spoor_comoments_r(&s.comoments[0 * 2 + 1]) - 1.0) < 1e-12);

    /* Daily buckets: node2 on Monday; node10 on Monday and Tuesday. */
    assert_int_equal(s.nbuckets, 3);
    assert_int_equal(s.buckets[0].group, 0);
    assert_int_equal(s.buckets[0].rows, 2);
    assert_true(s.buckets[0].start_ns == monday_ns);
    assert_int_equal(s.buckets[2].group, 1);
    assert_true(s.buckets[2].start_ns == monday_ns + 24 * hour_ns);
    assert_true(s.buckets[2].sums[0].sum == 5.0);

    spoor_series_free(&s);
}

/* A bucket that two workers saw sums their parts in worker order, and hourly
 * buckets give the hour x weekday sums in the order a merge of the workers'
 * maps holds them: worker 0's in first sight, then worker 1's new ones. The
 * values make any other order give other bits: (1e16 + 0.3) - 1e16 is 0, not
 * 0.3. */
static void test_buckets_merge_in_worker_order(void **state)
{
    (void)state;
    const struct row a[] = {{336, "n", 1e16, "1"}, {0, "n", 0.1, "1"}};
    const struct row b[] = {{168, "n", -1e16, "1"}, {0, "n", 0.2, "1"}};
    struct spoor_series_opts opts = {.groups = true, .profile = true, .resample_ns = hour_ns};
    struct spoor_series s;
    run_two_workers(&opts, a, 2, b, 2, &s);

    assert_int_equal(s.nbuckets, 3);
    assert_true(s.buckets[0].start_ns == monday_ns);
    assert_int_equal(s.buckets[0].rows, 2);
    double both = 0.1;
    both += 0.2;
    assert_true(s.buckets[0].sums[0].sum == both);
    assert_true(s.buckets[1].sums[0].sum == -1e16 && s.buckets[2].sums[0].sum == 1e16);
    double monday0 = 1e16;
    monday0 += both;
    monday0 += -1e16;
    assert_int_equal(s.hour_weekday[0].n, 4);
    assert_true(s.hour_weekday[0].sum == monday0);
    assert_int_equal(s.hour_weekday_rows[0], 4);

    spoor_series_free(&s);
}

/* Values near 1e9 whose spread is a few units: merged partial moments keep
 * the variance that a naive sum of squares would lose to cancellation. */
static void test_moments_keep_precision_under_offsets(void **state)
{
    (void)state;
    const struct row r1[] = {{0, "", NAN, "1000000004"}, {0, "", NAN, "1000000007"}};
    const struct row r2[] = {{0, "", NAN, "1000000013"}, {0, "", NAN, "1000000016"}};
    struct spoor_series_opts opts = {0};
    struct spoor_series_run *run = spoor_series_begin(&opts, 2);
    struct spoor_sink sink = spoor_series_sink(run);
    struct spoor_table *t1 = batch(r1, 2), *t2 = batch(r2, 2);
    sink.map(sink.ctx, 0, t1);
    sink.map(sink.ctx, 1, t2);
    sink.reduce(sink.ctx, 0, t1);
    sink.reduce(sink.ctx, 0, t2);
    struct spoor_series s;
    spoor_series_end(run, &s);
    assert_int_equal(s.nmetrics, 1); /* cpu never held a number */
    assert_string_equal(s.metrics[0].name, "mem");
    assert_true(fabs(spoor_moments_std(&s.metrics[0].all) - sqrt(30.0)) < 1e-9);
    spoor_series_free(&s);
    spoor_table_free(t1);
    spoor_table_free(t2);
}

/* Float cells 64 rows at a time: a block with an absent cell, one with an
 * infinity (non-numeric) and a short last block, beside full blocks. */
static void test_float_blocks(void **state)
{
    (void)state;
    enum { ROWS = 150 };
    struct row rows[ROWS];
    double sum = 0;
    for (size_t i = 0; i < ROWS; i++) {
        rows[i] = (struct row){0, "", (double)i, "1"};
        sum += i == 70 || i == 100 || i == 140 ? 0 : (double)i;
    }
    rows[70].cpu = NAN; /* absent */
    rows[100].cpu = INFINITY;
    rows[140].cpu = -INFINITY;
    struct spoor_series_opts opts = {.corr = true};
    struct spoor_series_run *run = spoor_series_begin(&opts, 1);
    struct spoor_sink sink = spoor_series_sink(run);
    struct spoor_table *t = batch(rows, ROWS);
    sink.map(sink.ctx, 0, t);
    sink.reduce(sink.ctx, 0, t);
    struct spoor_series s;
    spoor_series_end(run, &s);
    assert_string_equal(s.metrics[0].name, "cpu");
    assert_int_equal(s.metrics[0].all.n, ROWS - 3);
    assert_int_equal(s.metrics[0].missing, 1);
    assert_int_equal(s.metrics[0].non_numeric, 2);
    assert_true(s.metrics[0].all.sum == sum);
    assert_true(s.metrics[0].all.min == 0 && s.metrics[0].all.max == ROWS - 1);
    assert_int_equal(s.comoments[0 * 2 + 1].n, ROWS - 3);
    spoor_series_free(&s);
    spoor_table_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_offset),
        cmocka_unit_test(test_run_on_two_workers),
        cmocka_unit_test(test_buckets_merge_in_worker_order),
        cmocka_unit_test(test_moments_keep_precision_under_offsets),
        cmocka_unit_test(test_float_blocks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
