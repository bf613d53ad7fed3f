/* Units of pfw durations: the DataCrumbs writer that wrote dur in µs told
 * from the one that wrote ns, the warning when well-known calls last what no
 * call lasts in the unit assumed, and profiles labelled from the whole file. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "read_harness.h"

enum { CAP = 1 << 20 };

struct text {
    char *p;
    size_t n;
};

static void add(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(struct text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(t->p + t->n, CAP - t->n, fmt, ap);
    va_end(ap);
    assert_true(w > 0 && (size_t)w < CAP - t->n);
    t->n += (size_t)w;
}

/* n events of the DataCrumbs Python writer: reads of 900-4500 ns and kernel
 * functions of 200-1100 ns, with dur in ns, or in µs left out when 0. */
static struct text datacrumbs(int n, bool us)
{
    struct text t = {spoor_xmalloc(CAP), 0};
    add(&t, "[\n{\"name\": \"HH\", \"cat\": \"dftracer\", \"ph\": \"M\", \"args\": {\"name\": \"n1\", \"value\": 31}}\n");
    for (int i = 0; i < n; i++) {
        bool call = i % 3 == 0;
        long ns = call ? 900 + 400L * (i % 10) : 200 + 100L * (i % 10);
        long dur = us ? ns / 1000 : ns;
        add(&t, "{\"pid\": 5, \"tid\": 5, \"name\": \"%s\", \"cat\": \"%s\", \"ph\": \"X\", \"ts\": %d", call ? "read" : "mark_page_accessed",
            call ? "sys" : "os_cache", 100 + i * 3);
        if (dur)
            add(&t, ", \"dur\": %ld", dur);
        add(&t, ", \"args\": {\"hhash\": 31}}\n");
    }
    return t;
}

static void detect(const struct text *t, const struct spoor_read_opts *opts, struct harness *h)
{
    assert_int_equal(harness_load(&spoor_format_pfw, t->p, t->n, 64 * 1024, 16 * 1024, opts, h), SPOOR_OK);
}

static int64_t dur_sum(const struct harness *h)
{
    int64_t sum = 0;
    for (size_t i = 0; i < h->table->nrows; i++)
        if (h->table->dur[i] != SPOOR_NULL)
            sum += h->table->dur[i];
    return sum;
}

static void test_datacrumbs_us_told_apart(void **state)
{
    struct spoor_read_opts opts = {0};
    struct harness ns, us;
    struct text tn = datacrumbs(300, false), tu = datacrumbs(300, true);
    detect(&tn, &opts, &ns);
    detect(&tu, &opts, &us);
    assert_string_equal(ns.dialect.name, "datacrumbs-2024");
    assert_int_equal(ns.dialect.dur_unit, SPOOR_UNIT_NS);
    assert_string_equal(us.dialect.name, "datacrumbs-2024-us");
    assert_int_equal(us.dialect.ts_unit, SPOOR_UNIT_US);
    assert_int_equal(us.dialect.dur_unit, SPOOR_UNIT_US);
    assert_non_null(strstr(us.dialect.assumed, "dur in us"));
    assert_string_equal(ns.dialect.unit_warning, "");
    assert_string_equal(us.dialect.unit_warning, "");
    /* every dur kept is whole µs: the sums differ only by what was cut */
    assert_true(dur_sum(&us) > dur_sum(&ns) / 2 && dur_sum(&us) <= dur_sum(&ns));
    harness_free(&ns);
    harness_free(&us);
    free(tn.p);
    free(tu.p);
}

/* A few events do not make a writer: too little to tell. */
static void test_too_few_to_tell(void **state)
{
    struct spoor_read_opts opts = {0};
    struct harness h;
    struct text t = datacrumbs(6, true);
    detect(&t, &opts, &h);
    assert_string_equal(h.dialect.name, "datacrumbs-2024");
    assert_string_equal(h.dialect.unit_warning, "");
    harness_free(&h);
    free(t.p);
}

static void test_warning_names_the_unit(void **state)
{
    struct harness h;
    struct text t = datacrumbs(300, true);
    struct spoor_read_opts opts = {.dialect = "datacrumbs-2024"};
    detect(&t, &opts, &h);
    assert_int_equal(h.dialect.dur_unit, SPOOR_UNIT_NS);
    assert_non_null(strstr(h.dialect.unit_warning, "with dur in ns: too short"));
    assert_non_null(strstr(h.dialect.unit_warning, "--dur-unit"));
    harness_free(&h);
    /* the user's unit is not second-guessed */
    opts.dur_unit = SPOOR_UNIT_NS;
    detect(&t, &opts, &h);
    assert_string_equal(h.dialect.unit_warning, "");
    harness_free(&h);
    free(t.p);

    /* µs calls that round to 0 are short calls, not a wrong unit */
    t = (struct text){spoor_xmalloc(CAP), 0};
    for (int i = 0; i < 40; i++)
        add(&t, "{\"name\":\"read\",\"cat\":\"POSIX\",\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":%d,\"dur\":%d}\n", i * 10,
            i % 5 == 0);
    opts = (struct spoor_read_opts){0};
    detect(&t, &opts, &h);
    assert_string_equal(h.dialect.name, "chrome");
    assert_string_equal(h.dialect.unit_warning, "");
    harness_free(&h);
    /* the same calls lasting 25 s each in µs are a wrong unit */
    t.n = 0;
    for (int i = 0; i < 40; i++)
        add(&t, "{\"name\":\"vfs_write\",\"cat\":\"k\",\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":%d,\"dur\":25000000}\n", i);
    detect(&t, &opts, &h);
    assert_non_null(strstr(h.dialect.unit_warning, "last 25.000 s (median of 40) with dur in us: too long"));
    harness_free(&h);
    free(t.p);
}

/* Counters after more metadata than the head holds: a profile, from the
 * whole file; a trace with a few counters stays a trace. */
static void test_profile_past_the_head(void **state)
{
    struct spoor_read_opts opts = {0};
    struct harness h;
    struct text t = {spoor_xmalloc(CAP), 0};
    add(&t, "[\n");
    for (int i = 0; i < 1000; i++)
        add(&t, "{\"pid\": 9, \"tid\": 9, \"name\": \"FH\", \"cat\": \"dftracer\", \"ph\": \"M\", \"args\": "
                "{\"name\": \"/sys/devices/system/cpu/cpu%d/cpufreq/scaling_cur_freq\", \"value\": %d}}\n", i, i);
    size_t meta_end = t.n;
    assert_true(meta_end > 64 * 1024);
    for (int i = 0; i < 50; i++)
        add(&t, "{\"pid\": 9, \"tid\": 9, \"name\": \"read\", \"cat\": \"sys\", \"ph\": \"C\", \"ts\": %d, \"args\": "
                "{\"freq\": 2, \"time\": 1.2e-05, \"size_sum\": 64, \"fname\": \"/sys/b\"}}\n", i * 1000000);
    detect(&t, &opts, &h);
    assert_string_equal(h.dialect.name, "datacrumbs-profile-2024");
    assert_non_null(strstr(h.dialect.assumed, "pfw datacrumbs-profile-2024: "));
    assert_int_equal(h.dialect.dur_unit, SPOOR_UNIT_NS);
    harness_free(&h);

    /* the metadata, then more X events than counters */
    t.n = meta_end;
    for (int i = 0; i < 60; i++)
        add(&t, "{\"pid\": 9, \"tid\": 9, \"name\": \"read\", \"cat\": \"sys\", \"ph\": \"%s\", \"ts\": %d, \"dur\": 5000}\n",
            i % 10 ? "X" : "C", i);
    detect(&t, &opts, &h);
    assert_string_equal(h.dialect.name, "datacrumbs-2024");
    harness_free(&h);
    free(t.p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_datacrumbs_us_told_apart),
        cmocka_unit_test(test_too_few_to_tell),
        cmocka_unit_test(test_warning_names_the_unit),
        cmocka_unit_test(test_profile_past_the_head),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
