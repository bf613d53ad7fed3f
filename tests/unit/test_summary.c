/* spoor_summarize on hand-built tables: exact unions with overlaps across
 * threads, self time of nested calls, the parent layer and its share, time not
 * overlapped by the same process's compute, the bytes rule, histogram bins,
 * top lists, per-process imbalance, and the same answer for 1 and 2 threads. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "events_fixture.h"
#include "spoor/summary.h"

static void summarize(const struct spoor_table *t, int threads, struct spoor_summary *s)
{
    (void)threads;
    struct spoor_summary_opts opts = {.top = 10};
    spoor_summarize(t, &opts, s);
}

static const struct spoor_summary_layer *layer(const struct spoor_summary *s, const char *cat)
{
    for (size_t i = 0; i < s->nlayers; i++)
        if (!strcmp(s->layers[i].cat, cat))
            return &s->layers[i];
    fail_msg("no layer %s", cat);
    return NULL;
}

/* One read on thread (1, 1) with vfs and ext4 inside, in end-time order, and
 * an overlapping read on thread (1, 2). */
static struct spoor_table *nested_reads(void)
{
    struct spoor_table *t = spoor_table_new();
    fx_row(t, 120, 30, "ext4_file_read_iter", "ext4", 1, 1, 'X');
    fx_row(t, 110, 80, "vfs_read", "vfs", 1, 1, 'X');
    fx_row(t, 115, 10, "vfs_inner", "vfs", 1, 1, 'X');   /* vfs in vfs: not the layer's outer time */
    fx_row(t, 100, 100, "read", "sys", 1, 1, 'X');
    fx_row(t, 150, 100, "read", "sys", 1, 2, 'X');
    fx_row(t, FX_NULL, FX_NULL, "FH", "dftracer", 0, 0, 'M');
    return t;
}

static void unions_self_and_parent_share(void **state)
{
    (void)state;
    struct spoor_table *t = nested_reads();
    struct spoor_summary s;
    summarize(t, 1, &s);
    assert_int_equal(s.period.events, 5);
    assert_int_equal(s.period.first_ts, 100);
    assert_int_equal(s.period.last_end, 250);
    const struct spoor_summary_layer *sys = layer(&s, "sys"), *vfs = layer(&s, "vfs"), *ext4 = layer(&s, "ext4");
    assert_int_equal(sys->count, 2);
    assert_int_equal(sys->time, 150);            /* [100, 200] u [150, 250] */
    assert_int_equal(sys->self, 20 + 100);
    assert_int_equal(vfs->time, 80);
    /* ext4 [120, 150] overlaps vfs_inner [115, 125] partially: the later starter
     * takes the shared time, so vfs_read keeps 45 and vfs_inner 5. */
    assert_int_equal(vfs->self, 45 + 5);
    assert_int_equal(ext4->self, 30);
    assert_null(sys->parent);
    assert_string_equal(vfs->parent, "sys");
    assert_true(vfs->parent_share > 0.399 && vfs->parent_share < 0.401); /* 80 of the reads' 200 */
    assert_string_equal(ext4->parent, "vfs");
    assert_true(ext4->parent_share > 0.374 && ext4->parent_share < 0.376); /* 30 of the outer vfs 80 */
    assert_string_equal(s.layers[0].cat, "sys"); /* longest first */
    spoor_summary_free(&s);
    spoor_table_free(t);
}

static void not_compute_is_per_process(void **state)
{
    (void)state;
    struct spoor_table *t = spoor_table_new();
    fx_row(t, 0, 50, "compute", "app", 1, 1, 'X');
    fx_row(t, 40, 20, "write", "sys", 1, 2, 'X');   /* 10 of 20 hidden by pid 1's compute */
    fx_row(t, 0, 50, "write", "sys", 2, 3, 'X');    /* pid 2 has no compute */
    fx_row(t, 0, 50, "load_batch", "app", 2, 3, 'X'); /* app, but not compute */
    struct spoor_summary s;
    summarize(t, 1, &s);
    assert_int_equal(s.compute_time, 50);
    assert_int_equal(layer(&s, "sys")->not_compute, 10 + 50);
    assert_int_equal(layer(&s, "app")->not_compute, 50);
    spoor_summary_free(&s);

    struct spoor_summary_opts opts = {.top = 10, .compute = "app"};
    spoor_summarize(t, &opts, &s);
    assert_int_equal(layer(&s, "sys")->not_compute, 10 + 0);
    spoor_summary_free(&s);
    spoor_table_free(t);
}

static void bytes_bins_files_and_imbalance(void **state)
{
    (void)state;
    struct spoor_table *t = spoor_table_new();
    static const int64_t sizes[] = {100, 4096, 65536, 1 << 20, 20 << 20, 2LL << 30};
    for (size_t i = 0; i < 6; i++) {
        size_t r = fx_row(t, (int64_t)i * 10, 5, "write", "POSIX", 1, 1, 'X');
        fx_int(t, r, "size_sum", sizes[i]);
        fx_str(t, r, "fname", "/a");
    }
    size_t r = fx_row(t, 100, 30, "read", "POSIX", 2, 2, 'X');
    fx_int(t, r, "ret", 7);
    fx_int(t, r, "count", 8);
    fx_str(t, r, "fhash", "h1");
    fx_lookup(t, SPOOR_LOOKUP_FILE, "h1", "/b");
    r = fx_row(t, 200, 3, "open", "POSIX", 3, 3, 'X');
    fx_int(t, r, "ret", 3);                           /* a descriptor, not bytes */
    struct spoor_summary s;
    summarize(t, 1, &s);
    static const uint64_t counts[SPOOR_SUMMARY_BINS] = {2, 1, 1, 1, 1, 1};
    for (int b = 0; b < SPOOR_SUMMARY_BINS; b++)
        assert_int_equal(s.bin_count[b], counts[b]);
    assert_int_equal(s.bin_bytes[0], 107);
    const struct spoor_summary_layer *posix = layer(&s, "POSIX");
    assert_int_equal(posix->sized, 7);
    assert_int_equal(posix->bytes, 100 + 4096 + 65536 + (1 << 20) + (20 << 20) + (2LL << 30) + 7);
    assert_int_equal(s.nfiles, 2);
    /* /a: six writes of 5 ns; /b (through the FH lookup): one read of 30 ns. A tie: by name. */
    assert_string_equal(s.files[0].label, "/a");
    assert_int_equal(s.files[0].time, 30);
    assert_int_equal(s.files[0].count, 6);
    assert_string_equal(s.files[1].label, "/b");
    assert_int_equal(s.files[1].bytes, 7);
    assert_int_equal(s.nfunctions, 3);
    assert_string_equal(s.functions[0].label, "POSIX.read");
    /* I/O per process: pid 1 30 ns, pid 2 30 ns; pid 3's open has no file or bytes. */
    assert_int_equal(s.io_processes, 2);
    assert_int_equal(s.io_time_max, 30);
    assert_int_equal(s.slowest_pid, 1);
    assert_true(s.imbalance > 0.999 && s.imbalance < 1.001);
    spoor_summary_free(&s);
    spoor_table_free(t);
}

static void imbalance_names_the_slowest_process(void **state)
{
    (void)state;
    struct spoor_table *t = spoor_table_new();
    fx_str(t, fx_row(t, 0, 10, "read", "POSIX", 1, 1, 'X'), "fname", "/a");
    fx_str(t, fx_row(t, 5, 10, "read", "POSIX", 1, 2, 'X'), "fname", "/a");   /* union 15 */
    fx_str(t, fx_row(t, 0, 45, "read", "POSIX", 2, 1, 'X'), "fname", "/a");
    struct spoor_summary s;
    summarize(t, 1, &s);
    assert_int_equal(s.slowest_pid, 2);
    assert_int_equal(s.io_time_max, 45);
    assert_true(s.imbalance > 1.499 && s.imbalance < 1.501);
    spoor_summary_free(&s);
    spoor_table_free(t);
}

static void same_answer_for_any_threads(void **state)
{
    (void)state;
    struct spoor_table *t = spoor_table_new();
    srand(7);
    static const char *const cats[] = {"sys", "vfs", "ext4", "app"};
    for (int i = 0; i < 5000; i++) {
        size_t r = fx_row(t, rand() % 100000, rand() % 500, "f", cats[rand() % 4], rand() % 3, rand() % 5, 'X');
        if (rand() % 2)
            fx_int(t, r, "size", rand() % 100000);
    }
    struct spoor_summary a, b;
    summarize(t, 1, &a);
    summarize(t, 2, &b);
    assert_int_equal(a.nlayers, b.nlayers);
    for (size_t i = 0; i < a.nlayers; i++) {
        assert_string_equal(a.layers[i].cat, b.layers[i].cat);
        assert_int_equal(a.layers[i].time, b.layers[i].time);
        assert_int_equal(a.layers[i].self, b.layers[i].self);
        assert_int_equal(a.layers[i].not_compute, b.layers[i].not_compute);
        assert_true(a.layers[i].parent_share == b.layers[i].parent_share);
    }
    assert_int_equal(a.io_time_max, b.io_time_max);
    spoor_summary_free(&a);
    spoor_summary_free(&b);
    spoor_table_free(t);
}

static void empty_table(void **state)
{
    (void)state;
    struct spoor_table *t = spoor_table_new();
    struct spoor_summary s;
    summarize(t, 1, &s);
    assert_int_equal(s.nlayers, 0);
    assert_int_equal(s.slowest_pid, SPOOR_NULL);
    spoor_summary_free(&s);
    spoor_table_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(unions_self_and_parent_share),
        cmocka_unit_test(not_compute_is_per_process),
        cmocka_unit_test(bytes_bins_files_and_imbalance),
        cmocka_unit_test(imbalance_names_the_slowest_process),
        cmocka_unit_test(same_answer_for_any_threads),
        cmocka_unit_test(empty_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
