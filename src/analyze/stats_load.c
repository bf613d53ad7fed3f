/* `spoor stats` over traces: one streaming pass, through a --where filter
 * when given. */
#include "spoor/stats.h"
#include "ops/where_sink.h"

int spoor_stats_load(const char *const *paths, size_t npaths, const struct spoor_load_opts *opts,
                     const struct spoor_expr *where, struct spoor_stats *out, struct spoor_stream_load *loaded,
                     struct spoor_error *err)
{
    *loaded = (struct spoor_stream_load){0};
    struct spoor_load_opts o = *opts;
    struct spoor_stats_run *run = spoor_stats_begin(spoor_load_threads(&o));
    struct spoor_sink inner = spoor_stats_sink(run);
    struct spoor_where_sink *w = spoor_where_sink_new(where, &inner, &o);
    int st = spoor_load(paths, npaths, &o, spoor_where_sink(w), &loaded->loaded, err);
    spoor_stats_end(run, out);
    spoor_where_sink_unknown(w, loaded);
    spoor_where_sink_free(w);
    return st;
}
