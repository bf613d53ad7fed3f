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
    if (w->expr)
        w->filter = spoor_filter_sink_new(w->expr, opts);
}

struct spoor_sink where_sink_wrap(struct where_sink *w, const struct spoor_sink *inner)
{
    return w->filter ? spoor_filter_sink(w->filter, inner) : *inner;
}

void where_sink_report(const char *cmd, const struct where_sink *w)
{
    const struct spoor_expr_ref *refs;
    size_t nrefs = w->filter ? spoor_expr_refs(w->expr, &refs) : 0;
    const struct spoor_expr_ref **unknown = spoor_xmalloc((nrefs ? nrefs : 1) * sizeof *unknown);
    for (size_t i = 0, n = nrefs ? spoor_filter_unknown(w->filter, unknown, nrefs) : 0; i < n; i++)
        fprintf(stderr,
                "spoor %s: warning: --where: unknown column '%s' at position %zu: no input has it, so it is null "
                "in every row\n",
                cmd, unknown[i]->name, unknown[i]->pos);
    free(unknown);
}

void where_sink_free(struct where_sink *w)
{
    spoor_filter_free(w->filter);
    spoor_expr_free(w->expr);
}
