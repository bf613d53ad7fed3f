/* spoor --help: readahead set from the I/O pattern a model sees, live (tracefs) or replayed */
/* spoor tune: the user-space readahead tuner. Block requests of one device,
 * read live from tracefs, or of a recorded trace replayed, are cut into the
 * windows of `spoor windows --by dev`, classified by a model from spoor
 * train, and the readahead policy the kernel module shares decides, window
 * by window, what read_ahead_kb to set (spoor/tune.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_getopt.h"
#include "cli_number.h"
#include "load_args.h"
#include "output_guard.h"
#include "spoor/report.h"
#include "spoor/tune.h"
#include "tune_live.h"

static const char usage[] =
    "usage: spoor tune --model MODEL.json --device DEV [options]       (live, root)\n"
    "       spoor tune --model MODEL.json --replay TRACE [options]     (what it would have done)\n"
    "\n"
    "Sets a block device's readahead from the I/O pattern a model sees, without the\n"
    "kernel module. The device's block requests (tracefs block_rq_issue, _complete,\n"
    "_requeue; or a recorded blkparse, ftrace or lttng trace) are cut into the\n"
    "windows of spoor windows --by dev; each window is classified by MODEL (spoor\n"
    "train on spoor windows' columns, with --actions readahead_kb:CLASS=KB,...), and\n"
    "the policy the module uses too decides: a window of fewer than --min-requests\n"
    "reads is idle (no change, no streak broken); a class must win --hysteresis\n"
    "windows in a row before its readahead_kb, bounded by --min-kb and --max-kb, is\n"
    "set. One row per window: window, start, dev, class, reads, decision (idle,\n"
    "wait, keep, set) and the readahead_kb in force after it.\n"
    "\n"
    "Live, it needs root: it makes a tracefs instance of its own under\n"
    "/sys/kernel/tracing (removed at the end, on SIGINT, SIGTERM and SIGHUP too) and\n"
    "writes /sys/block/DEV/queue/read_ahead_kb; on exit it puts back the readahead\n"
    "the device had, if it still holds the value tune last set (unless --keep).\n"
    "\n"
    "options:\n"
    "  --model FILE         the model (spoor train -o FILE)\n"
    "  --device DEV         the disk: a name (vda, sda, nvme0n1) or MAJ:MIN; a\n"
    "                       partition means its disk. Live: required; replay: only\n"
    "                       this device's rows (MAJ:MIN, or a name on this machine)\n"
    "  --every DUR          the window width (2.5s)\n"
    "  --hysteresis N       windows in a row before a change (2)\n"
    "  --min-kb N           the least readahead set, KiB (16)\n"
    "  --max-kb N           the most readahead set, KiB (4096)\n"
    "  --min-requests N     reads a window needs to count (16)\n"
    "  --dry-run            print the decisions, set nothing\n"
    "  --replay TRACE       replay a recorded trace (never sets anything)\n"
    "  --initial-kb N       the readahead assumed at the replay's start (128)\n"
    "  --duration DUR       live: stop after DUR (default: at SIGINT or SIGTERM)\n"
    "  --keep               live: leave the last readahead set in force on exit\n"
    "  --format F           table (default), csv or jsonl\n"
    "  -o FILE              write to FILE (replay: complete or not at all)\n"
    "  -h, --help           this help\n"
    LOAD_HELP_HEAD LOAD_HELP_THREADS LOAD_HELP_BASE LOAD_HELP_PROGRESS;

static const enum spoor_output_format formats[] = {SPOOR_FORMAT_TABLE, SPOOR_FORMAT_CSV, SPOOR_FORMAT_JSONL};
enum { NCOLS = 7 };
static const char *const headers[NCOLS] = {"window", "start", "dev", "class", "reads", "decision", "readahead_kb"};

/* The rows: held in a report for a replay, written as each window closes
 * live (CSV and JSON lines as the report writes them, a table aligned on its
 * first rows). */
struct rows_out {
    enum spoor_output_format format;
    struct spoor_report *report;
    struct spoor_sheet *sheet;
    FILE *live;                         /* live: where rows go, flushed each */
    struct spoor_text_table *table;
    size_t nrows;
};

static struct spoor_sheet *rows_sheet(struct spoor_report *r)
{
    struct spoor_sheet *sh = spoor_report_rows(r, "tune", NCOLS, SPOOR_FORMATS_ALL);
    const enum spoor_cell_unit units[NCOLS] = {SPOOR_CU_NONE, SPOOR_CU_NONE, SPOOR_CU_NONE, SPOOR_CU_NONE,
                                               SPOOR_CU_COUNT, SPOOR_CU_NONE, SPOOR_CU_NONE};
    const enum spoor_col_hint hints[NCOLS] = {SPOOR_HINT_NONE,     SPOOR_HINT_TIME,   SPOOR_HINT_CATEGORY,
                                              SPOOR_HINT_CATEGORY, SPOOR_HINT_SERIES, SPOOR_HINT_CATEGORY,
                                              SPOOR_HINT_SERIES};
    for (size_t c = 0; c < NCOLS; c++)
        spoor_sheet_column(sh, c, headers[c], units[c], 0, hints[c]);
    return sh;
}

static void sheet_row(struct spoor_sheet *sh, const struct spoor_tune_row *r)
{
    spoor_sheet_int(sh, (int64_t)r->window);
    spoor_sheet_int(sh, r->start_ns);
    spoor_sheet_name(sh, r->dev);
    spoor_sheet_name(sh, r->class_name);
    spoor_sheet_count(sh, r->reads);
    spoor_sheet_name(sh, r->decision);
    spoor_sheet_int(sh, r->readahead_kb);
}

/* A live row: a one-row report, its CSV header written once. */
static int live_row(struct rows_out *o, const struct spoor_tune_row *r)
{
    if (o->format == SPOOR_FORMAT_TABLE) {
        char start[24];
        snprintf(start, sizeof start, "%lld", (long long)r->start_ns);
        spoor_text_table_u64(o->table, r->window);
        spoor_text_table_text(o->table, start);
        spoor_text_table_text(o->table, r->dev);
        spoor_text_table_text(o->table, r->class_name);
        spoor_text_table_u64(o->table, r->reads);
        spoor_text_table_text(o->table, r->decision);
        spoor_text_table_u64(o->table, r->readahead_kb);
        if (o->nrows++ == 0)
            spoor_text_table_print_head(o->table, o->live);
        else
            spoor_text_table_flush(o->table, o->live);
    } else {
        struct spoor_report *one = spoor_report_new("spoor tune");
        sheet_row(rows_sheet(one), r);
        char *text = NULL;
        size_t len = 0;
        FILE *mem = open_memstream(&text, &len);
        struct spoor_error err;
        int st = mem ? spoor_report_write(mem, one, o->format, 1, &err) : SPOOR_EIO;
        if (mem)
            fclose(mem);
        spoor_report_free(one);
        const char *from = text;
        if (st == SPOOR_OK && o->format == SPOOR_FORMAT_CSV && o->nrows++ > 0)
            from = (from = strchr(text, '\n')) ? from + 1 : text + len;
        if (st == SPOOR_OK)
            fputs(from, o->live);
        free(text);
        if (st != SPOOR_OK)
            return 1;
    }
    return fflush(o->live) == 0 && !ferror(o->live) ? 0 : 1;
}

static int put_row(void *ctx, const struct spoor_tune_row *r)
{
    struct rows_out *o = ctx;
    if (o->live)
        return live_row(o, r);
    sheet_row(o->sheet, r);
    return 0;
}

struct tune_args {
    const char *model, *device, *replay, *output;
    int64_t every_ns, duration_ns;
    uint32_t hysteresis, min_kb, max_kb, initial_kb;
    uint64_t min_requests;
    bool dry_run, keep, initial_given;
};

static bool set_every(void *target, const char *arg) { return cli_duration("tune", "--every", arg, target); }
static bool set_duration(void *target, const char *arg) { return cli_duration("tune", "--duration", arg, target); }

/* The usage errors the option table cannot see; 0 when there is none. */
static int check_args(const struct tune_args *a, int argc, char **argv)
{
    if (optind < argc)
        return cli_usage_error("tune", "unexpected argument '%s'", argv[optind]);
    if (!a->model)
        return cli_usage_error("tune", "--model FILE is required");
    if (a->min_kb > a->max_kb)
        return cli_usage_error("tune", "--min-kb %u is above --max-kb %u", a->min_kb, a->max_kb);
    if (!a->replay && !a->device)
        return cli_usage_error("tune", "live tuning needs --device DEV (or --replay TRACE)");
    if (!a->replay && a->initial_given)
        return cli_usage_error("tune", "--initial-kb is for --replay (live, the device's readahead is read)");
    if (a->replay && (a->duration_ns || a->keep))
        return cli_usage_error("tune", "--duration and --keep are for live tuning, not --replay");
    return 0;
}

static int replay(struct spoor_tuner *t, const struct tune_args *a, const struct spoor_load_opts *load,
                  enum spoor_output_format format)
{
    char dev[32] = "";
    unsigned major, minor;
    char extra;
    if (a->device) {
        struct tune_device d;
        if (sscanf(a->device, "%u:%u%c", &major, &minor, &extra) == 2)
            snprintf(dev, sizeof dev, "%u,%u", major, minor);
        else if (tune_device_find(a->device, &d))
            snprintf(dev, sizeof dev, "%s", d.trace_name);
        else
            return 2;
    }
    struct rows_out o = {.format = format, .report = spoor_report_new("spoor tune")};
    o.sheet = rows_sheet(o.report);
    struct spoor_load_result res;
    struct spoor_error err;
    int st = spoor_tune_replay(t, a->replay, load, a->initial_kb, dev[0] ? dev : NULL, put_row, &o, &res, &err);
    load_args_report("tune", &res);
    if (st == SPOOR_OK)
        st = spoor_report_save(o.report, a->output, format, spoor_load_threads(load), &err);
    if (st != SPOOR_OK)
        fprintf(stderr, "spoor tune: %s\n", err.msg);
    spoor_report_free(o.report);
    spoor_load_result_free(&res);
    return cli_exit_code(st);
}

static int live(struct spoor_tuner *t, const struct tune_args *a, enum spoor_output_format format)
{
    struct tune_device d;
    if (!tune_device_find(a->device, &d))
        return 2;
    struct rows_out o = {.format = format, .live = a->output && strcmp(a->output, "-") ? fopen(a->output, "w")
                                                                                          : stdout};
    if (!o.live) {
        fprintf(stderr, "spoor tune: cannot write %s\n", a->output);
        return 1;
    }
    bool right[NCOLS] = {true, true, false, false, true, false, true};
    o.table = spoor_text_table_new(NCOLS, headers, right);
    struct tune_live_opts lo = {.duration_ns = a->duration_ns, .dry_run = a->dry_run, .keep = a->keep,
                                .row = put_row, .ctx = &o};
    int code = tune_live_run(t, &d, &lo);
    spoor_text_table_free(o.table);
    if (o.live != stdout && fclose(o.live) != 0 && !code) {
        fprintf(stderr, "spoor tune: cannot write %s\n", a->output);
        code = 1;
    }
    return code;
}

int cmd_tune(int argc, char **argv)
{
    struct spoor_load_opts load;
    load_args_init(&load);
    load.no_cache = true; /* one streaming pass, as spoor windows */
    struct tune_args a = {.every_ns = 2500000000LL, .hysteresis = 2, .min_kb = 16, .max_kb = 4096,
                          .initial_kb = 128, .min_requests = 16};
    struct cli_format format = {"tune", formats, 3, SPOOR_FORMAT_TABLE};
    uint64_t initial = UINT64_MAX; /* not given */
    const struct cli_option options[] = {
        CLI_OPT_STRING("model", 0, &a.model),
        CLI_OPT_STRING("device", 0, &a.device),
        CLI_OPT_CALL("every", 0, &a.every_ns, set_every, NULL),
        CLI_OPT_COUNT("hysteresis", 0, &a.hysteresis, 1, 1000000, "expected a whole number from 1"),
        CLI_OPT_COUNT("min-kb", 0, &a.min_kb, 0, UINT32_MAX, "expected KiB, a whole number"),
        CLI_OPT_COUNT("max-kb", 0, &a.max_kb, 0, UINT32_MAX, "expected KiB, a whole number"),
        CLI_OPT_COUNT("min-requests", 0, &a.min_requests, 0, 1e15, "expected a whole number"),
        CLI_OPT_FLAG("dry-run", 0, &a.dry_run),
        CLI_OPT_STRING("replay", 0, &a.replay),
        CLI_OPT_COUNT("initial-kb", 0, &initial, 0, UINT32_MAX, "expected KiB, a whole number"),
        CLI_OPT_CALL("duration", 0, &a.duration_ns, set_duration, NULL),
        CLI_OPT_FLAG("keep", 0, &a.keep),
        CLI_OPT_FORMAT(&format),
        CLI_OPT_STRING("output", 'o', &a.output),
        CLI_END,
    };
    int code = cli_parse("tune", usage, options, &load, LOAD_GROUP_BASE | LOAD_GROUP_PROGRESS, argc, argv);
    if (code >= 0)
        return code;
    if (initial != UINT64_MAX) {
        a.initial_kb = (uint32_t)initial;
        a.initial_given = true;
    }
    if ((code = check_args(&a, argc, argv)) != 0)
        return code;
    if (a.replay && (output_guard1("tune", a.output, &a.replay, 1, load.cache_dir) ||
                     !cli_output_fits("tune", format.value, a.output)))
        return 2;

    struct spoor_model *m = NULL;
    struct spoor_error err;
    struct spoor_tuner *t = NULL;
    struct spoor_tune_opts to = {.every_ns = a.every_ns, .hysteresis = a.hysteresis, .min_kb = a.min_kb,
                                 .max_kb = a.max_kb, .min_requests = a.min_requests};
    int st = spoor_model_load(a.model, &m, &err);
    if (st == SPOOR_OK)
        st = spoor_tuner_new(m, a.model, &to, &t, &err);
    if (st != SPOOR_OK) {
        fprintf(stderr, "spoor tune: %s\n", err.msg);
        spoor_model_free(m);
        return cli_exit_code(st);
    }
    code = a.replay ? replay(t, &a, &load, format.value) : live(t, &a, format.value);
    spoor_tuner_free(t);
    spoor_model_free(m);
    return code;
}
