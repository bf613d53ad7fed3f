/* The summary as a streaming recipe: map() runs the stats recipe on the
 * workers for the period figures alone (same numbers as `spoor stats` by
 * construction; its per-name groups are left out, the summary sums its own);
 * reduce() sums each batch in input order into counts, exact unions and the
 * call-stack stream (summary_batch.c); the end turns the sums into the layer
 * breakdown, the top lists and the I/O figures. */
#include "summary_internal.h"

#include "analyze/event_bytes.h"
#include "spoor/resolve.h"

#include <stdlib.h>
#include <string.h>

const char spoor_summary_default_compute[] = "compute,cpu,app.compute";

/* The file and host keys, the profile counters' freq and time, the byte rule's. */
const char *const spoor_summary_arg_keys[] = {"fhash", "hhash", "fname", "hostname", "freq", "time", EVENT_BYTES_KEYS};
const size_t spoor_summary_n_arg_keys = sizeof spoor_summary_arg_keys / sizeof *spoor_summary_arg_keys;

struct spoor_summary_run {
    struct spoor_summary_opts opts;
    int threads;
    struct spoor_stats_run *stats;
    struct summary_batch_ctx batch;
    struct summary_acc acc;
    struct summary_nest *nest;
    bool ordered;                   /* this pass sweeps every thread in one start order */
    struct summary_keys unbounded;  /* threads held whole, after a pass overflowed their reorder */
};

const char *summary_own(struct spoor_summary *out, const char *s)
{
    return spoor_strpool_get(out->strings, spoor_strpool_intern(out->strings, s, strlen(s)), NULL);
}

static void pass_begin(struct spoor_summary_run *run)
{
    run->stats = spoor_stats_begin_period(run->threads);
    run->batch = (struct summary_batch_ctx){.compute = run->opts.compute, .resolver = spoor_resolver_new()};
    run->acc = (struct summary_acc){.strings = spoor_strpool_new()};
    run->nest = summary_nest_new(&run->unbounded, run->opts.window, run->ordered);
}

static void pass_free(struct spoor_summary_run *run)
{
    spoor_resolver_free(run->batch.resolver);
    summary_keys_free(&run->batch.tids);
    free(run->batch.string_of);
    free(run->batch.fn_of);
    summary_acc_free(&run->acc);
    summary_nest_free(run->nest);
    run->nest = NULL;
}

void summary_acc_free(struct summary_acc *a)
{
    spoor_strpool_free(a->strings);
    free(a->cats);
    free(a->fn);
    free(a->file);
    free(a->parent_dur);
    free(a->io_of);
    free(a->io_counter);
    free(a->io_time);
    free(a->cat_time);
    free(a->cat_rest);
    ordered_free(a);
    struct summary_keys *keys[] = {&a->fns, &a->files, &a->pids, &a->cat_pids, &a->io_pids, &a->parent_pairs};
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
        summary_keys_free(keys[i]);
    memset(a, 0, sizeof *a);
}

struct spoor_summary_run *spoor_summary_begin(const struct spoor_summary_opts *opts, int threads)
{
    struct spoor_summary_run *run = spoor_xcalloc(1, sizeof *run);
    run->opts = *opts;
    if (!run->opts.compute)
        run->opts.compute = spoor_summary_default_compute;
    if (!run->opts.window)
        run->opts.window = SPOOR_SUMMARY_WINDOW;
    run->threads = threads > 0 ? threads : 1;
    run->ordered = run->opts.inputs <= 1;
    pass_begin(run);
    return run;
}

static int summary_map(void *ctx, int worker, const struct spoor_table *b)
{
    struct spoor_summary_run *run = ctx;
    struct spoor_sink stats = spoor_stats_map_sink(run->stats);
    return stats.map(stats.ctx, worker, b);
}

static int summary_reduce(void *ctx, size_t input, const struct spoor_table *b)
{
    (void)input;
    struct spoor_summary_run *run = ctx;
    summary_batch(&run->batch, b, &run->acc, run->nest); /* resolves b's files */
    spoor_stats_add_names(run->stats, b, run->batch.resolver);
    return SPOOR_OK;
}

struct spoor_sink spoor_summary_sink(struct spoor_summary_run *run)
{
    return (struct spoor_sink){.ctx = run, .map = summary_map, .reduce = summary_reduce};
}

bool spoor_summary_again(struct spoor_summary_run *run)
{
    if (summary_nest_finish(run->nest, &run->acc, &run->unbounded))
        return false;
    run->ordered = false; /* out of global order: per thread from now on */
    struct spoor_stats discard;
    spoor_stats_end(run->stats, &discard);
    spoor_stats_free(&discard);
    pass_free(run);
    pass_begin(run);
    return true;
}

void spoor_summary_end(struct spoor_summary_run *run, struct spoor_summary *out)
{
    memset(out, 0, sizeof *out);
    spoor_stats_end(run->stats, &out->period);
    out->strings = spoor_strpool_new();
    summary_unions(run->nest, &run->acc, run->threads);
    summary_layers(&run->acc, out);
    summary_top(&run->acc, run->batch.files, run->opts.top, out);
    summary_io(&run->acc, out);
    summary_compute_like(&run->acc, out);
    pass_free(run);
    summary_keys_free(&run->unbounded);
    free(run);
}

void spoor_summarize(const struct spoor_table *t, const struct spoor_summary_opts *opts, struct spoor_summary *out)
{
    struct spoor_summary_run *run = spoor_summary_begin(opts, 1);
    do {
        summary_map(run, 0, t);
        summary_reduce(run, 0, t);
    } while (spoor_summary_again(run));
    spoor_summary_end(run, out);
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
