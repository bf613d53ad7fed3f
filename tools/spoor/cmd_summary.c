/* spoor --help: the time-period summary and layer breakdown of a trace */
/* spoor summary: the time-period summary and layer breakdown of a trace. */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_number.h"
#include "cli_getopt.h"
#include "load_args.h"
#include "output_guard.h"
#include "where_sink.h"
#include "spoor/atomic_file.h"
#include "spoor/io.h"
#include "spoor/json_out.h"
#include "spoor/summary.h"
#include "spoor/text_table.h"

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

enum format { FMT_TABLE, FMT_JSON, FMT_CSV };

/* Per second of a time in ns; 0 when the time is 0. */
static double per_s(double amount, int64_t ns) { return ns > 0 ? amount * 1e9 / (double)ns : 0; }
static double mib(double bytes) { return bytes / (1024.0 * 1024.0); }

/* Self time, or "-" when every part of time came from counters (which have
 * no nesting, so no self time). */
static const char *self_text(char *a, size_t n, int64_t self, int64_t time, int64_t counter_time)
{
    if (!self && time && counter_time == time)
        return "-";
    return spoor_fmt_duration(a, n, (double)self);
}

static void table_layers(FILE *out, const struct spoor_summary *s)
{
    const char *h[] = {"layer", "count", "time", "self", "ops/s", "bytes", "MiB/s", "parent", "share", "not compute"};
    const bool r[] = {false, true, true, true, true, true, true, false, true, true};
    struct spoor_text_table *t = spoor_text_table_new(10, h, r);
    char a[64];
    for (size_t i = 0; i < s->nlayers; i++) {
        const struct spoor_summary_layer *l = &s->layers[i];
        spoor_text_table_cell(t, "%s", l->cat[0] ? l->cat : "(none)");
        spoor_text_table_cell(t, "%s", spoor_fmt_count(a, sizeof a, l->count));
        spoor_text_table_cell(t, "%s", spoor_fmt_duration(a, sizeof a, (double)l->time));
        spoor_text_table_cell(t, "%s", self_text(a, sizeof a, l->self, l->time, l->counter_time));
        /* Rates need time; a ratio of nothing to nothing is "-". */
        if (l->time)
            spoor_text_table_cell(t, "%.0f", per_s((double)l->count, l->time));
        else
            spoor_text_table_cell(t, "-");
        spoor_text_table_cell(t, "%s", l->sized ? spoor_fmt_count(a, sizeof a, (unsigned long long)l->bytes) : "-");
        if (l->sized && l->time)
            spoor_text_table_cell(t, "%.1f", mib(per_s((double)l->bytes, l->time)));
        else
            spoor_text_table_cell(t, "-");
        spoor_text_table_cell(t, "%s", l->parent ? (l->parent[0] ? l->parent : "(none)") : "-");
        if (l->parent)
            spoor_text_table_cell(t, "%.1f%%", 100 * l->parent_share);
        else
            spoor_text_table_cell(t, "-");
        spoor_text_table_cell(t, "%s", spoor_fmt_duration(a, sizeof a, (double)l->not_compute));
    }
    spoor_text_table_print(t, out);
    spoor_text_table_free(t);
}

static void table_top(FILE *out, const char *what, const struct spoor_summary_top *e, size_t n)
{
    const char *h[] = {what, "count", "time", "self", "bytes"};
    const bool r[] = {false, true, true, true, true};
    struct spoor_text_table *t = spoor_text_table_new(5, h, r);
    char a[64];
    for (size_t i = 0; i < n; i++) {
        spoor_text_table_cell(t, "%s", e[i].label);
        spoor_text_table_cell(t, "%s", spoor_fmt_count(a, sizeof a, e[i].count));
        spoor_text_table_cell(t, "%s", spoor_fmt_duration(a, sizeof a, (double)e[i].time));
        spoor_text_table_cell(t, "%s", self_text(a, sizeof a, e[i].self, e[i].time, e[i].counter_time));
        spoor_text_table_cell(t, "%s", spoor_fmt_count(a, sizeof a, (unsigned long long)e[i].bytes));
    }
    spoor_text_table_print(t, out);
    spoor_text_table_free(t);
}

static void table_bins(FILE *out, const struct spoor_summary *s)
{
    const char *h[] = {"access size", "count", "bytes"};
    const bool r[] = {false, true, true};
    struct spoor_text_table *t = spoor_text_table_new(3, h, r);
    char a[64];
    for (int b = 0; b < SPOOR_SUMMARY_BINS; b++) {
        spoor_text_table_cell(t, "%s", spoor_summary_bin_name[b]);
        spoor_text_table_cell(t, "%s", spoor_fmt_count(a, sizeof a, s->bin_count[b]));
        spoor_text_table_cell(t, "%s", spoor_fmt_count(a, sizeof a, (unsigned long long)s->bin_bytes[b]));
    }
    spoor_text_table_print(t, out);
    spoor_text_table_free(t);
}

static void print_table(FILE *out, const struct spoor_summary *s, const char *compute, const char *where)
{
    const struct spoor_stats *p = &s->period;
    char a[64], b[64];
    if (where)
        fprintf(out, "where       %s (only matching events are summarised)\n", where);
    fprintf(out, "events      %s (+ %s metadata)\n", spoor_fmt_count(a, sizeof a, p->events),
            spoor_fmt_count(b, sizeof b, p->metadata_events));
    if (p->first_ts != SPOOR_NULL)
        fprintf(out, "job time    %s (first ts %" PRId64 " ns, last end %" PRId64 " ns)\n",
                spoor_fmt_duration(a, sizeof a, (double)(p->last_end - p->first_ts)), p->first_ts, p->last_end);
    fprintf(out, "seen        %" PRIu64 " processes, %" PRIu64 " threads, %" PRIu64 " files, %" PRIu64 " hosts\n",
            p->processes, p->threads, p->files, p->hosts);
    if (s->compute_events)
        fprintf(out, "compute     %s (%s)\n", spoor_fmt_duration(a, sizeof a, (double)s->compute_time), compute);
    else if (s->compute_like)
        fprintf(out, "compute     - (no events of %s; these look like compute: %s; see --compute-cats)\n", compute,
                s->compute_like);
    else
        fprintf(out, "compute     - (no events of %s)\n", compute);
    if (s->slowest_pid != SPOOR_NULL && s->io_time_mean <= 0)
        fprintf(out, "imbalance   - (max/mean I/O time per process over %" PRIu64 " processes: no I/O time)\n",
                s->io_processes);
    else if (s->slowest_pid != SPOOR_NULL)
        fprintf(out, "imbalance   %.2f (max/mean I/O time per process over %" PRIu64 " processes: max %s in pid %" PRId64
                     ", mean %s)\n",
                s->imbalance, s->io_processes, spoor_fmt_duration(a, sizeof a, (double)s->io_time_max),
                s->slowest_pid, spoor_fmt_duration(b, sizeof b, s->io_time_mean));
    fputc('\n', out);
    table_layers(out, s);
    fputc('\n', out);
    table_top(out, "top files", s->files, s->nfiles);
    fputc('\n', out);
    table_top(out, "top functions", s->functions, s->nfunctions);
    fputc('\n', out);
    table_bins(out, s);
}

static void json_str(FILE *out, const char *s) { spoor_json_write_string(out, s, strlen(s)); }

/* A ratio, or null when it is 0/0 (known false). */
static void json_ratio(FILE *out, const char *fmt, double v, bool known)
{
    if (known)
        fprintf(out, fmt, v);
    else
        fputs("null", out);
}

static void json_top(FILE *out, const char *key, const struct spoor_summary_top *e, size_t n)
{
    fprintf(out, ",\n  \"%s\": [", key);
    for (size_t i = 0; i < n; i++) {
        fprintf(out, "%s\n    {\"label\": ", i ? "," : "");
        json_str(out, e[i].label);
        fprintf(out, ", \"count\": %" PRIu64 ", \"time\": %" PRId64 ", \"self\": %" PRId64 ", \"bytes\": %" PRId64 "}",
                e[i].count, e[i].time, e[i].self, e[i].bytes);
    }
    fprintf(out, "\n  ]");
}

static void print_json(FILE *out, const struct spoor_summary *s, const char *compute, const char *where)
{
    const struct spoor_stats *p = &s->period;
    fprintf(out, "{\n");
    if (where) {
        fprintf(out, "  \"where\": ");
        json_str(out, where);
        fprintf(out, ",\n");
    }
    fprintf(out, "  \"events\": %" PRIu64 ",\n  \"metadata_events\": %" PRIu64 ",\n", p->events, p->metadata_events);
    if (p->first_ts != SPOOR_NULL)
        fprintf(out, "  \"first_ts\": %" PRId64 ",\n  \"last_end\": %" PRId64 ",\n  \"job_time\": %" PRId64 ",\n",
                p->first_ts, p->last_end, p->last_end - p->first_ts);
    fprintf(out, "  \"processes\": %" PRIu64 ",\n  \"threads\": %" PRIu64 ",\n  \"files\": %" PRIu64
                 ",\n  \"hosts\": %" PRIu64 ",\n  \"compute_cats\": ",
            p->processes, p->threads, p->files, p->hosts);
    json_str(out, compute);
    fprintf(out, ",\n  \"compute_time\": %" PRId64 ",\n  \"compute_events\": %" PRIu64 ",\n  \"compute_like\": ",
            s->compute_time, s->compute_events);
    if (s->compute_like)
        json_str(out, s->compute_like);
    else
        fputs("null", out);
    fprintf(out, ",\n  \"layers\": [");
    for (size_t i = 0; i < s->nlayers; i++) {
        const struct spoor_summary_layer *l = &s->layers[i];
        fprintf(out, "%s\n    {\"cat\": ", i ? "," : "");
        json_str(out, l->cat);
        fprintf(out, ", \"count\": %" PRIu64 ", \"sized\": %" PRIu64 ", \"time\": %" PRId64 ", \"self\": %" PRId64
                     ", \"dur_sum\": %" PRId64 ", \"counter_time\": %" PRId64 ", \"bytes\": %" PRId64
                     ", \"ops_per_s\": ",
                l->count, l->sized, l->time, l->self, l->dur_sum, l->counter_time, l->bytes);
        /* As in the table, a rate without time or bytes is null. */
        json_ratio(out, "%.3f", per_s((double)l->count, l->time), l->time);
        fputs(", \"mib_per_s\": ", out);
        json_ratio(out, "%.3f", mib(per_s((double)l->bytes, l->time)), l->time && l->sized);
        fprintf(out, ", \"not_compute\": %" PRId64 ", \"parent\": ", l->not_compute);
        if (l->parent)
            json_str(out, l->parent);
        else
            fputs("null", out);
        fputs(", \"parent_share\": ", out);
        json_ratio(out, "%.6f", l->parent_share, l->parent != NULL);
        fputc('}', out);
    }
    fprintf(out, "\n  ]");
    json_top(out, "top_files", s->files, s->nfiles);
    json_top(out, "top_functions", s->functions, s->nfunctions);
    fprintf(out, ",\n  \"access_sizes\": [");
    for (int b = 0; b < SPOOR_SUMMARY_BINS; b++)
        fprintf(out, "%s\n    {\"bin\": \"%s\", \"count\": %" PRIu64 ", \"bytes\": %" PRId64 "}", b ? "," : "",
                spoor_summary_bin_name[b], s->bin_count[b], s->bin_bytes[b]);
    fprintf(out, "\n  ],\n  \"imbalance\": {\"processes\": %" PRIu64 ", \"max\": %" PRId64 ", \"mean\": %.3f"
                 ", \"max_over_mean\": ",
            s->io_processes, s->io_time_max, s->io_time_mean);
    json_ratio(out, "%.6f", s->imbalance, s->io_time_mean > 0);
    fputs(", \"slowest_pid\": ", out);
    if (s->slowest_pid != SPOOR_NULL)
        fprintf(out, "%" PRId64 "}\n}\n", s->slowest_pid);
    else
        fputs("null}\n}\n", out);
}

/* A CSV text cell, always quoted. */
static void csv_text(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++)
        fputs(*s == '"' ? "\"\"" : (char[]){*s, 0}, out);
    fputc('"', out);
}

/* One CSV row per layer, top entry and bin; empty cells where a column does not apply. */
static void print_csv(FILE *out, const struct spoor_summary *s)
{
    fputs("section,label,count,time_ns,self_ns,bytes,parent,parent_share,not_compute_ns\n", out);
    for (size_t i = 0; i < s->nlayers; i++) {
        const struct spoor_summary_layer *l = &s->layers[i];
        fputs("layer,", out);
        csv_text(out, l->cat);
        fprintf(out, ",%" PRIu64 ",%" PRId64 ",%" PRId64 ",%" PRId64 ",", l->count, l->time, l->self, l->bytes);
        if (l->parent)
            csv_text(out, l->parent);
        if (l->parent) /* no parent: no share */
            fprintf(out, ",%.6f", l->parent_share);
        else
            fputc(',', out);
        fprintf(out, ",%" PRId64 "\n", l->not_compute);
    }
    const struct {
        const char *section;
        const struct spoor_summary_top *e;
        size_t n;
    } tops[] = {{"file", s->files, s->nfiles}, {"function", s->functions, s->nfunctions}};
    for (size_t k = 0; k < 2; k++)
        for (size_t i = 0; i < tops[k].n; i++) {
            const struct spoor_summary_top *e = &tops[k].e[i];
            fprintf(out, "%s,", tops[k].section);
            csv_text(out, e->label);
            fprintf(out, ",%" PRIu64 ",%" PRId64 ",%" PRId64 ",%" PRId64 ",,,\n", e->count, e->time, e->self, e->bytes);
        }
    for (int b = 0; b < SPOOR_SUMMARY_BINS; b++)
        fprintf(out, "access_size,%s,%" PRIu64 ",,,%" PRId64 ",,,\n", spoor_summary_bin_name[b], s->bin_count[b],
                s->bin_bytes[b]);
}

static int parse_format(const char *arg, enum format *format)
{
    static const char *const names[] = {"table", "json", "csv"};
    for (int i = 0; i < 3; i++)
        if (!strcmp(arg, names[i])) {
            *format = (enum format)i;
            return 0;
        }
    fprintf(stderr, "spoor summary: --format '%s': expected table, json or csv\n", arg);
    return -1;
}

static int parse_top(const char *arg, size_t *top)
{
    uint64_t n;
    if (!cli_count(arg, SIZE_MAX, &n)) {
        fprintf(stderr, "spoor summary: --top '%s': expected a count\n", arg);
        return -1;
    }
    *top = (size_t)n;
    return 0;
}

int cmd_summary(int argc, char **argv)
{
    static const struct option options[] = {
        {"format", required_argument, 0, 'f'},
        {"output", required_argument, 0, 'o'},
        {"top", required_argument, 0, 'n'},
        {"compute-cats", required_argument, 0, 'c'},
        {"where", required_argument, 0, 'w'},
        {"help", no_argument, 0, 'h'},
        LOAD_LONG_OPTIONS,
        {0, 0, 0, 0},
    };
    struct spoor_load_opts opts;
    load_args_init(&opts);
    opts.read.args = SPOOR_ARGS_LISTED;
    opts.read.arg_keys = spoor_summary_arg_keys;
    opts.read.n_arg_keys = spoor_summary_n_arg_keys;
    struct spoor_summary_opts sopts = {.compute = spoor_summary_default_compute, .top = 10};
    enum format format = FMT_TABLE;
    const char *output = NULL, *where = NULL;
    int c;
    while ((c = cli_getopt("summary", argc, argv, "ho:", options, NULL)) != -1) {
        int bad = 0;
        if (c == 'h') {
            fputs(usage, stdout);
            return 0;
        }
        if (c == 'o')
            output = optarg;
        else if (c == 'c')
            sopts.compute = optarg;
        else if (c == 'w')
            where = optarg;
        else if (c == 'f')
            bad = parse_format(optarg, &format);
        else if (c == 'n')
            bad = parse_top(optarg, &sopts.top);
        else
            bad = c == CLI_BAD_OPTION || load_args_handle(&opts, c, optarg, "summary") <= 0;
        if (bad)
            return 2;
    }
    if (optind >= argc) {
        fprintf(stderr, "spoor summary: no trace given; see 'spoor summary --help'\n");
        return 2;
    }

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
    struct spoor_sink sink = where_sink_wrap(&filter, &inner, spoor_load_threads(&opts));
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
    struct spoor_atomic_file out = {0};
    if (st == SPOOR_OK)
        st = spoor_atomic_file_open(&out, output, &err);
    if (st == SPOOR_OK) {
        if (format == FMT_JSON)
            print_json(out.fp, &sum, sopts.compute, where);
        else if (format == FMT_CSV)
            print_csv(out.fp, &sum);
        else
            print_table(out.fp, &sum, sopts.compute, where);
        st = spoor_atomic_file_commit(&out, &err);
    }
    if (st != SPOOR_OK)
        fprintf(stderr, "spoor summary: %s\n", err.msg);
    spoor_summary_free(&sum);
    spoor_load_result_free(&res);
    where_sink_free(&filter);
    return cli_exit_code(st);
}
