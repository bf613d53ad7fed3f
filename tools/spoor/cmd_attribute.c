/* spoor --help: per I/O call, the time each kernel function took inside it (a dataset) */
/* spoor attribute: per I/O call, the time each kernel function took inside it
 * (spoor/attribute.h over the interval engine), as a CSV or JSONL dataset. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_getopt.h"
#include "filter_load.h"
#include "load_args.h"
#include "output_guard.h"
#include "spoor/write.h"
#include "spoor/attribute.h"

static const char usage[] =
    "usage: spoor attribute [options] --calls EXPR -o DATASET TRACE...\n"
    "\n"
    "One row per I/O call: call_id ts dur name file size bandwidth (MiB/s), the ns\n"
    "each kernel function (cat.name) took inside the call, unattributed and coverage.\n"
    "\n"
    "options:\n"
    "  --calls EXPR         the calls, e.g. \"cat = 'sys' AND name IN ('read', 'write')\"\n"
    "                       (the --where language of spoor events; see docs/cli.md)\n"
    "  --file GLOB          only calls on files matching GLOB, e.g. '/data/*'\n"
    "  --events EXPR        the kernel events (default: every event of a kernel-side\n"
    "                       cat, e.g. sys os_cache vfs ext4 block kprobe, that is no\n"
    "                       call's cat; the cats left out are named on stderr). An\n"
    "                       event enclosing a call of its thread is its caller and\n"
    "                       never counts for it\n"
    "  --match M            which events a call sees: tid (its thread, default),\n"
    "                       pid (its process) or none (every event)\n"
    "  --time T             self (default): each function's exclusive time, nothing\n"
    "                       counted twice; overlap: the part of every event inside the\n"
    "                       call; inclusive: the whole dur of events nested in it\n"
    "  --compat notebook    the DataCrumbs notebook: the whole dur of every event\n"
    "                       overlapping the call, from any process\n"
    "  --by cat             one column per cat (layer) instead of per function\n"
    "  --format F           csv (default), jsonl or html (a page of charts); -o NAME.jsonl\n"
    "                       picks jsonl, -o NAME.html html\n"
    "  -o FILE              write to FILE, complete or not at all (- = stdout)\n"
    "  -h, --help           this help\n"
    "see docs/attribution.md for a worked example of the modes\n" LOAD_ARGS_HELP;

/* The options as given; a word is its index in its list, -1 when not given. */
struct cli {
    const char *calls, *file, *events, *format, *output;
    int match, time, compat, by;
};

struct choices {
    struct spoor_attr_opts engine;
    enum spoor_attr_columns by;
    enum spoor_output_format format;
};

/* Returns -1 to go on, else the exit code. */
static int parse_choices(const struct cli *cli, struct choices *ch)
{
    static const enum spoor_output_format formats[] = {SPOOR_FORMAT_CSV, SPOOR_FORMAT_JSONL, SPOOR_FORMAT_HTML};
    if (cli->format && !cli_format_choose("attribute", cli->format, formats, 3, &ch->format))
        return 2;
    size_t len = strlen(cli->output);
    if (!cli->format) /* -o NAME.jsonl picks jsonl, NAME.html html */
        ch->format = spoor_write_format_of_path(cli->output) == SPOOR_WRITE_JSONL ? SPOOR_FORMAT_JSONL
                     : len > 5 && !strcmp(cli->output + len - 5, ".html") ? SPOOR_FORMAT_HTML
                                                                          : SPOOR_FORMAT_CSV;
    if (!cli_output_fits("attribute", ch->format, cli->output))
        return 2;
    bool compat = cli->compat >= 0;
    if (compat && (cli->match >= 0 || cli->time >= 0))
        return cli_usage_error("attribute", "--compat notebook fixes --match and --time; give neither");
    static const enum spoor_iv_key key_of[] = {SPOOR_IV_THREAD, SPOOR_IV_PID, SPOOR_IV_NONE};
    static const enum spoor_attr_mode mode_of[] = {SPOOR_ATTR_SELF, SPOOR_ATTR_OVERLAP, SPOOR_ATTR_INCLUSIVE};
    ch->engine.key = compat ? SPOOR_IV_NONE : key_of[cli->match < 0 ? 0 : cli->match];
    ch->engine.mode = compat ? SPOOR_ATTR_NOTEBOOK : mode_of[cli->time < 0 ? 0 : cli->time];
    ch->by = cli->by == 1 ? SPOOR_ATTR_BY_CAT : SPOOR_ATTR_BY_FUNCTION;
    return -1;
}

/* Returns -1 to go on, else the exit code. */
static int parse_cli(int argc, char **argv, struct cli *cli, struct spoor_load_opts *opts, struct choices *ch)
{
    static const char *const keys[] = {"tid", "pid", "none", NULL};
    static const char *const times[] = {"self", "overlap", "inclusive", NULL};
    static const char *const compat[] = {"notebook", NULL}, *const by[] = {"function", "cat", NULL};
    *cli = (struct cli){.match = -1, .time = -1, .compat = -1, .by = -1};
    const struct cli_option options[] = {
        CLI_OPT_ONCE("calls", 0, &cli->calls),
        CLI_OPT_ONCE("file", 0, &cli->file),
        CLI_OPT_ONCE("events", 0, &cli->events),
        CLI_OPT_WORD_ONCE("match", 0, &cli->match, keys, "expected tid, pid or none"),
        CLI_OPT_WORD_ONCE("time", 0, &cli->time, times, "expected self, overlap or inclusive"),
        CLI_OPT_WORD_ONCE("compat", 0, &cli->compat, compat, "expected notebook"),
        CLI_OPT_WORD_ONCE("by", 0, &cli->by, by, "expected function or cat"),
        CLI_OPT_ONCE("format", 0, &cli->format),
        CLI_OPT_ONCE("output", 'o', &cli->output),
        CLI_END,
    };
    int code = cli_parse("attribute", usage, options, opts, LOAD_GROUP_ALL, argc, argv);
    if (code >= 0)
        return code;
    const char *missing = optind >= argc ? "no trace given" : !cli->calls ? "--calls is required"
                                                            : !cli->output ? "-o is required"
                                                                           : NULL;
    if (missing)
        return cli_usage_error("attribute", "%s", missing);
    return parse_choices(cli, ch);
}

static int compile(const char *option, const char *text, struct spoor_expr **out)
{
    struct spoor_error err = {0};
    *out = NULL;
    if (!text || spoor_expr_compile(text, out, &err) == SPOOR_OK)
        return SPOOR_OK;
    fprintf(stderr, "spoor attribute: %s: %s\n", option, err.msg);
    return err.code;
}

/* Attributes the calls of the loaded table t and writes the dataset to fp. */
static int attribute_table(const struct spoor_table *t, const struct spoor_attr_select *sel,
                           const struct choices *ch, int threads, FILE *fp, struct spoor_error *err)
{
    struct spoor_attr_opts engine = ch->engine;
    engine.threads = threads;
    struct spoor_attr_result a;
    int st = spoor_attr_run(t, sel, &engine, ch->by, &a, err);
    if (!a.ncalls)
        fprintf(stderr, "spoor attribute: warning: no call matches --calls%s; the dataset has a header only\n",
                sel->file_glob ? " and --file" : "");
    static const char *const same[] = {[SPOOR_IV_THREAD] = " of its thread (--match tid)",
                                       [SPOOR_IV_PID] = " of its process (--match pid)", [SPOOR_IV_NONE] = ""};
    if (st == SPOOR_OK && a.ncalls && a.left_out)
        fprintf(stderr, "spoor attribute: note: events of cats %s are not kernel-side and not attributed "
                "(--events chooses the events)\n", a.left_out);
    if (st == SPOOR_OK && a.ncalls && !a.nevents)
        fprintf(stderr, "spoor attribute: warning: no event matches %s; every coverage is 0\n",
                sel->events ? "--events" : "the default (kernel-side cats)");
    else if (st == SPOOR_OK && a.ncalls && !a.covered)
        fprintf(stderr, "spoor attribute: warning: none of the %zu events overlaps any of the %zu calls%s; every "
                "coverage is 0\n", a.nevents, a.ncalls, same[engine.key]);
    if (st == SPOOR_OK) {
        struct spoor_report *rep = spoor_attr_dataset_report(&a.dataset);
        st = spoor_report_write(fp, rep, ch->format, threads, err);
        spoor_report_free(rep);
    }
    spoor_attr_result_free(&a);
    return st;
}

/* Opens the output first (a bad -o fails before the load), loads, attributes
 * and writes; err says why not. */
static int run(const char *const *paths, size_t npaths, const struct spoor_load_opts *opts,
               const struct spoor_attr_select *sel, const struct choices *ch, const char *output,
               struct spoor_error *err)
{
    struct spoor_atomic_file out;
    int st = spoor_atomic_file_open(&out, output, err);
    if (st != SPOOR_OK)
        return st;
    struct spoor_table *t = NULL;
    struct spoor_load_result res = {0};
    st = spoor_load_table(paths, npaths, opts, &t, &res, err);
    load_args_report("attribute", &res);
    spoor_load_result_free(&res);
    if (st == SPOOR_OK)
        st = attribute_table(t, sel, ch, spoor_load_threads(opts), out.fp, err);
    spoor_table_free(t);
    if (st == SPOOR_OK)
        return spoor_atomic_file_commit(&out, err);
    spoor_atomic_file_abort(&out);
    return st;
}

/* A table mapped from a snapshot has only the columns attributing reads verified. */
static void columns_read(void *ctx, const struct spoor_table *t, struct spoor_snapshot_need *need)
{
    spoor_attr_columns_read(t, ctx, need);
}

int cmd_attribute(int argc, char **argv)
{
    struct cli cli;
    struct choices ch = {0};
    struct spoor_load_opts opts;
    load_args_init(&opts); /* args mode ALL: call_id, size and the file keys are read */
    int code = parse_cli(argc, argv, &cli, &opts, &ch);
    if (code >= 0)
        return code;
    if (output_guard1("attribute", cli.output, (const char *const *)argv + optind, (size_t)(argc - optind),
                      opts.cache_dir))
        return 2;
    struct spoor_expr *calls, *events = NULL;
    if (compile("--calls", cli.calls, &calls) != SPOOR_OK || compile("--events", cli.events, &events) != SPOOR_OK) {
        spoor_expr_free(calls);
        return 2;
    }
    struct spoor_attr_select sel = {.calls = calls, .file_glob = cli.file, .events = events};
    opts.columns_read = columns_read;
    opts.columns_read_ctx = &sel;
    struct spoor_error err = {0};
    int st = run((const char *const *)argv + optind, (size_t)(argc - optind), &opts, &sel, &ch, cli.output, &err);
    if (st != SPOOR_OK)
        fprintf(stderr, "spoor attribute: %s\n", err.msg);
    spoor_expr_free(calls);
    spoor_expr_free(events);
    return cli_exit_code(st);
}
