/* The text tools' readers (mpstat, pmon, pytext, mllog) read the same rows
 * whatever the chunks: every chunk size from a few lines up gives what one
 * chunk gives, midnight rolls, folded continuation lines and start/stop
 * pairs across borders included; and the local-time helper on its own. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "read/local_time.h"
#include "read_harness.h"
#include "testutil.h"

#include <stdlib.h>

static const char mpstat_text[] =
    "Linux 6.1.0 (box) \t12/31/2021 \t_x86_64_\t(2 CPU)\n\n"
    "11:59:58 PM  CPU    %usr   %idle\n"
    "11:59:59 PM  all   10.00   90.00\n"
    "11:59:59 PM    0   20.00   80.00\n\n"
    "11:59:59 PM  CPU    %usr   %idle\n"
    "12:00:00 AM  all    1.50   98.50\n"
    "12:00:00 AM    0    3.00   97.00\n\n"
    "12:00:00 AM  CPU    %usr   %idle\n"
    "12:00:01 AM  all    1.00   99.00\n"
    "12:00:01 AM    0    2.00   98.00\n";

static const char pytext_text[] =
    "2022-03-31 12:05:09,054:INFO: a\n"
    "2022-03-31 12:05:09,055:ERROR:train.loader: died\n"
    "Traceback (most recent call last):\n"
    "  File \"t.py\", line 3\n"
    "ValueError: x\n"
    "2022-03-31 12:05:10,000:INFO: b\n"
    "  more of b\n";

static const char mllog_text[] =
    ":::MLLOG {\"time_ms\": 1000, \"key\": \"epoch_start\", \"metadata\": {\"epoch_num\": 1}}\n"
    "noise\n"
    ":::MLLOG {\"time_ms\": 1500, \"key\": \"epoch_stop\", \"metadata\": {\"epoch_num\": 1}}\n"
    ":::MLLOG {\"time_ms\": 1600, \"key\": \"epoch_start\", \"metadata\": {\"epoch_num\": 2}}\n"
    ":::MLLOG {\"time_ms\": 1700, \"key\": \"eval_stop\", \"metadata\": {\"epoch_num\": 2}}\n";

/* Loads text whole and in chunks of every size from 1 byte (a line each) on,
 * and checks that ts, dur, name and `column` agree row by row. */
static void same_in_every_chunking(const struct spoor_format *f, const char *text, size_t len, const char *column,
                                   size_t want_rows, const struct spoor_read_opts *opts)
{
    struct harness whole;
    assert_int_equal(harness_load(f, text, len, len, 0, opts, &whole), SPOOR_OK);
    assert_int_equal(whole.table->nrows, want_rows);
    for (size_t chunk = 1; chunk < len; chunk += 7) {
        struct harness h;
        assert_int_equal(harness_load(f, text, len, len, chunk, opts, &h), SPOOR_OK);
        assert_int_equal(h.table->nrows, want_rows);
        assert_int_equal(h.skips.total, whole.skips.total);
        for (size_t r = 0; r < want_rows; r++) {
            assert_int_equal(h.table->ts[r], whole.table->ts[r]);
            assert_int_equal(h.table->dur[r], whole.table->dur[r]);
            assert_string_equal(spoor_table_str(h.table, h.table->name[r]),
                                spoor_table_str(whole.table, whole.table->name[r]));
            char a[256];
            snprintf(a, sizeof a, "%s", harness_cell(&whole, column, r));
            assert_string_equal(harness_cell(&h, column, r), a);
        }
        harness_free(&h);
    }
    harness_free(&whole);
}

static void test_mpstat_chunks(void **state)
{
    (void)state;
    struct spoor_read_opts opts = {.utc_offset = "+01:00"};
    same_in_every_chunking(&spoor_format_mpstat, mpstat_text, sizeof mpstat_text - 1, "usr", 6, &opts);
    struct harness h;
    assert_int_equal(harness_load(&spoor_format_mpstat, mpstat_text, sizeof mpstat_text - 1, 4096, 40, &opts, &h),
                     SPOOR_OK);
    /* 2021-12-31 23:59:59 at UTC+1, then 2022-01-01 00:00:00 and 00:00:01 */
    assert_int_equal(h.table->ts[0], (1640995199LL - 3600) * 1000000000LL);
    assert_int_equal(h.table->ts[2], (1640995200LL - 3600) * 1000000000LL);
    assert_int_equal(h.table->ts[5], (1640995201LL - 3600) * 1000000000LL);
    assert_string_equal(harness_cell(&h, "cpu", 1), "0");
    harness_free(&h);
}

static void test_pytext_chunks(void **state)
{
    (void)state;
    struct spoor_read_opts opts = {0};
    same_in_every_chunking(&spoor_format_pytext, pytext_text, sizeof pytext_text - 1, "message", 3, &opts);
    struct harness h;
    assert_int_equal(harness_load(&spoor_format_pytext, pytext_text, sizeof pytext_text - 1, 4096, 1, &opts, &h),
                     SPOOR_OK);
    assert_string_equal(harness_cell(&h, "message", 1),
                        "died\nTraceback (most recent call last):\n  File \"t.py\", line 3\nValueError: x");
    assert_string_equal(harness_cell(&h, "logger", 1), "train.loader");
    assert_string_equal(harness_cell(&h, "logger", 0), "");
    harness_free(&h);
}

static void test_mllog_chunks(void **state)
{
    (void)state;
    struct spoor_read_opts opts = {0};
    same_in_every_chunking(&spoor_format_mllog, mllog_text, sizeof mllog_text - 1, "epoch_num", 4, &opts);
    struct harness h;
    assert_int_equal(harness_load(&spoor_format_mllog, mllog_text, sizeof mllog_text - 1, 4096, 1, &opts, &h),
                     SPOOR_OK);
    size_t intervals = 0;
    for (size_t r = 0; r < h.table->nrows; r++)
        if (h.table->ph[r] == 'X') {
            intervals++;
            assert_int_equal(h.table->ts[r], 1000000000);
            assert_int_equal(h.table->dur[r], 500000000);
        }
    assert_int_equal(intervals, 1);
    assert_int_equal(h.skips.total, 2); /* eval_stop without start, epoch 2 without stop */
    harness_free(&h);
}

static void test_zone(void **state)
{
    (void)state;
    struct spoor_zone z;
    struct spoor_error err;
    int64_t utc;
    assert_int_equal(spoor_zone_open("Europe/Berlin", &z, &err), SPOOR_OK);
    /* 2022-03-27 02:30 does not exist in Berlin; 2022-10-30 02:30 twice */
    assert_false(spoor_zone_to_utc(&z, 1648348200LL * 1000000000LL, INT64_MIN, &utc));
    int64_t fold = 1667097000LL * 1000000000LL;
    assert_true(spoor_zone_to_utc(&z, fold, INT64_MIN, &utc));
    assert_int_equal(utc, fold - 7200LL * 1000000000LL);
    /* after 02:50 CEST (00:50 UTC), 02:30 is the second time round */
    assert_true(spoor_zone_to_utc(&z, fold, fold - 6000LL * 1000000000LL, &utc));
    assert_int_equal(utc, fold - 3600LL * 1000000000LL);
    assert_true(spoor_zone_to_utc(&z, 1656633600LL * 1000000000LL, INT64_MIN, &utc)); /* July: CEST */
    assert_int_equal(utc, (1656633600LL - 7200) * 1000000000LL);
    spoor_zone_close(&z);
    static const char *const fixed[] = {"+02:00", "+0200", "+2", "+2h"};
    for (size_t i = 0; i < 4; i++) {
        assert_int_equal(spoor_zone_open(fixed[i], &z, &err), SPOOR_OK);
        assert_int_equal(z.offset_s, 7200);
    }
    assert_int_equal(spoor_zone_open("-5h", &z, &err), SPOOR_OK);
    assert_int_equal(z.offset_s, -18000);
    static const char *const bad[] = {"Mars/Olympus", "+25", "2", "../etc/passwd", "+02:0"};
    for (size_t i = 0; i < 5; i++)
        assert_int_equal(spoor_zone_open(bad[i], &z, &err), SPOOR_EUSAGE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mpstat_chunks),
        cmocka_unit_test(test_pytext_chunks),
        cmocka_unit_test(test_mllog_chunks),
        cmocka_unit_test(test_zone),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
