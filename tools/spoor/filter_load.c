/* The load/filter/write loop of the row-writing commands (see filter_load.h). */
#include "filter_load.h"
#include "cli_getopt.h"
#include "load_args.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spoor/resolve.h"
#include "spoor/write.h"

/* A batch's selection, computed by a worker in map and consumed in reduce. */
struct handoff {
    const struct spoor_table *batch;    /* NULL when free */
    uint32_t *sel;
    size_t n, cap;
};

struct filter_load {
    const char *cmd;
    const struct spoor_expr *expr;
    bool filter_in_map;
    struct spoor_expr_ctx **worker_ctx; /* map: one per worker */
    int nworkers;
    struct spoor_expr_ctx *reduce_ctx;  /* reduce: expressions that need input order */
    pthread_mutex_t mu;
    struct handoff **handoffs;
    size_t nhandoffs;
    struct spoor_resolver *resolver;    /* NULL when neither output nor filter needs file/host */
    const char **arg_keys;              /* what opts->read.arg_keys points to */
    uint32_t *sel;                      /* reduce-side selection */
    size_t sel_cap;
    struct spoor_strpool *args_seen;    /* args keys of every batch, for suggestions */
    filter_load_prepare prepare;
    filter_load_consume consume;
    void *consume_ctx;
    struct spoor_error err;             /* the consumer's account of its failure */
};

static void grow_sel(uint32_t **sel, size_t *cap, size_t n)
{
    if (n > *cap) {
        *cap = n;
        *sel = spoor_xrealloc(*sel, n * sizeof **sel);
    }
}

static struct handoff *claim_handoff(struct filter_load *f, const struct spoor_table *batch)
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

static struct handoff *find_handoff(struct filter_load *f, const struct spoor_table *batch)
{
    pthread_mutex_lock(&f->mu);
    struct handoff *h = NULL;
    for (size_t i = 0; i < f->nhandoffs && !h; i++)
        if (f->handoffs[i]->batch == batch)
            h = f->handoffs[i];
    pthread_mutex_unlock(&f->mu);
    return h;
}

/* The filter in map: the batch's selection, handed to reduce. */
static struct handoff *select_batch(struct filter_load *f, int worker, const struct spoor_table *batch)
{
    struct handoff *h = claim_handoff(f, batch);
    struct spoor_expr_ctx *c = f->worker_ctx[worker];
    grow_sel(&h->sel, &h->cap, batch->nrows);
    spoor_expr_bind(c, batch, NULL);
    h->n = spoor_expr_select(c, h->sel);
    return h;
}

static int map_batch(void *ctx, int worker, const struct spoor_table *batch)
{
    struct filter_load *f = ctx;
    struct handoff *h = f->expr ? select_batch(f, worker, batch) : NULL;
    return f->prepare ? f->prepare(f->consume_ctx, worker, batch, h ? h->sel : NULL, h ? h->n : batch->nrows)
                      : SPOOR_OK;
}

static void note_args(struct filter_load *f, const struct spoor_table *batch)
{
    for (size_t i = 0; i < batch->ncols; i++) {
        size_t len;
        const char *key = spoor_strpool_get(batch->pool, batch->cols[i].name, &len);
        spoor_strpool_intern(f->args_seen, key, len);
    }
}

static int reduce_batch(void *ctx, size_t input, const struct spoor_table *batch)
{
    struct filter_load *f = ctx;
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
        grow_sel(&f->sel, &f->sel_cap, batch->nrows);
        spoor_expr_bind(f->reduce_ctx, batch, res);
        n = spoor_expr_select(f->reduce_ctx, f->sel);
        sel = f->sel;
    }
    int st = f->consume(f->consume_ctx, batch, res, sel, n, &f->err);
    if (h) {
        pthread_mutex_lock(&f->mu);
        h->batch = NULL;
        pthread_mutex_unlock(&f->mu);
    }
    return st;
}

static bool is_resolved(enum spoor_field field) { return field == SPOOR_FIELD_FILE || field == SPOOR_FIELD_HOST; }

/* With explicit columns, only the args the output, the filter and the
 * resolver read are parsed. */
static void choose_args(struct filter_load *f, struct spoor_load_opts *opts, char *const *cols, size_t ncols)
{
    static const char *const resolver_keys[] = {"fhash", "fname", "hhash", "hostname"};
    const struct spoor_expr_ref *refs;
    size_t nrefs = f->expr ? spoor_expr_refs(f->expr, &refs) : 0;
    f->arg_keys = spoor_xmalloc((ncols + nrefs + 4) * sizeof *f->arg_keys);
    size_t n = 0;
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
    opts->read.args = n ? SPOOR_ARGS_LISTED : SPOOR_ARGS_NONE;
    opts->read.arg_keys = f->arg_keys;
    opts->read.n_arg_keys = n;
}

bool filter_load_parse_args(const char *cmd, const char *where, const char *columns, struct spoor_expr **expr,
                            char ***cols, size_t *ncols)
{
    struct spoor_error err = {0};
    *expr = NULL;
    *cols = NULL;
    *ncols = 0;
    if (where && spoor_expr_compile(where, expr, &err) != SPOOR_OK) {
        fprintf(stderr, "spoor %s: --where: %s\n", cmd, err.msg);
        return false;
    }
    if (columns && spoor_columns_parse(columns, cols, ncols, &err) != SPOOR_OK) {
        fprintf(stderr, "spoor %s: --columns: %s\n", cmd, err.msg);
        spoor_expr_free(*expr);
        *expr = NULL;
        return false;
    }
    return true;
}

struct filter_load *filter_load_new(const char *cmd, const struct spoor_expr *expr, char *const *cols,
                                    size_t ncols, struct spoor_load_opts *opts)
{
    struct filter_load *f = spoor_xcalloc(1, sizeof *f);
    f->cmd = cmd;
    f->expr = expr;
    f->args_seen = spoor_strpool_new();
    pthread_mutex_init(&f->mu, NULL);
    bool resolve = !cols;
    for (size_t i = 0; i < ncols; i++)
        resolve |= is_resolved(spoor_field_parse(cols[i], strlen(cols[i]), &(const char *){0}, &(size_t){0}));
    const struct spoor_expr_ref *refs;
    for (size_t i = 0, n = expr ? spoor_expr_refs(expr, &refs) : 0; i < n; i++)
        resolve |= is_resolved(refs[i].field);
    if (resolve)
        f->resolver = spoor_resolver_new();
    if (cols)
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

void filter_load_free(struct filter_load *f)
{
    if (!f)
        return;
    for (int w = 0; f->worker_ctx && w < f->nworkers; w++)
        spoor_expr_ctx_free(f->worker_ctx[w]);
    free(f->worker_ctx);
    spoor_expr_ctx_free(f->reduce_ctx);
    for (size_t i = 0; i < f->nhandoffs; i++) {
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

void filter_load_prepare_with(struct filter_load *f, filter_load_prepare prepare)
{
    f->prepare = prepare;
}

int filter_load_run(struct filter_load *f, const char *const *paths, size_t npaths,
                    const struct spoor_load_opts *opts, filter_load_consume consume, void *ctx,
                    struct spoor_load_result *result, struct spoor_error *err)
{
    f->consume = consume;
    f->consume_ctx = ctx;
    /* With --where in reduce, which rows go out is known only there. */
    bool map = f->filter_in_map || (f->prepare && !f->expr);
    if (f->expr && !f->filter_in_map)
        f->prepare = NULL;
    struct spoor_sink sink = {.ctx = f, .map = map ? map_batch : NULL, .reduce = reduce_batch};
    int st = spoor_load(paths, npaths, opts, &sink, result, err);
    if (st != SPOOR_OK && f->err.code)
        *err = f->err;
    return st;
}

/* " (did you mean 'file'?)" or "". */
static const char *suggestion(const struct filter_load *f, const char *name, char *buf, size_t cap)
{
    size_t n = spoor_strpool_count(f->args_seen);
    const char **seen = spoor_xmalloc((n ? n : 1) * sizeof *seen);
    for (size_t i = 0; i < n; i++)
        seen[i] = spoor_strpool_get(f->args_seen, (uint32_t)i, NULL);
    const char *best = spoor_field_suggest(name, seen, n);
    if (best)
        snprintf(buf, cap, " (did you mean '%s'?)", best);
    else
        buf[0] = '\0';
    free(seen);
    return buf;
}

void filter_load_report(const struct filter_load *f, const char *const *missing, size_t nmissing)
{
    char hint[160];
    const struct spoor_expr_ref *refs;
    size_t nrefs = f->expr ? spoor_expr_refs(f->expr, &refs) : 0;
    for (size_t i = 0; i < nrefs; i++) {
        if (refs[i].field != SPOOR_FIELD_ARG)
            continue;
        bool found = f->reduce_ctx && spoor_expr_ctx_found(f->reduce_ctx, i);
        for (int w = 0; w < f->nworkers && f->worker_ctx && !found; w++)
            found = spoor_expr_ctx_found(f->worker_ctx[w], i);
        if (!found)
            fprintf(stderr, "spoor %s: warning: --where: unknown column '%s' at position %zu: no input has it, "
                            "so it is null in every row%s\n",
                    f->cmd, refs[i].name, refs[i].pos, suggestion(f, refs[i].name, hint, sizeof hint));
    }
    for (size_t i = 0; i < nmissing; i++)
        fprintf(stderr, "spoor %s: warning: --columns: unknown column '%s': no input has it, so it is null%s\n",
                f->cmd, missing[i], suggestion(f, missing[i], hint, sizeof hint));
}
