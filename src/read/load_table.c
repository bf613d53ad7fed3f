/* Loading everything into one table: a sink whose reduce() appends each batch
 * in input order. */
#include "spoor/load.h"

static int append_batch(void *ctx, size_t input, const struct spoor_table *batch)
{
    spoor_table_append(ctx, batch);
    return SPOOR_OK;
}

int spoor_load_table(const char *const *paths, size_t npaths, const struct spoor_load_opts *opts,
                     struct spoor_table **out, struct spoor_load_result *result,
                     struct spoor_error *err)
{
    struct spoor_table *t = spoor_table_new();
    for (size_t i = 0; i < npaths; i++)
        spoor_table_add_source(t, paths[i]);
    struct spoor_sink sink = {.ctx = t, .reduce = append_batch};
    int st = spoor_load(paths, npaths, opts, &sink, result, err);
    if (st != SPOOR_OK) {
        spoor_table_free(t);
        return st;
    }
    *out = t;
    return SPOOR_OK;
}
