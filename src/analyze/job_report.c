/* `spoor report` as a library call (spoor/summary.h): the summary, the charts,
 * the process names, the timeline and its counter tracks fed by one load
 * through a fan-out sink, then their sheets. */
#include "analyze/job_charts.h"
#include "analyze/proc_names.h"
#include "analyze/summary_internal.h"
#include "analyze/timeline.h"
#include "analyze/timeline_counters.h"
#include "ops/sink_fanout.h"
#include "spoor/error.h"
#include "spoor/report.h"
#include "spoor/summary.h"

struct job_run {
    struct job_charts_run *charts;
    struct timeline_run *timeline;
    struct proc_names_run *names;
    struct counters_run *counters;
};

const char *const spoor_job_report_arg_keys[] = {SUMMARY_ARG_KEYS, PROC_NAMES_ARG_KEYS, COUNTERS_ARG_KEYS};
const size_t spoor_job_report_n_arg_keys = sizeof spoor_job_report_arg_keys / sizeof *spoor_job_report_arg_keys;

static int job_map(void *ctx, int worker, const struct spoor_table *batch)
{
    struct job_run *run = ctx;
    job_charts_add(run->charts, worker, batch);
    timeline_add(run->timeline, worker, batch);
    proc_names_add(run->names, worker, batch);
    counters_add(run->counters, worker, batch);
    return SPOOR_OK;
}

int spoor_job_report(const char *const *paths, size_t npaths, const struct spoor_load_opts *opts,
                     const struct spoor_job_report_opts *jopts, struct spoor_report **out,
                     struct spoor_load_result *result, bool *read_twice, struct spoor_error *err)
{
    *out = NULL;
    *read_twice = false;
    int threads = spoor_load_threads(opts);
    struct spoor_summary_opts sopts = jopts->summary;
    sopts.inputs = npaths;
    struct spoor_summary_run *summary = spoor_summary_begin(&sopts, threads);
    struct timeline_opts topts = {.phase_cats = jopts->phase_cats};
    struct job_run run = {job_charts_begin(jopts->time_columns, threads), timeline_begin(&topts, threads),
                          proc_names_begin(threads), counters_begin(0, 0, threads)};
    struct sink_fanout fan = {0};
    sink_fanout_add(&fan, spoor_summary_sink(summary));
    sink_fanout_add(&fan, (struct spoor_sink){.ctx = &run, .map = job_map});
    struct spoor_sink sink = sink_fanout(&fan);
    int st = spoor_load(paths, npaths, opts, &sink, result, err);
    if (st == SPOOR_OK && spoor_summary_again(summary)) {
        for (size_t i = 0; i < npaths && st == SPOOR_OK; i++)
            if (spoor_input_is_stream(paths[i]))
                st = spoor_fail(err, SPOOR_EUSAGE,
                                "%s: rows came further out of time order than one pass holds, and a stream "
                                "cannot be read again; save it to a file and give that",
                                paths[i]);
        if (st == SPOOR_OK) {
            *read_twice = true;
            spoor_load_result_free(result);
            struct spoor_sink again = spoor_summary_sink(summary);
            st = spoor_load(paths, npaths, opts, &again, result, err);
            spoor_summary_again(summary);
        }
    }
    struct spoor_summary sum;
    spoor_summary_end(summary, &sum);
    struct job_charts charts;
    job_charts_end(run.charts, &charts);
    struct timeline timeline;
    timeline_end(run.timeline, &timeline);
    struct proc_names names;
    proc_names_end(run.names, &names);
    struct counters counters;
    counters_end(run.counters, &counters);
    if (st == SPOOR_OK) {
        *out = spoor_report_new("spoor report");
        job_report_sheets(*out, &sum, &charts, &names, result);
        proc_names_sheet(*out, &names);
        timeline_sheets(*out, &timeline, &names);
        counters_sheets(*out, &counters);
    }
    counters_free(&counters);
    proc_names_free(&names);
    timeline_free(&timeline);
    job_charts_free(&charts);
    spoor_summary_free(&sum);
    return st;
}
