/* Loading everything into one table. Each input becomes a table of its own:
 * its snapshot mapped whole (no copy), or its batches appended in input order
 * and the result written as its snapshot. One input's table is the answer;
 * several are appended in order. */
#include "spoor/load.h"
#include "read/load_snapshot.h"
#include "read/loader.h"

#include <stdlib.h>

static int append_batch(void *ctx, size_t input, const struct spoor_table *batch)
{
    spoor_table_append(ctx, batch);
    return SPOOR_OK;
}

static int input_table(const char *path, size_t index, const struct spoor_load_opts *opts,
                       struct spoor_input_report *rep, struct spoor_table **out, struct spoor_error *err)
{
    struct load_cache cache;
    bool cached = load_cache_find(path, opts, &cache);
    struct spoor_table *mapped = cached ? load_cache_table(&cache, opts, rep) : NULL;
    if (mapped) {
        *out = mapped;
        return SPOOR_OK;
    }
    struct spoor_table *t = spoor_table_new();
    spoor_table_add_source(t, path);
    struct spoor_sink sink = {.ctx = t, .reduce = append_batch};
    int st = load_parse(path, index, opts, &sink, rep, err);
    if (st != SPOOR_OK) {
        spoor_table_free(t);
        return st;
    }
    /* Only a table with every args column can serve any later load. */
    if (cached && opts->read.args == SPOOR_ARGS_ALL)
        load_cache_write(&cache, t, rep);
    *out = t;
    return SPOOR_OK;
}

int spoor_load_table(const char *const *paths, size_t npaths, const struct spoor_load_opts *opts,
                     struct spoor_table **out, struct spoor_load_result *result,
                     struct spoor_error *err)
{
    load_result_start(result, npaths, opts);
    int checked = load_check_paths(paths, npaths, err);
    struct spoor_load_opts aligned;
    if (checked == SPOOR_OK)
        checked = load_align(paths, npaths, opts, &aligned, err);
    if (checked != SPOOR_OK)
        return checked;
    opts = &aligned;
    if (npaths == 1)
        return input_table(paths[0], 0, opts, load_result_add(result, paths[0]), out, err);
    struct spoor_table *all = spoor_table_new();
    for (size_t i = 0; i < npaths; i++)
        spoor_table_add_source(all, paths[i]);
    struct spoor_load_opts copy_all = *opts; /* appending reads every column */
    copy_all.columns_read = NULL;
    for (size_t i = 0; i < npaths; i++) {
        struct spoor_table *t;
        int st = input_table(paths[i], i, &copy_all, load_result_add(result, paths[i]), &t, err);
        if (st != SPOOR_OK) {
            spoor_table_free(all);
            return st;
        }
        spoor_table_append(all, t);
        spoor_table_free(t);
    }
    *out = all;
    return SPOOR_OK;
}
