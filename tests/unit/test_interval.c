/* The interval engine on hand-built tables: unions, call stacks (end-time
 * order, siblings, ties, zero-length, touching, partial overlaps, threads
 * interleaved, null rows), attribution in every mode with worked answers, and
 * random tables in end-time and shuffled order against the brute-force
 * reference. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "events_fixture.h"
#include "interval_check.h"
#include "spoor/interval.h"

static void union_merges_overlapping_and_touching(void **state)
{
    struct spoor_span s[] = {{50, 60}, {0, 10}, {5, 20}, {20, 30}, {40, 40}, {45, 44}, {55, 58}, {70, 80}};
    size_t n = spoor_spans_union(s, sizeof s / sizeof *s);
    assert_int_equal(n, 3);
    assert_true(s[0].start == 0 && s[0].end == 30);
    assert_true(s[1].start == 50 && s[1].end == 60);
    assert_true(s[2].start == 70 && s[2].end == 80);
    assert_int_equal(spoor_spans_length(s, n), 50);
    assert_int_equal(spoor_spans_covered(s, n, 25, 75), 5 + 10 + 5);
    assert_int_equal(spoor_spans_covered(s, n, 30, 50), 0);
    assert_int_equal(spoor_spans_covered(s, n, -100, 1000), 50);
    assert_int_equal(spoor_spans_covered(s, n, 55, 55), 0);
    assert_int_equal(spoor_spans_union(s, 0), 0);
}

/* Rows of the nesting fixture, named for the asserts. */
enum { OTHER, OTHER_CHILD, BLK, EXT4, CACHE, VFS, CALL, X1, Z, X2, T1, T2, P1, Q, P2, NULLTS, NULLDUR, NROWS };

static struct spoor_table *nesting_fixture(void)
{
    struct spoor_table *t = spoor_table_new();
    /* Thread (1, 1) in end-time order, (1, 2) interleaved. */
    fx_row(t, 100, 200, "vfs_read", "vfs", 1, 2, 'X');          /* OTHER thread, [100, 300] */
    fx_row(t, 105, 10, "vfs_read", "vfs", 1, 2, 'X');           /* OTHER_CHILD */
    fx_row(t, 130, 10, "blk", "block", 1, 1, 'X');
    fx_row(t, 120, 30, "ext4_read", "ext4", 1, 1, 'X');
    fx_row(t, 160, 10, "add_to_page_cache", "os_cache", 1, 1, 'X');
    fx_row(t, 110, 80, "vfs_read", "vfs", 1, 1, 'X');
    fx_row(t, 100, 100, "read", "sys", 1, 1, 'X');              /* CALL [100, 200] */
    fx_row(t, 300, 100, "same", "vfs", 1, 1, 'X');              /* X1 = X2's span, earlier row */
    fx_row(t, 400, 0, "zero", "vfs", 1, 1, 'X');                /* Z at the end of X1 / X2 */
    fx_row(t, 300, 100, "same", "vfs", 1, 1, 'X');              /* X2: outer of the tie */
    fx_row(t, 500, 100, "touch", "vfs", 1, 1, 'X');             /* T1 [500, 600] */
    fx_row(t, 600, 100, "touch", "vfs", 1, 1, 'X');             /* T2 [600, 700] */
    fx_row(t, 800, 100, "part", "vfs", 1, 1, 'X');              /* P1 [800, 900] */
    fx_row(t, 860, 20, "inner", "vfs", 1, 1, 'X');              /* Q inside P1 and P2 */
    fx_row(t, 850, 100, "part", "vfs", 1, 1, 'X');              /* P2 [850, 950] */
    fx_row(t, FX_NULL, 5, "nots", "vfs", 1, 1, 'X');
    fx_row(t, 130, FX_NULL, "nodur", "vfs", 1, 1, 'X');
    return t;
}

static void nesting_by_thread(void **state)
{
    struct spoor_table *t = nesting_fixture();
    struct spoor_nesting n;
    struct spoor_error err = {0};
    assert_int_equal(spoor_nesting_build(t, NULL, 0, SPOOR_IV_THREAD, 1, &n, &err), SPOOR_OK);
    assert_int_equal(n.nrows, NROWS);
    /* The call's tree: depth, parent, self = dur - children. */
    assert_int_equal(n.depth[CALL], 0);
    assert_int_equal(n.self[CALL], 100 - 80);
    assert_int_equal(n.parent[VFS], CALL);
    assert_int_equal(n.self[VFS], 80 - 30 - 10);
    assert_int_equal(n.parent[EXT4], VFS);
    assert_int_equal(n.self[EXT4], 30 - 10);
    assert_int_equal(n.parent[BLK], EXT4);
    assert_int_equal(n.depth[BLK], 3);
    assert_int_equal(n.self[BLK], 10);
    assert_int_equal(n.parent[CACHE], VFS);
    assert_int_equal(n.depth[CACHE], 2);
    /* The other thread is its own stack. */
    assert_int_equal(n.depth[OTHER], 0);
    assert_int_equal(n.self[OTHER], 200 - 10);
    assert_int_equal(n.parent[OTHER_CHILD], OTHER);
    /* Equal spans: the later row is the outer; a zero-length event at the end
     * belongs to the innermost. */
    assert_int_equal(n.parent[X1], X2);
    assert_int_equal(n.self[X2], 0);
    assert_int_equal(n.self[X1], 100);
    assert_int_equal(n.parent[Z], X1);
    assert_int_equal(n.depth[Z], 2);
    assert_int_equal(n.self[Z], 0);
    /* Touching: siblings. */
    assert_int_equal(n.parent[T2], SPOOR_IV_NO_PARENT);
    assert_int_equal(n.self[T1], 100);
    /* Partial overlap: no nesting; the later starter takes the shared time. */
    assert_int_equal(n.parent[P2], SPOOR_IV_NO_PARENT);
    assert_int_equal(n.parent[Q], P2);
    assert_int_equal(n.self[P1], 50);
    assert_int_equal(n.self[P2], 100 - 20);
    /* Null ts or dur: no part. */
    assert_int_equal(n.depth[NULLTS], -1);
    assert_int_equal(n.self[NULLDUR], SPOOR_NULL);
    spoor_nesting_free(&n);

    /* By pid, the other thread's [100, 300] holds the call. */
    assert_int_equal(spoor_nesting_build(t, NULL, 0, SPOOR_IV_PID, 1, &n, &err), SPOOR_OK);
    assert_int_equal(n.parent[CALL], OTHER);
    assert_int_equal(n.parent[OTHER_CHILD], CALL);
    spoor_nesting_free(&n);

    for (size_t k = 0; k < 3; k++)
        check_nesting(t, NULL, 0, check_keys[k]);
    uint32_t some[] = {P2, CALL, BLK, P1, Q, NULLTS};
    check_nesting(t, some, 6, SPOOR_IV_THREAD);
    spoor_table_free(t);
}

static void nesting_rejects_missing_rows(void **state)
{
    struct spoor_table *t = nesting_fixture();
    uint32_t bad[] = {1, NROWS};
    struct spoor_nesting n;
    struct spoor_error err = {0};
    assert_int_equal(spoor_nesting_build(t, bad, 2, SPOOR_IV_THREAD, 1, &n, &err), SPOOR_EUSAGE);
    assert_non_null(strstr(err.msg, "does not exist"));
    spoor_table_free(t);
}

/* Calls: READ [1000, 2000] and LSEEK [3000, 3100] on (1, 1). */
static struct spoor_table *attribution_fixture(uint32_t calls[2])
{
    struct spoor_table *t = spoor_table_new();
    fx_row(t, 1300, 100, "blk_mq_submit_bio", "block", 1, 1, 'X');
    fx_row(t, 1200, 300, "ext4_file_read_iter", "ext4", 1, 1, 'X');
    fx_row(t, 1000, 500, "vfs_read", "vfs", 1, 2, 'X');         /* other thread */
    fx_row(t, 1600, 100, "add_to_page_cache", "os_cache", 1, 1, 'X');
    fx_row(t, 1100, 800, "vfs_read", "vfs", 1, 1, 'X');
    calls[0] = (uint32_t)fx_row(t, 1000, 1000, "read", "sys", 1, 1, 'X');
    fx_row(t, 1500, 1000, "add_to_page_cache", "os_cache", 2, 3, 'X'); /* other process */
    fx_row(t, 2950, 100, "vfs_read", "vfs", 1, 1, 'X');         /* overlaps LSEEK's start */
    fx_row(t, 3100, 0, "blk_mq_submit_bio", "block", 1, 1, 'X'); /* zero-length at its end */
    calls[1] = (uint32_t)fx_row(t, 3000, 100, "lseek", "sys", 1, 1, 'X');
    fx_row(t, 3100, 100, "ext4_file_read_iter", "ext4", 1, 1, 'X'); /* touches its end */
    fx_row(t, FX_NULL, 100, "vfs_read", "vfs", 1, 1, 'X');
    return t;
}

struct want_fn {
    const char *fn;
    int64_t ns;
};

static void expect(const struct spoor_table *t, uint32_t *calls, enum spoor_iv_key key, enum spoor_attr_mode mode,
                   size_t call, const struct want_fn *want, int64_t covered)
{
    uint32_t events[16];
    size_t nevents = 0;
    for (uint32_t r = 0; r < t->nrows; r++)
        if (r != calls[0] && r != calls[1])
            events[nevents++] = r;
    struct spoor_attr_opts o = {key, mode, 1};
    struct spoor_attribution a;
    struct spoor_error err = {0};
    assert_int_equal(spoor_attribute(t, calls, 2, events, nevents, &o, &a, &err), SPOOR_OK);
    size_t i = a.first[call];
    for (; want->fn; want++, i++) {
        assert_true(i < a.first[call + 1]);
        char name[64];
        snprintf(name, sizeof name, "%s.%s", spoor_table_str(t, a.fns[i].cat), spoor_table_str(t, a.fns[i].name));
        assert_string_equal(name, want->fn);
        assert_int_equal(a.fns[i].ns, want->ns);
    }
    assert_int_equal(i, a.first[call + 1]);
    assert_int_equal(a.covered[call], covered);
    assert_int_equal(a.unattributed[call], t->dur[calls[call]] - covered);
    spoor_attribution_free(&a);
}

static void attribution_worked_example(void **state)
{
    uint32_t calls[2];
    struct spoor_table *t = attribution_fixture(calls);
    const struct want_fn self[] = {{"vfs.vfs_read", 400}, {"ext4.ext4_file_read_iter", 200},
                                   {"block.blk_mq_submit_bio", 100}, {"os_cache.add_to_page_cache", 100}, {0}};
    const struct want_fn whole[] = {{"vfs.vfs_read", 800}, {"ext4.ext4_file_read_iter", 300},
                                    {"block.blk_mq_submit_bio", 100}, {"os_cache.add_to_page_cache", 100}, {0}};
    expect(t, calls, SPOOR_IV_THREAD, SPOOR_ATTR_SELF, 0, self, 800);
    expect(t, calls, SPOOR_IV_THREAD, SPOOR_ATTR_OVERLAP, 0, whole, 800);
    expect(t, calls, SPOOR_IV_THREAD, SPOOR_ATTR_INCLUSIVE, 0, whole, 800);
    expect(t, calls, SPOOR_IV_THREAD, SPOOR_ATTR_NOTEBOOK, 0, whole, 800);
    /* The notebook over every process: other threads' events count whole. */
    const struct want_fn notebook[] = {{"vfs.vfs_read", 500 + 800}, {"ext4.ext4_file_read_iter", 300},
                                       {"block.blk_mq_submit_bio", 100},
                                       {"os_cache.add_to_page_cache", 1000 + 100}, {0}};
    expect(t, calls, SPOOR_IV_NONE, SPOOR_ATTR_NOTEBOOK, 0, notebook, 1000);
    /* Self by pid: the other thread's vfs_read is its own stack, so its time
     * adds to this one's (two threads ran at once). */
    const struct want_fn by_pid[] = {{"vfs.vfs_read", 500 + 400}, {"ext4.ext4_file_read_iter", 200},
                                     {"block.blk_mq_submit_bio", 100}, {"os_cache.add_to_page_cache", 100}, {0}};
    expect(t, calls, SPOOR_IV_PID, SPOOR_ATTR_SELF, 0, by_pid, 900);

    /* LSEEK: a partial overlap at its start, a zero-length event at its end,
     * an event touching its end. */
    const struct want_fn clipped[] = {{"vfs.vfs_read", 50}, {0}};
    const struct want_fn overlap[] = {{"vfs.vfs_read", 50}, {"block.blk_mq_submit_bio", 0}, {0}};
    const struct want_fn inclusive[] = {{"block.blk_mq_submit_bio", 0}, {0}};
    const struct want_fn notebook2[] = {{"vfs.vfs_read", 100}, {"block.blk_mq_submit_bio", 0}, {0}};
    expect(t, calls, SPOOR_IV_THREAD, SPOOR_ATTR_SELF, 1, clipped, 50);
    expect(t, calls, SPOOR_IV_THREAD, SPOOR_ATTR_OVERLAP, 1, overlap, 50);
    expect(t, calls, SPOOR_IV_THREAD, SPOOR_ATTR_INCLUSIVE, 1, inclusive, 50);
    expect(t, calls, SPOOR_IV_THREAD, SPOOR_ATTR_NOTEBOOK, 1, notebook2, 50);

    check_attribution(t, calls, 2, NULL, 0);
    spoor_table_free(t);
}

static void attribution_null_call(void **state)
{
    uint32_t calls[2];
    struct spoor_table *t = attribution_fixture(calls);
    uint32_t with_null[] = {calls[0], (uint32_t)t->nrows - 1};
    struct spoor_attr_opts o = {SPOOR_IV_THREAD, SPOOR_ATTR_SELF, 2};
    struct spoor_attribution a;
    struct spoor_error err = {0};
    assert_int_equal(spoor_attribute(t, with_null, 2, NULL, 0, &o, &a, &err), SPOOR_OK);
    assert_int_equal(a.covered[1], SPOOR_NULL);
    assert_int_equal(a.first[2], a.first[1]);
    spoor_attribution_free(&a);
    spoor_table_free(t);
}

/* Random call trees written in end-time order: children before parents, with
 * partial overlaps, zero lengths, equal spans and touching siblings mixed in. */
static uint64_t rng_state = 88172645463325252u;
static int64_t rnd(int64_t n)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (int64_t)(rng_state % (uint64_t)n);
}

static const char *const fn_names[] = {"vfs_read", "ext4_read", "blk", "cache", "lock"};
static const char *const fn_cats[] = {"vfs", "ext4", "block", "os_cache", "vfs"};

static void tree(struct spoor_table *t, int64_t pid, int64_t tid, int64_t start, int64_t end, int depth)
{
    int64_t at = start;
    while (depth < 4 && at < end && rnd(3)) {
        int64_t s = at + rnd(4) * 5;
        if (s > end)
            break;
        int64_t e = s + rnd((end - s) / 2 + 2) * (rnd(8) ? 1 : 0);
        if (e > end)
            e = end;
        tree(t, pid, tid, s, e, depth + 1);
        at = rnd(6) ? e : s + (e - s) / 2; /* sometimes the next one starts inside */
    }
    int k = (int)rnd(5);
    fx_row(t, start, end - start, depth ? fn_names[k] : "read", depth ? fn_cats[k] : "sys", pid, tid, 'X');
    if (!rnd(10))
        fx_row(t, start, end - start, fn_names[k], fn_cats[k], pid, tid, 'X');
}

static struct spoor_table *random_table(int threads, int trees, int64_t span)
{
    struct spoor_table *t = spoor_table_new();
    int64_t *clock = calloc((size_t)threads, sizeof *clock);
    for (int i = 0; i < trees; i++) {
        int th = (int)rnd(threads);
        int64_t s = clock[th] + rnd(20), e = s + 10 + rnd(span);
        tree(t, 1 + th % 2, 10 + th, s, e, 0);
        clock[th] = rnd(4) ? e : s + 1; /* some trees overlap the previous one */
    }
    if (threads > 0)
        fx_row(t, FX_NULL, 10, "lost", "vfs", 1, 10, 'X');
    free(clock);
    return t;
}

static void shuffle(struct spoor_table *t, uint32_t *rows)
{
    for (size_t i = 0; i < t->nrows; i++)
        rows[i] = (uint32_t)i;
    for (size_t i = t->nrows; i > 1; i--) {
        size_t j = (size_t)rnd((int64_t)i);
        uint32_t x = rows[i - 1];
        rows[i - 1] = rows[j];
        rows[j] = x;
    }
}

static void random_tables_match_reference(void **state)
{
    for (int round = 0; round < 6; round++) {
        struct spoor_table *t = random_table(1 + round % 4, 40 + 20 * round, 2000);
        for (size_t k = 0; k < 3; k++)
            check_nesting(t, NULL, 0, check_keys[k]);
        uint32_t *rows = malloc(t->nrows * sizeof *rows);
        shuffle(t, rows);
        check_nesting(t, rows, t->nrows, SPOOR_IV_THREAD);
        const char *const sys[] = {"sys", NULL}, *const kernel[] = {"vfs", "ext4", "block", "os_cache", NULL};
        size_t ncalls, nevents;
        uint32_t *calls = check_rows_of_cats(t, sys, &ncalls);
        uint32_t *events = check_rows_of_cats(t, kernel, &nevents);
        assert_true(check_attribution(t, calls, ncalls, events, nevents) > 0);
        free(calls);
        free(events);
        free(rows);
        spoor_table_free(t);
    }
}

/* One thread with a top-level span holding thousands of events: the bounded
 * reorder's windows are too small and the group is sorted. */
static void long_parent_falls_back_to_sort(void **state)
{
    struct spoor_table *t = spoor_table_new();
    for (int i = 0; i < 5000; i++)
        fx_row(t, 10 + 3 * i, 2, "blk", "block", 1, 1, 'X');
    fx_row(t, 0, 20000, "phase", "app", 1, 1, 'X');
    check_nesting(t, NULL, 0, SPOOR_IV_THREAD);
    struct spoor_nesting n;
    struct spoor_error err = {0};
    assert_int_equal(spoor_nesting_build(t, NULL, 0, SPOOR_IV_THREAD, 1, &n, &err), SPOOR_OK);
    assert_int_equal(n.self[5000], 20000 - 5000 * 2);
    assert_int_equal(n.parent[4999], 5000);
    spoor_nesting_free(&n);
    spoor_table_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(union_merges_overlapping_and_touching),
        cmocka_unit_test(nesting_by_thread),
        cmocka_unit_test(nesting_rejects_missing_rows),
        cmocka_unit_test(attribution_worked_example),
        cmocka_unit_test(attribution_null_call),
        cmocka_unit_test(random_tables_match_reference),
        cmocka_unit_test(long_parent_falls_back_to_sort),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
