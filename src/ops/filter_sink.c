/* The filtering sink (spoor/expr.h). */
#include "spoor/expr.h"
#include "spoor/table.h"
#include "util/grow.h"

#include <pthread.h>
#include <stdlib.h>

/* A batch's selected rows, from map to reduce. */
struct pending {
    const struct spoor_table *batch;
    struct spoor_table *rows;
};

struct spoor_filter_sink {
    struct spoor_sink inner;
    bool in_map;                        /* the expression runs on the workers */
    struct spoor_expr_ctx **ctx;        /* one per worker, or one for reduce */
    int nctx;
    uint32_t **sel;                     /* a selection buffer per ctx */
    size_t *sel_cap;
    struct spoor_resolver *resolver;    /* reduce only */
    pthread_mutex_t mu;
    struct pending *pending;            /* batches between map and reduce */
    size_t npending, pending_cap;
};

/* The rows of batch that ctx k selects, as a table. */
static struct spoor_table *select_rows(struct spoor_filter_sink *f, int k, const struct spoor_table *batch,
                                       const struct spoor_resolved *res)
{
    if (batch->nrows > f->sel_cap[k]) {
        f->sel_cap[k] = batch->nrows;
        f->sel[k] = spoor_xrealloc(f->sel[k], batch->nrows * sizeof *f->sel[k]);
    }
    spoor_expr_bind(f->ctx[k], batch, res);
    size_t n = spoor_expr_select(f->ctx[k], f->sel[k]);
    return spoor_table_select(batch, f->sel[k], n);
}

static int filter_map(void *ctx, int worker, const struct spoor_table *batch)
{
    struct spoor_filter_sink *f = ctx;
    struct spoor_table *rows = select_rows(f, worker, batch, NULL);
    int st = f->inner.map ? f->inner.map(f->inner.ctx, worker, rows) : SPOOR_OK;
    if (!f->inner.reduce) {
        spoor_table_select_free(rows);
        return st;
    }
    pthread_mutex_lock(&f->mu);
    spoor_reserve((void **)&f->pending, &f->pending_cap, f->npending + 1, sizeof *f->pending);
    f->pending[f->npending++] = (struct pending){batch, rows};
    pthread_mutex_unlock(&f->mu);
    return st;
}

/* The selected rows map kept for batch, taken out of the list. */
static struct spoor_table *take_pending(struct spoor_filter_sink *f, const struct spoor_table *batch)
{
    struct spoor_table *rows = NULL;
    pthread_mutex_lock(&f->mu);
    for (size_t i = 0; i < f->npending && !rows; i++)
        if (f->pending[i].batch == batch) {
            rows = f->pending[i].rows;
            f->pending[i] = f->pending[--f->npending];
        }
    pthread_mutex_unlock(&f->mu);
    return rows;
}

static int filter_reduce(void *ctx, size_t input, const struct spoor_table *batch)
{
    struct spoor_filter_sink *f = ctx;
    int st = SPOOR_OK;
    struct spoor_table *rows;
    if (f->in_map) {
        rows = take_pending(f, batch);
    } else {
        rows = select_rows(f, 0, batch, spoor_resolver_resolve(f->resolver, batch));
        if (f->inner.map)
            st = f->inner.map(f->inner.ctx, 0, rows);
    }
    if (st == SPOOR_OK && rows && f->inner.reduce)
        st = f->inner.reduce(f->inner.ctx, input, rows);
    spoor_table_select_free(rows);
    return st;
}

struct spoor_filter_sink *spoor_filter_sink_new(const struct spoor_expr *expr, const struct spoor_sink *inner,
                                                int threads)
{
    struct spoor_filter_sink *f = spoor_xcalloc(1, sizeof *f);
    f->inner = *inner;
    f->in_map = !spoor_expr_needs_order(expr);
    f->nctx = f->in_map && threads > 1 ? threads : 1;
    f->ctx = spoor_xcalloc((size_t)f->nctx, sizeof *f->ctx);
    f->sel = spoor_xcalloc((size_t)f->nctx, sizeof *f->sel);
    f->sel_cap = spoor_xcalloc((size_t)f->nctx, sizeof *f->sel_cap);
    for (int k = 0; k < f->nctx; k++)
        f->ctx[k] = spoor_expr_ctx_new(expr);
    if (!f->in_map)
        f->resolver = spoor_resolver_new();
    pthread_mutex_init(&f->mu, NULL);
    return f;
}

struct spoor_sink spoor_filter_sink(struct spoor_filter_sink *f)
{
    bool reduce = !f->in_map || f->inner.reduce;
    return (struct spoor_sink){.ctx = f, .map = f->in_map ? filter_map : NULL, .reduce = reduce ? filter_reduce : NULL};
}

bool spoor_filter_sink_found(const struct spoor_filter_sink *f, size_t i)
{
    for (int k = 0; k < f->nctx; k++)
        if (spoor_expr_ctx_found(f->ctx[k], i))
            return true;
    return false;
}

void spoor_filter_sink_free(struct spoor_filter_sink *f)
{
    if (!f)
        return;
    for (size_t i = 0; i < f->npending; i++) /* a load that stopped early */
        spoor_table_select_free(f->pending[i].rows);
    free(f->pending);
    for (int k = 0; k < f->nctx; k++) {
        spoor_expr_ctx_free(f->ctx[k]);
        free(f->sel[k]);
    }
    free(f->ctx);
    free(f->sel);
    free(f->sel_cap);
    spoor_resolver_free(f->resolver);
    pthread_mutex_destroy(&f->mu);
    free(f);
}
