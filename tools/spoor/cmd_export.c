/* spoor --help: convert events to CSV, JSON lines, SQLite or a Perfetto trace */
/* spoor export: the rows of traces that match --where, streamed in input
 * order into CSV, JSON lines, an SQLite database or a Perfetto trace, through
 * the library's load/filter loop (spoor/expr.h). OUT appears complete or not at
 * all: everything goes to a temporary next to it, renamed at the end. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_getopt.h"
#include "filter_load.h"
#include "load_args.h"
#include "output_guard.h"
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
    "  --via-sqlite         with --to sqlite: the same database written through SQLite's\n"
    "                       own API instead of directly (far slower; to check the writer)\n"
    "  -h, --help           this help\n" LOAD_ARGS_HELP;

enum format { FORMAT_CSV, FORMAT_JSONL, FORMAT_SQLITE, FORMAT_PERFETTO };
static const char *const format_names[] = {"csv", "jsonl", "sqlite", "perfetto", NULL};

/* The writer of the chosen format; exactly one is set. */
struct target {
    struct spoor_writer *rows;              /* csv, jsonl */
    struct spoor_sqlite_writer *db;
    struct spoor_perfetto_writer *trace;
};

static int target_write(void *ctx, const struct spoor_table *batch, const struct spoor_resolved *res,
                        const uint32_t *sel, size_t n, struct spoor_error *err)
{
    struct target *t = ctx;
    if (t->db)
        return spoor_sqlite_writer_write(t->db, batch, res, sel, n, err);
    if (t->trace)
        return spoor_perfetto_writer_write(t->trace, batch, res, sel, n, err);
    return spoor_writer_write(t->rows, batch, res, sel, n, err);
}

/* On the workers: the database encodes its records there, when cores are
 * to spare (encodes_on_workers). */
static int target_prepare(void *ctx, int worker, const struct spoor_table *batch, const uint32_t *sel, size_t n)
{
    struct target *t = ctx;
    return spoor_sqlite_writer_prepare(t->db, worker, batch, sel, n);
}

/* Whether the database's records are encoded on the load's workers: only
 * with more than two threads on as many cores. With two, both are busy
 * inflating, parsing and writing in input order, and encoding in input
 * order costs less, in CPU and wall time alike (1 M events: -10% and -14%
 * measured), than records built in per-batch buffers on one core and
 * spliced on another (docs/perf-notes.md, "SQLite export"). */
static bool encodes_on_workers(const struct spoor_load_opts *opts)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int threads = spoor_load_threads(opts);
    return (cores > 0 && cores < threads ? cores : threads) > 2;
}

static int target_finish(struct target *t, const struct spoor_load_result *loaded, struct spoor_error *err)
{
    if (t->db)
        return spoor_sqlite_writer_finish(t->db, loaded, err);
    if (t->trace)
        return spoor_perfetto_writer_finish(t->trace, err);
    return spoor_writer_finish(t->rows, err);
}

/* A database that failed holds its file open: it is closed before the
 * temporary is removed (finish closes it on success). */
static void target_free(struct target *t)
{
    spoor_sqlite_writer_free(t->db);
    spoor_perfetto_writer_free(t->trace);
    spoor_writer_free(t->rows);
    memset(t, 0, sizeof *t);
}

static void report_columns(const struct spoor_filter *f, const struct target *t)
{
    const char *missing[FILTER_LOAD_REPORT_MAX];
    size_t nmissing = t->db      ? spoor_sqlite_writer_missing(t->db, missing, FILTER_LOAD_REPORT_MAX)
                    : t->trace   ? spoor_perfetto_writer_missing(t->trace, missing, FILTER_LOAD_REPORT_MAX)
                                 : spoor_writer_missing(t->rows, missing, FILTER_LOAD_REPORT_MAX);
    filter_load_report("export", f, missing, nmissing);
}

static int target_open(struct target *t, enum format format, struct spoor_atomic_file *out, char **cols,
                       size_t ncols, const char *only_source, bool via_sqlite, struct spoor_error *err)
{
    const char *const *columns = (const char *const *)cols;
    switch (format) {
    case FORMAT_SQLITE: {
        int st = spoor_sqlite_writer_open(&t->db, out->tmp, out->path, columns, ncols, only_source, err);
        return st == SPOOR_OK && via_sqlite ? spoor_sqlite_writer_via_sqlite(t->db, err) : st;
    }
    case FORMAT_PERFETTO:
        t->trace = spoor_perfetto_writer_new(out->fp, out->path, columns, ncols);
        return SPOOR_OK;
    default: {
        struct spoor_writer_opts wo = {.format = format == FORMAT_CSV ? SPOOR_WRITE_CSV : SPOOR_WRITE_JSONL,
                                       .columns = columns, .ncolumns = ncols, .name = out->path,
                                       .rewritable = out->tmp != NULL};
        t->rows = spoor_writer_new(out->fp, &wo);
        return SPOOR_OK;
    }
    }
}

struct cli {
    const char *where, *columns, *output;
    int format; /* an enum format; -1 until --to names one */
    bool via_sqlite;
};

/* Returns -1 to go on, else the exit code. */
static int parse_cli(int argc, char **argv, struct cli *cli, struct spoor_load_opts *opts)
{
    const struct cli_option options[] = {
        CLI_OPT_WORD_ONCE("to", 0, &cli->format, format_names, "expected csv, jsonl, sqlite or perfetto"),
        CLI_OPT_ONCE("where", 0, &cli->where),
        CLI_OPT_ONCE("columns", 0, &cli->columns),
        CLI_OPT_FLAG("via-sqlite", 0, &cli->via_sqlite),
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
    if (cli->via_sqlite && cli->format != FORMAT_SQLITE)
        return cli_usage_error("export", "--via-sqlite goes with --to sqlite");
    if (cli->format == FORMAT_SQLITE && (!strcmp(cli->output, "-") || spoor_path_is_special(cli->output)))
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
    struct spoor_expr *expr;
    char **cols;
    size_t ncols;
    if (!filter_load_parse_args("export", cli.where, cli.columns, &expr, &cols, &ncols))
        return 2;

    struct spoor_error err = {0};
    struct spoor_filter *f = spoor_filter_new(expr, cols, ncols, &opts);
    struct target target = {0};
    struct spoor_atomic_file out;
    struct spoor_load_result res = {0};
    int st = spoor_atomic_file_open(&out, cli.output, &err);
    if (st == SPOOR_OK) {
        st = target_open(&target, cli.format, &out, cols, ncols, argc - optind == 1 ? argv[optind] : NULL,
                         cli.via_sqlite, &err);
        if (st == SPOOR_OK && target.db && encodes_on_workers(&opts))
            spoor_filter_prepare_with(f, target_prepare);
        if (st == SPOOR_OK)
            st = spoor_filter_run(f, (const char *const *)argv + optind, (size_t)(argc - optind), &opts,
                                 target_write, &target, &res, &err);
        if (st == SPOOR_OK)
            st = target_finish(&target, &res, &err);
        if (st == SPOOR_OK) {
            st = spoor_atomic_file_commit(&out, &err);
        } else {
            target_free(&target);
            spoor_atomic_file_abort(&out);
        }
        load_args_report("export", &res);
        if (st == SPOOR_OK)
            report_columns(f, &target);
    }
    if (st != SPOOR_OK)
        fprintf(stderr, "spoor export: %s\n", err.msg);
    target_free(&target);
    spoor_load_result_free(&res);
    spoor_filter_free(f);
    spoor_columns_free(cols, ncols);
    spoor_expr_free(expr);
    return cli_exit_code(st);
}
