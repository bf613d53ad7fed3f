/* spoor --help: profiles of metric tables: per metric and group, by hour, resampled */
/* spoor series: profiles of metric tables (node metrics sampled over time) in
 * one streaming pass: statistics per metric and group, means by hour and
 * weekday, correlations, resampled means and headroom to a target. */
#include <float.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_number.h"
#include "cli_getopt.h"
#include "load_args.h"
#include "output_guard.h"
#include "spoor/report.h"
#include "spoor/series.h"

static const char usage[] =
    "usage: spoor series TABLE... --time FIELD [options]\n"
    "\n"
    "Profiles a metric table (CSV or JSON lines, plain, .gz or .zst): one row per\n"
    "sample with a time, an optional group (e.g. a node) and numeric metrics. One\n"
    "streaming pass; memory grows with groups x time buckets, not with rows.\n"
    "Times are ISO-8601 (an offset in the text is honoured) or epoch numbers in s,\n"
    "ms, us or ns (guessed from their magnitude; --time-unit to say).\n"
    "\n"
    "options:\n"
    "  --time FIELD         the field holding the sample time (required)\n"
    "  --group FIELD        statistics per value of FIELD (e.g. node)\n"
    "  --metrics LIST       comma-separated metric fields (default: every numeric\n"
    "                       field but the time and the group)\n"
    "  --by LIST            mean profiles: hour, weekday, hour-weekday (comma-separated)\n"
    "  --resample DUR       mean per group and time bucket of DUR (30s, 15min, 1.5h, 1d)\n"
    "  --corr R             correlation matrix, and the pairs with |r| > R\n"
    "  --target METRIC=V    headroom (mean - V) / mean of METRIC per group and overall\n"
    "  --utc-offset OFF     hours, weekdays and buckets in local time UTC+OFF\n"
    "                       (+05:30, -08:00; default: UTC)\n"
    "  --time-unit U        unit of numeric times: s, ms, us, ns (default: guessed)\n"
    "  --show LIST          the sections to print, in this order: metrics, groups,\n"
    "                       hour, weekday, hour-weekday, corr, pairs, resample,\n"
    "                       headroom (default: metrics and those the options ask for)\n"
    "  --format F           table (default), json, csv (one section: plain CSV;\n"
    "                       several: each after a line '# NAME', blank-line separated)\n"
    "                       or html (a page of charts; -o FILE.html)\n"
    "  -o FILE              write to FILE (complete or not at all) instead of stdout\n"
    "  -h, --help           this help\n"
    "\n"
    "A metric value that is absent counts as missing, one that is not a finite\n"
    "number as non-numeric; both are reported per metric and left out of means.\n"
    LOAD_HELP_HEAD LOAD_HELP_THREADS LOAD_HELP_BASE LOAD_HELP_PROGRESS;

struct args {
    struct spoor_load_opts load;
    struct spoor_series_opts series;
    struct spoor_series_show show; /* show.sections: sections to print; 0 = the default */
    unsigned asked;          /* sections the options ask for */
    struct cli_format format;
    const char *output;
    char **metric_list;      /* owned copies of --metrics */
    char *target_metric;
};

static void args_release(struct args *a)
{
    cli_split_free(a->metric_list);
    free(a->target_metric);
}

/* The section bits named by a list of names from `names` (bit i = names[i]). */
static bool parse_sections(const char *list, const char *const *names, size_t nnames, const unsigned *bits,
                           unsigned *out)
{
    size_t n;
    char **items = cli_split_commas(list, &n);
    bool ok = n || !cli_usage_error("series", "expected a list of sections, not '%s'", list);
    for (size_t i = 0; i < n && ok; i++) {
        size_t k = 0;
        while (k < nnames && strcmp(items[i], names[k]))
            k++;
        if (k == nnames)
            ok = !cli_usage_error("series", "unknown section '%s'", items[i]);
        else
            *out |= bits[k];
    }
    cli_split_free(items);
    return ok;
}

/* The options that set more than one field, each as a CLI_CALL on the args;
 * a bad value is told in the words the tests and docs know. */
static bool bad_value(const char *opt_wants, const char *arg)
{
    cli_usage_error("series", "%s, not '%s'", opt_wants, arg);
    return false;
}

static bool set_target(void *args, const char *arg)
{
    struct args *a = args;
    const char *eq = strrchr(arg, '=');
    double v;
    if (!eq || eq == arg || !cli_real(eq + 1, -DBL_MAX, DBL_MAX, &v))
        return bad_value("--target wants METRIC=VALUE", arg);
    free(a->target_metric);
    a->target_metric = spoor_xmalloc((size_t)(eq - arg) + 1);
    memcpy(a->target_metric, arg, (size_t)(eq - arg));
    a->target_metric[eq - arg] = '\0';
    a->show.target_metric = a->target_metric;
    a->show.target = v;
    a->asked |= SPOOR_SERIES_SEC_HEADROOM;
    return true;
}

static bool set_group(void *args, const char *arg)
{
    struct args *a = args;
    a->load.read.field_name = arg;
    a->show.group_field = arg;
    a->series.groups = true;
    a->asked |= SPOOR_SERIES_SEC_GROUPS;
    return true;
}

static bool set_metrics(void *args, const char *arg)
{
    struct args *a = args;
    cli_split_free(a->metric_list);
    a->metric_list = cli_split_commas(arg, &a->series.nmetrics);
    a->series.metrics = (const char *const *)a->metric_list;
    return a->series.nmetrics || bad_value("--metrics wants a comma-separated list", arg);
}

static bool set_by(void *args, const char *arg)
{
    static const char *const by_names[] = {"hour", "weekday", "hour-weekday"};
    static const unsigned by_bits[] = {SPOOR_SERIES_SEC_HOUR, SPOOR_SERIES_SEC_WEEKDAY, SPOOR_SERIES_SEC_HOUR_WEEKDAY};
    return parse_sections(arg, by_names, 3, by_bits, &((struct args *)args)->asked);
}

static bool set_show(void *args, const char *arg)
{
    static const unsigned show_bits[] = {
        SPOOR_SERIES_SEC_METRICS, SPOOR_SERIES_SEC_GROUPS, SPOOR_SERIES_SEC_HOUR,     SPOOR_SERIES_SEC_WEEKDAY,
        SPOOR_SERIES_SEC_HOUR_WEEKDAY, SPOOR_SERIES_SEC_CORR, SPOOR_SERIES_SEC_PAIRS, SPOOR_SERIES_SEC_RESAMPLE,
        SPOOR_SERIES_SEC_HEADROOM};
    struct args *a = args;
    a->show.sections = 0;
    return parse_sections(arg, spoor_series_section_names, SPOOR_SERIES_NSECTIONS, show_bits, &a->show.sections);
}

static bool set_resample(void *args, const char *arg)
{
    struct args *a = args;
    if (!cli_duration("series", "--resample", arg, &a->series.resample_ns))
        return false;
    a->show.resample_text = arg;
    a->asked |= SPOOR_SERIES_SEC_RESAMPLE;
    return true;
}

static bool set_corr(void *args, const char *arg)
{
    struct args *a = args;
    if (!cli_real(arg, 0, 1, &a->show.corr_threshold))
        return bad_value("--corr wants a threshold from 0 to 1", arg);
    a->asked |= SPOOR_SERIES_SEC_CORR | SPOOR_SERIES_SEC_PAIRS;
    return true;
}

static bool set_utc_offset(void *args, const char *arg)
{
    struct args *a = args;
    if (!spoor_series_parse_offset(arg, &a->series.utc_offset_ns))
        return bad_value("--utc-offset wants +HH:MM, -HH or Z", arg);
    a->show.utc_offset_ns = a->series.utc_offset_ns;
    return true;
}

static bool set_time_unit(void *args, const char *arg)
{
    struct args *a = args;
    a->load.read.ts_unit = spoor_unit_parse(arg);
    return a->load.read.ts_unit != SPOOR_UNIT_AUTO || bad_value("--time-unit wants s, ms, us or ns", arg);
}

/* Settles what to compute from the sections shown; 2 (told) when one cannot be. */
static int settle(struct args *a)
{
    if (!a->load.read.field_ts)
        return cli_usage_error("series", "--time FIELD is required");
    if (!a->show.sections)
        a->show.sections = SPOOR_SERIES_SEC_METRICS | a->asked;
    if ((a->show.sections & SPOOR_SERIES_SEC_GROUPS) && !a->show.group_field)
        return cli_usage_error("series", "--show groups needs --group FIELD");
    if ((a->show.sections & SPOOR_SERIES_SEC_RESAMPLE) && !a->series.resample_ns)
        return cli_usage_error("series", "--show resample needs --resample DUR");
    if ((a->show.sections & SPOOR_SERIES_SEC_HEADROOM) && !a->show.target_metric)
        return cli_usage_error("series", "--show headroom needs --target METRIC=V");
    if ((a->show.sections & (SPOOR_SERIES_SEC_CORR | SPOOR_SERIES_SEC_PAIRS)) && !(a->asked & SPOOR_SERIES_SEC_CORR))
        a->show.corr_threshold = 0.7;
    if (a->show.target_metric && a->series.metrics) {
        size_t k = 0;
        while (k < a->series.nmetrics && strcmp(a->series.metrics[k], a->show.target_metric))
            k++;
        if (k == a->series.nmetrics)
            return cli_usage_error("series", "--target names a metric that --metrics leaves out: '%s'",
                                   a->show.target_metric);
    }
    a->series.profile =
        a->show.sections & (SPOOR_SERIES_SEC_HOUR | SPOOR_SERIES_SEC_WEEKDAY | SPOOR_SERIES_SEC_HOUR_WEEKDAY);
    a->series.corr = a->show.sections & (SPOOR_SERIES_SEC_CORR | SPOOR_SERIES_SEC_PAIRS);
    if (!(a->show.sections & SPOOR_SERIES_SEC_RESAMPLE))
        a->series.resample_ns = 0;
    a->load.read.fields_exclusive = true;
    if (a->series.metrics) { /* the reader then leaves the other fields unread */
        a->load.read.args = SPOOR_ARGS_LISTED;
        a->load.read.arg_keys = a->series.metrics;
        a->load.read.n_arg_keys = a->series.nmetrics;
    }
    return 0;
}

int cmd_series(int argc, char **argv)
{
    struct args a = {.format = {"series", spoor_chart_formats, 4, SPOOR_FORMAT_TABLE}};
    load_args_init(&a.load);
    a.load.no_cache = true; /* one streaming pass: a snapshot would only cost */
    a.load.read.field_option[0] = "time";  /* the ts field, in messages */
    a.load.read.field_option[2] = "group"; /* the name field */
    a.load.read.ts_unit_option = "time-unit";
    const struct cli_option options[] = {
        CLI_OPT_STRING("time", 0, &a.load.read.field_ts),
        CLI_OPT_CALL("group", 0, &a, set_group, NULL),
        CLI_OPT_CALL("metrics", 0, &a, set_metrics, NULL),
        CLI_OPT_CALL("by", 0, &a, set_by, NULL),
        CLI_OPT_CALL("resample", 0, &a, set_resample, NULL),
        CLI_OPT_CALL("corr", 0, &a, set_corr, NULL),
        CLI_OPT_CALL("target", 0, &a, set_target, NULL),
        CLI_OPT_CALL("utc-offset", 0, &a, set_utc_offset, NULL),
        CLI_OPT_CALL("time-unit", 0, &a, set_time_unit, NULL),
        CLI_OPT_CALL("show", 0, &a, set_show, NULL),
        CLI_OPT_FORMAT(&a.format),
        CLI_OPT_STRING("output", 'o', &a.output),
        CLI_END,
    };
    int code = cli_parse("series", usage, options, &a.load, LOAD_GROUP_BASE | LOAD_GROUP_PROGRESS, argc, argv);
    if (code < 0 && optind >= argc)
        code = cli_usage_error("series", "no table given");
    if (code < 0 && (output_guard1("series", a.output, (const char *const *)argv + optind, (size_t)(argc - optind),
                                   a.load.cache_dir) ||
                     !cli_output_fits("series", a.format.value, a.output) || settle(&a)))
        code = 2;
    if (code >= 0) {
        args_release(&a);
        return code;
    }

    struct spoor_series s;
    struct spoor_load_result res;
    struct spoor_error err;
    int st = spoor_series_load((const char *const *)argv + optind, (size_t)(argc - optind), &a.load, &a.series, &s,
                               &res, &err);
    load_args_report("series", &res);
    struct spoor_report *report = NULL;
    if (st == SPOOR_OK)
        st = spoor_series_report(&s, &res, &a.show, &report, &err);
    if (st == SPOOR_OK)
        st = spoor_report_save(report, a.output, a.format.value, spoor_load_threads(&a.load), &err);
    spoor_report_free(report);
    if (st != SPOOR_OK)
        fprintf(stderr, "spoor series: %s\n", err.msg);
    spoor_series_free(&s);
    spoor_load_result_free(&res);
    args_release(&a);
    return cli_exit_code(st);
}
