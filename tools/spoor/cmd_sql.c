/* spoor --help: run SQL (SQLite) over the events of traces */
/* spoor sql: SQL over the events of traces, through SQLite virtual tables
 * that read the loaded table in place (src/sql). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_getopt.h"
#include "load_args.h"
#include "output_guard.h"
#include "spoor/report.h"
#include "spoor/write.h"
#include "spoor/sql.h"
#include "sql_shell.h"

static const char usage[] =
    "usage: spoor sql [options] TRACE... [QUERY]\n"
    "\n"
    "Runs SQL (SQLite) over the events of the traces. QUERY is the last argument\n"
    "when it is not a file; it may hold several statements. Without QUERY or -f,\n"
    "the SQL comes from stdin, or an interactive shell starts on a terminal.\n"
    "\n"
    "tables:\n"
    "  events    ts dur name cat pid tid ph line source file host, then every args\n"
    "            key (\"args.KEY\" when KEY is a fixed name); times in ns\n"
    "  files hosts strings procs threads    metadata definitions (hash or id, name,\n"
    "            source, line: each holds in its input from its line on)\n"
    "  meta      (source, key, value): dialect, units, rows, skipped lines, ...\n"
    "\n"
    "options:\n"
    "  -f FILE              read the SQL from FILE\n"
    "  --param NAME=VALUE   bind :NAME (or @NAME, $NAME) to VALUE; integers bind as\n"
    "                       integers, other numbers as reals, the rest as text\n"
    "  --format F           table (default), csv, json (one array) or jsonl\n"
    "  -o FILE              write to FILE, complete or not at all (default: stdout)\n"
    "  --no-native          run every statement in SQLite; by default aggregate queries\n"
    "                       over events in a subset of SQL run natively on the columns\n"
    "                       (same answer; see docs/cli.md)\n"
    "  --explain-path       say on stderr which path ran each statement, native or sqlite\n"
    "                       (and why not native)\n"
    "  -h, --help           this help\n"
    "\n"
    "example:\n"
    "  spoor sql t.pfw.gz \"SELECT cat, name, count(*), sum(dur) FROM events GROUP BY 1, 2\"\n"
    "\n" LOAD_ARGS_HELP;

struct cli {
    const char *query_file, *output;
    char *query;                    /* owned */
    struct spoor_sql_param *params;
    size_t nparams;
    struct spoor_sql_run run;
    const char *const *traces;
    size_t ntraces;
};

/* --param NAME=VALUE, one more parameter (cut at the '=' in place). */
static bool add_param(void *cli_, const char *value)
{
    struct cli *cli = cli_;
    char *arg = (char *)value; /* an argv string, ours to cut */
    char *eq = strchr(arg, '=');
    if (!eq || eq == arg)
        return false;
    *eq = '\0';
    cli->params = spoor_xrealloc(cli->params, (cli->nparams + 1) * sizeof *cli->params);
    cli->params[cli->nparams++] = (struct spoor_sql_param){.name = arg, .value = eq + 1};
    return true;
}

static bool is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

static void explain_path(void *arg, const char *path, const char *why)
{
    (void)arg;
    fprintf(stderr, "spoor sql: path: %s%s%s%s\n", path, why ? " (" : "", why ? why : "", why ? ")" : "");
}

/* Returns -1 to go on, else the exit code. */
static int parse_cli(int argc, char **argv, struct cli *cli, struct spoor_load_opts *opts)
{
    static const enum spoor_output_format formats[] = {SPOOR_FORMAT_TABLE, SPOOR_FORMAT_CSV, SPOOR_FORMAT_JSON,
                                                       SPOOR_FORMAT_JSONL};
    static const enum spoor_sql_format sql_of[] = {[SPOOR_FORMAT_TABLE] = SPOOR_SQL_TABLE,
                                                   [SPOOR_FORMAT_CSV] = SPOOR_SQL_CSV,
                                                   [SPOOR_FORMAT_JSON] = SPOOR_SQL_JSON,
                                                   [SPOOR_FORMAT_JSONL] = SPOOR_SQL_JSONL};
    struct cli_format format = {"sql", formats, 4, SPOOR_FORMAT_TABLE};
    bool explain = false;
    const struct cli_option options[] = {
        CLI_OPT_CALL("param", 0, cli, add_param, "expected NAME=VALUE"),
        CLI_OPT_FORMAT(&format),
        CLI_OPT_FLAG("no-native", 0, &cli->run.no_native),
        CLI_OPT_FLAG("explain-path", 0, &explain),
        CLI_OPT_STRING("output", 'o', &cli->output),
        CLI_OPT_STRING(NULL, 'f', &cli->query_file),
        CLI_END,
    };
    int code = cli_parse("sql", usage, options, opts, LOAD_GROUP_ALL, argc, argv);
    if (code >= 0)
        return code;
    cli->run.format = sql_of[format.value];
    cli->run.explain = explain ? explain_path : NULL;
    size_t npos = (size_t)(argc - optind);
    if (!cli->query_file && npos >= 2 && !is_file(argv[argc - 1])) {
        cli->query = spoor_xstrdup(argv[argc - 1]);
        npos--;
    }
    if (npos == 0)
        return cli_usage_error("sql", "no trace given");
    cli->traces = (const char *const *)argv + optind;
    cli->ntraces = npos;
    return -1;
}

static char *read_all(FILE *f)
{
    size_t len = 0, cap = 4096;
    char *buf = spoor_xmalloc(cap);
    size_t n;
    while ((n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += n;
        if (cap - len < 2)
            buf = spoor_xrealloc(buf, cap *= 2);
    }
    buf[len] = '\0';
    return buf;
}

/* The SQL from -f, or stdin when it is not a terminal; NULL for the shell. */
static int find_query(struct cli *cli)
{
    if (cli->query)
        return 0;
    FILE *f = cli->query_file ? (strcmp(cli->query_file, "-") ? fopen(cli->query_file, "r") : stdin) : NULL;
    if (cli->query_file && !f) {
        fprintf(stderr, "spoor sql: -f %s: cannot open: %m\n", cli->query_file);
        return 1;
    }
    if (!f && !isatty(STDIN_FILENO))
        f = stdin;
    if (f)
        cli->query = read_all(f);
    if (f && f != stdin)
        fclose(f);
    return 0;
}

/* A table mapped from a snapshot has only the columns the query names verified. */
static void columns_read(void *ctx, const struct spoor_table *t, struct spoor_snapshot_need *need)
{
    spoor_sql_columns_read(t, ((const struct cli *)ctx)->query, need);
}

static int run_query(struct spoor_sql *s, struct cli *cli)
{
    struct spoor_error err = {0};
    struct spoor_atomic_file out;
    int st = spoor_atomic_file_open(&out, cli->output, &err);
    if (st == SPOOR_OK) {
        cli->run.out = out.fp;
        st = spoor_sql_exec(s, cli->query, &cli->run, &err);
        if (st == SPOOR_OK)
            st = spoor_atomic_file_commit(&out, &err);
        else
            spoor_atomic_file_abort(&out);
    }
    if (st == SPOOR_EUSAGE) {
        sql_print_error(cli->query, &cli->run, &err);
        return 2;
    }
    if (st != SPOOR_OK)
        fprintf(stderr, "spoor sql: %s\n", err.msg);
    return cli_exit_code(st);
}

int cmd_sql(int argc, char **argv)
{
    struct cli cli = {0};
    struct spoor_load_opts opts;
    load_args_init(&opts); /* args mode ALL: every key is a column */
    int code = parse_cli(argc, argv, &cli, &opts);
    if (code < 0 && (output_guard1("sql", cli.output, cli.traces, cli.ntraces, opts.cache_dir) ||
                     output_guard1("sql", cli.output, &cli.query_file, cli.query_file != NULL, NULL)))
        code = 2;
    if (code < 0)
        code = find_query(&cli);
    else if (code == 0)
        code = -1; /* --help: done */
    if (code) {
        free(cli.query);
        free(cli.params);
        return code < 0 ? 0 : code;
    }
    cli.run.params = cli.params;
    cli.run.nparams = cli.nparams;

    struct spoor_error err = {0};
    struct spoor_table *t = NULL;
    struct spoor_load_result res = {0};
    struct spoor_sql *s = NULL;
    opts.columns_read = columns_read;
    opts.columns_read_ctx = &cli;
    int st = spoor_load_table(cli.traces, cli.ntraces, &opts, &t, &res, &err);
    load_args_report("sql", &res);
    if (st == SPOOR_OK)
        st = spoor_sql_open(t, &res, &s, &err);
    if (st != SPOOR_OK) {
        fprintf(stderr, "spoor sql: %s\n", err.msg);
        code = 1;
    } else if (cli.query) {
        code = run_query(s, &cli);
    } else {
        code = sql_shell_run(s, &cli.run);
    }
    spoor_sql_close(s);
    spoor_table_free(t);
    spoor_load_result_free(&res);
    free(cli.query);
    free(cli.params);
    return code;
}
