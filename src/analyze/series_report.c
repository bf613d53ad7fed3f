/* A `spoor series` result as a report: the inputs, then each section asked
 * for as a sheet (one function per section). */
#include "spoor/series.h"
#include "spoor/report.h"

/* What the sections are built from: the report they go to, the result and
 * how it is shown. */
struct series_view {
    struct spoor_report *report;
    const struct spoor_series *s;
    const char *group_field;      /* NULL without --group */
    double corr_threshold;
    const char *resample_text;    /* as given, e.g. "1h" */
    const char *target_metric;    /* NULL without --target */
    double target;
    int64_t utc_offset_ns;
};

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* A section's sheet in the view's report, under its title. */
static struct spoor_sheet *new_section(const struct series_view *v, const char *key, size_t ncols, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static struct spoor_sheet *new_section(const struct series_view *v, const char *key, size_t ncols, const char *fmt, ...)
{
    struct spoor_sheet *sh = spoor_report_rows(v->report, key, ncols, SPOOR_FORMATS_ALL);
    char title[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(title, sizeof title, fmt, ap);
    va_end(ap);
    spoor_sheet_title(sh, "%s", title);
    return sh;
}

/* Column c: numbers are spelled plainly in every format. */
static void header(struct spoor_sheet *sh, size_t c, const char *name)
{
    spoor_sheet_column(sh, c, name, SPOOR_CU_NONE, SPOOR_DIGITS_SHORTEST, SPOOR_HINT_NONE);
}

/* Column c with what it is to a chart. */
static void column(struct spoor_sheet *sh, size_t c, const char *name, enum spoor_col_hint hint)
{
    spoor_sheet_column(sh, c, name, SPOOR_CU_NONE, SPOOR_DIGITS_SHORTEST, hint);
}

const char *const spoor_series_section_names[SPOOR_SERIES_NSECTIONS] = {
    "metrics", "groups", "hour", "weekday", "hour-weekday", "corr", "pairs", "resample", "headroom"};

static const char *const weekday_names[7] = {"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"};

static double mean_of(const struct spoor_bucket_sum *b) { return b->n ? b->sum / (double)b->n : NAN; }
static double moments_mean(const struct spoor_moments *m) { return m->n ? m->sum / (double)m->n : NAN; }

/* "+HH:MM" of the offset hours and weekdays are taken in. */
static const char *offset_text(char *buf, size_t cap, int64_t ns)
{
    int64_t min = (ns < 0 ? -ns : ns) / 60000000000LL;
    snprintf(buf, cap, "UTC%c%02d:%02d", ns < 0 ? '-' : '+', (int)(min / 60), (int)(min % 60));
    return buf;
}

static void moments_cells(struct spoor_sheet *sh, const struct spoor_moments *m)
{
    spoor_sheet_count(sh, m->n);
    spoor_sheet_float(sh, moments_mean(m));
    spoor_sheet_float(sh, spoor_moments_std(m));
    spoor_sheet_float(sh, m->n ? m->min : NAN);
    spoor_sheet_float(sh, m->n ? m->max : NAN);
}

static void moments_headers(struct spoor_sheet *sh, size_t first)
{
    static const char *const h[] = {"count", "mean", "std", "min", "max"};
    for (size_t i = 0; i < 5; i++)
        header(sh, first + i, h[i]);
}

static struct spoor_sheet *metrics_sheet(const struct series_view *v)
{
    const struct spoor_series *s = v->s;
    struct spoor_sheet *sh = new_section(v, "metrics", 8, "metrics: %" PRIu64 " rows (%" PRIu64 " without a time)", s->rows,
                                 s->rows_without_time);
    header(sh, 0, "metric");
    moments_headers(sh, 1);
    header(sh, 6, "missing");
    header(sh, 7, "non_numeric");
    for (size_t k = 0; k < s->nmetrics; k++) {
        spoor_sheet_text(sh, s->metrics[k].name);
        moments_cells(sh, &s->metrics[k].all);
        spoor_sheet_count(sh, s->metrics[k].missing);
        spoor_sheet_count(sh, s->metrics[k].non_numeric);
    }
    return sh;
}

static const char *group_name(const char *g) { return g[0] ? g : "(none)"; }

/* For the HTML page: each metric's mean per group, a bar per group (the
 * means of the groups sheet, laid out for a chart). */
static void group_means_sheet(const struct series_view *v)
{
    const struct spoor_series *s = v->s;
    struct spoor_sheet *sh = spoor_report_rows(v->report, NULL, s->nmetrics + 1, SPOOR_FORMAT_BIT(SPOOR_FORMAT_HTML));
    spoor_sheet_title(sh, "mean per %s", v->group_field);
    column(sh, 0, v->group_field, SPOOR_HINT_CATEGORY);
    for (size_t k = 0; k < s->nmetrics; k++)
        column(sh, k + 1, s->metrics[k].name, SPOOR_HINT_SERIES);
    for (size_t g = 0; g < s->ngroups; g++) {
        spoor_sheet_text(sh, group_name(s->groups[g]));
        for (size_t k = 0; k < s->nmetrics; k++)
            spoor_sheet_float(sh, moments_mean(&s->group_moments[g * s->nmetrics + k]));
    }
}

static struct spoor_sheet *groups_sheet(const struct series_view *v)
{
    const struct spoor_series *s = v->s;
    struct spoor_sheet *sh = new_section(v, "groups", 7, "per %s", v->group_field);
    column(sh, 0, v->group_field, SPOOR_HINT_CATEGORY);
    header(sh, 1, "metric");
    moments_headers(sh, 2);
    for (size_t g = 0; g < s->ngroups; g++)
        for (size_t k = 0; k < s->nmetrics; k++) {
            spoor_sheet_text(sh, group_name(s->groups[g]));
            spoor_sheet_text(sh, s->metrics[k].name);
            moments_cells(sh, &s->group_moments[g * s->nmetrics + k]);
        }
    group_means_sheet(v);
    return sh;
}

/* Means per hour (by_weekday false) or per weekday, summed from the hour x weekday cells. */
static struct spoor_sheet *profile_sheet(const struct series_view *v, bool by_weekday)
{
    const struct spoor_series *s = v->s;
    char zone[24];
    offset_text(zone, sizeof zone, v->utc_offset_ns);
    struct spoor_sheet *sh = by_weekday ? new_section(v, "by_weekday", s->nmetrics + 2, "mean by weekday (%s)", zone)
                                  : new_section(v, "by_hour", s->nmetrics + 2, "mean by hour of day (%s)", zone);
    column(sh, 0, by_weekday ? "weekday" : "hour", SPOOR_HINT_TIME);
    header(sh, 1, "rows");
    for (size_t k = 0; k < s->nmetrics; k++)
        column(sh, k + 2, s->metrics[k].name, SPOOR_HINT_SERIES);
    size_t nkeys = by_weekday ? 7 : 24, nother = by_weekday ? 24 : 7;
    for (size_t key = 0; key < nkeys; key++) {
        uint64_t rows = 0;
        for (size_t o = 0; o < nother; o++)
            rows += s->hour_weekday_rows[by_weekday ? key * 24 + o : o * 24 + key];
        if (!rows)
            continue;
        if (by_weekday)
            spoor_sheet_text(sh, weekday_names[key]);
        else
            spoor_sheet_count(sh, key);
        spoor_sheet_count(sh, rows);
        for (size_t k = 0; k < s->nmetrics; k++) {
            struct spoor_bucket_sum b = {0, 0};
            for (size_t o = 0; o < nother; o++) {
                size_t slot = by_weekday ? key * 24 + o : o * 24 + key;
                b.n += s->hour_weekday[slot * s->nmetrics + k].n;
                b.sum += s->hour_weekday[slot * s->nmetrics + k].sum;
            }
            spoor_sheet_float(sh, mean_of(&b));
        }
    }
    return sh;
}

static struct spoor_sheet *hour_weekday_sheet(const struct series_view *v)
{
    const struct spoor_series *s = v->s;
    char zone[24];
    struct spoor_sheet *sh = new_section(v, "hour_weekday", 9, "mean by hour x weekday (%s)",
                                 offset_text(zone, sizeof zone, v->utc_offset_ns));
    column(sh, 0, "metric", SPOOR_HINT_CATEGORY);
    column(sh, 1, "hour", SPOOR_HINT_CATEGORY);
    for (size_t d = 0; d < 7; d++)
        column(sh, d + 2, weekday_names[d], SPOOR_HINT_PIVOT);
    for (size_t k = 0; k < s->nmetrics; k++)
        for (size_t h = 0; h < 24; h++) {
            spoor_sheet_text(sh, s->metrics[k].name);
            spoor_sheet_count(sh, h);
            for (size_t d = 0; d < 7; d++)
                spoor_sheet_float(sh, mean_of(&s->hour_weekday[(d * 24 + h) * s->nmetrics + k]));
        }
    return sh;
}

static double r_of(const struct spoor_series *s, size_t i, size_t j)
{
    if (i == j)
        return s->metrics[i].all.n > 1 && s->metrics[i].all.m2 > 0 ? 1.0 : NAN;
    return spoor_comoments_r(&s->comoments[(i < j ? i : j) * s->nmetrics + (i < j ? j : i)]);
}

static struct spoor_sheet *corr_sheet(const struct series_view *v)
{
    const struct spoor_series *s = v->s;
    struct spoor_sheet *sh = new_section(v, "corr", s->nmetrics + 1, "Pearson correlation (rows where both metrics hold a number)");
    column(sh, 0, "metric", SPOOR_HINT_CATEGORY);
    for (size_t k = 0; k < s->nmetrics; k++)
        column(sh, k + 1, s->metrics[k].name, SPOOR_HINT_PIVOT);
    for (size_t i = 0; i < s->nmetrics; i++) {
        spoor_sheet_text(sh, s->metrics[i].name);
        for (size_t j = 0; j < s->nmetrics; j++)
            spoor_sheet_float(sh, r_of(s, i, j));
    }
    return sh;
}

static struct spoor_sheet *pairs_sheet(const struct series_view *v)
{
    const struct spoor_series *s = v->s;
    struct spoor_sheet *sh = new_section(v, "pairs", 4, "strongly correlated pairs (|r| > %g)", v->corr_threshold);
    static const char *const h[] = {"metric_a", "metric_b", "r", "rows"};
    for (size_t c = 0; c < 4; c++)
        header(sh, c, h[c]);
    for (size_t i = 0; i < s->nmetrics; i++)
        for (size_t j = i + 1; j < s->nmetrics; j++) {
            double r = r_of(s, i, j);
            if (!(fabs(r) > v->corr_threshold))
                continue;
            spoor_sheet_text(sh, s->metrics[i].name);
            spoor_sheet_text(sh, s->metrics[j].name);
            spoor_sheet_float(sh, r);
            spoor_sheet_count(sh, s->comoments[i * s->nmetrics + j].n);
        }
    return sh;
}

static struct spoor_sheet *resample_sheet(const struct series_view *v)
{
    const struct spoor_series *s = v->s;
    bool grouped = v->group_field != NULL;
    size_t first = grouped ? 1 : 0;
    struct spoor_sheet *sh = new_section(v, "resample", s->nmetrics + 2 + first, "mean per %s", v->resample_text);
    if (grouped)
        column(sh, 0, v->group_field, SPOOR_HINT_CATEGORY);
    column(sh, first, "start", SPOOR_HINT_TIME);
    header(sh, first + 1, "rows");
    for (size_t k = 0; k < s->nmetrics; k++)
        column(sh, first + 2 + k, s->metrics[k].name, SPOOR_HINT_SERIES);
    spoor_sheet_time_offset(sh, v->utc_offset_ns);
    spoor_sheet_reserve(sh, s->nbuckets);
    for (size_t i = 0; i < s->nbuckets; i++) {
        const struct spoor_series_bucket *b = &s->buckets[i];
        if (grouped)
            spoor_sheet_name(sh, group_name(s->groups[b->group]));
        spoor_sheet_time(sh, b->start_ns);
        spoor_sheet_count(sh, b->rows);
        for (size_t k = 0; k < s->nmetrics; k++)
            spoor_sheet_float(sh, mean_of(&b->sums[k]));
    }
    return sh;
}

static void headroom_row(struct spoor_sheet *sh, const char *who, const struct spoor_moments *m, double target)
{
    double mean = moments_mean(m);
    spoor_sheet_text(sh, who);
    spoor_sheet_count(sh, m->n);
    spoor_sheet_float(sh, mean);
    spoor_sheet_float(sh, target);
    spoor_sheet_float(sh, mean != 0 ? (mean - target) / mean : NAN);
}

static struct spoor_sheet *headroom_sheet(const struct series_view *v)
{
    const struct spoor_series *s = v->s;
    size_t k = 0;
    while (k < s->nmetrics && strcmp(s->metrics[k].name, v->target_metric))
        k++;
    struct spoor_sheet *sh = new_section(v, "headroom", 5, "headroom of %s to a target of %g: (mean - target) / mean",
                                 v->target_metric, v->target);
    static const char *const h[] = {"count", "mean", "target", "headroom"};
    column(sh, 0, v->group_field ? v->group_field : "scope", SPOOR_HINT_CATEGORY);
    for (size_t c = 0; c < 4; c++) /* charted: the mean and the headroom */
        column(sh, c + 1, h[c], c % 2 ? SPOOR_HINT_SERIES : SPOOR_HINT_NONE);
    if (k == s->nmetrics)
        return sh;
    if (v->group_field)
        for (size_t g = 0; g < s->ngroups; g++)
            headroom_row(sh, group_name(s->groups[g]), &s->group_moments[g * s->nmetrics + k], v->target);
    headroom_row(sh, "(all)", &s->metrics[k].all, v->target);
    return sh;
}

static struct spoor_sheet *section_sheet(const struct series_view *v, enum spoor_series_section sec)
{
    switch (sec) {
    case SPOOR_SERIES_SEC_METRICS:
        return metrics_sheet(v);
    case SPOOR_SERIES_SEC_GROUPS:
        return groups_sheet(v);
    case SPOOR_SERIES_SEC_HOUR:
        return profile_sheet(v, false);
    case SPOOR_SERIES_SEC_WEEKDAY:
        return profile_sheet(v, true);
    case SPOOR_SERIES_SEC_HOUR_WEEKDAY:
        return hour_weekday_sheet(v);
    case SPOOR_SERIES_SEC_CORR:
        return corr_sheet(v);
    case SPOOR_SERIES_SEC_PAIRS:
        return pairs_sheet(v);
    case SPOOR_SERIES_SEC_RESAMPLE:
        return resample_sheet(v);
    case SPOOR_SERIES_SEC_HEADROOM:
        return headroom_sheet(v);
    }
    return NULL;
}

/* Before the sections: the inputs and row counts, as a table's reader and
 * as a program wants them. */
static void inputs_sheets(struct spoor_report *r, const struct spoor_load_result *res, const struct spoor_series *s)
{
    struct spoor_sheet *lines = spoor_report_props(r, NULL, SPOOR_FORMAT_BIT(SPOOR_FORMAT_TABLE));
    struct spoor_sheet *inputs = spoor_report_rows(r, "inputs", 6, SPOOR_FORMAT_BIT(SPOOR_FORMAT_JSON));
    static const char *const h[] = {"path", "format", "assumed", "lines", "rows", "skipped"};
    for (size_t c = 0; c < 6; c++)
        spoor_sheet_column(inputs, c, h[c], c < 3 ? SPOOR_CU_NONE : SPOOR_CU_COUNT, 0, SPOOR_HINT_NONE);
    for (size_t i = 0; i < res->ninputs; i++) {
        const struct spoor_input_report *in = &res->inputs[i];
        spoor_sheet_prop(lines, "table", SPOOR_CU_NONE, 0);
        spoor_sheet_textf(lines, "%s (%s): %" PRIu64 " rows, %" PRIu64 " lines skipped", in->path, in->dialect.name,
                          in->rows, in->skips.total);
        if (in->dialect.assumed[0]) {
            spoor_sheet_prop(lines, "assumed", SPOOR_CU_NONE, 0);
            spoor_sheet_text(lines, in->dialect.assumed);
        }
        spoor_sheet_text(inputs, in->path);
        spoor_sheet_text(inputs, in->dialect.name);
        spoor_sheet_text(inputs, in->dialect.assumed);
        spoor_sheet_count(inputs, in->lines);
        spoor_sheet_count(inputs, in->rows);
        spoor_sheet_count(inputs, in->skips.total);
    }
    struct spoor_sheet *rows = spoor_report_props(r, NULL, SPOOR_FORMAT_BIT(SPOOR_FORMAT_JSON));
    spoor_sheet_prop(rows, "rows", SPOOR_CU_COUNT, 0);
    spoor_sheet_count(rows, s->rows);
    spoor_sheet_prop(rows, "rows_without_time", SPOOR_CU_COUNT, 0);
    spoor_sheet_count(rows, s->rows_without_time);
}

int spoor_series_report(const struct spoor_series *s, const struct spoor_load_result *res,
                        const struct spoor_series_show *show, struct spoor_report **out, struct spoor_error *err)
{
    *out = NULL;
    if (show->target_metric) {
        size_t k = 0;
        while (k < s->nmetrics && strcmp(s->metrics[k].name, show->target_metric))
            k++;
        if (k == s->nmetrics)
            return spoor_fail(err, SPOOR_EUSAGE, "--target: no numeric metric '%s' in the input", show->target_metric);
    }
    struct series_view view = {
        .report = spoor_report_new("spoor series"), .s = s, .group_field = show->group_field,
        .corr_threshold = show->corr_threshold, .resample_text = show->resample_text,
        .target_metric = show->target_metric, .target = show->target, .utc_offset_ns = show->utc_offset_ns,
    };
    inputs_sheets(view.report, res, s);
    for (size_t i = 0; i < SPOOR_SERIES_NSECTIONS; i++)
        if (show->sections & (1u << i))
            section_sheet(&view, 1u << i);
    *out = view.report;
    return SPOOR_OK;
}
