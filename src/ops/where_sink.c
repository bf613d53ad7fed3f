/* --where for the streaming recipes (stats, summary): the recipe's sink
 * wrapped in the filter's sink form (ops/filter.c, which adds the args the
 * expression reads to the load's), so it sees only the matching rows.
 * Without an expression the recipe's own sink is used as it is. */
#include "ops/where_sink.h"

#include <stdlib.h>

struct spoor_where_sink {
    const struct spoor_expr *expr;  /* NULL: no filter */
    struct spoor_filter *filter;
    struct spoor_sink sink;
};

struct spoor_where_sink *spoor_where_sink_new(const struct spoor_expr *expr, const struct spoor_sink *inner,
                                              struct spoor_load_opts *opts)
{
    struct spoor_where_sink *w = spoor_xcalloc(1, sizeof *w);
    w->expr = expr;
    w->sink = *inner;
    if (expr) {
        w->filter = spoor_filter_sink_new(expr, opts);
        w->sink = spoor_filter_sink(w->filter, inner);
    }
    return w;
}

const struct spoor_sink *spoor_where_sink(const struct spoor_where_sink *w) { return &w->sink; }

void spoor_where_sink_unknown(const struct spoor_where_sink *w, struct spoor_stream_load *out)
{
    const struct spoor_expr_ref *refs;
    size_t nrefs = w->filter ? spoor_expr_refs(w->expr, &refs) : 0;
    out->unknown = spoor_xcalloc(nrefs + 1, sizeof *out->unknown);
    out->nunknown = nrefs ? spoor_filter_unknown(w->filter, out->unknown, nrefs) : 0;
}

void spoor_where_sink_free(struct spoor_where_sink *w)
{
    if (!w)
        return;
    spoor_filter_free(w->filter);
    free(w);
}

void spoor_stream_load_free(struct spoor_stream_load *l)
{
    spoor_load_result_free(&l->loaded);
    free(l->unknown);
    *l = (struct spoor_stream_load){0};
}
