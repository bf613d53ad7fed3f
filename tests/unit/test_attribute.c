/* The attribution dataset on a hand-built table: exact rows in every --time
 * mode, --compat notebook and by cat; the column set (union over the calls,
 * ordered by cat then name); the file filter and the default events; a call
 * with no kernel event; CSV and JSONL spelling; which cats are kernel-side
 * and which events are callers. */
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
#include "spoor/attribute.h"
#include "spoor/load.h"
#include "analyze/attribute_rules.h"

/* Thread (1, 1), in end-time order:
 *   CALL1 read [100, 200] on /data/a, call_id 7, 1 MiB
 *     VFS [110, 190] > EXT4 [120, 150] > BLK [130, 140]; FLUSH [190, 230] touches VFS
 *   CALL2 write [300, 400] on /data/b, no kernel event, no call_id
 *   CALL3 read [500, 600] on /other/c with VFS3 [510, 520]
 *   APP main [0, 1000] around everything (a caller: not a default event)
 * and process 2's VFS_P2 [150, 250], which only --match none / notebook sees. */
enum { BLK, EXT4, VFS, CALL1, FLUSH, VFS_P2, CALL2, VFS3, CALL3, APP };

static struct spoor_table *fixture(bool with_app)
{
    struct spoor_table *t = spoor_table_new();
    fx_row(t, 130, 10, "blk", "block", 1, 1, 'X');
    fx_row(t, 120, 30, "ext4_read", "ext4", 1, 1, 'X');
    fx_row(t, 110, 80, "vfs_read", "vfs", 1, 1, 'X');
    fx_row(t, 100, 100, "read", "sys", 1, 1, 'X');
    fx_int(t, CALL1, "call_id", 7);
    fx_int(t, CALL1, "size_sum", 1 << 20);
    fx_str(t, CALL1, "fname", "/data/a");
    fx_row(t, 190, 40, "flush", "os_cache", 1, 1, 'X');
    fx_row(t, 150, 100, "vfs_read", "vfs", 2, 2, 'X');
    fx_row(t, 300, 100, "write", "sys", 1, 1, 'X');
    fx_str(t, CALL2, "fname", "/data/b");
    fx_row(t, 510, 10, "vfs_read", "vfs", 1, 1, 'X');
    fx_row(t, 500, 100, "read", "sys", 1, 1, 'X');
    fx_int(t, CALL3, "size", 4096);
    fx_str(t, CALL3, "fname", "/other/c");
    if (with_app)
        fx_row(t, 0, 1000, "main", "app", 1, 1, 'X');
    return t;
}

/* The dataset of the fixture's calls on files matching glob (NULL: all). */
struct run {
    bool no_app;            /* a trace without cat app (set before run_fixture) */
    const char *calls;      /* the --calls expression (NULL: cat = 'sys') */
    struct spoor_table *t;
    struct spoor_resolver *resolver;
    struct spoor_attr_dataset d;
};

static void run_fixture(struct run *r, const char *glob, enum spoor_iv_key key, enum spoor_attr_mode mode,
                        enum spoor_attr_columns by)
{
    r->t = fixture(!r->no_app);
    r->resolver = spoor_resolver_new();
    struct spoor_expr *calls;
    struct spoor_error err = {0};
    assert_int_equal(spoor_expr_compile(r->calls ? r->calls : "cat = 'sys'", &calls, &err), SPOOR_OK);
    struct spoor_attr_select sel = {.calls = calls, .file_glob = glob};
    uint32_t *c, *e;
    size_t nc, ne;
    const struct spoor_resolved *res = spoor_attr_select_rows(r->t, r->resolver, &sel, &c, &nc, &e, &ne);
    struct spoor_attr_opts opts = {.key = key, .mode = mode, .threads = 1};
    assert_int_equal(spoor_attr_dataset_build(r->t, res, c, nc, e, ne, &opts, by, &r->d, &err), SPOOR_OK);
    free(c);
    free(e);
    spoor_expr_free(calls);
}

static void run_free(struct run *r)
{
    spoor_attr_dataset_free(&r->d);
    spoor_resolver_free(r->resolver);
    spoor_table_free(r->t);
}

static void check_columns(const struct spoor_attr_dataset *d, const char *const *names, size_t n)
{
    assert_int_equal(d->ncols, n);
    for (size_t i = 0; i < n; i++)
        assert_string_equal(d->col_names[i], names[i]);
}

/* Row i's kernel columns equal ns[0..ncols), and its unattributed ns. */
static void check_row(const struct spoor_attr_dataset *d, size_t i, const int64_t *ns, int64_t unattributed)
{
    for (size_t k = 0; k < d->ncols; k++)
        assert_int_equal(d->ns[i * d->ncols + k], ns[k]);
    assert_int_equal(d->rows[i].unattributed, unattributed);
}

static const char *const all_fns[] = {"block.blk", "ext4.ext4_read", "os_cache.flush", "vfs.vfs_read"};

static void self_mode(void **state)
{
    struct run r = {0};
    run_fixture(&r, NULL, SPOOR_IV_THREAD, SPOOR_ATTR_SELF, SPOOR_ATTR_BY_FUNCTION);
    check_columns(&r.d, all_fns, 4);
    assert_int_equal(r.d.nrows, 3);
    /* vfs holds [110, 120) and [150, 190); flush [190, 200); [100, 110) is no one's. */
    check_row(&r.d, 0, (int64_t[]){10, 20, 10, 50}, 10);
    check_row(&r.d, 1, (int64_t[]){0, 0, 0, 0}, 100);
    check_row(&r.d, 2, (int64_t[]){0, 0, 0, 10}, 90);
    const struct spoor_attr_row *a = &r.d.rows[0], *b = &r.d.rows[1], *c = &r.d.rows[2];
    assert_int_equal(a->call_id, 7);
    assert_int_equal(a->ts, 100);
    assert_int_equal(a->dur, 100);
    assert_string_equal(a->name, "read");
    assert_string_equal(a->file, "/data/a");
    assert_int_equal(a->size, 1 << 20);
    assert_true(fabs(a->bandwidth - 1e7) < 1e-6);   /* 1 MiB in 100 ns */
    assert_true(fabs(a->coverage - 0.9) < 1e-12);
    assert_int_equal(b->call_id, CALL2 + 1);        /* its line */
    assert_int_equal(b->size, SPOOR_NULL);
    assert_true(isnan(b->bandwidth));
    assert_true(b->coverage == 0);
    assert_int_equal(c->size, 4096);                /* args.size when no size_sum */
    run_free(&r);
}

static void without_app_events(void **state)
{
    struct run r = {.no_app = true};
    run_fixture(&r, NULL, SPOOR_IV_THREAD, SPOOR_ATTR_SELF, SPOOR_ATTR_BY_FUNCTION);
    check_columns(&r.d, all_fns, 4);
    check_row(&r.d, 0, (int64_t[]){10, 20, 10, 50}, 10);
    run_free(&r);
}

static void overlap_mode(void **state)
{
    struct run r = {0};
    run_fixture(&r, NULL, SPOOR_IV_THREAD, SPOOR_ATTR_OVERLAP, SPOOR_ATTR_BY_FUNCTION);
    check_columns(&r.d, all_fns, 4);
    check_row(&r.d, 0, (int64_t[]){10, 30, 10, 80}, 10);
    check_row(&r.d, 1, (int64_t[]){0, 0, 0, 0}, 100);
    run_free(&r);
}

static void inclusive_mode(void **state)
{
    struct run r = {0};
    run_fixture(&r, NULL, SPOOR_IV_THREAD, SPOOR_ATTR_INCLUSIVE, SPOOR_ATTR_BY_FUNCTION);
    /* flush is nested in no call, so no call lists it: no column. */
    check_columns(&r.d, (const char *const[]){"block.blk", "ext4.ext4_read", "vfs.vfs_read"}, 3);
    check_row(&r.d, 0, (int64_t[]){10, 30, 80}, 10);
    check_row(&r.d, 2, (int64_t[]){0, 0, 10}, 90);
    run_free(&r);
}

static void notebook_mode(void **state)
{
    struct run r = {0};
    run_fixture(&r, NULL, SPOOR_IV_NONE, SPOOR_ATTR_NOTEBOOK, SPOOR_ATTR_BY_FUNCTION);
    check_columns(&r.d, all_fns, 4);
    /* Whole durations, process 2's vfs_read included: 80 + 100. */
    check_row(&r.d, 0, (int64_t[]){10, 30, 40, 180}, 10);
    check_row(&r.d, 1, (int64_t[]){0, 0, 0, 0}, 100);
    run_free(&r);
}

static void by_cat(void **state)
{
    struct run r = {0};
    run_fixture(&r, NULL, SPOOR_IV_THREAD, SPOOR_ATTR_SELF, SPOOR_ATTR_BY_CAT);
    check_columns(&r.d, (const char *const[]){"block", "ext4", "os_cache", "vfs"}, 4);
    check_row(&r.d, 0, (int64_t[]){10, 20, 10, 50}, 10);
    run_free(&r);
}

static void file_filter(void **state)
{
    struct run r = {0};
    run_fixture(&r, "/data/*", SPOOR_IV_THREAD, SPOOR_ATTR_SELF, SPOOR_ATTR_BY_FUNCTION);
    assert_int_equal(r.d.nrows, 2);
    assert_string_equal(r.d.rows[0].file, "/data/a");
    assert_string_equal(r.d.rows[1].file, "/data/b");
    run_free(&r);
}

/* A --calls naming file resolves every row; the rows and times are those
 * of the same choice made by the glob, where only the calls are resolved. */
static void file_in_calls(void **state)
{
    struct run by_expr = {.calls = "cat = 'sys' AND file GLOB '/data/*'"}, by_glob = {0};
    run_fixture(&by_expr, NULL, SPOOR_IV_THREAD, SPOOR_ATTR_SELF, SPOOR_ATTR_BY_FUNCTION);
    run_fixture(&by_glob, "/data/*", SPOOR_IV_THREAD, SPOOR_ATTR_SELF, SPOOR_ATTR_BY_FUNCTION);
    assert_int_equal(by_expr.d.nrows, 2);
    assert_int_equal(by_expr.d.ncols, by_glob.d.ncols);
    for (size_t i = 0; i < 2; i++) {
        assert_string_equal(by_expr.d.rows[i].file, by_glob.d.rows[i].file);
        check_row(&by_expr.d, i, by_glob.d.ns + i * by_glob.d.ncols, by_glob.d.rows[i].unattributed);
    }
    run_free(&by_expr);
    run_free(&by_glob);
}

static bool needs_arg(const struct spoor_table *t, const struct spoor_snapshot_need *need, const char *key)
{
    uint32_t id = spoor_strpool_find(t->pool, key, strlen(key));
    for (size_t i = 0; i < need->nargs; i++)
        if (need->args[i] == id)
            return true;
    return false;
}

/* Attribution reads the times, keys and names, call_id, the byte rule's args
 * and the file keys, plus what the expressions name; not ph nor unrelated args. */
static void columns_read(void **state)
{
    struct spoor_table *t = fixture(true);
    fx_str(t, CALL1, "hostname", "node1");
    fx_int(t, CALL1, "ret", 0);
    fx_int(t, CALL1, "fd", 3);
    struct spoor_expr *calls, *events;
    struct spoor_error err = {0};
    assert_int_equal(spoor_expr_compile("cat = 'sys'", &calls, &err), SPOOR_OK);
    assert_int_equal(spoor_expr_compile("host = 'node1' OR fd = 0", &events, &err), SPOOR_OK);
    struct spoor_attr_select sel = {.calls = calls};
    struct spoor_snapshot_need need;
    spoor_attr_columns_read(t, &sel, &need);
    assert_false(need.all_args);
    assert_false(need.fixed & 1u << SPOOR_SNAP_PH);
    assert_true(need.fixed & 1u << SPOOR_SNAP_DUR && need.fixed & 1u << SPOOR_SNAP_TID);
    assert_true(needs_arg(t, &need, "call_id") && needs_arg(t, &need, "size_sum") && needs_arg(t, &need, "size"));
    assert_true(needs_arg(t, &need, "fname") && needs_arg(t, &need, "ret")); /* the byte rule's */
    assert_false(needs_arg(t, &need, "hostname") || needs_arg(t, &need, "fd"));
    free(need.args);
    sel.events = events;
    spoor_attr_columns_read(t, &sel, &need);
    assert_true(needs_arg(t, &need, "hostname") && needs_arg(t, &need, "fd"));
    assert_int_equal(need.nargs, 7); /* each once: call_id size_sum size ret fname hostname fd */
    free(need.args);
    spoor_expr_free(calls);
    spoor_expr_free(events);
    spoor_table_free(t);
}

/* The CSV and JSONL text of the self-mode dataset, restricted to CALL2. */
static char *written(enum spoor_output_format format, const char *glob)
{
    struct run r = {0};
    run_fixture(&r, glob, SPOOR_IV_THREAD, SPOOR_ATTR_SELF, SPOOR_ATTR_BY_CAT);
    char *text;
    size_t len;
    FILE *fp = open_memstream(&text, &len);
    struct spoor_error err = {0};
    struct spoor_report *rep = spoor_attr_dataset_report(&r.d);
    assert_int_equal(spoor_report_write(fp, rep, format, 1, &err), SPOOR_OK);
    spoor_report_free(rep);
    fclose(fp);
    run_free(&r);
    return text;
}

static void spelling(void **state)
{
    char *csv = written(SPOOR_FORMAT_CSV, "/data/b");
    assert_string_equal(csv, "call_id,ts,dur,name,file,size,bandwidth,unattributed,coverage\n"
                             "7,300,100,write,/data/b,,,100,0\n");
    free(csv);
    char *jsonl = written(SPOOR_FORMAT_JSONL, "/data/b");
    assert_string_equal(jsonl, "{\"call_id\":7,\"ts\":300,\"dur\":100,\"name\":\"write\",\"file\":\"/data/b\","
                               "\"size\":null,\"bandwidth\":null,\"unattributed\":100,\"coverage\":0}\n");
    free(jsonl);
}

/* Kernel-side: subsystems exactly and probe kinds as prefixes, case aside. */
static void kernel_cats(void **state)
{
    (void)state;
    static const char *const kernel[] = {"sys", "os_cache", "vfs", "ext4", "block", "XFS", "kprobe", "kretprobe_vfs",
                                         "tracepoint:block", "kernel"};
    static const char *const user[] = {"c", "app", "POSIX", "STDIO", "mpi", "reader", "dftracer", "system", "vfs2",
                                       ""};
    for (size_t i = 0; i < sizeof kernel / sizeof *kernel; i++)
        assert_true(spoor_attr_kernel_cat(kernel[i], strlen(kernel[i])));
    for (size_t i = 0; i < sizeof user / sizeof *user; i++)
        assert_false(spoor_attr_kernel_cat(user[i], strlen(user[i])));
}

/* The caller rule keeps everything but events enclosing a call of their own
 * pid and tid, ends included. */
static void callers(void **state)
{
    (void)state;
    struct spoor_table *t = spoor_table_new();
    uint32_t calls[] = {(uint32_t)fx_row(t, 100, 50, "read", "sys", 1, 1, 'X'),
                        (uint32_t)fx_row(t, 300, 50, "read", "sys", 1, 1, 'X')};
    uint32_t events[] = {
        (uint32_t)fx_row(t, 90, 70, "read", "c", 1, 1, 'X'),     /* encloses the first call: dropped */
        (uint32_t)fx_row(t, 100, 50, "same", "c", 1, 1, 'X'),    /* the same span: encloses, dropped */
        (uint32_t)fx_row(t, 90, 40, "early", "c", 1, 1, 'X'),    /* ends inside: kept */
        (uint32_t)fx_row(t, 110, 10, "vfs", "vfs", 1, 1, 'X'),   /* inside: kept */
        (uint32_t)fx_row(t, 0, 1000, "main", "app", 1, 2, 'X'),  /* another thread: kept */
        (uint32_t)fx_row(t, 0, 1000, "main", "app", 2, 1, 'X'),  /* another process, same tid: kept */
        (uint32_t)fx_row(t, 320, SPOOR_NULL, "i", "c", 1, 1, 'i'), /* no span: kept */
        (uint32_t)fx_row(t, 200, 200, "gap", "c", 1, 1, 'X'),    /* encloses the second call: dropped */
    };
    size_t n = spoor_attr_drop_callers(t, calls, 2, events, sizeof events / sizeof *events);
    assert_int_equal(n, 5);
    static const char *const kept[] = {"early", "vfs", "main", "main", "i"};
    for (size_t i = 0; i < n; i++)
        assert_string_equal(spoor_table_str(t, t->name[events[i]]), kept[i]);
    spoor_table_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(self_mode),     cmocka_unit_test(overlap_mode), cmocka_unit_test(inclusive_mode),
        cmocka_unit_test(notebook_mode), cmocka_unit_test(by_cat),       cmocka_unit_test(file_filter),
        cmocka_unit_test(file_in_calls), cmocka_unit_test(columns_read),
        cmocka_unit_test(spelling),      cmocka_unit_test(without_app_events),
        cmocka_unit_test(kernel_cats),   cmocka_unit_test(callers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
