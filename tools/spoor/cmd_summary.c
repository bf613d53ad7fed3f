/* spoor --help: the time-period summary and layer breakdown of a trace */
/* spoor summary: the time-period summary and layer breakdown of a trace. */
#include <getopt.h>
#include <stdio.h>

#include "cli_getopt.h"
#include "load_args.h"
#include "output_guard.h"
#include "where_cli.h"
#include "spoor/load.h"
#include "spoor/report.h"
#include "spoor/summary.h"

static const char usage[] =
    "usage: spoor summary [options] TRACE...\n"
    "\n"
    "The time-period summary (job time, processes, threads, files, hosts, events), the\n"
    "layer breakdown per cat (union time, self time, count, ops/s, bytes, bandwidth,\n"
    "share of the parent layer, time not overlapped by compute), the top files and\n"
    "functions by time, the access-size histogram and the per-process I/O imbalance.\n"
    "Times are exact unions of [ts, ts + dur]; see docs/cli.md for every definition.\n"
    "\n"
    "options:\n"
    "  --where EXPR         summarise only the events where EXPR is true (the language\n"
    "                       of spoor events, e.g. \"pid = 42 OR cat = 'app'\")\n"
    "  --format F           table (default), json or csv\n"
    "  --top N              files and functions listed (default 10)\n"
    "  --compute-cats LIST  comma-separated cats or cat.name that are compute\n"
    "                       (default compute,cpu,app.compute)\n"
    "  -o FILE              write to FILE (complete or not at all) instead of stdout\n"
    "  -h, --help           this help\n" LOAD_ARGS_HELP;

int cmd_summary(int argc, char **argv)
{
    struct spoor_load_opts opts;
    load_args_init(&opts);
    opts.read.args = SPOOR_ARGS_LISTED;
    opts.read.arg_keys = spoor_summary_arg_keys;
    opts.read.n_arg_keys = spoor_summary_n_arg_keys;
    struct spoor_summary_opts sopts = {.compute = spoor_summary_default_compute, .top = 10};
    struct cli_format format = {"summary", spoor_report_formats, 3, SPOOR_FORMAT_TABLE};
    const char *output = NULL, *where = NULL;
    const struct cli_option options[] = {
        CLI_OPT_FORMAT(&format),
        CLI_OPT_STRING("output", 'o', &output),
        CLI_OPT_COUNT("top", 0, &sopts.top, 0, (double)SIZE_MAX, "expected a count"),
        CLI_OPT_STRING("compute-cats", 0, &sopts.compute),
        CLI_OPT_STRING("where", 0, &where),
        CLI_END,
    };
    int code = cli_parse("summary", usage, options, &opts, LOAD_GROUP_ALL, argc, argv);
    if (code >= 0)
        return code;
    if (optind >= argc)
        return cli_usage_error("summary", "no trace given");

    const char *const *paths = (const char *const *)argv + optind;
    size_t npaths = (size_t)(argc - optind);
    if (output_guard1("summary", output, paths, npaths, opts.cache_dir))
        return 2;
    struct spoor_expr *filter;
    if (!where_compile("summary", where, &filter))
        return 2;
    struct spoor_error err = {0};
    struct spoor_summary sum;
    struct spoor_stream_load loaded;
    int st = spoor_summary_load(paths, npaths, &opts, &sopts, filter, &sum, &loaded, &err);
    if (loaded.read_twice)
        fprintf(stderr, "spoor summary: note: rows came further out of time order than one pass holds; "
                        "reading the input again, per thread\n");
    load_args_report("summary", &loaded.loaded);
    if (st == SPOOR_OK)
        where_unknown_report("summary", &loaded);
    if (st == SPOOR_OK) {
        struct spoor_report *report = spoor_summary_report(&sum, sopts.compute, where);
        st = spoor_report_save(report, output, format.value, 1, &err);
        spoor_report_free(report);
    }
    if (st != SPOOR_OK)
        fprintf(stderr, "spoor summary: %s\n", err.msg);
    spoor_summary_free(&sum);
    spoor_stream_load_free(&loaded);
    spoor_expr_free(filter);
    return cli_exit_code(st);
}
