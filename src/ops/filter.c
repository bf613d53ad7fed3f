/* A load filtered by a --where expression (spoor/expr.h, "Filtering a
 * load"): one path for the commands that write rows (a consumer, in input
 * order) and for the recipes (a sink wrapped). Each batch is selected on the
 * worker that parsed it and the selection handed to reduce; an expression
 * that needs input order is evaluated in reduce, with a resolver. */
#include "spoor/expr.h"
#include "util/grow.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "spoor/table.h"

/* A batch's selection, made by a worker in map and taken in reduce; the sink
 * form keeps the selected rows as a table there too. */
struct handoff {
    const struct spoor_table *batch;    /* NULL when free */
    uint32_t *sel;
    size_t n, cap;
    struct spoor_table *rows;           /* the sink form: what the inner map saw */
};

struct spoor_filter {
    const struct spoor_expr *expr;      /* NULL: every row */
    bool filter_in_map;
    struct spoor_expr_ctx **worker_ctx; /* map: one per worker */
    int nworkers;
    struct spoor_expr_ctx *reduce_ctx;  /* reduce: expressions that need input order */
    pthread_mutex_t mu;
    struct handoff **handoffs;
    size_t nhandoffs;
    struct spoor_resolver *resolver;    /* NULL when neither the output nor the filter reads file/host */
    const char **arg_keys;              /* what opts->read.arg_keys points to */
    uint32_t *sel;                      /* reduce-side selection */
    size_t sel_cap;
    struct spoor_strpool *args_seen;    /* args keys of every batch, for suggestions */
    struct spoor_sink inner;            /* the sink form: the sink wrapped */
    spoor_filter_prepare prepare;       /* the consumer form */
    spoor_filter_consume consume;
    void *consume_ctx;
    struct spoor_error err;             /* the consumer's account of its failure */
};

/* ---- the selection, in map or in reduce ---- */

static struct handoff *claim_handoff(struct spoor_filter *f, const struct spoor_table *batch)
{
    pthread_mutex_lock(&f->mu);
    struct handoff *h = NULL;
    for (size_t i = 0; i < f->nhandoffs && !h; i++)
        if (!f->handoffs[i]->batch)
            h = f->handoffs[i];
    if (!h) {
        f->handoffs = spoor_xrealloc(f->handoffs, (f->nhandoffs + 1) * sizeof *f->handoffs);
        h = f->handoffs[f->nhandoffs++] = spoor_xcalloc(1, sizeof *h);
    }
    h->batch = batch;
    pthread_mutex_unlock(&f->mu);
    return h;
}

static struct handoff *find_handoff(struct spoor_filter *f, const struct spoor_table *batch)
{
    pthread_mutex_lock(&f->mu);
    struct handoff *h = NULL;
    for (size_t i = 0; i < f->nhandoffs && !h; i++)
        if (f->handoffs[i]->batch == batch)
            h = f->handoffs[i];
    pthread_mutex_unlock(&f->mu);
    return h;
}

static void release_handoff(struct spoor_filter *f, struct handoff *h)
{
    pthread_mutex_lock(&f->mu);
    h->batch = NULL;
    h->rows = NULL;
    pthread_mutex_unlock(&f->mu);
}

/* The filter in map: the batch's selection, handed to reduce. */
static struct handoff *select_in_map(struct spoor_filter *f, int worker, const struct spoor_table *batch)
{
    struct handoff *h = claim_handoff(f, batch);
    struct spoor_expr_ctx *c = f->worker_ctx[worker];
    spoor_reserve((void **)&h->sel, &h->cap, batch->nrows, sizeof *h->sel);
    spoor_expr_bind(c, batch, NULL);
    h->n = spoor_expr_select(c, h->sel);
    return h;
}

/* The filter in reduce: the batch's selection in f->sel; how many. */
static size_t select_in_reduce(struct spoor_filter *f, const struct spoor_table *batch,
                               const struct spoor_resolved *res)
{
    spoor_reserve((void **)&f->sel, &f->sel_cap, batch->nrows, sizeof *f->sel);
    spoor_expr_bind(f->reduce_ctx, batch, res);
    return spoor_expr_select(f->reduce_ctx, f->sel);
}

/* ---- the consumer form: spoor_filter_run ---- */

static int map_batch(void *ctx, int worker, const struct spoor_table *batch)
{
    struct spoor_filter *f = ctx;
    struct handoff *h = f->expr ? select_in_map(f, worker, batch) : NULL;
    return f->prepare ? f->prepare(f->consume_ctx, worker, batch, h ? h->sel : NULL, h ? h->n : batch->nrows)
                      : SPOOR_OK;
}

static void note_args(struct spoor_filter *f, const struct spoor_table *batch)
{
    for (size_t i = 0; i < batch->ncols; i++) {
        size_t len;
        const char *key = spoor_strpool_get(batch->pool, batch->cols[i].name, &len);
        spoor_strpool_intern(f->args_seen, key, len);
    }
}

static int reduce_batch(void *ctx, size_t input, const struct spoor_table *batch)
{
    (void)input;
    struct spoor_filter *f = ctx;
    note_args(f, batch);
    const struct spoor_resolved *res = f->resolver ? spoor_resolver_resolve(f->resolver, batch) : NULL;
    const uint32_t *sel = NULL;
    size_t n = batch->nrows;
    struct handoff *h = NULL;
    if (f->expr && f->filter_in_map) {
        h = find_handoff(f, batch);
        sel = h->sel;
        n = h->n;
    } else if (f->expr) {
        n = select_in_reduce(f, batch, res);
        sel = f->sel;
    }
    int st = f->consume(f->consume_ctx, batch, res, sel, n, &f->err);
    if (h)
        release_handoff(f, h);
    return st;
}

int spoor_filter_run(struct spoor_filter *f, const char *const *paths, size_t npaths, const struct spoor_load_opts *opts,
                     spoor_filter_consume consume, void *ctx, struct spoor_load_result *result,
                     struct spoor_error *err)
{
    f->consume = consume;
    f->consume_ctx = ctx;
    /* With the filter in reduce, which rows go out is known only there. */
    bool map = f->filter_in_map || (f->prepare && !f->expr);
    if (f->expr && !f->filter_in_map)
        f->prepare = NULL;
    struct spoor_sink sink = {.ctx = f, .map = map ? map_batch : NULL, .reduce = reduce_batch};
    int st = spoor_load(paths, npaths, opts, &sink, result, err);
    if (st != SPOOR_OK && f->err.code)
        *err = f->err;
    return st;
}

void spoor_filter_prepare_with(struct spoor_filter *f, spoor_filter_prepare prepare) { f->prepare = prepare; }

/* ---- the sink form: the inner sink sees the selected rows as a table ---- */

static int sink_map(void *ctx, int worker, const struct spoor_table *batch)
{
    struct spoor_filter *f = ctx;
    struct handoff *h = select_in_map(f, worker, batch);
    struct spoor_table *rows = spoor_table_select(batch, h->sel, h->n);
    int st = f->inner.map ? f->inner.map(f->inner.ctx, worker, rows) : SPOOR_OK;
    if (f->inner.reduce) { /* the same rows for its reduce */
        h->rows = rows;
        return st;
    }
    spoor_table_select_free(rows);
    release_handoff(f, h);
    return st;
}

static int sink_reduce(void *ctx, size_t input, const struct spoor_table *batch)
{
    struct spoor_filter *f = ctx;
    int st = SPOOR_OK;
    struct spoor_table *rows = NULL;
    if (f->filter_in_map) {
        struct handoff *h = find_handoff(f, batch);
        if (h) {
            rows = h->rows;
            release_handoff(f, h);
        }
    } else { /* the inner map runs here too, as worker 0 */
        const struct spoor_resolved *res = f->resolver ? spoor_resolver_resolve(f->resolver, batch) : NULL;
        size_t n = select_in_reduce(f, batch, res); /* before f->sel is read: it may grow */
        rows = spoor_table_select(batch, f->sel, n);
        if (f->inner.map)
            st = f->inner.map(f->inner.ctx, 0, rows);
    }
    if (st == SPOOR_OK && rows && f->inner.reduce)
        st = f->inner.reduce(f->inner.ctx, input, rows);
    spoor_table_select_free(rows);
    return st;
}

struct spoor_sink spoor_filter_sink(struct spoor_filter *f, const struct spoor_sink *inner)
{
    f->inner = *inner;
    bool reduce = !f->filter_in_map || f->inner.reduce;
    return (struct spoor_sink){.ctx = f, .map = f->filter_in_map ? sink_map : NULL,
                               .reduce = reduce ? sink_reduce : NULL};
}

/* ---- making one ---- */

static bool is_resolved(enum spoor_field field) { return field == SPOOR_FIELD_FILE || field == SPOOR_FIELD_HOST; }

/* The args the load parses. With explicit columns: those they, the filter
 * and the resolver read. Else, when the load lists some (a recipe's), the
 * filter's and the resolver's are added; else every arg is read. */
static void choose_args(struct spoor_filter *f, struct spoor_load_opts *opts, char *const *cols, size_t ncols)
{
    static const char *const resolver_keys[] = {"fhash", "fname", "hhash", "hostname"};
    if (!cols && opts->read.args != SPOOR_ARGS_LISTED)
        return;
    const struct spoor_expr_ref *refs;
    size_t nrefs = f->expr ? spoor_expr_refs(f->expr, &refs) : 0, listed = cols ? 0 : opts->read.n_arg_keys, n = 0;
    f->arg_keys = spoor_xmalloc((listed + ncols + nrefs + 4) * sizeof *f->arg_keys);
    for (; n < listed; n++)
        f->arg_keys[n] = opts->read.arg_keys[n];
    for (size_t i = 0; i < ncols; i++) {
        const char *key;
        size_t len;
        if (spoor_field_parse(cols[i], strlen(cols[i]), &key, &len) == SPOOR_FIELD_ARG)
            f->arg_keys[n++] = key;
    }
    for (size_t i = 0; i < nrefs; i++)
        if (refs[i].field == SPOOR_FIELD_ARG)
            f->arg_keys[n++] = refs[i].key;
    if (f->resolver)
        for (size_t i = 0; i < 4; i++)
            f->arg_keys[n++] = resolver_keys[i];
    opts->read.args = n || !cols ? SPOOR_ARGS_LISTED : SPOOR_ARGS_NONE;
    opts->read.arg_keys = f->arg_keys;
    opts->read.n_arg_keys = n;
}

/* A filter whose consumer reads cols (the sink form: none of its own). */
static struct spoor_filter *filter_new(const struct spoor_expr *expr, bool all_cols, char *const *cols, size_t ncols,
                                       struct spoor_load_opts *opts)
{
    struct spoor_filter *f = spoor_xcalloc(1, sizeof *f);
    f->expr = expr;
    f->args_seen = spoor_strpool_new();
    pthread_mutex_init(&f->mu, NULL);
    bool resolve = all_cols;
    for (size_t i = 0; i < ncols; i++)
        resolve |= is_resolved(spoor_field_parse(cols[i], strlen(cols[i]), &(const char *){0}, &(size_t){0}));
    const struct spoor_expr_ref *refs;
    for (size_t i = 0, n = expr ? spoor_expr_refs(expr, &refs) : 0; i < n; i++)
        resolve |= is_resolved(refs[i].field);
    if (resolve)
        f->resolver = spoor_resolver_new();
    choose_args(f, opts, cols, ncols);
    if (expr) {
        f->filter_in_map = !spoor_expr_needs_order(expr);
        if (f->filter_in_map) {
            f->nworkers = spoor_load_threads(opts);
            f->worker_ctx = spoor_xcalloc((size_t)f->nworkers, sizeof *f->worker_ctx);
            for (int w = 0; w < f->nworkers; w++)
                f->worker_ctx[w] = spoor_expr_ctx_new(expr);
        } else {
            f->reduce_ctx = spoor_expr_ctx_new(expr);
        }
    }
    return f;
}

struct spoor_filter *spoor_filter_new(const struct spoor_expr *expr, char *const *cols, size_t ncols,
                                      struct spoor_load_opts *opts)
{
    return filter_new(expr, !cols, cols, ncols, opts);
}

struct spoor_filter *spoor_filter_sink_new(const struct spoor_expr *expr, struct spoor_load_opts *opts)
{
    return filter_new(expr, false, NULL, 0, opts);
}

void spoor_filter_free(struct spoor_filter *f)
{
    if (!f)
        return;
    for (int w = 0; f->worker_ctx && w < f->nworkers; w++)
        spoor_expr_ctx_free(f->worker_ctx[w]);
    free(f->worker_ctx);
    spoor_expr_ctx_free(f->reduce_ctx);
    for (size_t i = 0; i < f->nhandoffs; i++) {
        spoor_table_select_free(f->handoffs[i]->rows); /* a load that stopped early */
        free(f->handoffs[i]->sel);
        free(f->handoffs[i]);
    }
    free(f->handoffs);
    free(f->sel);
    free(f->arg_keys);
    spoor_resolver_free(f->resolver);
    spoor_strpool_free(f->args_seen);
    pthread_mutex_destroy(&f->mu);
    free(f);
}

/* ---- after a run ---- */

size_t spoor_filter_unknown(const struct spoor_filter *f, const struct spoor_expr_ref **unknown, size_t max)
{
    const struct spoor_expr_ref *refs;
    size_t nrefs = f->expr ? spoor_expr_refs(f->expr, &refs) : 0, n = 0;
    for (size_t i = 0; i < nrefs && n < max; i++) {
        if (refs[i].field != SPOOR_FIELD_ARG)
            continue;
        bool found = f->reduce_ctx && spoor_expr_ctx_found(f->reduce_ctx, i);
        for (int w = 0; w < f->nworkers && f->worker_ctx && !found; w++)
            found = spoor_expr_ctx_found(f->worker_ctx[w], i);
        if (!found)
            unknown[n++] = &refs[i];
    }
    return n;
}

const char *spoor_filter_suggest(const struct spoor_filter *f, const char *name)
{
    size_t n = spoor_strpool_count(f->args_seen);
    const char **seen = spoor_xmalloc((n ? n : 1) * sizeof *seen);
    for (size_t i = 0; i < n; i++)
        seen[i] = spoor_strpool_get(f->args_seen, (uint32_t)i, NULL);
    const char *best = spoor_field_suggest(name, seen, n);
    free(seen);
    return best;
}
