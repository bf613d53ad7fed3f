/* spoor gen: determinism, the ground truth against an independent recount of
 * the trace with cJSON, nesting of every listed kernel event inside its call,
 * gzip output equal to the plain output, and the compression ratios the
 * benchmark relies on. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <cjson/cJSON.h>
#include <zlib.h>

#include "gen/fmt.h"
#include "gen/gzpar.h"
#include "spoor/gen.h"
#include "testutil.h"

struct text {
    char *data;
    size_t len;
};

static struct text slurp(const char *path)
{
    struct text t = {0};
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    t.len = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    t.data = malloc(t.len + 1);
    assert_int_equal(fread(t.data, 1, t.len, f), t.len);
    t.data[t.len] = 0;
    fclose(f);
    return t;
}

/* Inflates a whole gzip file with zlib's gz* interface. */
static struct text gunzip(const char *path)
{
    struct text t = {0};
    gzFile gz = gzopen(path, "rb");
    assert_non_null(gz);
    size_t cap = 1 << 20;
    t.data = malloc(cap);
    for (;;) {
        if (t.len + (1 << 16) > cap)
            t.data = realloc(t.data, cap *= 2);
        int n = gzread(gz, t.data + t.len, 1 << 16);
        assert_true(n >= 0);
        if (n == 0)
            break;
        t.len += (size_t)n;
    }
    assert_int_equal(gzclose(gz), Z_OK);
    return t;
}

static const char *gen(const char *name, double mb, uint64_t seed, bool random, struct spoor_gen_result *r)
{
    static char path[4096];
    snprintf(path, sizeof path, "%s/%s", testutil_tmpdir(), name);
    struct spoor_gen_opts o = {.size_bytes = (uint64_t)(mb * 1e6), .procs = 3, .seed = seed,
                               .random_hashes = random, .truth = true};
    struct spoor_error err = {0};
    struct spoor_gen_result local;
    int rc = spoor_gen_write(path, &o, r ? r : &local, &err);
    if (rc)
        fail_msg("spoor_gen_write: %s", err.msg);
    return path;
}

static bool same_text(struct text a, struct text b)
{
    return a.len == b.len && memcmp(a.data, b.data, a.len) == 0;
}

static void test_fmt_u128(void **state)
{
    char buf[64];
    size_t n = gen_fmt_u128(buf, UINT64_MAX, UINT64_MAX);
    assert_int_equal(n, 39);
    assert_memory_equal(buf, "340282366920938463463374607431768211455", 39);
    n = gen_fmt_u128(buf, 1, 0);
    assert_memory_equal(buf, "18446744073709551616", n);
    n = gen_fmt_u128(buf, 0, 10000000000000000000ull);
    assert_memory_equal(buf, "10000000000000000000", n);
    n = gen_fmt_u128(buf, 0, 0);
    assert_memory_equal(buf, "0", n);
    /* 10^38 = 0x4B3B4CA85A86C47A_098A224000000000: a zero middle limb must pad. */
    n = gen_fmt_u128(buf, 0x4B3B4CA85A86C47Aull, 0x098A224000000000ull);
    assert_int_equal(n, 39);
    assert_memory_equal(buf, "100000000000000000000000000000000000000", 39);
    n = gen_fmt_i64(buf, INT64_MIN);
    assert_memory_equal(buf, "-9223372036854775808", n);
}

static void test_deterministic(void **state)
{
    struct text a = slurp(gen("det_a.pfw", 0.3, 7, false, NULL));
    struct text b = slurp(gen("det_b.pfw", 0.3, 7, false, NULL));
    struct text c = slurp(gen("det_c.pfw", 0.3, 8, false, NULL));
    assert_true(same_text(a, b));
    assert_false(same_text(a, c));
    char pa[4096], pb[4096];
    snprintf(pa, sizeof pa, "%s/det_a.pfw.truth.json", testutil_tmpdir());
    snprintf(pb, sizeof pb, "%s/det_b.pfw.truth.json", testutil_tmpdir());
    struct text ta = slurp(pa), tb = slurp(pb);
    /* The sidecar names its trace; the rest must match. */
    const char *ra = strstr(ta.data, "\"seed\""), *rb = strstr(tb.data, "\"seed\"");
    assert_non_null(ra);
    assert_string_equal(ra, rb);
    free(a.data), free(b.data), free(c.data), free(ta.data), free(tb.data);
}

static void test_size_target_and_dialect(void **state)
{
    struct spoor_gen_result r;
    struct text t = slurp(gen("size.pfw", 0.5, 3, false, &r));
    assert_int_equal(r.bytes, t.len);
    assert_true(t.len >= 500000);
    assert_true(t.len < 500000 + 64 * 1024); /* stops after the phase that crossed it */
    static const char head[] = "[\n{\"name\": \"HH\", \"cat\": \"dftracer\", \"ph\": \"M\", \"args\": {\"name\": \"";
    assert_memory_equal(t.data, head, sizeof head - 1);
    assert_int_equal(t.data[t.len - 1], '\n');
    assert_null(strstr(t.data, "]\n"));          /* no closing bracket, like DataCrumbs */
    assert_non_null(strstr(t.data, "\"ph\": \"X\", \"ts\": "));
    free(t.data);
}

/* Lines of a text, 1-based (lines[0] unused), NUL-terminated in place. */
static char **split_lines(struct text *t, size_t *n)
{
    size_t cap = 1024, count = 0;
    char **lines = malloc(cap * sizeof *lines);
    lines[0] = NULL;
    for (char *p = t->data; p < t->data + t->len;) {
        char *nl = memchr(p, '\n', (size_t)(t->data + t->len - p));
        if (nl)
            *nl = 0;
        if (++count == cap)
            lines = realloc(lines, (cap *= 2) * sizeof *lines);
        lines[count] = p;
        p = nl ? nl + 1 : t->data + t->len;
    }
    *n = count;
    return lines;
}

static cJSON *child(const cJSON *o, const char *key)
{
    cJSON *c = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!c)
        fail_msg("missing key %s", key);
    return c;
}

static double num(const cJSON *o, const char *key) { return child(o, key)->valuedouble; }
static const char *str(const cJSON *o, const char *key) { return child(o, key)->valuestring; }

struct recount {
    char key[96];
    uint64_t count;
    double dur_sum;
};

static void check_truth(const char *trace, bool random)
{
    struct text t = slurp(trace);
    char truth_path[4096];
    spoor_gen_truth_path(trace, truth_path, sizeof truth_path);
    struct text tj = slurp(truth_path);
    cJSON *truth = cJSON_Parse(tj.data);
    assert_non_null(truth);

    size_t nlines;
    char **lines = split_lines(&t, &nlines);
    assert_string_equal(lines[1], "[");
    cJSON **parsed = calloc(nlines + 1, sizeof *parsed);
    struct recount groups[64];
    memset(groups, 0, sizeof groups);
    size_t ngroups = 0;
    uint64_t events = 0, metadata = 0, with_random = 0;
    /* Distinct FH values (as text: cJSON would round 128-bit integers), pids, threads. */
    char (*hashes)[48] = calloc(nlines, sizeof *hashes);
    double (*threads)[2] = calloc(nlines, sizeof *threads);
    size_t nhashes = 0, nthreads = 0, npids = 0;
    for (size_t i = 2; i <= nlines; i++) {
        parsed[i] = cJSON_Parse(lines[i]);
        if (!parsed[i])
            fail_msg("line %zu is not JSON: %.80s", i, lines[i]);
        const char *ph = str(parsed[i], "ph");
        if (!strcmp(ph, "M")) {
            metadata++;
            const char *v = strstr(lines[i], "\"value\": ");
            assert_non_null(v);
            char hash[48];
            snprintf(hash, sizeof hash, "%.*s", (int)strspn(v + 9, "0123456789"), v + 9);
            size_t h = 0;
            while (h < nhashes && strcmp(hashes[h], hash))
                h++;
            if (h == nhashes && !strcmp(str(parsed[i], "name"), "FH"))
                memcpy(hashes[nhashes++], hash, sizeof hash);
            continue;
        }
        double pid = num(parsed[i], "pid"), tid = num(parsed[i], "tid");
        size_t th = 0;
        bool pid_seen = false;
        for (; th < nthreads && !(threads[th][0] == pid && threads[th][1] == tid); th++)
            pid_seen |= threads[th][0] == pid;
        if (th == nthreads) { /* new thread; the loop saw every pid before it */
            npids += !pid_seen;
            threads[nthreads][0] = pid;
            threads[nthreads++][1] = tid;
        }
        assert_string_equal(ph, "X");
        events++;
        char key[96];
        snprintf(key, sizeof key, "%s.%s", str(parsed[i], "cat"), str(parsed[i], "name"));
        size_t g = 0;
        while (g < ngroups && strcmp(groups[g].key, key))
            g++;
        if (g == ngroups) {
            assert_true(ngroups < 64);
            snprintf(groups[ngroups++].key, sizeof groups[0].key, "%s", key);
        }
        groups[g].count++;
        groups[g].dur_sum += num(parsed[i], "dur");
        with_random += cJSON_GetObjectItemCaseSensitive(child(parsed[i], "args"), "rid") != NULL;
    }
    assert_int_equal(with_random, random ? events : 0);

    assert_int_equal((uint64_t)num(truth, "lines"), nlines);
    assert_int_equal((uint64_t)num(truth, "events"), events);
    assert_int_equal((uint64_t)num(truth, "metadata_events"), metadata);
    assert_int_equal((uint64_t)num(truth, "files"), nhashes);
    assert_int_equal((uint64_t)num(truth, "threads"), nthreads);
    assert_int_equal((uint64_t)num(truth, "processes"), npids);
    free(hashes);
    free(threads);
    cJSON *tg = child(truth, "groups");
    size_t matched = 0;
    for (cJSON *g = tg->child; g; g = g->next) {
        char key[96];
        snprintf(key, sizeof key, "%s.%s", str(g, "cat"), str(g, "name"));
        if (!strcmp(str(g, "cat"), "dftracer"))
            continue; /* metadata: counted above */
        size_t k = 0;
        while (k < ngroups && strcmp(groups[k].key, key))
            k++;
        if (k == ngroups)
            fail_msg("truth group %s is not in the trace", key);
        assert_int_equal((uint64_t)num(g, "count"), groups[k].count);
        assert_true(num(g, "dur_sum") == groups[k].dur_sum);
        matched++;
    }
    assert_int_equal(matched, ngroups);

    /* Every call: its line is that call; every nested kernel event is on the
     * same pid/tid strictly inside it; each kernel line is listed once. */
    unsigned char *listed = calloc(nlines + 1, 1);
    uint64_t calls = 0, nested = 0;
    for (cJSON *c = child(truth, "calls")->child; c; c = c->next, calls++) {
        uint64_t id = (uint64_t)cJSON_GetArrayItem(c, 0)->valuedouble;
        size_t line = (size_t)cJSON_GetArrayItem(c, 1)->valuedouble;
        assert_true(line >= 2 && line <= nlines);
        const cJSON *call = parsed[line];
        assert_string_equal(str(call, "cat"), "sys");
        assert_string_equal(str(call, "name"), cJSON_GetArrayItem(c, 2)->valuestring);
        assert_int_equal((uint64_t)num(child(call, "args"), "call_id"), id);
        double start = num(call, "ts") * 1000, end = start + num(call, "dur");
        for (cJSON *k = cJSON_GetArrayItem(c, 3)->child; k; k = k->next, nested++) {
            size_t kl = (size_t)cJSON_GetArrayItem(k, 0)->valuedouble;
            assert_true(kl >= 2 && kl < line); /* written before the call: end-time order */
            assert_false(listed[kl]);
            listed[kl] = 1;
            const cJSON *ev = parsed[kl];
            char key[96];
            snprintf(key, sizeof key, "%s.%s", str(ev, "cat"), str(ev, "name"));
            assert_string_equal(key, cJSON_GetArrayItem(k, 1)->valuestring);
            assert_true(num(ev, "pid") == num(call, "pid"));
            assert_true(num(ev, "tid") == num(call, "tid"));
            double kstart = num(ev, "ts") * 1000, kend = kstart + num(ev, "dur");
            assert_true(kstart > start);
            assert_true(kend < end);
            double dur = cJSON_GetArrayItem(k, 2)->valuedouble, self = cJSON_GetArrayItem(k, 3)->valuedouble;
            assert_true(dur == num(ev, "dur"));
            assert_true(self > 0 && self <= dur);
        }
    }
    assert_true(calls > 10);
    assert_int_equal((uint64_t)num(truth, "call_count"), calls);
    assert_int_equal((uint64_t)num(truth, "kernel_events"), nested);
    uint64_t kernel_in_trace = 0;
    for (size_t i = 2; i <= nlines; i++) {
        const char *cat = str(parsed[i], "cat");
        kernel_in_trace += strcmp(cat, "sys") && strcmp(cat, "app") && strcmp(cat, "dftracer");
    }
    assert_int_equal(kernel_in_trace, nested + (uint64_t)num(truth, "background_events"));

    for (size_t i = 2; i <= nlines; i++)
        cJSON_Delete(parsed[i]);
    free(parsed);
    free(listed);
    free(lines);
    cJSON_Delete(truth);
    free(t.data);
    free(tj.data);
}

static void test_truth_matches_recount(void **state) { check_truth(gen("truth.pfw", 0.4, 11, false, NULL), false); }

static void test_truth_random_hashes(void **state) { check_truth(gen("truth_rh.pfw", 0.4, 12, true, NULL), true); }

static void test_gzip_equals_plain(void **state)
{
    /* Several 1 MiB deflate blocks, so block stitching is exercised. */
    struct spoor_gen_result rp, rz;
    struct text plain = slurp(gen("gz.pfw", 2.5, 5, true, &rp));
    const char *gz_path = gen("gz.pfw.gz", 2.5, 5, true, &rz);
    struct stat st;
    assert_int_equal(stat(gz_path, &st), 0);
    assert_int_equal((uint64_t)st.st_size, rz.disk_bytes);
    struct text inflated = gunzip(gz_path);
    assert_true(same_text(plain, inflated));
    assert_int_equal(rz.bytes, rp.bytes);
    free(plain.data);
    free(inflated.data);
}

/* Writes data through gzpar with `threads` workers in uneven pieces. */
static struct text gzpar_file(const char *name, const char *data, size_t len, int threads)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", testutil_tmpdir(), name);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    assert_true(fd >= 0);
    struct gen_gzpar *g = gen_gzpar_start(fd, "test.gz", 6, threads);
    struct spoor_error err = {0};
    size_t at = 0, step = 1;
    while (at < len) {
        size_t n = step < len - at ? step : len - at;
        assert_int_equal(gen_gzpar_write(g, data + at, n, &err), 0);
        at += n;
        step = step * 7 + 13; /* 1, 20, 153, ... pieces straddle block boundaries */
    }
    uint64_t disk = 0;
    assert_int_equal(gen_gzpar_finish(g, &disk, &err), 0);
    gen_gzpar_free(g);
    close(fd);
    struct text t = gunzip(path);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal((uint64_t)st.st_size, disk);
    return t;
}

static void test_gzpar_any_thread_count(void **state)
{
    /* 3.3 MiB of text that compresses, with matches reaching across blocks. */
    size_t len = 3400000;
    char *data = malloc(len);
    uint64_t x = 1;
    for (size_t i = 0; i < len; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        data[i] = (char)('a' + (x >> 60) % 4);
        if (i % 64 == 63)
            data[i] = '\n';
    }
    struct text one = gzpar_file("p1.gz", data, len, 1);
    struct text four = gzpar_file("p4.gz", data, len, 4);
    assert_int_equal(one.len, len);
    assert_memory_equal(one.data, data, len);
    assert_true(same_text(one, four));
    char p1[4096], p4[4096];
    snprintf(p1, sizeof p1, "%s/p1.gz", testutil_tmpdir());
    snprintf(p4, sizeof p4, "%s/p4.gz", testutil_tmpdir());
    struct text z1 = slurp(p1), z4 = slurp(p4);
    assert_true(same_text(z1, z4)); /* the compressed bytes too */
    struct text empty = gzpar_file("p0.gz", "", 0, 2);
    assert_int_equal(empty.len, 0);
    free(data), free(one.data), free(four.data), free(z1.data), free(z4.data), free(empty.data);
}

static void test_compression_ratios(void **state)
{
    struct spoor_gen_result r;
    gen("ratio_rh.pfw.gz", 4, 1, true, &r);
    double random_ratio = (double)r.bytes / (double)r.disk_bytes;
    gen("ratio.pfw.gz", 4, 1, false, &r);
    double plain_ratio = (double)r.bytes / (double)r.disk_bytes;
    if (random_ratio < 3.2 || random_ratio > 3.8 || plain_ratio < 10 || plain_ratio > 25)
        fail_msg("ratios %.2f (random hashes, want ~3.5) and %.2f (want 10-25)", random_ratio, plain_ratio);
}

static void test_errors_leave_nothing(void **state)
{
    struct spoor_gen_opts o = {.size_bytes = 1000, .procs = 1, .seed = 1, .truth = true};
    struct spoor_error err = {0};
    struct spoor_gen_result r;
    char path[4096];
    snprintf(path, sizeof path, "%s/no/such/dir/x.pfw", testutil_tmpdir());
    assert_int_equal(spoor_gen_write(path, &o, &r, &err), SPOOR_EIO);
    assert_non_null(strstr(err.msg, "no/such/dir/x.pfw"));
    o.size_bytes = 0;
    assert_int_equal(spoor_gen_write(path, &o, &r, &err), SPOOR_EUSAGE);
    o.size_bytes = 1000;
    o.gzip_level = 12;
    assert_int_equal(spoor_gen_write(path, &o, &r, &err), SPOOR_EUSAGE);

    /* A truth sidecar that cannot be created fails the run and removes the temporaries. */
    char dir[2048];
    snprintf(dir, sizeof dir, "%s/blocked", testutil_tmpdir());
    assert_int_equal(mkdir(dir, 0755), 0);
    snprintf(path, sizeof path, "%s/t.pfw", dir);
    char truth[4096];
    spoor_gen_truth_path(path, truth, sizeof truth);
    assert_int_equal(mkdir(truth, 0755), 0); /* a directory where the sidecar goes */
    o.gzip_level = 0;
    o.size_bytes = 200000;
    assert_int_not_equal(spoor_gen_write(path, &o, &r, &err), 0);
    assert_int_equal(access(path, F_OK), -1);
    char cmd[8400];
    snprintf(cmd, sizeof cmd, "ls %s | grep -q tmp", dir);
    assert_int_not_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fmt_u128),
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_size_target_and_dialect),
        cmocka_unit_test(test_truth_matches_recount),
        cmocka_unit_test(test_truth_random_hashes),
        cmocka_unit_test(test_gzip_equals_plain),
        cmocka_unit_test(test_gzpar_any_thread_count),
        cmocka_unit_test(test_compression_ratios),
        cmocka_unit_test(test_errors_leave_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
