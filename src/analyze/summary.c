/* Stage 1 of the streaming summary (see summary_internal.h): the recipe's
 * passes, and each batch's rows into the sums. map() runs the stats recipe on
 * the workers for the period figures alone (same numbers as `spoor stats` by
 * construction; its per-name groups are left out, the summary sums its own);
 * reduce() sums each batch in input order: per row its cat, function, file
 * (resolved from fhash/fname through the lookups seen so far), bytes and
 * whether it is compute, into counts and bytes, and the row itself into its
 * thread's call stack (summary_stacks.c), which passes it on to the unions
 * (summary_unions.c). A pass that finds rows too far out of order is read
 * again, per thread. The end takes the unions' lengths and turns the sums
 * into the answer (summary_result.c). */
#include "summary_internal.h"
#include "analyze/counter_samples.h"

#include "ops/event_bytes.h"
#include "spoor/table.h"
#include "analyze/stats_period.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char spoor_summary_default_compute[] = "compute,cpu,app.compute";

/* The file and host keys, the profile counters' freq and time, the byte rule's. */
const char *const spoor_summary_arg_keys[] = {SUMMARY_ARG_KEYS};
const size_t spoor_summary_n_arg_keys = sizeof spoor_summary_arg_keys / sizeof *spoor_summary_arg_keys;

/* One batch of rows, in input order, into acc and nest. */
struct summary_batch_ctx {
    const char *compute;
    struct spoor_resolver *resolver;
    const struct spoor_strpool *files; /* the resolver's names, once a batch came */
    struct spoor_id_map tids;
    uint32_t *string_of;        /* per batch string id: acc string id */
    size_t string_cap;
    struct fn_cache {
        uint32_t cat;           /* batch cat id */
        uint32_t acc_cat, fn;   /* acc cat string id, function id */
        bool compute;
    } *fn_of;                   /* per batch name id */
    size_t fn_cap;
    int64_t last_pid, last_tid; /* the last row's thread */
    bool thread_known;
    uint32_t pid, thread;       /* its pid id and call-stack thread in the nest */
};

/* The compute list in ids of the table's pool: cats flagged in is_cat, and
 * (cat, name) pairs; an entry "a.b.c" may be cat "a" name "b.c" or cat "a.b"
 * name "c", so every dot is tried. Returns the number of pairs. */
static size_t compute_ids(const struct spoor_table *t, const char *list, bool *is_cat, uint64_t **pairs)
{
    size_t npairs = 0;
    *pairs = spoor_xmalloc((strlen(list) + 1) * sizeof **pairs);
    for (const char *p = list; *p;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        uint32_t id = spoor_strpool_find(t->pool, p, len);
        if (id != UINT32_MAX)
            is_cat[id] = true;
        for (size_t dot = 0; dot < len; dot++) {
            if (p[dot] != '.')
                continue;
            uint32_t cat = spoor_strpool_find(t->pool, p, dot);
            uint32_t name = spoor_strpool_find(t->pool, p + dot + 1, len - dot - 1);
            if (cat != UINT32_MAX && name != UINT32_MAX)
                (*pairs)[npairs++] = (uint64_t)cat << 32 | name;
        }
        p += len + (end != NULL);
    }
    return npairs;
}

static bool is_compute(const struct spoor_table *t, size_t r, const bool *is_cat, const uint64_t *pairs,
                       size_t npairs)
{
    if (is_cat[t->cat[r]])
        return true;
    uint64_t key = (uint64_t)t->cat[r] << 32 | t->name[r];
    for (size_t i = 0; i < npairs; i++)
        if (pairs[i] == key)
            return true;
    return false;
}

/* The acc string id of a batch string id. */
static uint32_t global_string(struct summary_batch_ctx *ctx, struct summary_acc *acc, const struct spoor_table *b,
                              uint32_t id)
{
    if (ctx->string_of[id] == SUMMARY_NO_GROUP) {
        size_t len;
        const char *s = spoor_strpool_get(b->pool, id, &len);
        ctx->string_of[id] = spoor_strpool_intern(acc->strings, s, len);
        spoor_grow((void **)&acc->cats, &acc->cats_cap, ctx->string_of[id], sizeof *acc->cats);
    }
    return ctx->string_of[id];
}

static uint32_t id_in(struct spoor_id_map *k, uint64_t key, void **acc, size_t *cap, size_t size)
{
    uint32_t id = spoor_id_map_id(k, key);
    spoor_grow(acc, cap, id, size);
    return id;
}

/* The columns and compute ids of one batch. */
struct batch_view {
    struct event_bytes bytes;
    const struct spoor_column *freq, *time; /* profile counters */
    bool *is_cat;
    uint64_t *pairs;
    size_t npairs;
};

/* The access-size bins. */
const int64_t spoor_summary_bin_limit[SPOOR_SUMMARY_BINS - 1] = {
    4LL << 10, 64LL << 10, 1LL << 20, 16LL << 20, 1LL << 30,
};
const char *const spoor_summary_bin_name[SPOOR_SUMMARY_BINS] = {
    "<4KiB", "4KiB-64KiB", "64KiB-1MiB", "1MiB-16MiB", "16MiB-1GiB", ">=1GiB",
};

static int bin_of(int64_t bytes)
{
    int b = 0;
    while (b < SPOOR_SUMMARY_BINS - 1 && bytes >= spoor_summary_bin_limit[b])
        b++;
    return b;
}

/* bytes moved by `calls` calls (more than one for a profile counter, binned
 * by their mean size). */
static void add_bytes(struct summary_acc *acc, struct layer_acc *l, uint32_t fn, uint32_t file, int64_t bytes,
                      uint64_t calls)
{
    l->sized += calls;
    l->bytes += bytes;
    acc->fn[fn].bytes += bytes;
    if (file != SUMMARY_NO_GROUP)
        acc->file[file].bytes += bytes;
    int b = bin_of(calls > 1 ? bytes / (int64_t)calls : bytes);
    acc->bin_count[b] += calls;
    acc->bin_bytes[b] += bytes;
}

/* A profile counter (DataCrumbs profile: ph C with args freq and time): freq
 * calls that took args.time seconds in all during the interval. False for any
 * other row, or when either value is missing or negative. */
static bool counter_of(const struct batch_view *v, const struct spoor_table *b, size_t r, uint64_t *calls,
                       int64_t *ns)
{
    if (b->ph[r] != 'C' || !v->freq || !v->time || !spoor_column_valid(v->freq, r) ||
        !spoor_column_valid(v->time, r))
        return false;
    double freq = v->freq->type == SPOOR_I64 ? (double)v->freq->i64[r]
                  : v->freq->type == SPOOR_F64 ? v->freq->f64[r]
                                               : -1;
    double s = v->time->type == SPOOR_I64 ? (double)v->time->i64[r]
               : v->time->type == SPOOR_F64 ? v->time->f64[r]
                                            : -1;
    if (!(freq >= 0 && freq < 9e18 && s >= 0 && s < 9e9))
        return false;
    *calls = (uint64_t)freq;
    *ns = llround(s * 1e9);
    return true;
}

/* The span [ts, end] of a row that takes part in unions and call stacks. */
static bool row_span(const struct spoor_table *b, size_t r, int64_t *end)
{
    int64_t ts = b->ts[r], dur = b->dur[r];
    if (ts == SPOOR_NULL || dur == SPOOR_NULL || dur < 0 || ts > INT64_MAX - dur)
        return false;
    *end = ts + dur;
    return true;
}

/* Sets ctx->pid and ctx->thread to those of row r, its call-stack thread
 * keyed (pid id << 32 | tid id). */
static void new_thread(struct summary_batch_ctx *ctx, struct summary_acc *acc, struct summary_nest *nest,
                       const struct spoor_table *b, size_t r)
{
    ctx->last_pid = b->pid[r];
    ctx->last_tid = b->tid[r];
    ctx->thread_known = true;
    ctx->pid = spoor_id_map_id(&acc->pids, (uint64_t)b->pid[r]);
    spoor_grow((void **)&acc->io_of, &acc->io_of_cap, ctx->pid, sizeof *acc->io_of);
    ctx->thread = summary_nest_thread(nest, (uint64_t)ctx->pid << 32 | spoor_id_map_id(&ctx->tids, (uint64_t)b->tid[r]));
}

/* Consecutive rows mostly come from the same thread: inline, the check. */
static inline void thread_of(struct summary_batch_ctx *ctx, struct summary_acc *acc, struct summary_nest *nest,
                             const struct spoor_table *b, size_t r)
{
    if (b->pid[r] != ctx->last_pid || b->tid[r] != ctx->last_tid || !ctx->thread_known)
        new_thread(ctx, acc, nest, b, r);
}

/* A row's cat, function and compute flag, cached per batch by name (a name
 * rarely has two cats). */
static const struct fn_cache *fn_of(struct summary_batch_ctx *ctx, struct summary_acc *acc,
                                    const struct spoor_table *b, const struct batch_view *v, size_t r)
{
    struct fn_cache *c = &ctx->fn_of[b->name[r]];
    if (c->cat != b->cat[r] || c->fn == SUMMARY_NO_GROUP) {
        uint32_t cat = global_string(ctx, acc, b, b->cat[r]), name = global_string(ctx, acc, b, b->name[r]);
        uint32_t fn = spoor_id_map_id(&acc->fns, (uint64_t)cat << 32 | name);
        spoor_grow((void **)&acc->fn, &acc->fn_cap, fn, sizeof *acc->fn);
        *c = (struct fn_cache){b->cat[r], cat, fn, is_compute(b, r, v->is_cat, v->pairs, v->npairs)};
    }
    return c;
}

/* A profile counter (DataCrumbs profile mode): per interval and function, the
 * number of calls and their summed time, with no span. Their time cannot
 * join a union (nothing says when within the interval the calls ran, or
 * whether they overlapped), so it is summed beside the unions and added to
 * their lengths at the end: a layer's, function's, file's, process's I/O or
 * compute time is its spanned union plus its counters' time, and "not
 * compute" counts a counter of another cat whole. Self time needs nesting,
 * which counters lack: they add none. */
static void counter_add(struct summary_acc *a, uint32_t cat, uint32_t fn, uint32_t file, uint32_t io_pid,
                        bool compute, int64_t ns)
{
    struct layer_acc *l = &a->cats[cat];
    l->counter_time += ns;
    l->dur_sum += ns;
    a->fn[fn].counter_time += ns;
    if (file != SUMMARY_NO_GROUP)
        a->file[file].counter_time += ns;
    if (io_pid != SUMMARY_NO_GROUP) {
        spoor_grow((void **)&a->io_counter, &a->io_counter_cap, io_pid, sizeof *a->io_counter);
        a->io_counter[io_pid] += ns;
    }
    if (compute)
        a->compute_counter += ns;
    else
        l->counter_rest += ns;
}

static void add_event(struct summary_batch_ctx *ctx, struct summary_acc *acc, struct summary_nest *nest,
                      const struct spoor_table *b, const struct batch_view *v, const uint32_t *file_of, size_t r)
{
    const struct fn_cache *f = fn_of(ctx, acc, b, v, r);
    uint32_t cat = f->acc_cat, fn = f->fn;
    uint32_t file = file_of[r] ? id_in(&acc->files, file_of[r], (void **)&acc->file, &acc->file_cap,
                                       sizeof *acc->file)
                               : SUMMARY_NO_GROUP;
    thread_of(ctx, acc, nest, b, r);
    int64_t bytes = event_bytes_of(&v->bytes, b, r), counter_ns = SPOOR_NULL;
    uint64_t calls = 1;
    if (b->ph[r] == 'C')
        counter_of(v, b, r, &calls, &counter_ns);
    if (f->compute)
        acc->compute_rows++;
    struct layer_acc *l = &acc->cats[cat];
    l->count += calls;
    acc->fn[fn].count += calls;
    if (file != SUMMARY_NO_GROUP)
        acc->file[file].count += calls;
    if (bytes != SPOOR_NULL)
        add_bytes(acc, l, fn, file, bytes, calls);
    bool io = file != SUMMARY_NO_GROUP || bytes != SPOOR_NULL;
    if (io && !acc->io_of[ctx->pid])
        acc->io_of[ctx->pid] = spoor_id_map_id(&acc->io_pids, (uint64_t)b->pid[r]) + 1;
    if (counter_ns != SPOOR_NULL) {
        counter_add(acc, cat, fn, file, io ? acc->io_of[ctx->pid] - 1 : SUMMARY_NO_GROUP, f->compute, counter_ns);
        return;
    }

    int64_t ts = b->ts[r], end;
    if (!row_span(b, r, &end))
        return;
    l->dur_sum += end - ts;
    struct nest_item it = {ts, end, cat, fn, file, true, f->compute, io};
    summary_nest_add(nest, ctx->thread, &it, acc);
}

/* A metadata row with a span still holds the events inside it. */
static void add_metadata(struct summary_batch_ctx *ctx, struct summary_acc *acc, struct summary_nest *nest,
                         const struct spoor_table *b, size_t r)
{
    int64_t end;
    if (!row_span(b, r, &end))
        return;
    thread_of(ctx, acc, nest, b, r);
    struct nest_item it = {b->ts[r], end, global_string(ctx, acc, b, b->cat[r]), SUMMARY_NO_GROUP, SUMMARY_NO_GROUP,
                           false, false, false};
    summary_nest_add(nest, ctx->thread, &it, acc);
}

static void add_batch(struct summary_batch_ctx *ctx, const struct spoor_table *b, struct summary_acc *acc,
                      struct summary_nest *nest)
{
    const struct spoor_resolved *res = spoor_resolver_resolve_files(ctx->resolver, b);
    ctx->files = res->pool;
    size_t nstrings = spoor_strpool_count(b->pool);
    spoor_grow((void **)&ctx->string_of, &ctx->string_cap, nstrings, sizeof *ctx->string_of);
    memset(ctx->string_of, 0xff, nstrings * sizeof *ctx->string_of);
    spoor_grow((void **)&ctx->fn_of, &ctx->fn_cap, nstrings, sizeof *ctx->fn_of);
    memset(ctx->fn_of, 0xff, nstrings * sizeof *ctx->fn_of);
    struct batch_view v = {
        .freq = spoor_table_find_column(b, "freq"),
        .time = spoor_table_find_column(b, "time"),
        .is_cat = spoor_xcalloc(nstrings ? nstrings : 1, sizeof *v.is_cat),
    };
    event_bytes_bind(&v.bytes, b);
    v.npairs = compute_ids(b, ctx->compute, v.is_cat, &v.pairs);
    struct counter_cats samples = counter_cats_of(b);
    for (size_t r = 0; r < b->nrows; r++) {
        if (b->ph[r] == 'M')
            add_metadata(ctx, acc, nest, b, r);
        else if (!counter_sample(&samples, b, r))
            add_event(ctx, acc, nest, b, &v, res->file, r);
    }
    free(v.is_cat);
    free(v.pairs);
}

struct spoor_summary_run {
    struct spoor_summary_opts opts;
    int threads;
    struct spoor_stats_run *stats;
    struct summary_batch_ctx batch;
    struct summary_acc acc;
    struct summary_nest *nest;
    bool ordered;                   /* this pass sweeps every thread in one start order */
    struct spoor_id_map unbounded;  /* threads held whole, after a pass overflowed their reorder */
};

static void pass_begin(struct spoor_summary_run *run)
{
    run->stats = spoor_stats_begin_period(run->threads);
    run->batch = (struct summary_batch_ctx){.compute = run->opts.compute, .resolver = spoor_resolver_new()};
    run->acc = (struct summary_acc){.strings = spoor_strpool_new()};
    run->nest = summary_nest_new(&run->unbounded, run->opts.window, run->ordered);
}

static void acc_free(struct summary_acc *a)
{
    spoor_strpool_free(a->strings);
    free(a->cats);
    free(a->fn);
    free(a->file);
    free(a->parent_dur);
    free(a->io_of);
    free(a->io_counter);
    free(a->io_time);
    free(a->cat_time);
    free(a->cat_rest);
    ordered_free(a);
    struct spoor_id_map *keys[] = {&a->fns, &a->files, &a->pids, &a->cat_pids, &a->io_pids, &a->parent_pairs};
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
        spoor_id_map_free(keys[i]);
    memset(a, 0, sizeof *a);
}

static void pass_free(struct spoor_summary_run *run)
{
    spoor_resolver_free(run->batch.resolver);
    spoor_id_map_free(&run->batch.tids);
    free(run->batch.string_of);
    free(run->batch.fn_of);
    acc_free(&run->acc);
    summary_nest_free(run->nest);
    run->nest = NULL;
}

struct spoor_summary_run *spoor_summary_begin(const struct spoor_summary_opts *opts, int threads)
{
    struct spoor_summary_run *run = spoor_xcalloc(1, sizeof *run);
    run->opts = *opts;
    if (!run->opts.compute)
        run->opts.compute = spoor_summary_default_compute;
    if (!run->opts.window)
        run->opts.window = SPOOR_SUMMARY_WINDOW;
    run->threads = threads > 0 ? threads : 1;
    run->ordered = run->opts.inputs <= 1;
    pass_begin(run);
    return run;
}

static int summary_map(void *ctx, int worker, const struct spoor_table *b)
{
    struct spoor_summary_run *run = ctx;
    struct spoor_sink stats = spoor_stats_map_sink(run->stats);
    return stats.map(stats.ctx, worker, b);
}

static int summary_reduce(void *ctx, size_t input, const struct spoor_table *b)
{
    (void)input;
    struct spoor_summary_run *run = ctx;
    add_batch(&run->batch, b, &run->acc, run->nest); /* resolves b's files */
    spoor_stats_add_names(run->stats, b, run->batch.resolver);
    return SPOOR_OK;
}

struct spoor_sink spoor_summary_sink(struct spoor_summary_run *run)
{
    return (struct spoor_sink){.ctx = run, .map = summary_map, .reduce = summary_reduce};
}

bool spoor_summary_again(struct spoor_summary_run *run)
{
    if (summary_nest_finish(run->nest, &run->acc, &run->unbounded))
        return false;
    run->ordered = false; /* out of global order: per thread from now on */
    struct spoor_stats discard;
    spoor_stats_end(run->stats, &discard);
    spoor_stats_free(&discard);
    pass_free(run);
    pass_begin(run);
    return true;
}

void spoor_summary_end(struct spoor_summary_run *run, struct spoor_summary *out)
{
    memset(out, 0, sizeof *out);
    spoor_stats_end(run->stats, &out->period);
    out->strings = spoor_strpool_new();
    struct nest_threads per_thread;
    summary_unions(&run->acc, summary_nest_threads(run->nest, &per_thread) ? &per_thread : NULL, run->threads);
    summary_result(&run->acc, run->batch.files, run->opts.top, out);
    pass_free(run);
    spoor_id_map_free(&run->unbounded);
    free(run);
}

void spoor_summarize(const struct spoor_table *t, const struct spoor_summary_opts *opts, struct spoor_summary *out)
{
    struct spoor_summary_run *run = spoor_summary_begin(opts, 1);
    do {
        summary_map(run, 0, t);
        summary_reduce(run, 0, t);
    } while (spoor_summary_again(run));
    spoor_summary_end(run, out);
}

void spoor_summary_free(struct spoor_summary *s)
{
    spoor_stats_free(&s->period);
    free(s->layers);
    free(s->files);
    free(s->functions);
    spoor_strpool_free(s->strings);
    memset(s, 0, sizeof *s);
}
