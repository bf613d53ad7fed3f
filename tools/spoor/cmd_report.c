/* spoor --help: the job report: overview, layers, distributions, over time, timeline (json, html) */
/* spoor report: the job report of traces in one pass (spoor_job_report). */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli_getopt.h"
#include "load_args.h"
#include "output_guard.h"
#include "spoor/load.h"
#include "spoor/report.h"
#include "spoor/summary.h"

static const char usage[] =
    "usage: spoor report [options] TRACE...\n"
    "\n"
    "The job report, in one pass over the traces: the overview (job time, processes,\n"
    "threads, files, hosts, dialects, skipped lines), the layers (union and self time,\n"
    "dur by read/write/metadata/other, bytes), top files and functions, access-size\n"
    "and latency histograms (log2 bins), bandwidth per layer and I/O time per process\n"
    "over time, and a zoomable timeline: per-process and per-thread lanes reduced to\n"
    "per-bucket aggregates at several zoom levels, with the longest exact events of\n"
    "every time window embedded (see docs/cli.md for the layout). Processes are\n"
    "named from ps aux rows, the trace's own names, COMM columns or logs, in that\n"
    "order; CPU and GPU utilisation (mpstat, nvidia-smi pmon) are counter tracks\n"
    "above the processes, and records without a pid (logs, MLPerf epochs) phases\n"
    "on a run-wide row.\n"
    "\n"
    "--format html writes one page that needs no network: the sheets as charts and\n"
    "tables, and the timeline as a view to zoom (wheel), pan (drag) and click\n"
    "(an event's fields); a process's threads open on a click on its name.\n"
    "\n"
    "options:\n"
    "  --format F           json (default; html when -o ends in .html), table (the\n"
    "                       small sheets only) or html (a page, never to a terminal)\n"
    "  --top N              files and functions listed (default 10)\n"
    "  --compute-cats LIST  comma-separated cats or cat.name that are compute\n"
    "                       (default compute,cpu,app.compute)\n"
    "  --phase-cats LIST    comma-separated cats drawn as application phases on the\n"
    "                       timeline (default app,mllog,log)\n"
    "  -o FILE              write to FILE (complete or not at all) instead of stdout\n"
    "  -h, --help           this help\n" LOAD_ARGS_HELP;

static const enum spoor_output_format formats[] = {SPOOR_FORMAT_JSON, SPOOR_FORMAT_TABLE, SPOOR_FORMAT_HTML};

/* --format's choice, else html for -o NAME.html, else json; false after a usage error. */
static bool choose_format(const char *arg, const char *output, enum spoor_output_format *format)
{
    size_t len = output ? strlen(output) : 0;
    if (arg)
        return cli_format_choose("report", arg, formats, 3, format);
    *format = len > 5 && !strcmp(output + len - 5, ".html") ? SPOOR_FORMAT_HTML : SPOOR_FORMAT_JSON;
    return true;
}

int cmd_report(int argc, char **argv)
{
    struct spoor_load_opts opts;
    load_args_init(&opts);
    opts.read.args = SPOOR_ARGS_LISTED;
    opts.read.arg_keys = spoor_job_report_arg_keys;
    opts.read.n_arg_keys = spoor_job_report_n_arg_keys;
    struct spoor_job_report_opts jopts = {.summary = {.compute = spoor_summary_default_compute, .top = 10}};
    const char *output = NULL, *format_arg = NULL;
    const struct cli_option options[] = {
        CLI_OPT_STRING("format", 0, &format_arg),
        CLI_OPT_STRING("output", 'o', &output),
        CLI_OPT_COUNT("top", 0, &jopts.summary.top, 0, (double)SIZE_MAX, "expected a count"),
        CLI_OPT_STRING("compute-cats", 0, &jopts.summary.compute),
        CLI_OPT_STRING("phase-cats", 0, &jopts.phase_cats),
        CLI_END,
    };
    int code = cli_parse("report", usage, options, &opts, LOAD_GROUP_ALL, argc, argv);
    if (code >= 0)
        return code;
    if (optind >= argc)
        return cli_usage_error("report", "no trace given");
    const char *const *paths = (const char *const *)argv + optind;
    size_t npaths = (size_t)(argc - optind);
    enum spoor_output_format format;
    if (!choose_format(format_arg, output, &format) || !cli_output_fits("report", format, output) ||
        output_guard1("report", output, paths, npaths, opts.cache_dir))
        return 2;

    struct spoor_report *report;
    struct spoor_load_result res = {0};
    struct spoor_error err = {0};
    bool read_twice;
    int st = spoor_job_report(paths, npaths, &opts, &jopts, &report, &res, &read_twice, &err);
    if (read_twice)
        fprintf(stderr, "spoor report: note: rows came further out of time order than one pass holds; "
                        "the summary read the input again, per thread\n");
    load_args_report("report", &res);
    if (st == SPOOR_OK)
        st = spoor_report_save(report, output, format, spoor_load_threads(&opts), &err);
    if (st != SPOOR_OK)
        fprintf(stderr, "spoor report: %s\n", err.msg);
    spoor_report_free(report);
    spoor_load_result_free(&res);
    return cli_exit_code(st);
}
