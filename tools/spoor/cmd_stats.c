/* spoor --help: what is in a trace: counts, time span, dur per cat and name */
/* spoor stats: what is in a trace, in one streaming pass. */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli_getopt.h"
#include "load_args.h"
#include "output_guard.h"
#include "where_sink.h"
#include "spoor/atomic_file.h"
#include "spoor/csv_out.h"
#include "spoor/json_out.h"
#include "spoor/stats.h"
#include "spoor/text_table.h"

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

enum format { FMT_TABLE, FMT_JSON, FMT_CSV };

static double mean(const struct spoor_dur_stats *d) { return d->timed ? (double)d->sum / (double)d->timed : 0; }

static void print_groups_table(FILE *out, const struct spoor_stats_group *g, size_t n, bool with_name)
{
    const char *headers[] = {"cat", "name", "count", "sum(dur)", "mean", "min", "max"};
    const bool right[] = {false, false, true, true, true, true, true};
    size_t skip = with_name ? 0 : 1;
    const char *h[7];
    bool r[7];
    for (size_t i = 0, k = 0; i < 7; i++)
        if (!(i == 1 && skip)) {
            h[k] = headers[i];
            r[k++] = right[i];
        }
    struct spoor_text_table *t = spoor_text_table_new(7 - skip, h, r);
    char a[64];
    for (size_t i = 0; i < n; i++) {
        const struct spoor_dur_stats *d = &g[i].dur;
        spoor_text_table_cell(t, "%s", g[i].cat[0] ? g[i].cat : "(none)");
        if (with_name)
            spoor_text_table_cell(t, "%s", g[i].name[0] ? g[i].name : "(none)");
        spoor_text_table_cell(t, "%s", spoor_fmt_count(a, sizeof a, d->count));
        if (!d->timed) {
            for (int k = 0; k < 4; k++)
                spoor_text_table_cell(t, "-");
            continue;
        }
        spoor_text_table_cell(t, "%s", spoor_fmt_duration(a, sizeof a, (double)d->sum));
        spoor_text_table_cell(t, "%s", spoor_fmt_duration(a, sizeof a, mean(d)));
        spoor_text_table_cell(t, "%s", spoor_fmt_duration(a, sizeof a, (double)d->min));
        spoor_text_table_cell(t, "%s", spoor_fmt_duration(a, sizeof a, (double)d->max));
    }
    spoor_text_table_print(t, out);
    spoor_text_table_free(t);
}

static void print_table(FILE *out, const struct spoor_stats *s, const struct spoor_load_result *res,
                        const char *where)
{
    char a[64], b[64];
    if (where)
        fprintf(out, "where       %s (only matching events are counted)\n", where);
    for (size_t i = 0; i < res->ninputs; i++) {
        const struct spoor_input_report *in = &res->inputs[i];
        fprintf(out, "trace       %s (%s on disk, %s uncompressed)\n", in->path,
               spoor_fmt_count(a, sizeof a, in->disk_bytes), spoor_fmt_count(b, sizeof b, in->bytes));
        fprintf(out, "dialect     %s: ts in %s, dur in %s%s\n", in->dialect.name,
               spoor_unit_name(in->dialect.ts_unit), spoor_unit_name(in->dialect.dur_unit),
               in->dialect.pid_tid_swapped ? ", pid/tid swapped" : "");
        if (in->dialect.assumed[0])
            fprintf(out, "assumed     %s\n", in->dialect.assumed);
        fprintf(out, "lines       %s, skipped %s", spoor_fmt_count(a, sizeof a, in->lines),
               spoor_fmt_count(b, sizeof b, in->skips.total));
        for (size_t k = 0; k < in->skips.nreasons; k++)
            fprintf(out, "%s%llu %s", k ? ", " : " (", (unsigned long long)in->skips.count[k], in->skips.reason[k]);
        fprintf(out, "%s\n", in->skips.nreasons ? ")" : "");
        if (in->redefined)
            fprintf(out, "redefined   %llu hash definitions (FH/HH/SH) change an earlier one; each event takes the one"
                         " in force at its line\n",
                    (unsigned long long)in->redefined);
        if (in->warning)
            fprintf(out, "warning     %s\n", in->warning);
    }
    fprintf(out, "events      %s (+ %s metadata)\n", spoor_fmt_count(a, sizeof a, s->events),
           spoor_fmt_count(b, sizeof b, s->metadata_events));
    if (s->first_ts != SPOOR_NULL)
        fprintf(out, "time span   %s (first ts %" PRId64 " ns, last end %" PRId64 " ns)\n",
               spoor_fmt_duration(a, sizeof a, (double)(s->last_end - s->first_ts)), s->first_ts,
               s->last_end);
    fprintf(out, "seen        %" PRIu64 " files, %" PRIu64 " hosts, %" PRIu64 " processes, %" PRIu64 " threads\n\n",
           s->files, s->hosts, s->processes, s->threads);
    print_groups_table(out, s->by_cat, s->nby_cat, false);
    fputc('\n', out);
    print_groups_table(out, s->by_name, s->nby_name, true);
}

static void json_str(FILE *out, const char *s) { spoor_json_write_string(out, s, strlen(s)); }

static void json_groups(FILE *out, const char *key, const struct spoor_stats_group *g, size_t n)
{
    fprintf(out, ",\n  \"%s\": [", key);
    for (size_t i = 0; i < n; i++) {
        const struct spoor_dur_stats *d = &g[i].dur;
        fprintf(out, "%s\n    {\"cat\": ", i ? "," : "");
        json_str(out, g[i].cat);
        if (g[i].name) {
            fprintf(out, ", \"name\": ");
            json_str(out, g[i].name);
        }
        fprintf(out, ", \"count\": %" PRIu64 ", \"timed\": %" PRIu64, d->count, d->timed);
        if (d->timed)
            fprintf(out, ", \"dur_sum\": %" PRId64 ", \"dur_mean\": %.3f, \"dur_min\": %" PRId64
                   ", \"dur_max\": %" PRId64,
                   d->sum, mean(d), d->min, d->max);
        fprintf(out, "}");
    }
    fprintf(out, "\n  ]");
}

static void print_json(FILE *out, const struct spoor_stats *s, const struct spoor_load_result *res,
                       const char *where)
{
    fprintf(out, "{\n");
    if (where) {
        fprintf(out, "  \"where\": ");
        json_str(out, where);
        fprintf(out, ",\n");
    }
    fprintf(out, "  \"inputs\": [");
    for (size_t i = 0; i < res->ninputs; i++) {
        const struct spoor_input_report *in = &res->inputs[i];
        fprintf(out, "%s\n    {\"path\": ", i ? "," : "");
        json_str(out, in->path);
        fprintf(out, ", \"dialect\": ");
        json_str(out, in->dialect.name);
        fprintf(out, ", \"ts_unit\": \"%s\", \"dur_unit\": \"%s\", \"pid_tid_swapped\": %s, \"assumed\": ",
               spoor_unit_name(in->dialect.ts_unit), spoor_unit_name(in->dialect.dur_unit),
               in->dialect.pid_tid_swapped ? "true" : "false");
        json_str(out, in->dialect.assumed);
        fprintf(out, ", \"disk_bytes\": %" PRIu64 ", \"bytes\": %" PRIu64 ", \"lines\": %" PRIu64
               ", \"rows\": %" PRIu64 ", \"redefined\": %" PRIu64 ", \"skipped\": %" PRIu64
               ", \"skipped_by_reason\": {",
               in->disk_bytes, in->bytes, in->lines, in->rows, in->redefined, in->skips.total);
        for (size_t k = 0; k < in->skips.nreasons; k++) {
            fprintf(out, "%s", k ? ", " : "");
            json_str(out, in->skips.reason[k]);
            fprintf(out, ": %" PRIu64, in->skips.count[k]);
        }
        fprintf(out, "}, \"warning\": ");
        if (in->warning)
            json_str(out, in->warning);
        else
            fprintf(out, "null");
        fprintf(out, "}");
    }
    fprintf(out, "\n  ],\n  \"events\": %" PRIu64 ",\n  \"metadata_events\": %" PRIu64 ",\n", s->events,
           s->metadata_events);
    if (s->first_ts != SPOOR_NULL)
        fprintf(out, "  \"first_ts\": %" PRId64 ",\n  \"last_end\": %" PRId64 ",\n  \"span\": %" PRId64 ",\n",
               s->first_ts, s->last_end, s->last_end - s->first_ts);
    fprintf(out, "  \"files\": %" PRIu64 ",\n  \"hosts\": %" PRIu64 ",\n  \"processes\": %" PRIu64
           ",\n  \"threads\": %" PRIu64,
           s->files, s->hosts, s->processes, s->threads);
    json_groups(out, "by_cat", s->by_cat, s->nby_cat);
    json_groups(out, "by_name", s->by_name, s->nby_name);
    fprintf(out, "\n}\n");
}

static void csv_groups(FILE *out, const char *level, const struct spoor_stats_group *g, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const struct spoor_dur_stats *d = &g[i].dur;
        fprintf(out, "%s,", level);
        spoor_csv_write_field(out, g[i].cat);
        fputc(',', out);
        spoor_csv_write_field(out, g[i].name ? g[i].name : "");
        fprintf(out, ",%" PRIu64 ",%" PRIu64, d->count, d->timed);
        if (d->timed)
            fprintf(out, ",%" PRId64 ",%.3f,%" PRId64 ",%" PRId64 "\n", d->sum, mean(d), d->min, d->max);
        else
            fprintf(out, ",,,,\n");
    }
}

static void print_csv(FILE *out, const struct spoor_stats *s)
{
    fprintf(out, "level,cat,name,count,timed,dur_sum_ns,dur_mean_ns,dur_min_ns,dur_max_ns\n");
    csv_groups(out, "cat", s->by_cat, s->nby_cat);
    csv_groups(out, "name", s->by_name, s->nby_name);
}

int cmd_stats(int argc, char **argv)
{
    static const struct option options[] = {
        {"format", required_argument, 0, 'f'},
        {"where", required_argument, 0, 'w'},
        {"output", required_argument, 0, 'o'},
        {"help", no_argument, 0, 'h'},
        LOAD_LONG_OPTIONS,
        {0, 0, 0, 0},
    };
    struct spoor_load_opts opts;
    load_args_init(&opts);
    opts.read.args = SPOOR_ARGS_LISTED;
    opts.read.arg_keys = spoor_stats_arg_keys;
    opts.read.n_arg_keys = spoor_stats_n_arg_keys;
    enum format format = FMT_TABLE;
    const char *output = NULL, *where = NULL;
    int c;
    while ((c = cli_getopt("stats", argc, argv, "ho:", options, NULL)) != -1) {
        if (c == CLI_BAD_OPTION)
            return 2;
        if (c == 'o' || c == 'w') {
            *(c == 'o' ? &output : &where) = optarg;
            continue;
        }
        if (c == 'h') {
            fputs(usage, stdout);
            return 0;
        }
        if (c == 'f') {
            if (!strcmp(optarg, "table"))
                format = FMT_TABLE;
            else if (!strcmp(optarg, "json"))
                format = FMT_JSON;
            else if (!strcmp(optarg, "csv"))
                format = FMT_CSV;
            else {
                fprintf(stderr, "spoor stats: --format '%s': expected table, json or csv\n", optarg);
                return 2;
            }
            continue;
        }
        if (load_args_handle(&opts, c, optarg, "stats") <= 0)
            return 2;
    }
    if (optind >= argc) {
        fprintf(stderr, "spoor stats: no trace given; see 'spoor stats --help'\n");
        return 2;
    }
    if (output_guard1("stats", output, (const char *const *)argv + optind, (size_t)(argc - optind), opts.cache_dir))
        return 2;

    struct where_sink filter;
    if (!where_sink_compile("stats", where, &filter))
        return 2;
    where_sink_keys(&filter, &opts);
    struct spoor_stats_run *run = spoor_stats_begin(spoor_load_threads(&opts));
    struct spoor_sink inner = spoor_stats_sink(run);
    struct spoor_sink sink = where_sink_wrap(&filter, &inner, spoor_load_threads(&opts));
    struct spoor_load_result res;
    struct spoor_error err;
    int st = spoor_load((const char *const *)argv + optind, (size_t)(argc - optind), &opts, &sink, &res, &err);
    struct spoor_stats stats;
    spoor_stats_end(run, &stats);
    load_args_report("stats", &res);
    if (st == SPOOR_OK)
        where_sink_report("stats", &filter);
    struct spoor_atomic_file out = {0};
    if (st == SPOOR_OK)
        st = spoor_atomic_file_open(&out, output, &err);
    if (st == SPOOR_OK) {
        if (format == FMT_JSON)
            print_json(out.fp, &stats, &res, where);
        else if (format == FMT_CSV)
            print_csv(out.fp, &stats);
        else
            print_table(out.fp, &stats, &res, where);
        st = spoor_atomic_file_commit(&out, &err);
    }
    if (st != SPOOR_OK)
        fprintf(stderr, "spoor stats: %s\n", err.msg);
    spoor_stats_free(&stats);
    spoor_load_result_free(&res);
    where_sink_free(&filter);
    return cli_exit_code(st);
}
