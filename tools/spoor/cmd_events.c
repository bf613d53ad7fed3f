/* spoor --help: the events that match an SQL condition, as CSV or JSON lines */
/* spoor events: the rows of traces that match --where, as CSV or JSON lines
 * (spoor_trace_export_run, spoor/write.h, as export writes them). */
#include <stdbool.h>

#include "cli_getopt.h"
#include "filter_load.h"
#include "load_args.h"
#include "output_guard.h"
#include "spoor/report.h"
#include "spoor/write.h"

static const char usage[] =
    "usage: spoor events [options] TRACE...\n"
    "\n"
    "Writes the events of the traces that match an SQL condition, in input order.\n"
    "\n"
    "options:\n"
    "  --where EXPR         keep rows where EXPR is true, e.g.\n"
    "                         \"cat = 'POSIX' AND name IN ('open', 'open64') AND dur >= 1ms\"\n"
    "                       columns: ts dur name cat pid tid ph line source, file and host\n"
    "                       (resolved from fhash/fname, hhash/hostname), any args key\n"
    "                       (or args.KEY, or \"any key\"); = != < <= > >= AND OR NOT,\n"
    "                       IN (...), LIKE, GLOB, BETWEEN, IS [NOT] NULL, + - * / %;\n"
    "                       times are ns, or write 5us, 2.5ms, 1s (see docs/cli.md)\n"
    "  --columns LIST       comma-separated columns to write (default: the fixed ones,\n"
    "                       file, host, then the args columns)\n"
    "  --format F           csv (default) or jsonl; -o NAME.jsonl picks jsonl\n"
    "  -o FILE              write to FILE, complete or not at all (default: stdout)\n"
    "  -h, --help           this help\n" LOAD_ARGS_HELP;

struct cli {
    const char *where, *columns, *format, *output;
    enum spoor_trace_export_format to; /* --format, else the one -o NAME.jsonl picks */
};

/* Returns -1 to go on, else the exit code. */
static int parse_cli(int argc, char **argv, struct cli *cli, struct spoor_load_opts *opts)
{
    const struct cli_option options[] = {
        CLI_OPT_ONCE("where", 0, &cli->where),
        CLI_OPT_ONCE("columns", 0, &cli->columns),
        CLI_OPT_ONCE("format", 0, &cli->format),
        CLI_OPT_ONCE("output", 'o', &cli->output),
        CLI_END,
    };
    int code = cli_parse("events", usage, options, opts, LOAD_GROUP_ALL, argc, argv);
    if (code >= 0)
        return code;
    if (optind >= argc)
        return cli_usage_error("events", "no trace given");
    static const enum spoor_output_format formats[] = {SPOOR_FORMAT_CSV, SPOOR_FORMAT_JSONL};
    enum spoor_output_format f;
    if (cli->format && !cli_format_choose("events", cli->format, formats, 2, &f))
        return 2;
    bool jsonl = cli->format ? f == SPOOR_FORMAT_JSONL : spoor_write_format_of_path(cli->output) == SPOOR_WRITE_JSONL;
    cli->to = jsonl ? SPOOR_EXPORT_JSONL : SPOOR_EXPORT_CSV;
    return -1;
}

int cmd_events(int argc, char **argv)
{
    struct cli cli = {0};
    struct spoor_load_opts opts;
    load_args_init(&opts);
    int code = parse_cli(argc, argv, &cli, &opts);
    if (code >= 0)
        return code;
    if (output_guard1("events", cli.output, (const char *const *)argv + optind, (size_t)(argc - optind), opts.cache_dir))
        return 2;

    struct spoor_trace_export_opts o = {.format = cli.to, .output = cli.output};
    return filter_load_export("events", (const char *const *)argv + optind, (size_t)(argc - optind), &opts, cli.where,
                              cli.columns, o);
}
