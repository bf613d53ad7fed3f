/* Which rows are the calls and which the kernel events (see spoor/attribute.h). */
#include "spoor/attribute.h"

#include <stdlib.h>
#include <string.h>

#include "ops/strmatch.h"

static uint32_t *select_all(const struct spoor_table *t, const struct spoor_resolved *res,
                            const struct spoor_expr *e, size_t *n)
{
    uint32_t *rows = spoor_xmalloc((t->nrows ? t->nrows : 1) * sizeof *rows);
    struct spoor_expr_ctx *c = spoor_expr_ctx_new(e);
    spoor_expr_bind(c, t, res);
    *n = spoor_expr_select(c, rows);
    spoor_expr_ctx_free(c);
    return rows;
}

/* Keeps the calls whose resolved file matches glob (an unknown file never does). */
static size_t keep_file(const struct spoor_resolved *res, const char *glob, uint32_t *calls, size_t n)
{
    size_t kept = 0, glen = strlen(glob);
    for (size_t i = 0; i < n; i++) {
        uint32_t id = res->file[calls[i]];
        size_t len;
        const char *file = id ? spoor_strpool_get(res->pool, id, &len) : NULL;
        if (file && strmatch_glob(glob, glen, file, len))
            calls[kept++] = calls[i];
    }
    return kept;
}

/* Every row whose cat is neither a call's cat nor "app". */
static uint32_t *default_events(const struct spoor_table *t, const uint32_t *calls, size_t ncalls, size_t *n)
{
    size_t ncats = spoor_strpool_count(t->pool);
    bool *caller = spoor_xcalloc(ncats ? ncats : 1, sizeof *caller);
    for (size_t i = 0; i < ncalls; i++)
        caller[t->cat[calls[i]]] = true;
    uint32_t app = spoor_strpool_find(t->pool, "app", 3);
    if (app != UINT32_MAX)
        caller[app] = true;
    uint32_t *rows = spoor_xmalloc((t->nrows ? t->nrows : 1) * sizeof *rows);
    *n = 0;
    for (size_t r = 0; r < t->nrows; r++)
        if (!caller[t->cat[r]])
            rows[(*n)++] = (uint32_t)r;
    free(caller);
    return rows;
}

void spoor_attr_select_rows(const struct spoor_table *t, const struct spoor_resolved *res,
                            const struct spoor_attr_select *sel, uint32_t **calls, size_t *ncalls,
                            uint32_t **events, size_t *nevents)
{
    *calls = select_all(t, res, sel->calls, ncalls);
    /* Before the file filter: a call on another file is still no kernel event. */
    *events = sel->events ? select_all(t, res, sel->events, nevents) : default_events(t, *calls, *ncalls, nevents);
    if (sel->file_glob)
        *ncalls = keep_file(res, sel->file_glob, *calls, *ncalls);
}
