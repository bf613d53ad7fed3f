/* spoor --help: the time-period summary and layer breakdown of a trace */
/* spoor summary: the time-period summary and layer breakdown of a trace. */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_getopt.h"
#include "load_args.h"
#include "output_guard.h"
#include "where_sink.h"
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

#define TABLE_ONLY SPOOR_FORMAT_BIT(SPOOR_FORMAT_TABLE)
#define JSON_ONLY SPOOR_FORMAT_BIT(SPOOR_FORMAT_JSON)
#define CSV_ONLY SPOOR_FORMAT_BIT(SPOOR_FORMAT_CSV)

/* Per second of a time in ns; 0 when the time is 0. */
static double per_s(double amount, int64_t ns) { return ns > 0 ? amount * 1e9 / (double)ns : 0; }
static double mib(double bytes) { return bytes / (1024.0 * 1024.0); }

static void prop_count(struct spoor_sheet *p, const char *key, uint64_t n)
{
    spoor_sheet_prop(p, key, SPOOR_CU_COUNT, 0);
    spoor_sheet_count(p, n);
}

static void prop_ns(struct spoor_sheet *p, const char *key, int64_t ns)
{
    spoor_sheet_prop(p, key, SPOOR_CU_NS, 0);
    spoor_sheet_int(p, ns);
}

static void prop_text(struct spoor_sheet *p, const char *key, const char *text)
{
    spoor_sheet_prop(p, key, SPOOR_CU_NONE, 0);
    if (text)
        spoor_sheet_text(p, text);
    else
        spoor_sheet_null(p);
}

/* A float of `digits` in JSON, or null when it is a ratio of nothing (known false). */
static void float_or_null(struct spoor_sheet *sh, double v, bool known)
{
    if (known)
        spoor_sheet_float(sh, v);
    else
        spoor_sheet_null(sh);
}

/* Self time, or null when every part of time came from counters (which
 * have no nesting, so no self time). */
static void self_cell(struct spoor_sheet *sh, int64_t self, int64_t time, int64_t counter_time)
{
    if (!self && time && counter_time == time)
        spoor_sheet_null(sh);
    else
        spoor_sheet_int(sh, self);
}

/* The lines a table starts with. */
static void header_lines(struct spoor_report *r, const struct spoor_summary *s, const char *compute, const char *where)
{
    const struct spoor_stats *p = &s->period;
    struct spoor_sheet *h = spoor_report_props(r, NULL, TABLE_ONLY);
    char a[64], b[64];
    if (where) {
        prop_text(h, "where", where);
        spoor_sheet_note(h, "only matching events are summarised");
    }
    prop_count(h, "events", p->events);
    spoor_sheet_note(h, "+ %s metadata", spoor_fmt_count(a, sizeof a, p->metadata_events));
    if (p->first_ts != SPOOR_NULL) {
        prop_ns(h, "job time", p->last_end - p->first_ts);
        spoor_sheet_note(h, "first ts %" PRId64 " ns, last end %" PRId64 " ns", p->first_ts, p->last_end);
    }
    spoor_sheet_prop(h, "seen", SPOOR_CU_NONE, 0);
    spoor_sheet_textf(h, "%" PRIu64 " processes, %" PRIu64 " threads, %" PRIu64 " files, %" PRIu64 " hosts",
                      p->processes, p->threads, p->files, p->hosts);
    if (s->compute_events) {
        prop_ns(h, "compute", s->compute_time);
        spoor_sheet_note(h, "%s", compute);
    } else {
        prop_text(h, "compute", NULL);
        if (s->compute_like)
            spoor_sheet_note(h, "no events of %s; these look like compute: %s; see --compute-cats", compute,
                             s->compute_like);
        else
            spoor_sheet_note(h, "no events of %s", compute);
    }
    if (s->slowest_pid == SPOOR_NULL)
        return;
    spoor_sheet_prop(h, "imbalance", SPOOR_CU_RATIO, 2);
    if (s->io_time_mean <= 0) {
        spoor_sheet_null(h);
        spoor_sheet_note(h, "max/mean I/O time per process over %" PRIu64 " processes: no I/O time", s->io_processes);
        return;
    }
    spoor_sheet_float(h, s->imbalance);
    spoor_sheet_note(h, "max/mean I/O time per process over %" PRIu64 " processes: max %s in pid %" PRId64 ", mean %s",
                     s->io_processes, spoor_fmt_duration(a, sizeof a, (double)s->io_time_max), s->slowest_pid,
                     spoor_fmt_duration(b, sizeof b, s->io_time_mean));
}

/* The same as JSON members. */
static void header_members(struct spoor_report *r, const struct spoor_summary *s, const char *compute,
                           const char *where)
{
    const struct spoor_stats *p = &s->period;
    struct spoor_sheet *h = spoor_report_props(r, NULL, JSON_ONLY);
    if (where)
        prop_text(h, "where", where);
    prop_count(h, "events", p->events);
    prop_count(h, "metadata_events", p->metadata_events);
    if (p->first_ts != SPOOR_NULL) {
        prop_ns(h, "first_ts", p->first_ts);
        prop_ns(h, "last_end", p->last_end);
        prop_ns(h, "job_time", p->last_end - p->first_ts);
    }
    prop_count(h, "processes", p->processes);
    prop_count(h, "threads", p->threads);
    prop_count(h, "files", p->files);
    prop_count(h, "hosts", p->hosts);
    prop_text(h, "compute_cats", compute);
    prop_ns(h, "compute_time", s->compute_time);
    prop_count(h, "compute_events", s->compute_events);
    prop_text(h, "compute_like", s->compute_like);
}

static void layers_table(struct spoor_report *r, const struct spoor_summary *s)
{
    static const struct spoor_sheet_col cols[] = {
        {"layer", SPOOR_CU_NONE, 0, 0},  {"count", SPOOR_CU_COUNT, 0, 0},      {"time", SPOOR_CU_NS, 0, 0},
        {"self", SPOOR_CU_NS, 0, 0},     {"ops/s", SPOOR_CU_PER_S, 0, 0},      {"bytes", SPOOR_CU_BYTES, 0, 0},
        {"MiB/s", SPOOR_CU_MIB_PER_S, 1, 0}, {"parent", SPOOR_CU_NONE, 0, 0}, {"share", SPOOR_CU_SHARE, 1, 0},
        {"not compute", SPOOR_CU_NS, 0, 0}};
    struct spoor_sheet *t = spoor_report_table(r, "layers", TABLE_ONLY, cols, 10);
    for (size_t i = 0; i < s->nlayers; i++) {
        const struct spoor_summary_layer *l = &s->layers[i];
        spoor_sheet_name(t, l->cat);
        spoor_sheet_count(t, l->count);
        spoor_sheet_int(t, l->time);
        self_cell(t, l->self, l->time, l->counter_time);
        /* Rates need time; a ratio of nothing to nothing is "-". */
        float_or_null(t, per_s((double)l->count, l->time), l->time);
        if (l->sized)
            spoor_sheet_int(t, l->bytes);
        else
            spoor_sheet_null(t);
        float_or_null(t, mib(per_s((double)l->bytes, l->time)), l->sized && l->time);
        if (l->parent)
            spoor_sheet_name(t, l->parent);
        else
            spoor_sheet_null(t);
        float_or_null(t, l->parent_share, l->parent);
        spoor_sheet_int(t, l->not_compute);
    }
}

static void layers_json(struct spoor_report *r, const struct spoor_summary *s)
{
    static const struct spoor_sheet_col cols[] = {
        {"cat", SPOOR_CU_NONE, 0, 0},          {"count", SPOOR_CU_COUNT, 0, 0},       {"sized", SPOOR_CU_COUNT, 0, 0},
        {"time", SPOOR_CU_NS, 0, 0},           {"self", SPOOR_CU_NS, 0, 0},           {"dur_sum", SPOOR_CU_NS, 0, 0},
        {"counter_time", SPOOR_CU_NS, 0, 0},   {"bytes", SPOOR_CU_BYTES, 0, 0},       {"ops_per_s", SPOOR_CU_PER_S, 3, 0},
        {"mib_per_s", SPOOR_CU_MIB_PER_S, 3, 0}, {"not_compute", SPOOR_CU_NS, 0, 0}, {"parent", SPOOR_CU_NONE, 0, 0},
        {"parent_share", SPOOR_CU_SHARE, 6, 0}};
    struct spoor_sheet *t = spoor_report_table(r, "layers", JSON_ONLY, cols, 13);
    for (size_t i = 0; i < s->nlayers; i++) {
        const struct spoor_summary_layer *l = &s->layers[i];
        spoor_sheet_name(t, l->cat);
        spoor_sheet_count(t, l->count);
        spoor_sheet_count(t, l->sized);
        spoor_sheet_int(t, l->time);
        spoor_sheet_int(t, l->self);
        spoor_sheet_int(t, l->dur_sum);
        spoor_sheet_int(t, l->counter_time);
        spoor_sheet_int(t, l->bytes);
        /* As in the table, a rate without time or bytes is null. */
        float_or_null(t, per_s((double)l->count, l->time), l->time);
        float_or_null(t, mib(per_s((double)l->bytes, l->time)), l->time && l->sized);
        spoor_sheet_int(t, l->not_compute);
        if (l->parent)
            spoor_sheet_name(t, l->parent);
        else
            spoor_sheet_null(t);
        float_or_null(t, l->parent_share, l->parent);
    }
}

/* The top files or functions: a table's (self "-" when from counters) or JSON's. */
static void top_sheet(struct spoor_report *r, const char *key, const char *what, bool table,
                      const struct spoor_summary_top *e, size_t n)
{
    const struct spoor_sheet_col cols[] = {{table ? what : "label", SPOOR_CU_NONE, 0, 0}, {"count", SPOOR_CU_COUNT, 0, 0},
                                  {"time", SPOOR_CU_NS, 0, 0}, {"self", SPOOR_CU_NS, 0, 0}, {"bytes", SPOOR_CU_BYTES, 0, 0}};
    struct spoor_sheet *t = spoor_report_table(r, key, table ? TABLE_ONLY : JSON_ONLY, cols, 5);
    for (size_t i = 0; i < n; i++) {
        spoor_sheet_name(t, e[i].label);
        spoor_sheet_count(t, e[i].count);
        spoor_sheet_int(t, e[i].time);
        if (table)
            self_cell(t, e[i].self, e[i].time, e[i].counter_time);
        else
            spoor_sheet_int(t, e[i].self);
        spoor_sheet_int(t, e[i].bytes);
    }
}

static void bins_sheet(struct spoor_report *r, const struct spoor_summary *s, bool table)
{
    const struct spoor_sheet_col cols[] = {
        {table ? "access size" : "bin", SPOOR_CU_NONE, 0, 0}, {"count", SPOOR_CU_COUNT, 0, 0}, {"bytes", SPOOR_CU_BYTES, 0, 0}};
    struct spoor_sheet *t = spoor_report_table(r, "access_sizes", table ? TABLE_ONLY : JSON_ONLY, cols, 3);
    for (int b = 0; b < SPOOR_SUMMARY_BINS; b++) {
        spoor_sheet_name(t, spoor_summary_bin_name[b]);
        spoor_sheet_count(t, s->bin_count[b]);
        spoor_sheet_int(t, s->bin_bytes[b]);
    }
}

static void imbalance_json(struct spoor_report *r, const struct spoor_summary *s)
{
    struct spoor_sheet *p = spoor_report_props(r, "imbalance", JSON_ONLY);
    prop_count(p, "processes", s->io_processes);
    prop_ns(p, "max", s->io_time_max);
    spoor_sheet_prop(p, "mean", SPOOR_CU_NS, 3);
    spoor_sheet_float(p, s->io_time_mean);
    spoor_sheet_prop(p, "max_over_mean", SPOOR_CU_RATIO, 6);
    float_or_null(p, s->imbalance, s->io_time_mean > 0);
    spoor_sheet_prop(p, "slowest_pid", SPOOR_CU_NONE, 0);
    if (s->slowest_pid != SPOOR_NULL)
        spoor_sheet_int(p, s->slowest_pid);
    else
        spoor_sheet_null(p);
}

/* CSV: one row per layer, top entry and bin; empty cells where a column does not apply. */
static void csv_sheet(struct spoor_report *r, const struct spoor_summary *s)
{
    static const struct spoor_sheet_col cols[] = {
        {"section", SPOOR_CU_NONE, 0, 0}, {"label", SPOOR_CU_NONE, 0, 0},  {"count", SPOOR_CU_COUNT, 0, 0},
        {"time_ns", SPOOR_CU_NS, 0, 0},   {"self_ns", SPOOR_CU_NS, 0, 0},  {"bytes", SPOOR_CU_BYTES, 0, 0},
        {"parent", SPOOR_CU_NONE, 0, 0},  {"parent_share", SPOOR_CU_SHARE, 6, 0}, {"not_compute_ns", SPOOR_CU_NS, 0, 0}};
    struct spoor_sheet *t = spoor_report_table(r, "summary", CSV_ONLY, cols, 9);
    for (size_t i = 0; i < s->nlayers; i++) {
        const struct spoor_summary_layer *l = &s->layers[i];
        spoor_sheet_name(t, "layer");
        spoor_sheet_name(t, l->cat);
        spoor_sheet_count(t, l->count);
        spoor_sheet_int(t, l->time);
        spoor_sheet_int(t, l->self);
        spoor_sheet_int(t, l->bytes);
        if (l->parent)
            spoor_sheet_name(t, l->parent);
        else
            spoor_sheet_null(t);
        float_or_null(t, l->parent_share, l->parent); /* no parent: no share */
        spoor_sheet_int(t, l->not_compute);
    }
    const struct {
        const char *section;
        const struct spoor_summary_top *e;
        size_t n;
    } tops[] = {{"file", s->files, s->nfiles}, {"function", s->functions, s->nfunctions}};
    for (size_t k = 0; k < 2; k++)
        for (size_t i = 0; i < tops[k].n; i++) {
            const struct spoor_summary_top *e = &tops[k].e[i];
            spoor_sheet_name(t, tops[k].section);
            spoor_sheet_name(t, e->label);
            spoor_sheet_count(t, e->count);
            spoor_sheet_int(t, e->time);
            spoor_sheet_int(t, e->self);
            spoor_sheet_int(t, e->bytes);
            for (int c = 0; c < 3; c++)
                spoor_sheet_null(t);
        }
    for (int b = 0; b < SPOOR_SUMMARY_BINS; b++) {
        spoor_sheet_name(t, "access_size");
        spoor_sheet_name(t, spoor_summary_bin_name[b]);
        spoor_sheet_count(t, s->bin_count[b]);
        spoor_sheet_null(t);
        spoor_sheet_null(t);
        spoor_sheet_int(t, s->bin_bytes[b]);
        for (int c = 0; c < 3; c++)
            spoor_sheet_null(t);
    }
}

static struct spoor_report *summary_report(const struct spoor_summary *s, const char *compute, const char *where)
{
    struct spoor_report *r = spoor_report_new("spoor summary");
    header_lines(r, s, compute, where);
    header_members(r, s, compute, where);
    layers_table(r, s);
    layers_json(r, s);
    for (int table = 1; table >= 0; table--) {
        top_sheet(r, "top_files", "top files", table, s->files, s->nfiles);
        top_sheet(r, "top_functions", "top functions", table, s->functions, s->nfunctions);
        bins_sheet(r, s, table);
    }
    imbalance_json(r, s);
    csv_sheet(r, s);
    return r;
}

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
    sopts.inputs = npaths;
    struct where_sink filter;
    if (!where_sink_compile("summary", where, &filter))
        return 2;
    where_sink_keys(&filter, &opts);
    struct spoor_summary_run *run = spoor_summary_begin(&sopts, spoor_load_threads(&opts));
    struct spoor_sink inner = spoor_summary_sink(run);
    struct spoor_sink sink = where_sink_wrap(&filter, &inner);
    struct spoor_load_result res = {0};
    struct spoor_error err = {0};
    int st = spoor_load(paths, npaths, &opts, &sink, &res, &err);
    size_t stream = 0;
    while (stream < npaths && !spoor_input_is_stream(paths[stream]))
        stream++;
    bool again = st == SPOOR_OK && spoor_summary_again(run);
    if (again && stream < npaths) {
        st = spoor_fail(&err, SPOOR_EUSAGE,
                        "%s: rows came further out of time order than one pass holds, and a stream "
                        "cannot be read again; save it to a file and give that",
                        paths[stream]);
    } else if (again) {
        /* Rows too far out of start order: once more per thread, with the
         * threads that overflowed held whole (which cannot overflow, so no
         * third pass). */
        fprintf(stderr, "spoor summary: note: rows came further out of time order than one pass holds; "
                        "reading the input again, per thread\n");
        spoor_load_result_free(&res);
        st = spoor_load(paths, npaths, &opts, &sink, &res, &err);
        spoor_summary_again(run);
    }
    load_args_report("summary", &res);
    if (st == SPOOR_OK)
        where_sink_report("summary", &filter);
    struct spoor_summary sum;
    spoor_summary_end(run, &sum);
    if (st == SPOOR_OK) {
        struct spoor_report *report = summary_report(&sum, sopts.compute, where);
        st = spoor_report_save(report, output, format.value, 1, &err);
        spoor_report_free(report);
    }
    if (st != SPOOR_OK)
        fprintf(stderr, "spoor summary: %s\n", err.msg);
    spoor_summary_free(&sum);
    spoor_load_result_free(&res);
    where_sink_free(&filter);
    return cli_exit_code(st);
}
