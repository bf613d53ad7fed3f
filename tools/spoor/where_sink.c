#include "where_sink.h"

#include <stdio.h>
#include <stdlib.h>

bool where_sink_compile(const char *cmd, const char *text, struct where_sink *w)
{
    *w = (struct where_sink){.text = text};
    struct spoor_error err = {0};
    if (text && spoor_expr_compile(text, &w->expr, &err) != SPOOR_OK) {
        fprintf(stderr, "spoor %s: --where: %s\n", cmd, err.msg);
        return false;
    }
    return true;
}

void where_sink_keys(struct where_sink *w, struct spoor_load_opts *opts)
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

struct spoor_sink where_sink_wrap(struct where_sink *w, const struct spoor_sink *inner, int threads)
{
    if (!w->expr)
        return *inner;
    w->filter = spoor_filter_sink_new(w->expr, inner, threads);
    return spoor_filter_sink(w->filter);
}

void where_sink_report(const char *cmd, const struct where_sink *w)
{
    const struct spoor_expr_ref *refs;
    size_t nrefs = w->filter ? spoor_expr_refs(w->expr, &refs) : 0;
    for (size_t i = 0; i < nrefs; i++)
        if (refs[i].field == SPOOR_FIELD_ARG && !spoor_filter_sink_found(w->filter, i))
            fprintf(stderr,
                    "spoor %s: warning: --where: unknown column '%s' at position %zu: no input has it, so it is null "
                    "in every row\n",
                    cmd, refs[i].name, refs[i].pos);
}

void where_sink_free(struct where_sink *w)
{
    spoor_filter_sink_free(w->filter);
    spoor_expr_free(w->expr);
    free(w->keys);
}
