/* One batch into the sums: per row its cat, function, file (resolved from
 * fhash/fname through the lookups seen so far), bytes and whether it is
 * compute; then counts, unions and the call-stack stream. */
#include "summary_internal.h"

#include "analyze/event_bytes.h"
#include "spoor/resolve.h"

#include <math.h>

#include <stdlib.h>
#include <string.h>

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
        summary_grow((void **)&acc->cats, &acc->cats_cap, ctx->string_of[id], sizeof *acc->cats);
    }
    return ctx->string_of[id];
}

static uint32_t id_in(struct summary_keys *k, uint64_t key, void **acc, size_t *cap, size_t size)
{
    uint32_t id = summary_keys_id(k, key);
    summary_grow(acc, cap, id, size);
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
    ctx->pid = summary_keys_id(&acc->pids, (uint64_t)b->pid[r]);
    summary_grow((void **)&acc->io_of, &acc->io_of_cap, ctx->pid, sizeof *acc->io_of);
    ctx->thread = summary_nest_thread(nest, (uint64_t)ctx->pid << 32 | summary_keys_id(&ctx->tids, (uint64_t)b->tid[r]));
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
        uint32_t fn = summary_keys_id(&acc->fns, (uint64_t)cat << 32 | name);
        summary_grow((void **)&acc->fn, &acc->fn_cap, fn, sizeof *acc->fn);
        *c = (struct fn_cache){b->cat[r], cat, fn, is_compute(b, r, v->is_cat, v->pairs, v->npairs)};
    }
    return c;
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
        acc->io_of[ctx->pid] = summary_keys_id(&acc->io_pids, (uint64_t)b->pid[r]) + 1;
    if (counter_ns != SPOOR_NULL) {
        summary_counter_add(acc, cat, fn, file, io ? acc->io_of[ctx->pid] - 1 : SUMMARY_NO_GROUP, f->compute,
                            counter_ns);
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

void summary_batch(struct summary_batch_ctx *ctx, const struct spoor_table *b, struct summary_acc *acc,
                   struct summary_nest *nest)
{
    const struct spoor_resolved *res = spoor_resolver_resolve_files(ctx->resolver, b);
    ctx->files = res->pool;
    size_t nstrings = spoor_strpool_count(b->pool);
    summary_grow((void **)&ctx->string_of, &ctx->string_cap, nstrings, sizeof *ctx->string_of);
    memset(ctx->string_of, 0xff, nstrings * sizeof *ctx->string_of);
    summary_grow((void **)&ctx->fn_of, &ctx->fn_cap, nstrings, sizeof *ctx->fn_of);
    memset(ctx->fn_of, 0xff, nstrings * sizeof *ctx->fn_of);
    struct batch_view v = {
        .freq = spoor_table_find_column(b, "freq"),
        .time = spoor_table_find_column(b, "time"),
        .is_cat = spoor_xcalloc(nstrings ? nstrings : 1, sizeof *v.is_cat),
    };
    event_bytes_bind(&v.bytes, b);
    v.npairs = compute_ids(b, ctx->compute, v.is_cat, &v.pairs);
    for (size_t r = 0; r < b->nrows; r++) {
        if (b->ph[r] == 'M')
            add_metadata(ctx, acc, nest, b, r);
        else
            add_event(ctx, acc, nest, b, &v, res->file, r);
    }
    free(v.is_cat);
    free(v.pairs);
}
