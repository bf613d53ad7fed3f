/* The counter tracks of the Perfetto export: exact values on a handmade
 * trace, sums over the buckets equal to the bytes and ns of the calls at any
 * width, the silence after a series, and the bound on a fixed width. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <cJSON.h>
#include <cmocka.h>

#include "events_fixture.h"
#include "out/perfetto_counters.h"
#include "spoor/write.h"
#include "testutil.h"
#include "util/rng.h"

#define MS 1000000

/* pid 1: a read of 1000 B in [0, 1 ms), a write of 3000 B in [0.5, 2.5 ms),
 * a pwrite of 10 B without dur at 2.2 ms; pid 2: an open in [0.1, 0.2 ms);
 * pid 3: a read of 1000 B over [0, 3 ms); a metadata row, never counted. */
static struct spoor_table *handmade(void)
{
    struct spoor_table *t = spoor_table_new();
    spoor_table_add_source(t, "a.pfw");
    fx_row(t, FX_NULL, FX_NULL, "process_name", NULL, 1, 1, 'M');
    fx_int(t, fx_row(t, 0, MS, "read", "POSIX", 1, 1, 'X'), "size", 1000);
    fx_int(t, fx_row(t, MS / 2, 2 * MS, "write", "POSIX", 1, 2, 'X'), "size", 3000);
    fx_int(t, fx_row(t, 2200000, FX_NULL, "pwrite", "POSIX", 1, 2, 'i'), "size", 10);
    fx_row(t, MS / 10, MS / 10, "open", "POSIX", 2, 3, 'X');
    fx_int(t, fx_row(t, 0, 3 * MS, "read", "POSIX", 3, 4, 'X'), "size", 1000);
    return t;
}

static char *export_text(struct spoor_table *t, int64_t every)
{
    char *text;
    size_t len;
    FILE *fp = open_memstream(&text, &len);
    struct spoor_perfetto_writer *w = spoor_perfetto_writer_new(fp, NULL, NULL, 0);
    if (every >= 0)
        spoor_perfetto_writer_counters(w, every);
    struct spoor_error err = {0};
    assert_int_equal(spoor_perfetto_writer_write(w, t, NULL, NULL, 0, &err), SPOOR_OK);
    assert_int_equal(spoor_perfetto_writer_finish(w, &err), SPOOR_OK);
    spoor_perfetto_writer_free(w);
    fclose(fp);
    return text;
}

/* The value of the sample of track "NAME KEY" of pid at ts (µs); fails when
 * there is none. */
static double sample(const cJSON *all, const char *name, const char *key, int pid, double ts)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, all) {
        if (strcmp(cJSON_GetObjectItem(e, "ph")->valuestring, "C") ||
            strcmp(cJSON_GetObjectItem(e, "name")->valuestring, name) ||
            cJSON_GetObjectItem(e, "pid")->valueint != pid || cJSON_GetObjectItem(e, "ts")->valuedouble != ts)
            continue;
        const cJSON *v = cJSON_GetObjectItem(cJSON_GetObjectItem(e, "args"), key);
        if (v)
            return v->valuedouble;
    }
    fail_msg("no sample %s %s of pid %d at %g", name, key, pid, ts);
    return 0;
}

static int count_phase(const cJSON *all, const char *ph)
{
    int n = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, all)
        n += !strcmp(cJSON_GetObjectItem(e, "ph")->valuestring, ph);
    return n;
}

static void exact_values_on_fixed_buckets(void **state)
{
    struct spoor_table *t = handmade();
    char *text = export_text(t, MS);
    cJSON *all = cJSON_Parse(text);
    assert_non_null(all);
    /* Bytes by overlap: the write's 3000 B are 500, 1000 and 500 µs of it. */
    assert_true(sample(all, "POSIX bytes/s", "read", 1, 0) == 1e6);
    assert_true(sample(all, "POSIX bytes/s", "read", 1, 1000) == 0);
    assert_true(sample(all, "POSIX bytes/s", "write", 1, 0) == 750000);
    assert_true(sample(all, "POSIX bytes/s", "write", 1, 1000) == 1.5e6);
    assert_true(sample(all, "POSIX bytes/s", "write", 1, 2000) == 760000); /* + the pwrite's 10 B */
    assert_true(sample(all, "POSIX bytes/s", "write", 1, 3000) == 0);
    /* Whole bytes that add up: 1000 B over three buckets. */
    assert_true(sample(all, "POSIX bytes/s", "read", 3, 0) == 333000);
    assert_true(sample(all, "POSIX bytes/s", "read", 3, 1000) == 333000);
    assert_true(sample(all, "POSIX bytes/s", "read", 3, 2000) == 334000);
    /* Busy threads: the read and half the write, then the write alone. */
    assert_true(sample(all, "POSIX busy", "threads", 1, 0) == 1.5);
    assert_true(sample(all, "POSIX busy", "threads", 1, 1000) == 1);
    assert_true(sample(all, "POSIX busy", "threads", 1, 2000) == 0.5);
    assert_true(sample(all, "POSIX busy", "threads", 1, 3000) == 0);
    assert_true(sample(all, "POSIX busy", "threads", 2, 0) == 0.1);
    assert_true(sample(all, "POSIX busy", "threads", 2, 1000) == 0);
    /* pid 1: read 2 + write 4 + busy 4; pid 2: busy 2; pid 3: read 4 + busy 4. */
    assert_int_equal(count_phase(all, "C"), 20);
    assert_int_equal(count_phase(all, "X") + count_phase(all, "i"), 5);
    cJSON_Delete(all);
    free(text);
    spoor_table_free(t);
}

static void no_counters_unless_asked(void **state)
{
    struct spoor_table *t = handmade();
    char *text = export_text(t, -1);
    assert_null(strstr(text, "\"ph\":\"C\""));
    free(text);
    spoor_table_free(t);
}

/* Before each sample perfetto_counters_write writes: "{", after a comma
 * past the first. */
static void begin_sample(void *ctx)
{
    struct wbuf *out = ctx;
    wbuf_put(out, out->len > 1 ? ",\n{" : "{", out->len > 1 ? 3 : 1);
}

/* The samples read back as whole bytes (bytes/s x width) and ns (threads x
 * width), summed; each at a bucket's start; the distinct timestamps. */
static void sums_of(const char *text, int64_t width, int64_t *bytes, int64_t *busy, size_t *times)
{
    cJSON *all = cJSON_Parse(text);
    assert_non_null(all);
    *bytes = *busy = 0;
    const cJSON *e;
    int64_t *seen = calloc((size_t)cJSON_GetArraySize(all) + 1, sizeof *seen);
    size_t n = 0;
    cJSON_ArrayForEach(e, all) {
        if (strcmp(cJSON_GetObjectItem(e, "ph")->valuestring, "C"))
            continue;
        const cJSON *v = cJSON_GetObjectItem(e, "args")->child;
        int64_t ns = llround(cJSON_GetObjectItem(e, "ts")->valuedouble * 1000);
        assert_int_equal(ns % width, 0);
        if (strcmp(v->string, "threads"))
            *bytes += llround(v->valuedouble * (double)width / 1e9);
        else
            *busy += llround(v->valuedouble * (double)width);
        seen[n++] = ns;
    }
    size_t distinct = 0;
    for (size_t i = 0; i < n; i++) {
        bool again = false;
        for (size_t j = 0; j < i && !again; j++)
            again = seen[j] == seen[i];
        distinct += !again;
    }
    *times = distinct;
    free(seen);
    cJSON_Delete(all);
}

static void sums_equal_the_calls_at_any_width(void **state)
{
    struct spoor_table *t = spoor_table_new();
    spoor_table_add_source(t, "a.pfw");
    struct spoor_rng rng;
    spoor_rng_seed(&rng, 7);
    int64_t total_bytes = 0, total_dur = 0;
    static const char *const names[] = {"read", "write", "lseek", "pread64"};
    for (int i = 0; i < 3000; i++) {
        /* over ~10 s, every 50th call spanning up to 0.9 s */
        int64_t ts = spoor_rng_range(&rng, 0, 10000 * (int64_t)MS);
        int64_t dur = spoor_rng_range(&rng, 0, i % 50 ? MS : 900 * MS), bytes = spoor_rng_range(&rng, 0, 1 << 30);
        fx_int(t, fx_row(t, ts, dur, names[i % 4], i % 3 ? "POSIX" : "STDIO", 1 + i % 5, i % 7, 'X'), "size", bytes);
        total_bytes += bytes;
        total_dur += dur;
    }
    static const int64_t widths[] = {0, MS, 7 * MS + 3};
    for (size_t k = 0; k < sizeof widths / sizeof *widths; k++) {
        struct perfetto_counters *c = perfetto_counters_new(widths[k]);
        struct spoor_error err = {0};
        assert_int_equal(perfetto_counters_add(c, t, NULL, 0, &err), SPOOR_OK);
        int64_t width = perfetto_counters_width(c);
        if (!widths[k]) /* the narrowest power of two that holds 10.9 s in 2048 buckets */
            assert_int_equal(width, (int64_t)1 << 23);
        else
            assert_int_equal(width, widths[k]);
        struct wbuf out;
        wbuf_init(&out, NULL, 1024);
        wbuf_put(&out, "[", 1);
        perfetto_counters_write(c, &out, begin_sample, &out);
        wbuf_put(&out, "]", 2); /* with the NUL */
        int64_t bytes, busy;
        size_t times;
        sums_of(out.data, width, &bytes, &busy, &times);
        assert_int_equal(bytes, total_bytes);
        assert_int_equal(busy, total_dur);
        assert_true(times <= (size_t)(10900 * (int64_t)MS / width + 3)); /* calls end by 10.9 s */
        if (!widths[k])
            assert_true(times <= PERFETTO_COUNTER_BUCKETS + 1); /* + the closing 0 */
        wbuf_release(&out);
        perfetto_counters_free(c);
    }
    spoor_table_free(t);
}

static void fixed_width_too_narrow_fails(void **state)
{
    struct spoor_table *t = handmade();
    struct perfetto_counters *c = perfetto_counters_new(1);
    struct spoor_error err = {0};
    assert_int_equal(perfetto_counters_add(c, t, NULL, 0, &err), SPOOR_EUSAGE);
    assert_non_null(strstr(err.msg, "choose a wider --counter-every"));
    perfetto_counters_free(c);
    spoor_table_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(exact_values_on_fixed_buckets),
        cmocka_unit_test(no_counters_unless_asked),
        cmocka_unit_test(sums_equal_the_calls_at_any_width),
        cmocka_unit_test(fixed_width_too_narrow_fails),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
