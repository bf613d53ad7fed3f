/* The lifecycle result as a report: what a table shows (durations for a
 * reader, "-" where unknown), JSON's nested objects of raw ns, and the
 * long-form CSV that `spoor gen --kind cascade` writes its ground truth in. */
#include "spoor/lifecycle.h"
#include "analyze/lifecycle.h"
#include "spoor/report.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TABLE_ONLY SPOOR_FORMAT_BIT(SPOOR_FORMAT_TABLE)
#define JSON_ONLY SPOOR_FORMAT_BIT(SPOOR_FORMAT_JSON)
#define CSV_ONLY SPOOR_FORMAT_BIT(SPOOR_FORMAT_CSV)
#define HTML_ONLY SPOOR_FORMAT_BIT(SPOOR_FORMAT_HTML)

static double mean_of(int64_t sum, uint64_t n) { return n ? (double)sum / (double)n : 0; }

/* Not-applicable keys of the long form are empty; a key is copied (it may
 * be a caller's buffer). */
static void text_or_null(struct spoor_sheet *sh, const char *text)
{
    if (text && *text)
        spoor_sheet_text(sh, text);
    else
        spoor_sheet_null(sh);
}

static void nulls(struct spoor_sheet *sh, int n)
{
    for (int i = 0; i < n; i++)
        spoor_sheet_null(sh);
}

/* ---- a table's ---- */

enum { NSTAT = 12 }; /* a delay's columns in a table */

/* entities, sum, mean, min, the quartiles, max, the whiskers and the
 * outliers of one delay ("-" without entities). */
static void stat_cells(struct spoor_sheet *t, const struct spoor_lc_stat *d)
{
    spoor_sheet_count(t, d->count);
    if (!d->count) {
        nulls(t, NSTAT - 1);
        return;
    }
    const struct spoor_lc_box *b = &d->box;
    spoor_sheet_int_or_null(t, d->sum, SPOOR_NULL);
    spoor_sheet_float(t, fabs(mean_of(d->sum, d->count)));
    spoor_sheet_int_or_null(t, d->min, SPOOR_NULL);
    spoor_sheet_float(t, b->p25);
    spoor_sheet_float(t, b->median);
    spoor_sheet_float(t, b->p75);
    spoor_sheet_int_or_null(t, d->max, SPOOR_NULL);
    spoor_sheet_float(t, b->low);
    spoor_sheet_float(t, b->high);
    spoor_sheet_count(t, b->below);
    spoor_sheet_count(t, b->above);
}

static const struct spoor_sheet_col stat_columns[NSTAT] = {
    {"entities", SPOOR_CU_COUNT, 0, 0},   {"sum", SPOOR_CU_NS, 0, 0},          {"mean", SPOOR_CU_NS, 0, 0},
    {"min", SPOOR_CU_NS, 0, 0},           {"p25", SPOOR_CU_NS, 0, 0},          {"median", SPOOR_CU_NS, 0, 0},
    {"p75", SPOOR_CU_NS, 0, 0},           {"max", SPOOR_CU_NS, 0, 0},          {"whisker lo", SPOOR_CU_NS, 0, 0},
    {"whisker hi", SPOOR_CU_NS, 0, 0},    {"outliers lo", SPOOR_CU_COUNT, 0, 0}, {"outliers hi", SPOOR_CU_COUNT, 0, 0}};

static void table_head(struct spoor_report *rep, const struct spoor_lc_result *r, const struct spoor_lc_input *in)
{
    struct spoor_sheet *p = spoor_report_props(rep, NULL, TABLE_ONLY);
    char a[64], b[64], c[64], d[64];
    spoor_sheet_prop(p, "lines", SPOOR_CU_NONE, 0);
    spoor_sheet_textf(p, "%s, skipped %s", spoor_fmt_count(a, sizeof a, in->lines),
                      spoor_fmt_count(b, sizeof b, in->skipped));
    spoor_sheet_prop(p, "records", SPOOR_CU_NONE, 0);
    spoor_sheet_textf(p, "%s; of other stages %s, without entity %s, without time %s",
                      spoor_fmt_count(a, sizeof a, r->counts.records),
                      spoor_fmt_count(b, sizeof b, r->counts.other_stage),
                      spoor_fmt_count(c, sizeof c, r->counts.no_entity), spoor_fmt_count(d, sizeof d, r->counts.no_time));
    spoor_sheet_prop(p, "entities", SPOOR_CU_COUNT, 0);
    spoor_sheet_count(p, r->entities);
    spoor_sheet_note(p, "%s with stages filled in", spoor_fmt_count(a, sizeof a, r->filled));
}

/* The groups of --by field b: a line per group and delay. */
static struct spoor_sheet *table_groups(struct spoor_report *rep, const struct spoor_lc_spec *s, size_t b,
                                        const struct spoor_lc_group *groups, size_t n)
{
    struct spoor_sheet_col gc[NSTAT + 2] = {{s->by[b], SPOOR_CU_NONE, 0, 0}, {"delay", SPOOR_CU_NONE, 0, 0}};
    for (size_t c = 0; c < NSTAT; c++)
        gc[c + 2] = stat_columns[c];
    struct spoor_sheet *g = spoor_report_table(rep, s->by[b], TABLE_ONLY, gc, NSTAT + 2);
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < s->ndelays; k++) {
            if (k) /* the group's name on its first line only */
                spoor_sheet_absent(g);
            else
                spoor_sheet_name(g, groups[i].value);
            spoor_sheet_name(g, s->delay[k].name);
            stat_cells(g, &groups[i].delay[k]);
        }
    return g;
}

static void table_delays(struct spoor_report *rep, const struct spoor_lc_spec *s, const struct spoor_lc_result *r)
{
    struct spoor_sheet_col cols[NSTAT + 1] = {{"delay", SPOOR_CU_NONE, 0, 0}};
    for (size_t c = 0; c < NSTAT; c++)
        cols[c + 1] = stat_columns[c];
    struct spoor_sheet *t = spoor_report_table(rep, "delays", TABLE_ONLY, cols, NSTAT + 1);
    for (size_t k = 0; k < s->ndelays; k++) {
        spoor_sheet_textf(t, "%s = %s - %s", s->delay[k].name, s->stages[s->delay[k].to],
                          s->stages[s->delay[k].from]);
        stat_cells(t, &r->total[k]);
    }
    for (size_t b = 0; b < s->nby; b++)
        table_groups(rep, s, b, r->group[b], r->ngroups[b]);
}

/* "taskStarted 3, taskFinished 1", or null when none. */
static void stage_list_cell(struct spoor_sheet *t, const struct spoor_lc_spec *s, const uint64_t *n)
{
    char buf[512] = "";
    size_t used = 0;
    for (size_t st = 0; st < s->nstages && used < sizeof buf; st++)
        if (n[st])
            used += (size_t)snprintf(buf + used, sizeof buf - used, "%s%s %" PRIu64, used ? ", " : "",
                                     s->stages[st], n[st]);
    if (used)
        spoor_sheet_text(t, buf);
    else
        spoor_sheet_null(t);
}

static void table_kinds(struct spoor_report *rep, const struct spoor_lc_spec *s, const struct spoor_lc_result *r)
{
    static const struct spoor_sheet_col cols[] = {{"kind", SPOOR_CU_NONE, 0, 0},
                                         {"entities", SPOOR_CU_COUNT, 0, 0},
                                         {"complete", SPOOR_CU_COUNT, 0, 0},
                                         {"missing stages", SPOOR_CU_NONE, 0, 0},
                                         {"repeated stages", SPOOR_CU_NONE, 0, 0}};
    struct spoor_sheet *t = spoor_report_table(rep, "kinds", TABLE_ONLY, cols, 5);
    for (size_t i = 0; i < r->nkinds; i++) {
        spoor_sheet_name(t, r->kind[i].kind);
        spoor_sheet_count(t, r->kind[i].entities);
        spoor_sheet_count(t, r->kind[i].complete);
        stage_list_cell(t, s, r->kind[i].missing);
        stage_list_cell(t, s, r->kind[i].repeated);
    }
}

/* A table of entities: rank, name, and one duration column per delay. */
static struct spoor_sheet *entity_table(struct spoor_report *rep, const struct spoor_lc_spec *s, const char *key)
{
    struct spoor_sheet *t = spoor_report_rows(rep, key, s->ndelays + 2, TABLE_ONLY);
    spoor_sheet_column(t, 0, "#", SPOOR_CU_NONE, 0, SPOOR_HINT_NONE);
    spoor_sheet_column(t, 1, "entity", SPOOR_CU_NONE, 0, SPOOR_HINT_CATEGORY);
    for (size_t k = 0; k < s->ndelays; k++)
        spoor_sheet_column(t, k + 2, s->delay[k].name, SPOOR_CU_NS, 0, SPOOR_HINT_SERIES);
    return t;
}

static void table_top(struct spoor_report *rep, const struct spoor_lc_spec *s, const struct spoor_lc_result *r)
{
    if (!r->ntop)
        return;
    struct spoor_sheet *t = entity_table(rep, s, "top");
    spoor_sheet_title(t, "slowest %zu by %s", r->ntop, s->delay[s->top_delay].name);
    for (size_t i = 0; i < r->ntop; i++) {
        spoor_sheet_int(t, (int64_t)i + 1);
        spoor_sheet_name(t, r->top[i].name);
        for (size_t k = 0; k < s->ndelays; k++)
            spoor_sheet_int_or_null(t, r->top[i].delay[k], SPOOR_NULL);
    }
}

/* The mean of a sum over count, rounded to a ns; null without any. */
static void mean_ns_cell(struct spoor_sheet *t, int64_t sum, uint64_t count)
{
    spoor_sheet_int_or_null(t, count ? (int64_t)llround(mean_of(sum, count)) : SPOOR_NULL, SPOOR_NULL);
}

static void table_compare(struct spoor_report *rep, const struct spoor_lc_spec *s, const struct spoor_lc_result *r)
{
    static const struct spoor_sheet_col cols[] = {{"delay", SPOOR_CU_NONE, 0, 0},    {"matched", SPOOR_CU_COUNT, 0, 0},
                                         {"mean here", SPOOR_CU_NS, 0, 0},  {"mean other", SPOOR_CU_NS, 0, 0},
                                         {"mean diff", SPOOR_CU_NS, 0, 0},  {"rel diff", SPOOR_CU_CHANGE, 1, 0}};
    struct spoor_sheet *t = spoor_report_table(rep, "compare", TABLE_ONLY, cols, 6);
    char a[64], b[64], c[64];
    spoor_sheet_title(t, "compare     %s entities matched, %s only in this log, %s only in the other",
                      spoor_fmt_count(a, sizeof a, r->matched), spoor_fmt_count(b, sizeof b, r->only_here),
                      spoor_fmt_count(c, sizeof c, r->only_other));
    for (size_t k = 0; k < s->ndelays; k++) {
        const struct spoor_lc_diff *d = &r->diff[k];
        spoor_sheet_name(t, s->delay[k].name);
        spoor_sheet_count(t, d->count);
        mean_ns_cell(t, d->sum_a, d->count);
        mean_ns_cell(t, d->sum_b, d->count);
        mean_ns_cell(t, d->sum_b - d->sum_a, d->count);
        spoor_sheet_float(t, spoor_lc_relative(d->sum_a, d->sum_b));
    }
    if (!r->ntop_diff)
        return;
    int top = s->top_delay;
    static const struct spoor_sheet_col dc[] = {{"#", SPOOR_CU_NONE, 0, 0},    {"entity", SPOOR_CU_NONE, 0, 0},
                                       {"here", SPOOR_CU_NS, 0, 0},   {"other", SPOOR_CU_NS, 0, 0},
                                       {"diff", SPOOR_CU_NS, 0, 0},   {"rel diff", SPOOR_CU_CHANGE, 1, 0}};
    t = spoor_report_table(rep, "largest_differences", TABLE_ONLY, dc, 6);
    spoor_sheet_title(t, "largest differences of %s", s->delay[top].name);
    for (size_t i = 0; i < r->ntop_diff; i++) {
        const struct spoor_lc_entity *e = &r->top_diff[i];
        spoor_sheet_int(t, (int64_t)i + 1);
        spoor_sheet_name(t, e->name);
        spoor_sheet_int_or_null(t, e->delay[top], SPOOR_NULL);
        spoor_sheet_int_or_null(t, e->other[top], SPOOR_NULL);
        spoor_sheet_int_or_null(t, e->other[top] - e->delay[top], SPOOR_NULL);
        spoor_sheet_float(t, spoor_lc_relative(e->delay[top], e->other[top]));
    }
}

/* ---- JSON's ---- */

static void prop_count(struct spoor_sheet *p, const char *key, uint64_t n)
{
    spoor_sheet_prop(p, key, SPOOR_CU_COUNT, 0);
    spoor_sheet_count(p, n);
}

static void prop_ns(struct spoor_sheet *p, const char *key, int64_t ns)
{
    spoor_sheet_prop(p, key, SPOOR_CU_NS, 0);
    spoor_sheet_int_or_null(p, ns, SPOOR_NULL);
}

/* Quartiles and whiskers are multiples of 0.25 ns: two digits are exact. */
static void prop_quarter_ns(struct spoor_sheet *p, const char *key, double ns)
{
    spoor_sheet_prop(p, key, SPOOR_CU_NS, 2);
    spoor_sheet_float(p, ns);
}

/* {"count": n, "sum_ns": ..., "mean_ns": ..., "min_ns": ..., "max_ns": ...,
 * "p25_ns", "median_ns", "p75_ns", "whisker_low_ns", "whisker_high_ns",
 * "outliers_low", "outliers_high"} (only the count without entities). */
static struct spoor_sheet *stat_object(const struct spoor_lc_stat *d)
{
    struct spoor_sheet *o = spoor_sheet_props_new();
    prop_count(o, "count", d->count);
    if (d->count) {
        prop_ns(o, "sum_ns", d->sum);
        spoor_sheet_prop(o, "mean_ns", SPOOR_CU_NS, 3);
        spoor_sheet_float(o, mean_of(d->sum, d->count));
        prop_ns(o, "min_ns", d->min);
        prop_ns(o, "max_ns", d->max);
        prop_quarter_ns(o, "p25_ns", d->box.p25);
        prop_quarter_ns(o, "median_ns", d->box.median);
        prop_quarter_ns(o, "p75_ns", d->box.p75);
        prop_quarter_ns(o, "whisker_low_ns", d->box.low);
        prop_quarter_ns(o, "whisker_high_ns", d->box.high);
        prop_count(o, "outliers_low", d->box.below);
        prop_count(o, "outliers_high", d->box.above);
    }
    return o;
}

/* Each delay by name: its statistics. */
static struct spoor_sheet *delays_object(const struct spoor_lc_spec *s, const struct spoor_lc_stat *d)
{
    struct spoor_sheet *o = spoor_sheet_props_new();
    for (size_t k = 0; k < s->ndelays; k++) {
        spoor_sheet_prop(o, s->delay[k].name, SPOOR_CU_NONE, 0);
        spoor_sheet_sheet(o, stat_object(&d[k]));
    }
    return o;
}

/* Each delay by name: one entity's value (null when a stage is missing). */
static struct spoor_sheet *values_object(const struct spoor_lc_spec *s, const int64_t *v)
{
    struct spoor_sheet *o = spoor_sheet_props_new();
    for (size_t k = 0; k < s->ndelays; k++)
        prop_ns(o, s->delay[k].name, v[k]);
    return o;
}

/* The stages an entity count is not 0 for. */
static struct spoor_sheet *stage_counts(const struct spoor_lc_spec *s, const uint64_t *n)
{
    struct spoor_sheet *o = spoor_sheet_props_new();
    for (size_t st = 0; st < s->nstages; st++)
        if (n[st])
            prop_count(o, s->stages[st], n[st]);
    return o;
}

/* Each --by field: its groups, [{"value", "entities", "delays": {...}}]. */
static void json_groups(struct spoor_sheet *into, const struct spoor_lc_spec *s,
                        struct spoor_lc_group *const *group, const size_t *ngroups)
{
    for (size_t b = 0; b < s->nby; b++) {
        struct spoor_sheet *g = spoor_sheet_rows_new(3);
        spoor_sheet_column(g, 0, "value", SPOOR_CU_NONE, 0, SPOOR_HINT_CATEGORY);
        spoor_sheet_column(g, 1, "entities", SPOOR_CU_COUNT, 0, SPOOR_HINT_SERIES);
        spoor_sheet_column(g, 2, "delays", SPOOR_CU_NONE, 0, SPOOR_HINT_NONE);
        for (size_t i = 0; i < ngroups[b]; i++) {
            spoor_sheet_name(g, group[b][i].value);
            spoor_sheet_count(g, group[b][i].entities);
            spoor_sheet_sheet(g, delays_object(s, group[b][i].delay));
        }
        spoor_sheet_prop(into, s->by[b], SPOOR_CU_NONE, 0);
        spoor_sheet_sheet(into, g);
    }
}

static void json_head(struct spoor_report *rep, const struct spoor_lc_spec *s, const struct spoor_lc_result *r,
                      const struct spoor_lc_input *in)
{
    struct spoor_sheet *p = spoor_report_props(rep, NULL, JSON_ONLY);
    const struct {
        const char *key;
        uint64_t n;
    } counts[] = {{"lines", in->lines},
                  {"skipped", in->skipped},
                  {"records", r->counts.records},
                  {"other_stage", r->counts.other_stage},
                  {"no_entity", r->counts.no_entity},
                  {"no_time", r->counts.no_time},
                  {"entities", r->entities},
                  {"filled", r->filled}};
    for (size_t i = 0; i < sizeof counts / sizeof *counts; i++)
        prop_count(p, counts[i].key, counts[i].n);
    spoor_sheet_prop(p, "delays", SPOOR_CU_NONE, 0);
    spoor_sheet_sheet(p, delays_object(s, r->total));
    struct spoor_sheet *groups = spoor_report_props(rep, "groups", JSON_ONLY);
    json_groups(groups, s, r->group, r->ngroups);
}

static void json_rest(struct spoor_report *rep, const struct spoor_lc_spec *s, const struct spoor_lc_result *r)
{
    static const struct spoor_sheet_col kc[] = {{"kind", SPOOR_CU_NONE, 0, 0},    {"entities", SPOOR_CU_COUNT, 0, 0},
                                       {"complete", SPOOR_CU_COUNT, 0, 0}, {"missing", SPOOR_CU_COUNT, 0, 0},
                                       {"repeated", SPOOR_CU_COUNT, 0, 0}};
    struct spoor_sheet *kinds = spoor_report_table(rep, "kinds", JSON_ONLY, kc, 5);
    for (size_t i = 0; i < r->nkinds; i++) {
        spoor_sheet_name(kinds, r->kind[i].kind);
        spoor_sheet_count(kinds, r->kind[i].entities);
        spoor_sheet_count(kinds, r->kind[i].complete);
        spoor_sheet_sheet(kinds, stage_counts(s, r->kind[i].missing));
        spoor_sheet_sheet(kinds, stage_counts(s, r->kind[i].repeated));
    }
    struct spoor_sheet *p = spoor_report_props(rep, NULL, JSON_ONLY);
    spoor_sheet_prop(p, "top_by", SPOOR_CU_NONE, 0);
    spoor_sheet_name(p, s->delay[s->top_delay].name);
    static const struct spoor_sheet_col tc[] = {{"entity", SPOOR_CU_NONE, 0, 0}, {"delays", SPOOR_CU_NS, 0, 0}};
    struct spoor_sheet *top = spoor_report_table(rep, "top", JSON_ONLY, tc, 2);
    for (size_t i = 0; i < r->ntop; i++) {
        spoor_sheet_name(top, r->top[i].name);
        spoor_sheet_sheet(top, values_object(s, r->top[i].delay));
    }
    if (!r->compared)
        return;
    struct spoor_sheet *c = spoor_report_props(rep, "compare", JSON_ONLY);
    prop_count(c, "matched", r->matched);
    prop_count(c, "only_here", r->only_here);
    prop_count(c, "only_other", r->only_other);
    struct spoor_sheet *delays = spoor_sheet_props_new();
    for (size_t k = 0; k < s->ndelays; k++) {
        const struct spoor_lc_diff *d = &r->diff[k];
        struct spoor_sheet *o = spoor_sheet_props_new();
        prop_count(o, "count", d->count);
        prop_ns(o, "sum_ns", d->sum_a);
        prop_ns(o, "other_sum_ns", d->sum_b);
        prop_ns(o, "diff_ns", d->sum_b - d->sum_a);
        spoor_sheet_prop(o, "rel_diff", SPOOR_CU_CHANGE, 6);
        spoor_sheet_float(o, spoor_lc_relative(d->sum_a, d->sum_b));
        spoor_sheet_prop(delays, s->delay[k].name, SPOOR_CU_NONE, 0);
        spoor_sheet_sheet(delays, o);
    }
    spoor_sheet_prop(c, "delays", SPOOR_CU_NONE, 0);
    spoor_sheet_sheet(c, delays);
    struct spoor_sheet *other_groups = spoor_sheet_props_new();
    json_groups(other_groups, s, r->other_group, r->nother_groups);
    spoor_sheet_prop(c, "groups", SPOOR_CU_NONE, 0);
    spoor_sheet_sheet(c, other_groups);
    struct spoor_sheet *largest = spoor_sheet_rows_new(3);
    spoor_sheet_column(largest, 0, "entity", SPOOR_CU_NONE, 0, SPOOR_HINT_CATEGORY);
    spoor_sheet_column(largest, 1, "delays", SPOOR_CU_NS, 0, SPOOR_HINT_NONE);
    spoor_sheet_column(largest, 2, "other", SPOOR_CU_NS, 0, SPOOR_HINT_NONE);
    for (size_t i = 0; i < r->ntop_diff; i++) {
        spoor_sheet_name(largest, r->top_diff[i].name);
        spoor_sheet_sheet(largest, values_object(s, r->top_diff[i].delay));
        spoor_sheet_sheet(largest, values_object(s, r->top_diff[i].other));
    }
    spoor_sheet_prop(c, "largest_differences", SPOOR_CU_NONE, 0);
    spoor_sheet_sheet(c, largest);
}

/* ---- CSV's long form ---- */

static void csv_keys(struct spoor_sheet *t, const char *section, const char *by, const char *key, const char *delay)
{
    spoor_sheet_name(t, section);
    text_or_null(t, by);
    text_or_null(t, key);
    text_or_null(t, delay);
}

/* The columns after count: sum_ns to rel_diff, then the box's. */
enum { CSV_VALUES = 7, CSV_BOX = 7 };

static void csv_count(struct spoor_sheet *t, const char *section, const char *by, const char *key, uint64_t n)
{
    csv_keys(t, section, by, key, NULL);
    spoor_sheet_count(t, n);
    nulls(t, CSV_VALUES + CSV_BOX);
}

/* A delay's statistics; its box too when `boxed` (a row of one entity has none). */
static void csv_stat(struct spoor_sheet *t, const char *section, const char *by, const char *key, const char *delay,
                     const struct spoor_lc_stat *d, bool boxed)
{
    csv_keys(t, section, by, key, delay);
    spoor_sheet_count(t, d->count);
    if (!d->count) {
        nulls(t, CSV_VALUES + CSV_BOX);
        return;
    }
    spoor_sheet_int(t, d->sum);
    spoor_sheet_float(t, mean_of(d->sum, d->count));
    spoor_sheet_int(t, d->min);
    spoor_sheet_int(t, d->max);
    nulls(t, 3);
    if (!boxed) {
        nulls(t, CSV_BOX);
        return;
    }
    spoor_sheet_float(t, d->box.p25);
    spoor_sheet_float(t, d->box.median);
    spoor_sheet_float(t, d->box.p75);
    spoor_sheet_float(t, d->box.low);
    spoor_sheet_float(t, d->box.high);
    spoor_sheet_count(t, d->box.below);
    spoor_sheet_count(t, d->box.above);
}

/* The groups of every --by field: a row of the group's entities, then one
 * per delay. */
static void csv_group_rows(struct spoor_sheet *t, const char *section, const struct spoor_lc_spec *s,
                           struct spoor_lc_group *const *group, const size_t *ngroups)
{
    for (size_t b = 0; b < s->nby; b++)
        for (size_t g = 0; g < ngroups[b]; g++) {
            csv_count(t, section, s->by[b], group[b][g].value, group[b][g].entities);
            for (size_t k = 0; k < s->ndelays; k++)
                csv_stat(t, section, s->by[b], group[b][g].value, s->delay[k].name, &group[b][g].delay[k], true);
        }
}

static void csv_groups(struct spoor_sheet *t, const struct spoor_lc_spec *s, const struct spoor_lc_result *r)
{
    csv_group_rows(t, "group", s, r->group, r->ngroups);
    for (size_t i = 0; i < r->nkinds; i++) {
        const struct spoor_lc_kind *k = &r->kind[i];
        csv_count(t, "kind", k->kind, "entities", k->entities);
        csv_count(t, "kind", k->kind, "complete", k->complete);
        char key[256];
        for (size_t st = 0; st < s->nstages; st++) {
            snprintf(key, sizeof key, "missing:%s", s->stages[st]);
            csv_count(t, "kind", k->kind, key, k->missing[st]);
            snprintf(key, sizeof key, "repeated:%s", s->stages[st]);
            csv_count(t, "kind", k->kind, key, k->repeated[st]);
        }
    }
}

static void csv_compare(struct spoor_sheet *t, const struct spoor_lc_spec *s, const struct spoor_lc_result *r)
{
    csv_count(t, "compare", NULL, "matched", r->matched);
    csv_count(t, "compare", NULL, "only_here", r->only_here);
    csv_count(t, "compare", NULL, "only_other", r->only_other);
    for (size_t k = 0; k < s->ndelays; k++) {
        const struct spoor_lc_diff *d = &r->diff[k];
        csv_keys(t, "diff", NULL, NULL, s->delay[k].name);
        spoor_sheet_count(t, d->count);
        spoor_sheet_int(t, d->sum_a);
        spoor_sheet_float(t, mean_of(d->sum_a, d->count));
        nulls(t, 2);
        spoor_sheet_int(t, d->sum_b);
        spoor_sheet_int(t, d->sum_b - d->sum_a);
        spoor_sheet_float(t, spoor_lc_relative(d->sum_a, d->sum_b));
        nulls(t, CSV_BOX);
    }
    csv_group_rows(t, "other_group", s, r->other_group, r->nother_groups);
    const char *top = s->delay[s->top_delay].name;
    for (size_t i = 0; i < r->ntop_diff; i++) {
        const struct spoor_lc_entity *e = &r->top_diff[i];
        int64_t a = e->delay[s->top_delay], b = e->other[s->top_delay];
        char rank[32];
        snprintf(rank, sizeof rank, "%zu", i + 1);
        csv_keys(t, "top_diff", rank, e->name, top);
        spoor_sheet_count(t, 1);
        spoor_sheet_int(t, a);
        spoor_sheet_float(t, (double)a);
        spoor_sheet_int(t, a);
        spoor_sheet_int(t, a);
        spoor_sheet_int(t, b);
        spoor_sheet_int(t, b - a);
        spoor_sheet_float(t, spoor_lc_relative(a, b));
        nulls(t, CSV_BOX);
    }
}

static void csv_sheet(struct spoor_report *rep, const struct spoor_lc_spec *s, const struct spoor_lc_result *r,
                      const struct spoor_lc_input *in)
{
    static const struct spoor_sheet_col cols[] = {
        {"section", SPOOR_CU_NONE, 0, 0}, {"by", SPOOR_CU_NONE, 0, 0},       {"key", SPOOR_CU_NONE, 0, 0},
        {"delay", SPOOR_CU_NONE, 0, 0},   {"count", SPOOR_CU_COUNT, 0, 0},   {"sum_ns", SPOOR_CU_NS, 0, 0},
        {"mean_ns", SPOOR_CU_NS, 3, 0},   {"min_ns", SPOOR_CU_NS, 0, 0},     {"max_ns", SPOOR_CU_NS, 0, 0},
        {"other_sum_ns", SPOOR_CU_NS, 0, 0}, {"diff_ns", SPOOR_CU_NS, 0, 0}, {"rel_diff", SPOOR_CU_CHANGE, 6, 0},
        {"p25_ns", SPOOR_CU_NS, 2, 0}, {"median_ns", SPOOR_CU_NS, 2, 0}, {"p75_ns", SPOOR_CU_NS, 2, 0},
        {"whisker_low_ns", SPOOR_CU_NS, 2, 0}, {"whisker_high_ns", SPOOR_CU_NS, 2, 0},
        {"outliers_low", SPOOR_CU_COUNT, 0, 0}, {"outliers_high", SPOOR_CU_COUNT, 0, 0}};
    struct spoor_sheet *t = spoor_report_table(rep, "lifecycle", CSV_ONLY, cols, 5 + CSV_VALUES + CSV_BOX);
    csv_count(t, "input", NULL, "lines", in->lines);
    csv_count(t, "input", NULL, "skipped", in->skipped);
    csv_count(t, "records", NULL, "records", r->counts.records);
    csv_count(t, "records", NULL, "other_stage", r->counts.other_stage);
    csv_count(t, "records", NULL, "no_entity", r->counts.no_entity);
    csv_count(t, "records", NULL, "no_time", r->counts.no_time);
    csv_count(t, "entities", NULL, "entities", r->entities);
    csv_count(t, "entities", NULL, "filled", r->filled);
    for (size_t k = 0; k < s->ndelays; k++)
        csv_stat(t, "delay", NULL, NULL, s->delay[k].name, &r->total[k], true);
    csv_groups(t, s, r);
    for (size_t i = 0; i < r->ntop; i++) {
        char rank[32];
        snprintf(rank, sizeof rank, "%zu", i + 1);
        for (size_t k = 0; k < s->ndelays; k++) {
            int64_t v = r->top[i].delay[k];
            struct spoor_lc_stat one = {.count = v == SPOOR_NULL ? 0 : 1, .sum = v, .min = v, .max = v};
            csv_stat(t, "top", rank, r->top[i].name, s->delay[k].name, &one, false);
        }
    }
    if (r->compared)
        csv_compare(t, s, r);
}

/* For the HTML page: per value of each --by field, each delay's mean, a bar
 * each (the means of the JSON's groups, laid out for a chart). */
static void html_group_means(struct spoor_report *rep, const struct spoor_lc_spec *s, const struct spoor_lc_result *r)
{
    for (size_t b = 0; b < s->nby; b++) {
        struct spoor_sheet *t = spoor_report_rows(rep, NULL, s->ndelays + 1, HTML_ONLY);
        spoor_sheet_title(t, "mean delays per %s", s->by[b]);
        spoor_sheet_column(t, 0, s->by[b], SPOOR_CU_NONE, 0, SPOOR_HINT_CATEGORY);
        for (size_t k = 0; k < s->ndelays; k++)
            spoor_sheet_column(t, k + 1, s->delay[k].name, SPOOR_CU_NS, 3, SPOOR_HINT_SERIES);
        for (size_t i = 0; i < r->ngroups[b]; i++) {
            spoor_sheet_name(t, r->group[b][i].value);
            for (size_t k = 0; k < s->ndelays; k++) {
                const struct spoor_lc_stat *d = &r->group[b][i].delay[k];
                if (d->count)
                    spoor_sheet_float(t, mean_of(d->sum, d->count));
                else
                    spoor_sheet_null(t);
            }
        }
    }
}

/* A delay's box as a list cell [lower whisker, p25, median, p75, upper
 * whisker] (the numbers of the JSON's stat object), null without entities. */
static void box_cell(struct spoor_sheet *t, const struct spoor_lc_stat *d)
{
    if (!d || !d->count) {
        spoor_sheet_null(t);
        return;
    }
    struct spoor_sheet *l = spoor_sheet_list_new(SPOOR_CU_NS, 2);
    const double five[] = {d->box.low, d->box.p25, d->box.median, d->box.p75, d->box.high};
    for (size_t i = 0; i < 5; i++)
        spoor_sheet_float(l, five[i]);
    spoor_sheet_sheet(t, l);
}

/* For the HTML page: per value of each --by field and delay, the delay's box;
 * with --compare the other log's beside it (each log's groups by its own
 * values: every value of either, in order). */
static void html_group_boxes(struct spoor_report *rep, const struct spoor_lc_spec *s, const struct spoor_lc_result *r)
{
    for (size_t b = 0; b < s->nby; b++) {
        struct spoor_sheet *t = spoor_report_rows(rep, NULL, r->compared ? 4 : 3, HTML_ONLY);
        spoor_sheet_title(t, "delays per %s: boxes from p25 to p75 around the median, whiskers to the farthest "
                             "delays within 1.5 IQR of them (outliers counted in the JSON and CSV)", s->by[b]);
        spoor_sheet_column(t, 0, s->by[b], SPOOR_CU_NONE, 0, SPOOR_HINT_CATEGORY);
        spoor_sheet_column(t, 1, "delay", SPOOR_CU_NONE, 0, SPOOR_HINT_CATEGORY);
        spoor_sheet_column(t, 2, r->compared ? "here" : "delays", SPOOR_CU_NS, 2, SPOOR_HINT_BOX);
        if (r->compared)
            spoor_sheet_column(t, 3, "other", SPOOR_CU_NS, 2, SPOOR_HINT_BOX);
        const struct spoor_lc_group *here = r->group[b], *other = r->other_group[b];
        size_t i = 0, j = 0, n = r->ngroups[b], m = r->compared ? r->nother_groups[b] : 0;
        while (i < n || j < m) {
            int order = i == n ? 1 : j == m ? -1 : strcmp(here[i].value, other[j].value);
            const struct spoor_lc_group *a = order <= 0 ? &here[i++] : NULL, *o = order >= 0 ? &other[j++] : NULL;
            for (size_t k = 0; k < s->ndelays; k++) {
                spoor_sheet_name(t, a ? a->value : o->value);
                spoor_sheet_name(t, s->delay[k].name);
                box_cell(t, a ? &a->delay[k] : NULL);
                if (r->compared)
                    box_cell(t, o ? &o->delay[k] : NULL);
            }
        }
    }
}

/* For the HTML page, with --compare: each delay's sum here and in the other
 * log, bars side by side (the JSON's compare holds the same sums). */
static void html_compare(struct spoor_report *rep, const struct spoor_lc_spec *s, const struct spoor_lc_result *r)
{
    struct spoor_sheet *t = spoor_report_rows(rep, NULL, 3, HTML_ONLY);
    spoor_sheet_title(t, "two logs compared: each delay summed over the entities that have it in both");
    spoor_sheet_column(t, 0, "delay", SPOOR_CU_NONE, 0, SPOOR_HINT_CATEGORY);
    spoor_sheet_column(t, 1, "sum_ns", SPOOR_CU_NS, 0, SPOOR_HINT_SERIES);
    spoor_sheet_column(t, 2, "other_sum_ns", SPOOR_CU_NS, 0, SPOOR_HINT_SERIES);
    for (size_t k = 0; k < s->ndelays; k++) {
        spoor_sheet_name(t, s->delay[k].name);
        spoor_sheet_int(t, r->diff[k].sum_a);
        spoor_sheet_int(t, r->diff[k].sum_b);
    }
}

struct spoor_report *spoor_lc_report(const struct spoor_lc_spec *s, const struct spoor_lc_result *r,
                                     const struct spoor_lc_input *in)
{
    struct spoor_report *rep = spoor_report_new("spoor lifecycle");
    table_head(rep, r, in);
    table_delays(rep, s, r);
    table_kinds(rep, s, r);
    table_top(rep, s, r);
    if (r->compared) {
        table_compare(rep, s, r);
        for (size_t b = 0; b < s->nby; b++)
            spoor_sheet_title(table_groups(rep, s, b, r->other_group[b], r->nother_groups[b]),
                              "the other log per %s", s->by[b]);
    }
    json_head(rep, s, r, in);
    json_rest(rep, s, r);
    html_group_means(rep, s, r);
    html_group_boxes(rep, s, r);
    if (r->compared)
        html_compare(rep, s, r);
    csv_sheet(rep, s, r, in);
    return rep;
}
