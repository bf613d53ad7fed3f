/* spoor --help: what is in a trace: counts, time span, dur per cat and name */
/* spoor stats: what is in a trace, in one streaming pass. */
#include <getopt.h>
#include <stdio.h>

#include "cli_getopt.h"
#include "load_args.h"
#include "output_guard.h"
#include "where_cli.h"
#include "spoor/report.h"
#include "spoor/stats.h"

static const char usage[] =
    "usage: spoor stats [options] TRACE...\n"
    "\n"
    "Counts events, skipped lines by reason, the dialect and units assumed, the time\n"
    "span, count and sum/mean/min/max of dur per cat and per (cat, name), and the files,\n"
    "hosts, processes and threads seen. One streaming pass in bounded memory.\n"
    "\n"
    "options:\n"
    "  --where EXPR         count only the events where EXPR is true (the language of\n"
    "                       spoor events, e.g. \"cat = 'POSIX' AND dur >= 1ms\")\n"
    "  --format F           table (default), json or csv\n"
    "  -o FILE              write to FILE (complete or not at all) instead of stdout\n"
    "  -h, --help           this help\n" LOAD_ARGS_HELP;

int cmd_stats(int argc, char **argv)
{
    struct spoor_load_opts opts;
    load_args_init(&opts);
    opts.read.args = SPOOR_ARGS_LISTED;
    opts.read.arg_keys = spoor_stats_arg_keys;
    opts.read.n_arg_keys = spoor_stats_n_arg_keys;
    struct cli_format format = {"stats", spoor_report_formats, 3, SPOOR_FORMAT_TABLE};
    const char *output = NULL, *where = NULL;
    const struct cli_option options[] = {
        CLI_OPT_FORMAT(&format),
        CLI_OPT_STRING("where", 0, &where),
        CLI_OPT_STRING("output", 'o', &output),
        CLI_END,
    };
    int code = cli_parse("stats", usage, options, &opts, LOAD_GROUP_ALL, argc, argv);
    if (code >= 0)
        return code;
    if (optind >= argc)
        return cli_usage_error("stats", "no trace given");
    if (output_guard1("stats", output, (const char *const *)argv + optind, (size_t)(argc - optind), opts.cache_dir))
        return 2;

    struct spoor_expr *filter;
    if (!where_compile("stats", where, &filter))
        return 2;
    struct spoor_error err;
    struct spoor_stats stats;
    struct spoor_stream_load loaded;
    int st = spoor_stats_load((const char *const *)argv + optind, (size_t)(argc - optind), &opts, filter, &stats,
                              &loaded, &err);
    load_args_report("stats", &loaded.loaded);
    if (st == SPOOR_OK)
        where_unknown_report("stats", &loaded);
    if (st == SPOOR_OK) {
        struct spoor_report *report = spoor_stats_report(&stats, &loaded.loaded, where);
        st = spoor_report_save(report, output, format.value, 1, &err);
        spoor_report_free(report);
    }
    if (st != SPOOR_OK)
        fprintf(stderr, "spoor stats: %s\n", err.msg);
    spoor_stats_free(&stats);
    spoor_stream_load_free(&loaded);
    spoor_expr_free(filter);
    return cli_exit_code(st);
}
