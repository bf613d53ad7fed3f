/* spoor --help: convert events to CSV, JSON lines, SQLite or a Perfetto trace */
/* spoor export: the rows of traces that match --where, streamed in input
 * order into CSV, JSON lines, an SQLite database or a Perfetto trace
 * (spoor_trace_export_run, spoor/write.h). */
#include <stdio.h>
#include <string.h>

#include "cli_getopt.h"
#include "filter_load.h"
#include "load_args.h"
#include "output_guard.h"
#include "cli_number.h"
#include "spoor/write.h"

static const char usage[] =
    "usage: spoor export --to FORMAT -o OUT [options] TRACE...\n"
    "\n"
    "Writes the events of the traces (those matching --where) to OUT, in input order.\n"
    "\n"
    "options:\n"
    "  --to FORMAT          csv, jsonl (as 'spoor events' writes them), sqlite (a database\n"
    "                       with tables events, files, hosts, strings, procs, threads, meta)\n"
    "                       or perfetto (Chrome trace JSON for ui.perfetto.dev)\n"
    "  -o OUT               the output file, complete or not at all ('-' is stdout,\n"
    "                       except for sqlite)\n"
    "  --where EXPR         keep rows where EXPR is true (the language of 'spoor events',\n"
    "                       see docs/cli.md), e.g. \"cat = 'POSIX' AND dur >= 1ms\"\n"
    "  --columns LIST       comma-separated columns to write (default: the fixed ones,\n"
    "                       file, host, then the args columns); perfetto always writes\n"
    "                       its event fields and takes the args listed here\n"
    "  --counter-every DURATION\n"
    "                       with --to perfetto: the width of the counter tracks' buckets\n"
    "                       (bytes/s per layer, read/write/other; busy threads per layer),\n"
    "                       e.g. 100ms or 1s (default: a power of two of ns giving at\n"
    "                       most 2048 buckets over the run)\n"
    "  --no-counters        with --to perfetto: no counter tracks, only the events\n"
    "  --via-sqlite         with --to sqlite: the same database written through SQLite's\n"
    "                       own API instead of directly (far slower; to check the writer)\n"
    "  -h, --help           this help\n" LOAD_ARGS_HELP;

static const char *const format_names[] = {"csv", "jsonl", "sqlite", "perfetto", NULL}; /* enum order */

struct cli {
    const char *where, *columns, *output;
    int format; /* an enum spoor_trace_export_format; -1 until --to names one */
    bool via_sqlite, no_counters;
    int64_t counter_every; /* ns, 0: not given */
};

static bool parse_every(void *target, const char *value)
{
    return cli_duration("export", "--counter-every", value, target);
}

/* Returns -1 to go on, else the exit code. */
static int parse_cli(int argc, char **argv, struct cli *cli, struct spoor_load_opts *opts)
{
    const struct cli_option options[] = {
        CLI_OPT_WORD_ONCE("to", 0, &cli->format, format_names, "expected csv, jsonl, sqlite or perfetto"),
        CLI_OPT_ONCE("where", 0, &cli->where),
        CLI_OPT_ONCE("columns", 0, &cli->columns),
        CLI_OPT_FLAG("via-sqlite", 0, &cli->via_sqlite),
        CLI_OPT_CALL("counter-every", 0, &cli->counter_every, parse_every, NULL),
        CLI_OPT_FLAG("no-counters", 0, &cli->no_counters),
        CLI_OPT_ONCE("output", 'o', &cli->output),
        CLI_END,
    };
    int code = cli_parse("export", usage, options, opts, LOAD_GROUP_ALL, argc, argv);
    if (code >= 0)
        return code;
    const char *problem = cli->format < 0 ? "--to FORMAT is required (csv, jsonl, sqlite or perfetto)"
                        : !cli->output ? "-o OUT is required"
                        : optind >= argc ? "no trace given" : NULL;
    if (problem)
        return cli_usage_error("export", "%s", problem);
    if (cli->via_sqlite && cli->format != SPOOR_EXPORT_SQLITE)
        return cli_usage_error("export", "--via-sqlite goes with --to sqlite");
    if ((cli->counter_every || cli->no_counters) && cli->format != SPOOR_EXPORT_PERFETTO)
        return cli_usage_error("export", "%s goes with --to perfetto",
                               cli->no_counters ? "--no-counters" : "--counter-every");
    if (cli->counter_every && cli->no_counters)
        return cli_usage_error("export", "--counter-every and --no-counters exclude each other");
    if (cli->format == SPOOR_EXPORT_SQLITE && (!strcmp(cli->output, "-") || spoor_path_is_special(cli->output)))
        return cli_usage_error("export", "--to sqlite needs a regular file: -o %s cannot hold a database", cli->output);
    return -1;
}

int cmd_export(int argc, char **argv)
{
    struct cli cli = {.format = -1};
    struct spoor_load_opts opts;
    load_args_init(&opts);
    int code = parse_cli(argc, argv, &cli, &opts);
    if (code >= 0)
        return code;
    if (output_guard1("export", cli.output, (const char *const *)argv + optind, (size_t)(argc - optind), opts.cache_dir))
        return 2;
    struct spoor_trace_export_opts o = {.format = (enum spoor_trace_export_format)cli.format, .output = cli.output,
                                        .via_sqlite = cli.via_sqlite,
                                        .counter_every = cli.no_counters ? -1 : cli.counter_every};
    return filter_load_export("export", (const char *const *)argv + optind, (size_t)(argc - optind), &opts, cli.where,
                              cli.columns, o);
}
