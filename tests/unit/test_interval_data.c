/* The interval engine on real shapes: `spoor gen` traces against their
 * ground-truth sidecar (every kernel event's dur and self time, nesting under
 * its system call, per-call totals for self and inclusive attribution) and
 * against the brute-force reference; the shared DataCrumbs and DFTracer
 * samples against the reference. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <cjson/cJSON.h>

#include "interval_check.h"
#include "spoor/gen.h"
#include "spoor/interval.h"
#include "spoor/load.h"
#include "testutil.h"

static const char *const kernel_cats[] = {"vfs", "ext4", "os_cache", "block", NULL};
static const char *const sys_cats[] = {"sys", NULL};

static struct spoor_table *load(const char *path)
{
    struct spoor_load_opts opts = {.threads = 2, .no_cache = true};
    opts.read.args = SPOOR_ARGS_NONE;
    struct spoor_table *t = NULL;
    struct spoor_load_result res;
    struct spoor_error err = {0};
    int rc = spoor_load_table(&path, 1, &opts, &t, &res, &err);
    if (rc)
        fail_msg("load %s: %s", path, err.msg);
    spoor_load_result_free(&res);
    return t;
}

static const char *gen(const char *name, double mb, uint64_t seed)
{
    static char path[4096];
    snprintf(path, sizeof path, "%s/%s", testutil_tmpdir(), name);
    struct spoor_gen_opts o = {.size_bytes = (uint64_t)(mb * 1e6), .procs = 2, .seed = seed, .truth = true};
    struct spoor_gen_result r;
    struct spoor_error err = {0};
    if (spoor_gen_write(path, &o, &r, &err))
        fail_msg("spoor_gen_write: %s", err.msg);
    return path;
}

static cJSON *read_truth(const char *trace)
{
    char path[4096];
    spoor_gen_truth_path(trace, path, sizeof path);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc((size_t)len + 1);
    assert_int_equal(fread(text, 1, (size_t)len, f), (size_t)len);
    text[len] = 0;
    fclose(f);
    cJSON *truth = cJSON_Parse(text);
    free(text);
    assert_non_null(truth);
    return truth;
}

/* Row of each 1-based trace line (UINT32_MAX: none). */
static uint32_t *rows_by_line(const struct spoor_table *t, size_t *nlines)
{
    *nlines = 0;
    for (size_t r = 0; r < t->nrows; r++)
        if (t->line[r] + 1 > *nlines)
            *nlines = t->line[r] + 1;
    uint32_t *by_line = malloc(*nlines * sizeof *by_line);
    memset(by_line, 0xff, *nlines * sizeof *by_line);
    for (size_t r = 0; r < t->nrows; r++)
        by_line[t->line[r]] = (uint32_t)r;
    return by_line;
}

static uint32_t row_at(const uint32_t *by_line, size_t nlines, double line)
{
    assert_true(line >= 1 && (size_t)line < nlines);
    uint32_t r = by_line[(size_t)line];
    assert_int_not_equal(r, UINT32_MAX);
    return r;
}

/* The "cat.name" of a row. */
static void fn_of(const struct spoor_table *t, uint32_t name, uint32_t cat, char *out, size_t cap)
{
    snprintf(out, cap, "%s.%s", spoor_table_str(t, cat), spoor_table_str(t, name));
}

/* Sum of one field of a call's kernel events for one function. */
static int64_t truth_sum(const cJSON *kernel, const char *fn, int field)
{
    int64_t sum = 0;
    const cJSON *k;
    cJSON_ArrayForEach(k, kernel)
    {
        if (strcmp(cJSON_GetArrayItem(k, 1)->valuestring, fn) == 0)
            sum += (int64_t)cJSON_GetArrayItem(k, field)->valuedouble;
    }
    return sum;
}

static void expect_truth_totals(const struct spoor_table *t, const cJSON *calls, const uint32_t *call_rows,
                                const uint32_t *events, size_t nevents, enum spoor_attr_mode mode, int field)
{
    struct spoor_attr_opts o = {SPOOR_IV_THREAD, mode, 2};
    struct spoor_attribution a;
    struct spoor_error err = {0};
    size_t ncalls = (size_t)cJSON_GetArraySize(calls);
    assert_int_equal(spoor_attribute(t, call_rows, ncalls, events, nevents, &o, &a, &err), SPOOR_OK);
    size_t i = 0;
    const cJSON *call;
    cJSON_ArrayForEach(call, calls)
    {
        const cJSON *kernel = cJSON_GetArrayItem(call, 3);
        int64_t listed = 0, total = 0;
        const cJSON *k;
        cJSON_ArrayForEach(k, kernel) listed += (int64_t)cJSON_GetArrayItem(k, field)->valuedouble;
        for (size_t f = a.first[i]; f < a.first[i + 1]; f++) {
            char fn[128];
            fn_of(t, a.fns[f].name, a.fns[f].cat, fn, sizeof fn);
            if (a.fns[f].ns != truth_sum(kernel, fn, field))
                fail_msg("call line %d %s: %lld, truth %lld", cJSON_GetArrayItem(call, 1)->valueint, fn,
                         (long long)a.fns[f].ns, (long long)truth_sum(kernel, fn, field));
            total += a.fns[f].ns;
        }
        assert_int_equal(total, listed);
        if (mode == SPOOR_ATTR_SELF)
            assert_int_equal(a.covered[i], listed); /* self times add up to the union */
        i++;
    }
    spoor_attribution_free(&a);
}

static void gen_trace_matches_truth(void **state)
{
    const char *path = gen("iv.pfw", 4, 7);
    struct spoor_table *t = load(path);
    cJSON *truth = read_truth(path);
    const cJSON *calls = cJSON_GetObjectItemCaseSensitive(truth, "calls");
    size_t ncalls = (size_t)cJSON_GetArraySize(calls), nlines;
    assert_true(ncalls > 500);
    uint32_t *by_line = rows_by_line(t, &nlines);

    struct spoor_nesting n;
    struct spoor_error err = {0};
    assert_int_equal(spoor_nesting_build(t, NULL, 0, SPOOR_IV_THREAD, 2, &n, &err), SPOOR_OK);
    /* Each row's nearest system-call ancestor, to count what nests in a call. */
    uint32_t *call_of = malloc(t->nrows * sizeof *call_of);
    uint32_t sys = spoor_table_intern(t, "sys", 3);
    for (size_t r = 0; r < t->nrows; r++) {
        call_of[r] = UINT32_MAX;
        for (uint32_t p = n.parent[r]; p != SPOOR_IV_NO_PARENT && call_of[r] == UINT32_MAX; p = n.parent[p])
            if (t->cat[p] == sys)
                call_of[r] = p;
    }
    size_t *nested = calloc(t->nrows, sizeof *nested);
    for (size_t r = 0; r < t->nrows; r++)
        if (call_of[r] != UINT32_MAX)
            nested[call_of[r]]++;
    uint32_t *call_rows = malloc(ncalls * sizeof *call_rows);
    size_t i = 0, kernel_events = 0;
    const cJSON *call;
    cJSON_ArrayForEach(call, calls)
    {
        uint32_t c = call_rows[i++] = row_at(by_line, nlines, cJSON_GetArrayItem(call, 1)->valuedouble);
        const cJSON *kernel = cJSON_GetArrayItem(call, 3), *k;
        assert_int_equal(nested[c], (size_t)cJSON_GetArraySize(kernel));
        cJSON_ArrayForEach(k, kernel)
        {
            uint32_t r = row_at(by_line, nlines, cJSON_GetArrayItem(k, 0)->valuedouble);
            assert_int_equal(call_of[r], c);
            assert_int_equal(t->dur[r], (int64_t)cJSON_GetArrayItem(k, 2)->valuedouble);
            assert_int_equal(n.self[r], (int64_t)cJSON_GetArrayItem(k, 3)->valuedouble);
            assert_true(n.depth[r] > n.depth[c]);
            kernel_events++;
        }
    }
    assert_true(kernel_events > 2 * ncalls);

    size_t nevents;
    uint32_t *events = check_rows_of_cats(t, kernel_cats, &nevents);
    expect_truth_totals(t, calls, call_rows, events, nevents, SPOOR_ATTR_SELF, 3);
    expect_truth_totals(t, calls, call_rows, events, nevents, SPOOR_ATTR_INCLUSIVE, 2);

    free(events);
    free(call_rows);
    free(nested);
    free(call_of);
    spoor_nesting_free(&n);
    free(by_line);
    cJSON_Delete(truth);
    spoor_table_free(t);
}

static void gen_trace_matches_reference(void **state)
{
    struct spoor_table *t = load(gen("iv-small.pfw", 0.6, 3));
    size_t ncalls, nevents;
    uint32_t *calls = check_rows_of_cats(t, sys_cats, &ncalls);
    uint32_t *events = check_rows_of_cats(t, kernel_cats, &nevents);
    assert_true(ncalls > 100);
    for (size_t k = 0; k < 3; k++)
        check_nesting(t, NULL, 0, check_keys[k]);
    assert_true(check_attribution(t, calls, ncalls, events, nevents) > ncalls);
    free(calls);
    free(events);
    spoor_table_free(t);
}

/* In this sample no os_cache event overlaps a system call (its kernel and
 * call clocks do not meet), so the calls are joined with the calls and the
 * cache events together: every call at least meets itself. */
static void datacrumbs_sample_matches_reference(void **state)
{
    struct spoor_table *t = load(testutil_data("pfw/datacrumbs-trace-2024.pfw.gz"));
    const char *const joined[] = {"sys", "os_cache", NULL};
    size_t ncalls, nevents;
    uint32_t *calls = check_rows_of_cats(t, sys_cats, &ncalls);
    uint32_t *events = check_rows_of_cats(t, joined, &nevents);
    assert_true(ncalls > 0 && nevents > ncalls);
    for (size_t k = 0; k < 3; k++)
        check_nesting(t, NULL, 0, check_keys[k]);
    assert_true(check_attribution(t, calls, ncalls, events, nevents) >= ncalls);
    free(calls);
    free(events);
    spoor_table_free(t);
}

static void dftracer_sample_matches_reference(void **state)
{
    struct spoor_table *t = load(testutil_data("pfw/dftracer-cm1-2024-rank0.pfw.gz"));
    check_nesting(t, NULL, 0, SPOOR_IV_THREAD);
    check_nesting(t, NULL, 0, SPOOR_IV_NONE);
    spoor_table_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(gen_trace_matches_truth),
        cmocka_unit_test(gen_trace_matches_reference),
        cmocka_unit_test(datacrumbs_sample_matches_reference),
        cmocka_unit_test(dftracer_sample_matches_reference),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
