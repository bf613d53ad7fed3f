/* `spoor summary` over traces: one streaming pass (through a --where filter
 * when given), and a second, per thread, when rows came further out of time
 * order than the first holds. */
#include "spoor/summary.h"
#include "ops/where_sink.h"

int spoor_summary_load(const char *const *paths, size_t npaths, const struct spoor_load_opts *opts,
                       const struct spoor_summary_opts *so, const struct spoor_expr *where,
                       struct spoor_summary *out, struct spoor_stream_load *loaded, struct spoor_error *err)
{
    *loaded = (struct spoor_stream_load){0};
    struct spoor_load_opts o = *opts;
    struct spoor_summary_opts sopts = *so;
    sopts.inputs = npaths;
    struct spoor_summary_run *run = spoor_summary_begin(&sopts, spoor_load_threads(&o));
    struct spoor_sink inner = spoor_summary_sink(run);
    struct spoor_where_sink *w = spoor_where_sink_new(where, &inner, &o);
    int st = spoor_load(paths, npaths, &o, spoor_where_sink(w), &loaded->loaded, err);
    size_t stream = 0;
    while (stream < npaths && !spoor_input_is_stream(paths[stream]))
        stream++;
    bool again = st == SPOOR_OK && spoor_summary_again(run);
    if (again && stream < npaths) {
        st = spoor_fail(err, SPOOR_EUSAGE,
                        "%s: rows came further out of time order than one pass holds, and a stream "
                        "cannot be read again; save it to a file and give that",
                        paths[stream]);
    } else if (again) {
        /* Rows too far out of start order: once more per thread, with the
         * threads that overflowed held whole (which cannot overflow, so no
         * third pass). */
        loaded->read_twice = true;
        spoor_load_result_free(&loaded->loaded);
        st = spoor_load(paths, npaths, &o, spoor_where_sink(w), &loaded->loaded, err);
        spoor_summary_again(run);
    }
    spoor_where_sink_unknown(w, loaded);
    spoor_summary_end(run, out);
    spoor_where_sink_free(w);
    return st;
}
