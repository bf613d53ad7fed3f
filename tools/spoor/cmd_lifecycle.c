/* spoor --help: per-entity delays between the stages of an event log */
/* spoor lifecycle: per-entity delays between the stages of an event log. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_getopt.h"
#include "load_args.h"
#include "output_guard.h"
#include "spoor/lifecycle.h"

static const char usage[] =
    "usage: spoor lifecycle [options] LOG...\n"
    "\n"
    "Pivots an event log to one row per entity (the first time of each stage, how\n"
    "often each was seen) and reports delays between stages: totals and per --by group\n"
    "count/sum/mean/min/max and exact boxes (p25, median, p75, whiskers at 1.5 IQR,\n"
    "outliers), missing and repeated stages per entity kind, the slowest entities,\n"
    "and with --compare the entity-by-entity differences against another run and\n"
    "its own groups. Reads JSON lines, CSV and Python logging lines\n"
    "(asctime:LEVEL:name:pid:k=v;k=v;...), plain, .gz or .zst, in one parallel pass.\n"
    "\n"
    "options:\n"
    "  --preset P           cascade-tasks or cascade-transmits: the stages, delays,\n"
    "                       fields (task or dataset, action, at; worker as host:worker)\n"
    "                       and groups (worker, mode) of the cascade scheduler's log\n"
    "                       (docs/cli.md)\n"
    "  --entity FIELD       the field naming the entity (task, transfer, request...)\n"
    "  --stage FIELD        the field naming the stage the entity reached\n"
    "  --time FIELD         the field holding the time\n"
    "  --time-unit U        its unit: ns (default), us, ms or s\n"
    "  --stages A,B,C       the stages, in order; records of other stages are counted\n"
    "  --delay NAME=B-A     a delay: time of stage B minus time of stage A (repeatable)\n"
    "  --by FIELD           totals per value of FIELD (repeatable, up to 4)\n"
    "  --fill MISSING=SRC   a missing stage takes stage SRC's time (repeatable) ...\n"
    "  --fill-if FIELD=V    ... for entities whose FIELD is V (e.g. mode=local)\n"
    "  --top N              list the N slowest entities (default 10, at most 10000)\n"
    "  --top-by NAME        rank by this delay (default: total, else the first)\n"
    "  --compare LOG        also read LOG: delays entity by entity, boxes side by side\n"
    "  --format F           table (default), json, csv or html (a page of charts; -o FILE.html)\n"
    "  -o FILE              write to FILE (complete or not at all) instead of stdout\n"
    "  -h, --help           this help\n"
    LOAD_HELP_HEAD LOAD_HELP_THREADS LOAD_HELP_BASE LOAD_HELP_CACHE LOAD_HELP_PROGRESS;


/* Options that build the spec, applied in a fixed order once all are read. */
struct spec_args {
    const char *preset, *stages, *fill_if, *top_by;
    struct cli_list delay, fill, by;
};

static int build_spec(const struct spec_args *a, struct spoor_lc_spec *s, struct spoor_error *err)
{
    int st = SPOOR_OK;
    for (size_t i = 0; st == SPOOR_OK && i < a->by.n; i++)
        st = spoor_lc_spec_by(s, a->by.item[i], err);
    if (st == SPOOR_OK && a->preset && a->stages)
        st = spoor_fail(err, SPOOR_EUSAGE, "--stages and --preset exclude each other");
    if (st == SPOOR_OK && a->preset)
        st = spoor_lc_spec_preset(s, a->preset, err);
    if (st == SPOOR_OK && a->stages)
        st = spoor_lc_spec_stages(s, a->stages, err);
    for (size_t i = 0; st == SPOOR_OK && i < a->delay.n; i++)
        st = spoor_lc_spec_delay(s, a->delay.item[i], err);
    for (size_t i = 0; st == SPOOR_OK && i < a->fill.n; i++)
        st = spoor_lc_spec_fill(s, a->fill.item[i], err);
    if (st == SPOOR_OK && a->fill_if)
        st = spoor_lc_spec_fill_if(s, a->fill_if, err);
    if (st == SPOOR_OK && a->top_by)
        st = spoor_lc_spec_top_by(s, a->top_by, err);
    return st == SPOOR_OK ? spoor_lc_spec_finish(s, err) : st;
}

static int run(const char *const *paths, size_t n, const char *compare, const struct spoor_load_opts *opts,
               const struct spoor_lc_spec *s, enum spoor_output_format format, const char *output,
               struct spoor_error *err)
{
    struct spoor_lc_run r;
    int st = spoor_lc_run(s, paths, n, compare, opts, &r, err);
    load_args_report("lifecycle", &r.loaded);
    load_args_report("lifecycle", &r.other_loaded);
    if (st == SPOOR_OK)
        st = spoor_report_save(r.report, output, format, 1, err);
    spoor_lc_run_free(&r);
    return st;
}

int cmd_lifecycle(int argc, char **argv)
{
    struct spoor_load_opts opts;
    load_args_init(&opts);
    opts.read.ts_unit = SPOOR_UNIT_NS;
    opts.read.field_option[0] = "time"; /* the fields, in messages */
    opts.read.field_option[2] = "entity";
    opts.read.field_option[3] = "stage";
    const char *delay[SPOOR_LC_MAX_DELAYS], *fill[SPOOR_LC_MAX_FILLS], *by[SPOOR_LC_MAX_BY];
    struct spec_args a = {.delay = {delay, 0, SPOOR_LC_MAX_DELAYS},
                          .fill = {fill, 0, SPOOR_LC_MAX_FILLS},
                          .by = {by, 0, SPOOR_LC_MAX_BY}};
    struct spoor_lc_spec spec = {.top = 10};
    const char *output = NULL, *compare = NULL;
    struct cli_format format = {"lifecycle", spoor_chart_formats, 4, SPOOR_FORMAT_TABLE};
    const struct cli_option options[] = {
        CLI_OPT_STRING("preset", 0, &a.preset),
        CLI_OPT_STRING("entity", 0, &opts.read.field_name),
        CLI_OPT_STRING("stage", 0, &opts.read.field_cat),
        CLI_OPT_STRING("time", 0, &opts.read.field_ts),
        CLI_OPT_STRING("stages", 0, &a.stages),
        CLI_OPT_LIST("delay", 0, &a.delay),
        CLI_OPT_LIST("by", 0, &a.by),
        CLI_OPT_LIST("fill", 0, &a.fill),
        CLI_OPT_STRING("fill-if", 0, &a.fill_if),
        CLI_OPT_COUNT("top", 0, &spec.top, 0, 10000, "expected a count from 0 to 10000"),
        CLI_OPT_STRING("top-by", 0, &a.top_by),
        CLI_OPT_STRING("compare", 0, &compare),
        CLI_OPT_FORMAT(&format),
        CLI_OPT_STRING("output", 'o', &output),
        CLI_OPT_UNIT("time-unit", 0, &opts.read.ts_unit),
        CLI_OPT_UNIT("ts-unit", 0, &opts.read.ts_unit), /* --time-unit's spelling before 0.1.0 */
        CLI_END,
    };
    int code = cli_parse("lifecycle", usage, options, &opts, LOAD_GROUP_BASE | LOAD_GROUP_CACHE | LOAD_GROUP_PROGRESS,
                         argc, argv);
    if (code >= 0)
        return code;
    if (optind >= argc)
        return cli_usage_error("lifecycle", "no log given");
    if (output_guard1("lifecycle", output, (const char *const *)argv + optind, (size_t)(argc - optind),
                      opts.cache_dir) ||
        output_guard1("lifecycle", output, &compare, compare != NULL, opts.cache_dir) ||
        !cli_output_fits("lifecycle", format.value, output))
        return 2;
    struct spoor_error err;
    if (build_spec(&a, &spec, &err) != SPOOR_OK) {
        fprintf(stderr, "spoor lifecycle: %s\n", err.msg);
        spoor_lc_spec_free(&spec);
        return 2;
    }
    if (a.preset) {
        opts.read.field_name = opts.read.field_name ? opts.read.field_name : spec.entity_field;
        opts.read.field_cat = opts.read.field_cat ? opts.read.field_cat : "action";
        opts.read.field_ts = opts.read.field_ts ? opts.read.field_ts : "at";
    }
    if (!opts.read.field_name || !opts.read.field_cat || !opts.read.field_ts) {
        spoor_lc_spec_free(&spec);
        return cli_usage_error("lifecycle", "--entity, --stage and --time name the log's fields (or use --preset)");
    }
    int st = run((const char *const *)argv + optind, (size_t)(argc - optind), compare, &opts, &spec, format.value, output,
                 &err);
    if (st != SPOOR_OK)
        fprintf(stderr, "spoor lifecycle: %s\n", err.msg);
    spoor_lc_spec_free(&spec);
    return cli_exit_code(st);
}
