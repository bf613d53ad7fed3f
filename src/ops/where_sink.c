/* --where for the streaming recipes (stats, summary): the args the
 * expression reads added to the load's, and the recipe's sink wrapped in a
 * filter sink so it sees only the matching rows. Without an expression
 * nothing changes: the recipe's own sink is used as it is. */
#include "ops/where_sink.h"

#include <stdlib.h>

struct spoor_where_sink {
    const struct spoor_expr *expr;  /* NULL: no filter */
    struct spoor_filter_sink *filter;
    const char **keys;              /* what opts->read.arg_keys points to */
    struct spoor_sink sink;
};

/* Adds the args keys the expression reads to opts's listed ones. */
static void add_keys(struct spoor_where_sink *w, struct spoor_load_opts *opts)
{
    const struct spoor_expr_ref *refs;
    size_t nrefs = w->expr ? spoor_expr_refs(w->expr, &refs) : 0;
    static const char *const resolver_keys[] = {"fhash", "fname", "hhash", "hostname"};
    if (!nrefs || opts->read.args != SPOOR_ARGS_LISTED)
        return;
    size_t n = opts->read.n_arg_keys;
    w->keys = spoor_xmalloc((n + nrefs + 4) * sizeof *w->keys);
    for (size_t i = 0; i < n; i++)
        w->keys[i] = opts->read.arg_keys[i];
    for (size_t i = 0; i < 4 && spoor_expr_needs_order(w->expr); i++) /* file and host are resolved from them */
        w->keys[n++] = resolver_keys[i];
    for (size_t i = 0; i < nrefs; i++)
        if (refs[i].field == SPOOR_FIELD_ARG)
            w->keys[n++] = refs[i].key;
    opts->read.arg_keys = w->keys;
    opts->read.n_arg_keys = n;
}

struct spoor_where_sink *spoor_where_sink_new(const struct spoor_expr *expr, const struct spoor_sink *inner,
                                              struct spoor_load_opts *opts)
{
    struct spoor_where_sink *w = spoor_xcalloc(1, sizeof *w);
    w->expr = expr;
    add_keys(w, opts);
    w->sink = *inner;
    if (expr) {
        w->filter = spoor_filter_sink_new(expr, inner, spoor_load_threads(opts));
        w->sink = spoor_filter_sink(w->filter);
    }
    return w;
}

const struct spoor_sink *spoor_where_sink(const struct spoor_where_sink *w) { return &w->sink; }

void spoor_where_sink_unknown(const struct spoor_where_sink *w, struct spoor_stream_load *out)
{
    const struct spoor_expr_ref *refs;
    size_t nrefs = w->filter ? spoor_expr_refs(w->expr, &refs) : 0;
    out->unknown = spoor_xcalloc(nrefs + 1, sizeof *out->unknown);
    for (size_t i = 0; i < nrefs; i++)
        if (refs[i].field == SPOOR_FIELD_ARG && !spoor_filter_sink_found(w->filter, i))
            out->unknown[out->nunknown++] = &refs[i];
}

void spoor_where_sink_free(struct spoor_where_sink *w)
{
    if (!w)
        return;
    spoor_filter_sink_free(w->filter);
    free(w->keys);
    free(w);
}

void spoor_stream_load_free(struct spoor_stream_load *l)
{
    spoor_load_result_free(&l->loaded);
    free(l->unknown);
    *l = (struct spoor_stream_load){0};
}
