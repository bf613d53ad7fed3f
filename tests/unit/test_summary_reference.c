/* The streaming summary (spoor_load, 1 and 3 threads, small chunks, one or
 * two inputs, rows shuffled so that the replay runs) against a brute-force
 * reference over the whole table (the interval engine's call stacks, sorted
 * unions) on `spoor gen` traces and the shared samples. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "spoor/gen.h"
#include "spoor/interval.h"
#include "spoor/table.h"
#include "spoor/summary.h"
#include "summary_testutil.h"
#include "testutil.h"

/* ---- the brute-force reference ---- */

/* Spans per group, groups named by a string. */
struct bag {
    char *key;
    struct spoor_span *v;
    size_t n, cap;
};
struct bags {
    struct bag *b;
    size_t n;
};

static struct bag *bag_of(struct bags *bs, const char *key)
{
    for (size_t i = 0; i < bs->n; i++)
        if (!strcmp(bs->b[i].key, key))
            return &bs->b[i];
    bs->b = realloc(bs->b, (bs->n + 1) * sizeof *bs->b);
    bs->b[bs->n] = (struct bag){strdup(key), NULL, 0, 0};
    return &bs->b[bs->n++];
}

static void bag_add(struct bags *bs, const char *key, int64_t start, int64_t end)
{
    struct bag *b = bag_of(bs, key);
    if (b->n == b->cap) {
        b->cap = b->cap ? 2 * b->cap : 16;
        b->v = realloc(b->v, b->cap * sizeof *b->v);
    }
    b->v[b->n++] = (struct spoor_span){start, end};
}

/* The union of a bag (sorted in place); 0 spans when absent. */
static size_t bag_union(struct bags *bs, const char *key, struct spoor_span **v)
{
    struct bag *b = bag_of(bs, key);
    b->n = spoor_spans_union(b->v, b->n);
    *v = b->v;
    return b->n;
}

static int64_t bag_length(struct bags *bs, const char *key)
{
    struct spoor_span *v;
    size_t n = bag_union(bs, key, &v);
    return spoor_spans_length(v, n);
}

static void bags_free(struct bags *bs)
{
    for (size_t i = 0; i < bs->n; i++) {
        free(bs->b[i].key);
        free(bs->b[i].v);
    }
    free(bs->b);
}

static int64_t ref_arg(const struct spoor_table *t, const char *key, size_t r)
{
    const struct spoor_column *c = spoor_table_find_column(t, key);
    if (!c || !spoor_column_valid(c, r))
        return SPOOR_NULL;
    if (c->type == SPOOR_I64)
        return c->i64[r];
    return c->type == SPOOR_F64 ? (int64_t)c->f64[r] : SPOOR_NULL;
}

/* The byte rule of docs/formats.md, written out plainly. */
static int64_t ref_bytes(const struct spoor_table *t, size_t r)
{
    const char *name = spoor_table_str(t, t->name[r]);
    bool element = !strcmp(name, "fread") || !strcmp(name, "fwrite") || !strcmp(name, "fread_unlocked") ||
                   !strcmp(name, "fwrite_unlocked");
    int64_t v;
    if (ref_arg(t, "dft_cnt", r) != SPOOR_NULL) {
        int64_t lo = ref_arg(t, "size_min", r), hi = ref_arg(t, "size_max", r), n = ref_arg(t, "ret_sum", r);
        if (element)
            v = lo != SPOOR_NULL && lo == hi && n != SPOOR_NULL && n >= 0 && lo >= 0 ? n * lo : SPOOR_NULL;
        else if ((v = ref_arg(t, "size_sum", r)) == SPOOR_NULL && ref_arg(t, "count_sum", r) != SPOOR_NULL)
            v = n;
    } else if ((v = ref_arg(t, "size_sum", r)) != SPOOR_NULL) {
    } else if (element) {
        int64_t n = ref_arg(t, "ret", r), size = ref_arg(t, "size", r);
        v = n != SPOOR_NULL && size != SPOOR_NULL && n >= 0 && size >= 0 ? n * size : SPOOR_NULL;
    } else if ((v = ref_arg(t, "size", r)) == SPOOR_NULL && ref_arg(t, "count", r) != SPOOR_NULL) {
        v = ref_arg(t, "ret", r);
    }
    return v >= 0 ? v : SPOOR_NULL;
}

/* A profile counter's calls and ns (ph C with freq and time), else false. */
static bool ref_counter(const struct spoor_table *t, size_t r, uint64_t *calls, int64_t *ns)
{
    const struct spoor_column *freq = spoor_table_find_column(t, "freq"), *time = spoor_table_find_column(t, "time");
    if (t->ph[r] != 'C' || !freq || !time || !spoor_column_valid(freq, r) || !spoor_column_valid(time, r))
        return false;
    double f = freq->type == SPOOR_I64 ? (double)freq->i64[r] : freq->f64[r];
    double s = time->type == SPOOR_I64 ? (double)time->i64[r] : time->f64[r];
    *calls = (uint64_t)f;
    *ns = llround(s * 1e9);
    return f >= 0 && s >= 0;
}

static bool ref_compute(const char *cat, const char *name)
{
    char fn[1024];
    snprintf(fn, sizeof fn, "%s.%s", cat, name);
    return !strcmp(cat, "compute") || !strcmp(cat, "cpu") || !strcmp(fn, "app.compute");
}

/* Checks s against the reference computed over the whole table t. */
static void check_against_reference(const struct spoor_table *t, const struct spoor_summary *s)
{
    struct spoor_nesting nest;
    struct spoor_error err;
    assert_int_equal(spoor_nesting_build(t, NULL, 0, SPOOR_IV_THREAD, 1, &nest, &err), SPOOR_OK);
    struct spoor_resolver *res = spoor_resolver_new();
    const struct spoor_resolved *files = spoor_resolver_resolve(res, t);
    struct bags by_cat = {0}, by_cat_pid = {0}, compute = {0}, by_fn = {0}, by_file = {0}, io = {0};
    size_t ncats = spoor_strpool_count(t->pool);
    int64_t *self = calloc(ncats, sizeof *self), *outer = calloc(ncats, sizeof *outer);
    int64_t *pair = calloc(ncats * ncats, sizeof *pair);
    uint64_t *count = calloc(ncats, sizeof *count), events = 0, calls_all = 0;
    char key[2048];
    /* A counter's time has no span: each gets its own span after everything
     * else, so that every union adds it whole and only compute counters of
     * the same row hide it. */
    int64_t counter_at = INT64_MAX / 2;
    for (size_t r = 0; r < t->nrows; r++) {
        if (t->ph[r] == 'M')
            continue;
        events++;
        const char *cat = spoor_table_str(t, t->cat[r]), *name = spoor_table_str(t, t->name[r]);
        const char *file = files->file[r] ? spoor_strpool_get(files->pool, files->file[r], NULL) : NULL;
        uint64_t calls = 1;
        int64_t ns = 0, start, end;
        bool counter = ref_counter(t, r, &calls, &ns);
        count[t->cat[r]] += calls;
        calls_all += calls;
        if (counter) {
            start = counter_at;
            end = counter_at += ns;
            counter_at++;
        } else if (nest.depth[r] < 0) {
            continue;
        } else {
            start = t->ts[r];
            end = t->ts[r] + t->dur[r];
            self[t->cat[r]] += nest.self[r];
        }
        uint32_t p = counter ? SPOOR_IV_NO_PARENT : nest.parent[r];
        if (!counter && (p == SPOOR_IV_NO_PARENT || t->cat[p] != t->cat[r])) {
            outer[t->cat[r]] += t->dur[r];
            if (p != SPOOR_IV_NO_PARENT)
                pair[t->cat[r] * ncats + t->cat[p]] += t->dur[r];
        }
        bag_add(&by_cat, cat, start, end);
        snprintf(key, sizeof key, "%s/%lld", cat, (long long)t->pid[r]);
        bag_add(&by_cat_pid, key, start, end);
        snprintf(key, sizeof key, "%lld", (long long)t->pid[r]);
        if (ref_compute(cat, name))
            bag_add(&compute, key, start, end);
        if (file || ref_bytes(t, r) != SPOOR_NULL)
            bag_add(&io, key, start, end);
        if (file)
            bag_add(&by_file, file, start, end);
        snprintf(key, sizeof key, "%s.%s", cat, name);
        bag_add(&by_fn, key, start, end);
    }
    assert_int_equal(s->period.events, events);
    uint64_t layer_count = 0;
    for (size_t i = 0; i < s->nlayers; i++) {
        const struct spoor_summary_layer *l = &s->layers[i];
        uint32_t c = spoor_strpool_find(t->pool, l->cat, strlen(l->cat));
        assert_int_not_equal(c, UINT32_MAX);
        layer_count += l->count;
        assert_int_equal(l->count, count[c]);
        assert_int_equal(l->time, bag_length(&by_cat, l->cat));
        assert_int_equal(l->self, self[c]);
        /* The parent: the cat holding most of the layer's outer time (any of a tie). */
        int64_t best = 0;
        for (size_t q = 0; q < ncats; q++)
            if (pair[c * ncats + q] > best)
                best = pair[c * ncats + q];
        if (l->parent && best > 0) {
            uint32_t q = spoor_strpool_find(t->pool, l->parent, strlen(l->parent));
            assert_int_equal(pair[c * ncats + q], best);
            assert_true(l->parent_share == (double)best / (double)outer[q]);
        } else {
            assert_true(best == 0);
        }
    }
    assert_int_equal(layer_count, calls_all);
    /* Time not overlapped by compute, per (cat, process); compute over all. */
    int64_t *not_compute = calloc(ncats, sizeof *not_compute);
    struct bags all_compute = {0};
    for (size_t i = 0; i < by_cat_pid.n; i++) {
        struct bag *b = &by_cat_pid.b[i];
        char cat[1024];
        const char *slash = strrchr(b->key, '/');
        snprintf(cat, sizeof cat, "%.*s", (int)(slash - b->key), b->key);
        struct spoor_span *v, *c;
        size_t n = bag_union(&by_cat_pid, b->key, &v), nc = bag_union(&compute, slash + 1, &c);
        int64_t covered = 0;
        for (size_t k = 0; k < n; k++)
            covered += spoor_spans_covered(c, nc, v[k].start, v[k].end);
        not_compute[spoor_strpool_find(t->pool, cat, strlen(cat))] += spoor_spans_length(v, n) - covered;
    }
    for (size_t i = 0; i < compute.n; i++)
        for (size_t k = 0; k < compute.b[i].n; k++)
            bag_add(&all_compute, "", compute.b[i].v[k].start, compute.b[i].v[k].end);
    assert_int_equal(s->compute_time, bag_length(&all_compute, ""));
    for (size_t i = 0; i < s->nlayers; i++)
        assert_int_equal(s->layers[i].not_compute,
                         not_compute[spoor_strpool_find(t->pool, s->layers[i].cat, strlen(s->layers[i].cat))]);
    for (size_t i = 0; i < s->nfunctions; i++)
        assert_int_equal(s->functions[i].time, bag_length(&by_fn, s->functions[i].label));
    for (size_t i = 0; i < s->nfiles; i++)
        assert_int_equal(s->files[i].time, bag_length(&by_file, s->files[i].label));
    int64_t max = 0, sum = 0;
    for (size_t i = 0; i < io.n; i++) {
        int64_t len = bag_length(&io, io.b[i].key);
        sum += len;
        max = len > max ? len : max;
    }
    assert_int_equal(s->io_time_max, max);
    assert_true(s->io_time_mean == (io.n ? (double)sum / (double)io.n : 0));
    struct bags *all[] = {&by_cat, &by_cat_pid, &compute, &by_fn, &by_file, &io, &all_compute};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        bags_free(all[i]);
    free(self);
    free(outer);
    free(pair);
    free(count);
    free(not_compute);
    spoor_resolver_free(res);
    spoor_nesting_free(&nest);
}

static void load_opts(struct spoor_load_opts *o, int threads)
{
    *o = (struct spoor_load_opts){.threads = threads, .no_cache = true};
    o->read.args = SPOOR_ARGS_LISTED;
    o->read.arg_keys = spoor_summary_arg_keys;
    o->read.n_arg_keys = spoor_summary_n_arg_keys;
    o->input.no_index = true;
    o->input.chunk_size = 64 << 10; /* many batches */
}

/* The streaming summary of paths, told they are `inputs` inputs (1: the first
 * pass tries one global start order; more: per thread from the start);
 * returns the number of passes. */
static int streaming(const char *const *paths, size_t n, size_t inputs, int threads, size_t window,
                     struct spoor_summary *s)
{
    struct spoor_load_opts o;
    load_opts(&o, threads);
    struct spoor_summary_opts so = {.top = 1000, .window = window, .inputs = inputs};
    struct spoor_summary_run *run = spoor_summary_begin(&so, threads);
    struct spoor_sink sink = spoor_summary_sink(run);
    struct spoor_load_result res;
    struct spoor_error err;
    assert_int_equal(spoor_load(paths, n, &o, &sink, &res, &err), SPOOR_OK);
    int passes = 1;
    if (spoor_summary_again(run)) {
        passes++;
        spoor_load_result_free(&res);
        assert_int_equal(spoor_load(paths, n, &o, &sink, &res, &err), SPOOR_OK);
        assert_false(spoor_summary_again(run));
    }
    spoor_load_result_free(&res);
    spoor_summary_end(run, s);
    return passes;
}

/* The streaming summary of paths against the reference, with 1 and 3 threads
 * (only 3 when `quick`), first in global order then per thread from the
 * start; returns the passes the global order took. */
static int check_paths(const char *const *paths, size_t n, size_t window, bool quick)
{
    struct spoor_load_opts o;
    load_opts(&o, 1);
    struct spoor_table *t;
    struct spoor_load_result res;
    struct spoor_error err;
    assert_int_equal(spoor_load_table(paths, n, &o, &t, &res, &err), SPOOR_OK);
    spoor_load_result_free(&res);
    /* The whole table as one batch gives the same. */
    struct spoor_summary whole;
    struct spoor_summary_opts so = {.top = 1000};
    spoor_summarize(t, &so, &whole);
    int ordered_passes = 0;
    for (int threads = quick ? 3 : 1; threads <= 3; threads += 2) {
        for (size_t inputs = 1; inputs <= 2; inputs++) {
            struct spoor_summary s;
            int passes = streaming(paths, n, inputs, threads, window, &s);
            if (inputs == 1)
                ordered_passes = passes;
            check_against_reference(t, &s);
            assert_same_layers(&whole, &s);
            spoor_summary_free(&s);
        }
    }
    spoor_summary_free(&whole);
    spoor_table_free(t);
    return ordered_passes;
}

static void shuffle(char **lines, size_t n)
{
    srand(11);
    for (size_t i = n - 1; i > 0; i--) {
        size_t j = (size_t)rand() % (i + 1);
        char *x = lines[i];
        lines[i] = lines[j];
        lines[j] = x;
    }
}

struct tid_line {
    long tid;
    size_t at;
    char *line;
};

static int by_tid(const void *a, const void *b)
{
    const struct tid_line *x = a, *y = b;
    if (x->tid != y->tid)
        return x->tid < y->tid ? -1 : 1;
    return x->at < y->at ? -1 : x->at > y->at;
}

/* Each thread's lines in one block, in their order (a writer that flushes a
 * buffer per thread). */
static void block_by_thread(char **lines, size_t n)
{
    struct tid_line *v = malloc((n ? n : 1) * sizeof *v);
    for (size_t i = 0; i < n; i++) {
        const char *tid = strstr(lines[i], "\"tid\": ");
        v[i] = (struct tid_line){tid ? atol(tid + 7) : -1, i, lines[i]};
    }
    qsort(v, n, sizeof *v, by_tid);
    for (size_t i = 0; i < n; i++)
        lines[i] = v[i].line;
    free(v);
}

/* A gen trace with its event lines rearranged (metadata kept first, so that
 * every hash resolves in order), written to name in the test directory. */
static const char *rearranged_trace(const char *from, const char *name, void (*arrange)(char **lines, size_t n))
{
    FILE *in = fopen(from, "r");
    assert_non_null(in);
    char **lines = NULL, buf[8192];
    size_t n = 0, cap = 0;
    while (fgets(buf, sizeof buf, in)) {
        if (n == cap)
            lines = realloc(lines, (cap = cap ? 2 * cap : 1024) * sizeof *lines);
        lines[n++] = strdup(buf);
    }
    fclose(in);
    size_t first = 0; /* "[" and metadata lines stay in front */
    for (size_t i = 0; i < n; i++)
        if (i == 0 || strstr(lines[i], "\"ph\": \"M\"")) {
            char *x = lines[first];
            lines[first++] = lines[i];
            lines[i] = x;
        }
    arrange(lines + first, n - first);
    char *path = malloc(4096);
    snprintf(path, 4096, "%s/%s", testutil_tmpdir(), name);
    FILE *out = fopen(path, "w");
    for (size_t i = 0; i < n; i++) {
        fputs(lines[i], out);
        free(lines[i]);
    }
    fclose(out);
    free(lines);
    return path;
}

static void streaming_matches_reference_on_gen_traces(void **state)
{
    (void)state;
    char a[4096], b[4096];
    snprintf(a, sizeof a, "%s/a.pfw", testutil_tmpdir());
    snprintf(b, sizeof b, "%s/b.pfw.gz", testutil_tmpdir());
    struct spoor_gen_opts g = {.size_bytes = 2 << 20, .procs = 3, .seed = 3};
    struct spoor_gen_result res;
    struct spoor_error err;
    assert_int_equal(spoor_gen_write(a, &g, &res, &err), SPOOR_OK);
    g.seed = 4;
    g.size_bytes = 1 << 20;
    assert_int_equal(spoor_gen_write(b, &g, &res, &err), SPOOR_OK);
    const char *one[] = {a}, *two[] = {a, b};
    const char *shuffled[] = {rearranged_trace(a, "shuffled.pfw", shuffle)};
    const char *blocked[] = {rearranged_trace(a, "blocked.pfw", block_by_thread)};
    /* One gen trace is in global start order within the window: one pass. */
    assert_int_equal(check_paths(one, 1, 0, false), 1);
    /* Small traces fit in the one window whole, however fed. */
    assert_int_equal(check_paths(two, 2, 0, false), 1);
    assert_int_equal(check_paths(shuffled, 1, 0, true), 1);
    /* With a smaller window, two traces of the same time, one after the
     * other, are out of global order and so are threads written in blocks:
     * per thread, where each is in order. */
    assert_int_equal(check_paths(two, 2, 256, false), 2);
    assert_int_equal(check_paths(blocked, 1, 256, false), 2);
    /* A small window: threads overflow it too, and are held whole in the
     * second pass. */
    assert_int_equal(check_paths(shuffled, 1, 32, false), 2);
    check_paths(two, 2, 32, true);
    free((char *)shuffled[0]);
    free((char *)blocked[0]);
}

static void streaming_matches_reference_on_samples(void **state)
{
    (void)state;
    const char *root = getenv("SPOOR_DATA");
    if (!root || !*root) {
        printf("skipped: SPOOR_DATA unset\n");
        skip();
    }
    static const char *const samples[] = {
        "pfw/datacrumbs-trace-2024.pfw.gz", "pfw/datacrumbs-profile-2024.pfw", "pfw/dftracer-cm1-2024-rank0.pfw.gz",
        "pfw/dftracer-dlio-pytorch-2023.pfw.gz", "pfw/dftracer-quoted-2023.pfw.gz",
    };
    for (size_t i = 0; i < sizeof samples / sizeof *samples; i++) {
        const char *path[] = {testutil_data(samples[i])};
        /* Real traces are read once at the default window (the DLIO sample's
         * main thread comes back every ~3,900 lines). */
        assert_int_equal(check_paths(path, 1, 0, true), 1);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(streaming_matches_reference_on_gen_traces),
        cmocka_unit_test(streaming_matches_reference_on_samples),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
