/* The pfw reader against cJSON on every shared sample: for each line cJSON
 * can parse, the fields the reader extracted (fixed columns in ns, every arg)
 * equal cJSON's; the counts and duration sums per (cat, name) equal a
 * reference computed from cJSON; the fast tokenizer and the tolerant scanner
 * give the same table; and the args modes agree on the fixed columns. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>
#include <cjson/cJSON.h>
#include <math.h>
#include <zlib.h>

#include "pfw_tables.h"
#include "read_harness.h"
#include "testutil.h"

static const char *samples[] = {
    "pfw/dftracer-dlio-pytorch-2023.pfw.gz", "pfw/dftracer-quoted-2023.pfw.gz",
    "pfw/dftracer-cm1-2024-rank0.pfw.gz",    "pfw/datacrumbs-trace-2024.pfw.gz",
    "pfw/datacrumbs-profile-2024.pfw",
};

static char *read_all(const char *relative, size_t *len)
{
    const char *path = testutil_data(relative);
    gzFile gz = gzopen(path, "rb"); /* reads plain files as they are */
    assert_non_null(gz);
    size_t cap = 1 << 20, n = 0;
    char *buf = malloc(cap);
    int got;
    while ((got = gzread(gz, buf + n, (unsigned)(cap - n))) > 0) {
        n += (size_t)got;
        if (n == cap)
            buf = realloc(buf, cap *= 2);
    }
    assert_true(got == 0);
    gzclose(gz);
    *len = n;
    return buf;
}

/* A cJSON number or numeric string as int64 (the 2023 dialect quotes numbers). */
static bool json_int(const cJSON *item, int64_t *out)
{
    if (cJSON_IsNumber(item)) {
        *out = (int64_t)item->valuedouble;
        return true;
    }
    if (cJSON_IsString(item)) {
        char *end;
        *out = strtoll(item->valuestring, &end, 10);
        return *end == '\0' && end != item->valuestring;
    }
    return false;
}

static uint8_t json_phase(const cJSON *ph)
{
    if (cJSON_IsString(ph))
        return (uint8_t)ph->valuestring[0];
    static const char letters[] = {0, 'X', 'C', 'A', 'M'};
    return cJSON_IsNumber(ph) && ph->valueint >= 1 && ph->valueint <= 4 ? (uint8_t)letters[ph->valueint] : 0;
}

static bool near(double a, double b) { return a == b || fabs(a - b) <= 1e-12 * fmax(fabs(a), fabs(b)); }

/* One arg as cJSON read it against the reader's cell. */
static void check_arg(const struct harness *h, size_t row, const cJSON *arg, int line)
{
    const struct spoor_column *c = spoor_table_find_column(h->table, arg->string);
    if (cJSON_IsNull(arg)) {
        if (c && spoor_column_valid(c, row))
            fail_msg("line %d: arg %s is null but has a value", line, arg->string);
        return;
    }
    if (!c || !spoor_column_valid(c, row))
        fail_msg("line %d: arg %s missing", line, arg->string);
    char buf[64];
    const char *text = pfw_cell_text(h->table, c, row, buf, sizeof buf);
    if (cJSON_IsString(arg)) {
        if (strcmp(text, arg->valuestring) == 0)
            return;
        /* a quoted number read as a number */
        char *end;
        double d = strtod(arg->valuestring, &end);
        if (*end || !near(d, strtod(text, NULL)))
            fail_msg("line %d: arg %s: '%s' vs '%s'", line, arg->string, text, arg->valuestring);
    } else if (cJSON_IsNumber(arg)) {
        if (!near(strtod(text, NULL), arg->valuedouble))
            fail_msg("line %d: arg %s: %s vs %.17g", line, arg->string, text, arg->valuedouble);
    } else if (cJSON_IsBool(arg)) {
        assert_string_equal(text, cJSON_IsTrue(arg) ? "1" : "0");
    } else {
        cJSON *again = cJSON_Parse(text);
        assert_true(cJSON_Compare(again, arg, true));
        cJSON_Delete(again);
    }
}

/* Counts and duration sums per (cat, name), keyed by "cat\x1fname" in a
 * string pool that the reference and the reader's sums share. */
struct sums {
    struct spoor_strpool *keys;
    int64_t count[4096], dur[4096];
};

static void sums_add(struct sums *s, const char *cat, const char *name, int64_t dur)
{
    char key[1024];
    int n = snprintf(key, sizeof key, "%s\x1f%s", cat, name);
    uint32_t id = spoor_strpool_intern(s->keys, key, (size_t)n);
    assert_true(id < 4096);
    s->count[id]++;
    if (dur != SPOOR_NULL)
        s->dur[id] += dur;
}

static void check_sample(const char *relative)
{
    size_t len;
    char *text = read_all(relative, &len);
    struct spoor_read_opts opts = {.args = SPOOR_ARGS_ALL};
    struct harness h;
    assert_int_equal(harness_load(&spoor_format_pfw, text, len, 64 * 1024, 1 << 20, &opts, &h), SPOOR_OK);
    int64_t ts_mul = spoor_unit_ns(h.dialect.ts_unit), dur_mul = spoor_unit_ns(h.dialect.dur_unit);
    struct sums *ref = calloc(1, sizeof *ref), *got = calloc(1, sizeof *got);
    ref->keys = spoor_strpool_new();
    got->keys = ref->keys;

    size_t row = 0;
    int line = 0, events = 0;
    for (const char *p = text, *end = text + len; p < end; line++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *le = nl ? nl : end;
        char *copy = strndup(p, (size_t)(le - p));
        p = nl ? nl + 1 : end;
        cJSON *ev = cJSON_Parse(copy);
        free(copy);
        if (!cJSON_IsObject(ev)) {
            cJSON_Delete(ev);
            continue;
        }
        events++;
        assert_true(row < h.table->nrows);
        assert_int_equal(h.table->line[row], line + 1);
        const cJSON *name = cJSON_GetObjectItem(ev, "name"), *cat = cJSON_GetObjectItem(ev, "cat");
        assert_string_equal(spoor_table_str(h.table, h.table->name[row]), name->valuestring);
        assert_string_equal(spoor_table_str(h.table, h.table->cat[row]), cat ? cat->valuestring : "");
        assert_int_equal(h.table->ph[row], json_phase(cJSON_GetObjectItem(ev, "ph")));
        int64_t v, dur = SPOOR_NULL;
        if (json_int(cJSON_GetObjectItem(ev, "ts"), &v))
            assert_true(h.table->ts[row] == v * ts_mul);
        else
            assert_true(h.table->ts[row] == SPOOR_NULL);
        if (json_int(cJSON_GetObjectItem(ev, "dur"), &v))
            dur = v * dur_mul;
        assert_true(h.table->dur[row] == dur);
        int64_t pid = SPOOR_NULL, tid = SPOOR_NULL;
        json_int(cJSON_GetObjectItem(ev, "pid"), &pid);
        json_int(cJSON_GetObjectItem(ev, "tid"), &tid);
        assert_true(h.table->pid[row] == (h.dialect.pid_tid_swapped ? tid : pid));
        assert_true(h.table->tid[row] == (h.dialect.pid_tid_swapped ? pid : tid));
        const cJSON *arg;
        cJSON_ArrayForEach(arg, cJSON_GetObjectItem(ev, "args"))
            check_arg(&h, row, arg, line + 1);
        sums_add(ref, cat ? cat->valuestring : "", name->valuestring, dur);
        cJSON_Delete(ev);
        row++;
    }
    assert_int_equal(row, h.table->nrows);
    assert_int_equal(h.skips.total, 0);
    assert_int_equal(h.lines, line);
    assert_true(events > 1000);

    for (size_t r = 0; r < h.table->nrows; r++)
        sums_add(got, spoor_table_str(h.table, h.table->cat[r]), spoor_table_str(h.table, h.table->name[r]),
                 h.table->dur[r]);
    for (size_t id = 0; id < 4096; id++) {
        assert_true(ref->count[id] == got->count[id]);
        assert_true(ref->dur[id] == got->dur[id]);
    }
    spoor_strpool_free(ref->keys);
    free(ref);
    free(got);
    harness_free(&h);
    free(text);
}

static void test_samples_match_cjson(void **state)
{
    for (size_t i = 0; i < sizeof samples / sizeof *samples; i++)
        check_sample(samples[i]);
}

/* Every line indented by one blank keeps the fast tokenizer out. */
static char *indent_lines(const char *text, size_t len, size_t *out_len)
{
    char *out = malloc(2 * len + 2);
    size_t n = 0;
    out[n++] = ' ';
    for (size_t i = 0; i < len; i++) {
        out[n++] = text[i];
        if (text[i] == '\n' && i + 1 < len)
            out[n++] = ' ';
    }
    *out_len = n;
    return out;
}

static void test_samples_fast_equals_tolerant(void **state)
{
    static const char *keys[] = {"fhash", "hhash", "fname", "hostname", "size", "size_sum", "ret"};
    struct spoor_read_opts modes[] = {
        {.args = SPOOR_ARGS_ALL},
        {.args = SPOOR_ARGS_LISTED, .arg_keys = keys, .n_arg_keys = 7},
        {.args = SPOOR_ARGS_NONE},
    };
    for (size_t i = 0; i < sizeof samples / sizeof *samples; i++) {
        size_t len, ilen;
        char *text = read_all(samples[i], &len);
        char *indented = indent_lines(text, len, &ilen);
        struct harness all = {0};
        for (size_t m = 0; m < 3; m++) {
            struct harness fast, slow;
            assert_int_equal(harness_load(&spoor_format_pfw, text, len, 64 * 1024, 1 << 20, &modes[m], &fast), SPOOR_OK);
            assert_int_equal(harness_load(&spoor_format_pfw, indented, ilen, 64 * 1024, 1 << 20, &modes[m], &slow),
                             SPOOR_OK);
            char why[256];
            if (!pfw_tables_equal(fast.table, slow.table, why, sizeof why))
                fail_msg("%s mode %zu: fast and tolerant differ: %s", samples[i], m, why);
            if (m == 0) {
                all = fast;
                harness_free(&slow);
                continue;
            }
            /* the fixed columns and lookups do not depend on the args mode */
            assert_int_equal(fast.table->nrows, all.table->nrows);
            for (size_t r = 0; r < fast.table->nrows; r++)
                assert_true(fast.table->ts[r] == all.table->ts[r] && fast.table->dur[r] == all.table->dur[r]);
            for (int k = 0; k < SPOOR_LOOKUP_KINDS; k++)
                assert_int_equal(fast.table->lookups[k].n, all.table->lookups[k].n);
            harness_free(&fast);
            harness_free(&slow);
        }
        harness_free(&all);
        free(indented);
        free(text);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_samples_match_cjson),
        cmocka_unit_test(test_samples_fast_equals_tolerant),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
