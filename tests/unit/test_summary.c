/* spoor_summarize on hand-built tables: exact unions with overlaps across
 * threads, self time of nested calls, the parent layer and its share, time not
 * overlapped by the same process's compute, the bytes rule, histogram bins,
 * top lists, per-process imbalance. The streaming summary against a
 * brute-force reference is test_summary_reference.c. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "events_fixture.h"
#include "spoor/summary.h"
#include "summary_testutil.h"
#include "testutil.h"

static void summarize(const struct spoor_table *t, size_t window, struct spoor_summary *s)
{
    struct spoor_summary_opts opts = {.top = 10, .window = window};
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
    summarize(t, 0, &s);
    assert_int_equal(s.period.events, 5);
    assert_int_equal(s.period.metadata_events, 1);
    assert_int_equal(s.period.first_ts, 100);
    assert_int_equal(s.period.last_end, 250);
    assert_int_equal(s.period.processes, 1);
    assert_int_equal(s.period.threads, 2);
    /* The period figures alone: the stats recipe's groups are not summed. */
    assert_int_equal(s.period.nby_cat, 0);
    assert_int_equal(s.period.nby_name, 0);
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
    summarize(t, 0, &s);
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

/* One row reading fhash at line of input src. */
static void hashed_read(struct spoor_table *t, uint32_t src, uint64_t line, const char *fhash)
{
    size_t r = fx_row(t, (int64_t)line, 1, "read", "POSIX", src, src, 'X');
    t->src[r] = src;
    t->line[r] = line;
    fx_str(t, r, "fhash", fhash);
}

/* Files are counted by path, per input and line: two inputs give hash 11
 * different paths, b redefines it, and 12 is unnamed in both (two files). */
static void period_files_per_input(void **state)
{
    (void)state;
    struct spoor_table *t = spoor_table_new();
    uint32_t a = spoor_table_add_source(t, "a.pfw"), b = spoor_table_add_source(t, "b.pfw");
    struct spoor_lookup *files = &t->lookups[SPOOR_LOOKUP_FILE];
    spoor_lookup_put(files, a, fx_intern(t, "11"), fx_intern(t, "/a"), 1);
    spoor_lookup_put(files, b, fx_intern(t, "11"), fx_intern(t, "/b"), 1);
    spoor_lookup_put(files, b, fx_intern(t, "11"), fx_intern(t, "/b2"), 4);
    hashed_read(t, a, 2, "11");
    hashed_read(t, a, 3, "12");
    hashed_read(t, b, 2, "11");
    hashed_read(t, b, 3, "12");
    hashed_read(t, b, 5, "11");
    struct spoor_summary s;
    summarize(t, 0, &s);
    assert_int_equal(s.period.files, 5); /* /a, /b, /b2, a's 12, b's 12 */
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
    summarize(t, 0, &s);
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
    summarize(t, 0, &s);
    assert_int_equal(s.slowest_pid, 2);
    assert_int_equal(s.io_time_max, 45);
    assert_true(s.imbalance > 1.499 && s.imbalance < 1.501);
    spoor_summary_free(&s);
    spoor_table_free(t);
}

/* A layer's union per process is merged from its functions' unions on each of
 * the process's threads: functions of one cat nested on a thread, overlapping
 * across threads, and a second process. */
static void layer_union_from_functions_of_threads(void **state)
{
    (void)state;
    struct spoor_table *t = spoor_table_new();
    fx_row(t, 0, 10, "open", "posix", 1, 1, 'X');
    fx_row(t, 25, 5, "lseek", "posix", 1, 1, 'X');   /* inside the read, same cat */
    fx_row(t, 20, 20, "read", "posix", 1, 1, 'X');
    fx_row(t, 45, 20, "compute", "app", 1, 1, 'X');
    fx_row(t, 35, 15, "read", "posix", 1, 2, 'X');
    fx_row(t, 60, 10, "write", "posix", 1, 2, 'X');
    fx_row(t, 100, 10, "read", "posix", 2, 3, 'X');
    struct spoor_summary s;
    summarize(t, 0, &s);
    const struct spoor_summary_layer *posix = layer(&s, "posix");
    assert_int_equal(posix->time, 10 + 30 + 10 + 10);   /* [0,10] [20,50] [60,70] [100,110] */
    /* pid 1's union (50) less its compute [45,65] (10), and pid 2's 10. */
    assert_int_equal(posix->not_compute, 40 + 10);
    assert_int_equal(posix->self, 10 + 5 + 15 + 15 + 10 + 10);
    /* Longest first: read, compute, open and write (a tie: by name), lseek. */
    assert_int_equal(s.nfunctions, 5);
    assert_string_equal(s.functions[0].label, "posix.read");
    assert_int_equal(s.functions[0].time, 30 + 10);
    assert_string_equal(s.functions[4].label, "posix.lseek");
    assert_int_equal(s.functions[4].time, 5);
    spoor_summary_free(&s);
    spoor_table_free(t);
}

/* t fed through the summary's sink as one batch, again for as long as the
 * summary asks (window: rows held per thread); returns the number of passes. */
static int summarize_in_passes(const struct spoor_table *t, size_t window, struct spoor_summary *s)
{
    struct spoor_summary_opts opts = {.top = 10, .window = window};
    struct spoor_summary_run *run = spoor_summary_begin(&opts, 1);
    struct spoor_sink sink = spoor_summary_sink(run);
    int passes = 0;
    do {
        passes++;
        assert_int_equal(sink.map(sink.ctx, 0, t), SPOOR_OK);
        assert_int_equal(sink.reduce(sink.ctx, 0, t), SPOOR_OK);
    } while (spoor_summary_again(run));
    spoor_summary_end(run, s);
    return passes;
}

/* Random rows overflow a window of 4: the replay gives the same answer. */
static void same_answer_for_any_window(void **state)
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
    summarize(t, 0, &a);
    summarize(t, 4, &b);
    assert_same_layers(&a, &b);
    assert_int_equal(a.io_time_max, b.io_time_max);
    spoor_summary_free(&a);
    spoor_summary_free(&b);
    spoor_table_free(t);
}

/* Thread (1, 1) gets a parent after a window of 1 already merged the rows
 * around its start into the unions: exact when the row starts in or after
 * the open span of each of its unions (a cat of its own: one pass), a second
 * pass when not (the cat of thread (1, 2)'s rows). Either way the answer is
 * that of one window over everything. */
static void late_row_for_the_merge(void **state)
{
    (void)state;
    for (int own_cat = 1; own_cat >= 0; own_cat--) {
        struct spoor_table *t = spoor_table_new();
        fx_row(t, 0, 10, "read", "posix", 1, 1, 'X');
        fx_row(t, 12, 2, "lseek", "posix", 1, 1, 'X');
        /* More rows than the merge holds at a window of 1 (2 x 16). */
        for (int i = 0; i < 40; i++)
            fx_row(t, 13 + 2 * i, 1, "write", "io", 1, 2, 'X');
        fx_row(t, 11, 5, "outer", own_cat ? "outer" : "io", 1, 1, 'X');
        struct spoor_summary s, whole;
        assert_int_equal(summarize_in_passes(t, 1, &s), own_cat ? 1 : 2);
        summarize(t, 0, &whole);
        assert_same_layers(&s, &whole);
        assert_int_equal(s.nfunctions, whole.nfunctions);
        for (size_t i = 0; i < s.nfunctions; i++)
            assert_int_equal(s.functions[i].time, whole.functions[i].time);
        assert_int_equal(layer(&s, "io")->time, own_cat ? 40 : 40 + 3); /* [11, 16] covers [13, 14] and [15, 16] */
        spoor_summary_free(&s);
        spoor_summary_free(&whole);
        spoor_table_free(t);
    }
}

/* Rows at the very end of time, in threads after one whose rows run out
 * first: the merges' tournament keys a start of INT64_MAX below its "no more
 * rows" mark, so the threads left are still told apart from those done. One
 * pass, the answer of the whole table. */
static void rows_at_the_end_of_time(void **state)
{
    (void)state;
    struct spoor_table *t = spoor_table_new();
    for (int i = 0; i < 40; i++)
        fx_row(t, 10 * i, 5, "read", "posix", 1, 1, 'X');
    fx_row(t, INT64_MAX, 0, "late", "posix", 1, 2, 'X');
    fx_row(t, INT64_MAX - 1, 1, "later", "app", 1, 3, 'X');
    struct spoor_summary s, whole;
    assert_int_equal(summarize_in_passes(t, 1, &s), 1);
    summarize(t, 0, &whole);
    assert_same_layers(&s, &whole);
    assert_int_equal(layer(&s, "posix")->time, 40 * 5);
    assert_int_equal(layer(&s, "app")->time, 1);
    spoor_summary_free(&s);
    spoor_summary_free(&whole);
    spoor_table_free(t);
}

static void empty_table(void **state)
{
    (void)state;
    struct spoor_table *t = spoor_table_new();
    struct spoor_summary s;
    summarize(t, 0, &s);
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
        cmocka_unit_test(period_files_per_input),
        cmocka_unit_test(imbalance_names_the_slowest_process),
        cmocka_unit_test(layer_union_from_functions_of_threads),
        cmocka_unit_test(same_answer_for_any_window),
        cmocka_unit_test(late_row_for_the_merge),
        cmocka_unit_test(rows_at_the_end_of_time),
        cmocka_unit_test(empty_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
