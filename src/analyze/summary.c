/* spoor_summarize: the period summary through the stats recipe (the table fed
 * as one batch), the call stacks through the interval engine, then the layer
 * breakdown, the top lists and the I/O figures. */
#include "summary_internal.h"

#include <stdlib.h>
#include <string.h>

const char spoor_summary_default_compute[] = "compute,cpu,app.compute";

const char *const spoor_summary_arg_keys[] = {"fhash", "hhash", "fname", "hostname", "size_sum",
                                              "size",  "ret",   "count"};
const size_t spoor_summary_n_arg_keys = sizeof spoor_summary_arg_keys / sizeof *spoor_summary_arg_keys;

const char *summary_own(struct spoor_summary *out, const char *s)
{
    return spoor_strpool_get(out->strings, spoor_strpool_intern(out->strings, s, strlen(s)), NULL);
}

int spoor_summarize(const struct spoor_table *t, const struct spoor_summary_opts *opts, struct spoor_summary *out,
                    struct spoor_error *err)
{
    memset(out, 0, sizeof *out);
    struct summary_rows rows;
    summary_rows_build(t, opts->compute ? opts->compute : spoor_summary_default_compute, &rows);
    /* Rows given in start order spare the engine most of its reordering. */
    struct spoor_nesting nest;
    int st = spoor_nesting_build(t, rows.order, t->nrows, SPOOR_IV_THREAD, opts->threads, &nest, err);
    if (st != SPOOR_OK) {
        summary_rows_free(&rows);
        return st;
    }
    struct spoor_stats_run *run = spoor_stats_begin(1);
    struct spoor_sink sink = spoor_stats_sink(run);
    st = sink.map(sink.ctx, 0, t);
    spoor_stats_end(run, &out->period);
    if (st != SPOOR_OK) {
        spoor_nesting_free(&nest);
        summary_rows_free(&rows);
        return spoor_fail(err, st, "summary: the period summary failed");
    }
    out->strings = spoor_strpool_new();
    summary_layers(t, &nest, &rows, out);
    summary_top(t, &nest, &rows, opts->top, out);
    summary_io(t, &rows, out);
    summary_rows_free(&rows);
    spoor_nesting_free(&nest);
    return SPOOR_OK;
}

void spoor_summary_free(struct spoor_summary *s)
{
    spoor_stats_free(&s->period);
    free(s->layers);
    free(s->files);
    free(s->functions);
    spoor_strpool_free(s->strings);
    memset(s, 0, sizeof *s);
}
