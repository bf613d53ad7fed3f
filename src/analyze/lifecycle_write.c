/* The lifecycle result as CSV, JSON and text tables. The CSV is long-form (one
 * value set per row, a `section` column says which) so it pipes into any tool;
 * `spoor gen --kind cascade` writes its ground truth in the same form. */
#include "spoor/lifecycle_write.h"
#include "spoor/csv_out.h"
#include "spoor/json_out.h"
#include "spoor/text_table.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

static double mean_of(int64_t sum, uint64_t n) { return n ? (double)sum / (double)n : 0; }

static void csv_keys(FILE *out, const char *section, const char *by, const char *key, const char *delay)
{
    fprintf(out, "%s,", section);
    spoor_csv_write_field(out, by);
    fputc(',', out);
    spoor_csv_write_field(out, key);
    fputc(',', out);
    spoor_csv_write_field(out, delay);
}

static void csv_count(FILE *out, const char *section, const char *by, const char *key, uint64_t n)
{
    csv_keys(out, section, by, key, "");
    fprintf(out, ",%" PRIu64 ",,,,,,,\n", n);
}

static void csv_stat(FILE *out, const char *section, const char *by, const char *key, const char *delay,
                     const struct spoor_lc_stat *s)
{
    csv_keys(out, section, by, key, delay);
    if (s->count)
        fprintf(out, ",%" PRIu64 ",%" PRId64 ",%.3f,%" PRId64 ",%" PRId64 ",,,\n", s->count, s->sum,
                mean_of(s->sum, s->count), s->min, s->max);
    else
        fprintf(out, ",0,,,,,,,\n");
}

static void csv_relative(FILE *out, int64_t a, int64_t b)
{
    double r = spoor_lc_relative(a, b);
    if (!isnan(r))
        fprintf(out, "%.6f", r);
    fputc('\n', out);
}

void spoor_lc_write_csv(FILE *out, const struct spoor_lc_spec *s, const struct spoor_lc_result *r,
                        const struct spoor_lc_input *in)
{
    fprintf(out, "section,by,key,delay,count,sum_ns,mean_ns,min_ns,max_ns,other_sum_ns,diff_ns,rel_diff\n");
    csv_count(out, "input", "", "lines", in->lines);
    csv_count(out, "input", "", "skipped", in->skipped);
    csv_count(out, "records", "", "records", r->counts.records);
    csv_count(out, "records", "", "other_stage", r->counts.other_stage);
    csv_count(out, "records", "", "no_entity", r->counts.no_entity);
    csv_count(out, "records", "", "no_time", r->counts.no_time);
    csv_count(out, "entities", "", "entities", r->entities);
    csv_count(out, "entities", "", "filled", r->filled);
    for (size_t k = 0; k < s->ndelays; k++)
        csv_stat(out, "delay", "", "", s->delay[k].name, &r->total[k]);
    for (size_t b = 0; b < s->nby; b++)
        for (size_t g = 0; g < r->ngroups[b]; g++) {
            csv_count(out, "group", s->by[b], r->group[b][g].value, r->group[b][g].entities);
            for (size_t k = 0; k < s->ndelays; k++)
                csv_stat(out, "group", s->by[b], r->group[b][g].value, s->delay[k].name, &r->group[b][g].delay[k]);
        }
    for (size_t i = 0; i < r->nkinds; i++) {
        const struct spoor_lc_kind *k = &r->kind[i];
        csv_count(out, "kind", k->kind, "entities", k->entities);
        csv_count(out, "kind", k->kind, "complete", k->complete);
        char key[256];
        for (size_t st = 0; st < s->nstages; st++) {
            snprintf(key, sizeof key, "missing:%s", s->stages[st]);
            csv_count(out, "kind", k->kind, key, k->missing[st]);
            snprintf(key, sizeof key, "repeated:%s", s->stages[st]);
            csv_count(out, "kind", k->kind, key, k->repeated[st]);
        }
    }
    for (size_t i = 0; i < r->ntop; i++) {
        char rank[32];
        snprintf(rank, sizeof rank, "%zu", i + 1);
        for (size_t k = 0; k < s->ndelays; k++) {
            int64_t v = r->top[i].delay[k];
            struct spoor_lc_stat one = {v == SPOOR_NULL ? 0 : 1, v, v, v};
            csv_stat(out, "top", rank, r->top[i].name, s->delay[k].name, &one);
        }
    }
    if (!r->compared)
        return;
    csv_count(out, "compare", "", "matched", r->matched);
    csv_count(out, "compare", "", "only_here", r->only_here);
    csv_count(out, "compare", "", "only_other", r->only_other);
    for (size_t k = 0; k < s->ndelays; k++) {
        const struct spoor_lc_diff *d = &r->diff[k];
        csv_keys(out, "diff", "", "", s->delay[k].name);
        fprintf(out, ",%" PRIu64 ",%" PRId64 ",%.3f,,,%" PRId64 ",%" PRId64 ",", d->count, d->sum_a,
                mean_of(d->sum_a, d->count), d->sum_b, d->sum_b - d->sum_a);
        csv_relative(out, d->sum_a, d->sum_b);
    }
    const char *top = s->delay[s->top_delay].name;
    for (size_t i = 0; i < r->ntop_diff; i++) {
        const struct spoor_lc_entity *e = &r->top_diff[i];
        int64_t a = e->delay[s->top_delay], b = e->other[s->top_delay];
        char rank[32];
        snprintf(rank, sizeof rank, "%zu", i + 1);
        csv_keys(out, "top_diff", rank, e->name, top);
        fprintf(out, ",1,%" PRId64 ",%" PRId64 ".000,%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 ",", a, a, a, a, b,
                b - a);
        csv_relative(out, a, b);
    }
}

/* ---- JSON ---- */

static void json_text(FILE *out, const char *s) { spoor_json_write_string(out, s, strlen(s)); }

static void json_stat(FILE *out, const struct spoor_lc_stat *s)
{
    fprintf(out, "{\"count\": %" PRIu64, s->count);
    if (s->count)
        fprintf(out, ", \"sum_ns\": %" PRId64 ", \"mean_ns\": %.3f, \"min_ns\": %" PRId64 ", \"max_ns\": %" PRId64,
                s->sum, mean_of(s->sum, s->count), s->min, s->max);
    fputc('}', out);
}

static void json_delays(FILE *out, const struct spoor_lc_spec *s, const struct spoor_lc_stat *d)
{
    fputc('{', out);
    for (size_t k = 0; k < s->ndelays; k++) {
        fprintf(out, "%s", k ? ", " : "");
        json_text(out, s->delay[k].name);
        fputs(": ", out);
        json_stat(out, &d[k]);
    }
    fputc('}', out);
}

static void json_values(FILE *out, const struct spoor_lc_spec *s, const int64_t *v)
{
    fputc('{', out);
    for (size_t k = 0; k < s->ndelays; k++) {
        fprintf(out, "%s", k ? ", " : "");
        json_text(out, s->delay[k].name);
        if (v[k] == SPOOR_NULL)
            fputs(": null", out);
        else
            fprintf(out, ": %" PRId64, v[k]);
    }
    fputc('}', out);
}

static void json_stage_counts(FILE *out, const struct spoor_lc_spec *s, const uint64_t *n)
{
    fputc('{', out);
    for (size_t st = 0, first = 1; st < s->nstages; st++)
        if (n[st]) {
            fprintf(out, "%s", first ? "" : ", ");
            json_text(out, s->stages[st]);
            fprintf(out, ": %" PRIu64, n[st]);
            first = 0;
        }
    fputc('}', out);
}

static void json_compare(FILE *out, const struct spoor_lc_spec *s, const struct spoor_lc_result *r)
{
    fprintf(out, ",\n  \"compare\": {\"matched\": %" PRIu64 ", \"only_here\": %" PRIu64 ", \"only_other\": %" PRIu64
                 ",\n    \"delays\": {",
            r->matched, r->only_here, r->only_other);
    for (size_t k = 0; k < s->ndelays; k++) {
        const struct spoor_lc_diff *d = &r->diff[k];
        fprintf(out, "%s\n      ", k ? "," : "");
        json_text(out, s->delay[k].name);
        fprintf(out, ": {\"count\": %" PRIu64 ", \"sum_ns\": %" PRId64 ", \"other_sum_ns\": %" PRId64
                     ", \"diff_ns\": %" PRId64 ", \"rel_diff\": ",
                d->count, d->sum_a, d->sum_b, d->sum_b - d->sum_a);
        double rel = spoor_lc_relative(d->sum_a, d->sum_b);
        isnan(rel) ? fputs("null}", out) : fprintf(out, "%.6f}", rel);
    }
    fputs("},\n    \"largest_differences\": [", out);
    for (size_t i = 0; i < r->ntop_diff; i++) {
        const struct spoor_lc_entity *e = &r->top_diff[i];
        fprintf(out, "%s\n      {\"entity\": ", i ? "," : "");
        json_text(out, e->name);
        fputs(", \"delays\": ", out);
        json_values(out, s, e->delay);
        fputs(", \"other\": ", out);
        json_values(out, s, e->other);
        fputc('}', out);
    }
    fputs("\n    ]}", out);
}

void spoor_lc_write_json(FILE *out, const struct spoor_lc_spec *s, const struct spoor_lc_result *r,
                         const struct spoor_lc_input *in)
{
    fprintf(out, "{\n  \"lines\": %" PRIu64 ", \"skipped\": %" PRIu64 ",\n", in->lines, in->skipped);
    fprintf(out, "  \"records\": %" PRIu64 ", \"other_stage\": %" PRIu64 ", \"no_entity\": %" PRIu64
                 ", \"no_time\": %" PRIu64 ",\n",
            r->counts.records, r->counts.other_stage, r->counts.no_entity, r->counts.no_time);
    fprintf(out, "  \"entities\": %" PRIu64 ", \"filled\": %" PRIu64 ",\n  \"delays\": ", r->entities, r->filled);
    json_delays(out, s, r->total);
    fputs(",\n  \"groups\": {", out);
    for (size_t b = 0; b < s->nby; b++) {
        fprintf(out, "%s\n    ", b ? "," : "");
        json_text(out, s->by[b]);
        fputs(": [", out);
        for (size_t g = 0; g < r->ngroups[b]; g++) {
            fprintf(out, "%s\n      {\"value\": ", g ? "," : "");
            json_text(out, r->group[b][g].value);
            fprintf(out, ", \"entities\": %" PRIu64 ", \"delays\": ", r->group[b][g].entities);
            json_delays(out, s, r->group[b][g].delay);
            fputc('}', out);
        }
        fputs("\n    ]", out);
    }
    fputs("},\n  \"kinds\": [", out);
    for (size_t i = 0; i < r->nkinds; i++) {
        const struct spoor_lc_kind *k = &r->kind[i];
        fprintf(out, "%s\n    {\"kind\": ", i ? "," : "");
        json_text(out, k->kind);
        fprintf(out, ", \"entities\": %" PRIu64 ", \"complete\": %" PRIu64 ", \"missing\": ", k->entities,
                k->complete);
        json_stage_counts(out, s, k->missing);
        fputs(", \"repeated\": ", out);
        json_stage_counts(out, s, k->repeated);
        fputc('}', out);
    }
    fputs("\n  ],\n  \"top_by\": ", out);
    json_text(out, s->delay[s->top_delay].name);
    fputs(",\n  \"top\": [", out);
    for (size_t i = 0; i < r->ntop; i++) {
        fprintf(out, "%s\n    {\"entity\": ", i ? "," : "");
        json_text(out, r->top[i].name);
        fputs(", \"delays\": ", out);
        json_values(out, s, r->top[i].delay);
        fputc('}', out);
    }
    fputs("\n  ]", out);
    if (r->compared)
        json_compare(out, s, r);
    fputs("\n}\n", out);
}

/* ---- text tables ---- */

static void cell_duration(struct spoor_text_table *t, int64_t v)
{
    char a[64];
    if (v == SPOOR_NULL)
        spoor_text_table_cell(t, "-");
    else
        spoor_text_table_cell(t, "%s%s", v < 0 ? "-" : "", spoor_fmt_duration(a, sizeof a, (double)(v < 0 ? -v : v)));
}

static void stat_cells(struct spoor_text_table *t, const struct spoor_lc_stat *d)
{
    char a[64];
    spoor_text_table_cell(t, "%s", spoor_fmt_count(a, sizeof a, d->count));
    if (!d->count) {
        for (int i = 0; i < 4; i++)
            spoor_text_table_cell(t, "-");
        return;
    }
    cell_duration(t, d->sum);
    spoor_text_table_cell(t, "%s", spoor_fmt_duration(a, sizeof a, fabs(mean_of(d->sum, d->count))));
    cell_duration(t, d->min);
    cell_duration(t, d->max);
}

static void print_delays(FILE *out, const struct spoor_lc_spec *s, const struct spoor_lc_result *r)
{
    static const char *h[] = {"delay", "entities", "sum", "mean", "min", "max"};
    static const bool right[] = {false, true, true, true, true, true};
    struct spoor_text_table *t = spoor_text_table_new(6, h, right);
    for (size_t k = 0; k < s->ndelays; k++) {
        spoor_text_table_cell(t, "%s = %s - %s", s->delay[k].name, s->stages[s->delay[k].to],
                              s->stages[s->delay[k].from]);
        stat_cells(t, &r->total[k]);
    }
    spoor_text_table_print(t, out);
    spoor_text_table_free(t);
}

static void print_groups(FILE *out, const struct spoor_lc_spec *s, const struct spoor_lc_result *r, size_t b)
{
    const char *h[] = {s->by[b], "delay", "entities", "sum", "mean", "min", "max"};
    static const bool right[] = {false, false, true, true, true, true, true};
    struct spoor_text_table *t = spoor_text_table_new(7, h, right);
    for (size_t g = 0; g < r->ngroups[b]; g++)
        for (size_t k = 0; k < s->ndelays; k++) {
            const char *v = r->group[b][g].value;
            spoor_text_table_cell(t, "%s", k ? "" : v[0] ? v : "(none)");
            spoor_text_table_cell(t, "%s", s->delay[k].name);
            stat_cells(t, &r->group[b][g].delay[k]);
        }
    fputc('\n', out);
    spoor_text_table_print(t, out);
    spoor_text_table_free(t);
}

/* "taskStarted 3, taskFinished 1" or "-". */
static void stage_list_cell(struct spoor_text_table *t, const struct spoor_lc_spec *s, const uint64_t *n)
{
    char buf[512] = "";
    size_t used = 0;
    for (size_t st = 0; st < s->nstages && used < sizeof buf; st++)
        if (n[st])
            used += (size_t)snprintf(buf + used, sizeof buf - used, "%s%s %" PRIu64, used ? ", " : "",
                                     s->stages[st], n[st]);
    spoor_text_table_cell(t, "%s", used ? buf : "-");
}

static void print_kinds(FILE *out, const struct spoor_lc_spec *s, const struct spoor_lc_result *r)
{
    static const char *h[] = {"kind", "entities", "complete", "missing stages", "repeated stages"};
    static const bool right[] = {false, true, true, false, false};
    struct spoor_text_table *t = spoor_text_table_new(5, h, right);
    char a[64];
    for (size_t i = 0; i < r->nkinds; i++) {
        spoor_text_table_cell(t, "%s", r->kind[i].kind[0] ? r->kind[i].kind : "(none)");
        spoor_text_table_cell(t, "%s", spoor_fmt_count(a, sizeof a, r->kind[i].entities));
        spoor_text_table_cell(t, "%s", spoor_fmt_count(a, sizeof a, r->kind[i].complete));
        stage_list_cell(t, s, r->kind[i].missing);
        stage_list_cell(t, s, r->kind[i].repeated);
    }
    fputc('\n', out);
    spoor_text_table_print(t, out);
    spoor_text_table_free(t);
}

static struct spoor_text_table *entity_table(const struct spoor_lc_spec *s, const char *first)
{
    const char *h[SPOOR_LC_MAX_DELAYS + 2] = {"#", first};
    bool right[SPOOR_LC_MAX_DELAYS + 2] = {true, false};
    for (size_t k = 0; k < s->ndelays; k++) {
        h[k + 2] = s->delay[k].name;
        right[k + 2] = true;
    }
    return spoor_text_table_new(s->ndelays + 2, h, right);
}

static void print_top(FILE *out, const struct spoor_lc_spec *s, const struct spoor_lc_result *r)
{
    if (!r->ntop)
        return;
    fprintf(out, "\nslowest %zu by %s\n", r->ntop, s->delay[s->top_delay].name);
    struct spoor_text_table *t = entity_table(s, "entity");
    for (size_t i = 0; i < r->ntop; i++) {
        spoor_text_table_cell(t, "%zu", i + 1);
        spoor_text_table_cell(t, "%s", r->top[i].name);
        for (size_t k = 0; k < s->ndelays; k++)
            cell_duration(t, r->top[i].delay[k]);
    }
    spoor_text_table_print(t, out);
    spoor_text_table_free(t);
}

static void rel_cell(struct spoor_text_table *t, int64_t a, int64_t b)
{
    double rel = spoor_lc_relative(a, b);
    if (isnan(rel))
        spoor_text_table_cell(t, "-");
    else
        spoor_text_table_cell(t, "%+.1f%%", rel * 100);
}

static void print_compare(FILE *out, const struct spoor_lc_spec *s, const struct spoor_lc_result *r)
{
    char a[64], b[64], c[64];
    fprintf(out, "\ncompare     %s entities matched, %s only in this log, %s only in the other\n",
            spoor_fmt_count(a, sizeof a, r->matched), spoor_fmt_count(b, sizeof b, r->only_here),
            spoor_fmt_count(c, sizeof c, r->only_other));
    static const char *h[] = {"delay", "matched", "mean here", "mean other", "mean diff", "rel diff"};
    static const bool right[] = {false, true, true, true, true, true};
    struct spoor_text_table *t = spoor_text_table_new(6, h, right);
    for (size_t k = 0; k < s->ndelays; k++) {
        const struct spoor_lc_diff *d = &r->diff[k];
        spoor_text_table_cell(t, "%s", s->delay[k].name);
        spoor_text_table_cell(t, "%s", spoor_fmt_count(a, sizeof a, d->count));
        cell_duration(t, d->count ? (int64_t)llround(mean_of(d->sum_a, d->count)) : SPOOR_NULL);
        cell_duration(t, d->count ? (int64_t)llround(mean_of(d->sum_b, d->count)) : SPOOR_NULL);
        cell_duration(t, d->count ? (int64_t)llround(mean_of(d->sum_b - d->sum_a, d->count)) : SPOOR_NULL);
        rel_cell(t, d->sum_a, d->sum_b);
    }
    spoor_text_table_print(t, out);
    spoor_text_table_free(t);
    if (!r->ntop_diff)
        return;
    int top = s->top_delay;
    fprintf(out, "\nlargest differences of %s\n", s->delay[top].name);
    static const char *hd[] = {"#", "entity", "here", "other", "diff", "rel diff"};
    static const bool rd[] = {true, false, true, true, true, true};
    t = spoor_text_table_new(6, hd, rd);
    for (size_t i = 0; i < r->ntop_diff; i++) {
        const struct spoor_lc_entity *e = &r->top_diff[i];
        spoor_text_table_cell(t, "%zu", i + 1);
        spoor_text_table_cell(t, "%s", e->name);
        cell_duration(t, e->delay[top]);
        cell_duration(t, e->other[top]);
        cell_duration(t, e->other[top] - e->delay[top]);
        rel_cell(t, e->delay[top], e->other[top]);
    }
    spoor_text_table_print(t, out);
    spoor_text_table_free(t);
}

void spoor_lc_write_table(FILE *out, const struct spoor_lc_spec *s, const struct spoor_lc_result *r,
                          const struct spoor_lc_input *in)
{
    char a[64], b[64], c[64], d[64];
    fprintf(out, "lines       %s, skipped %s\n", spoor_fmt_count(a, sizeof a, in->lines),
            spoor_fmt_count(b, sizeof b, in->skipped));
    fprintf(out, "records     %s; of other stages %s, without entity %s, without time %s\n",
            spoor_fmt_count(a, sizeof a, r->counts.records), spoor_fmt_count(b, sizeof b, r->counts.other_stage),
            spoor_fmt_count(c, sizeof c, r->counts.no_entity), spoor_fmt_count(d, sizeof d, r->counts.no_time));
    fprintf(out, "entities    %s (%s with stages filled in)\n\n", spoor_fmt_count(a, sizeof a, r->entities),
            spoor_fmt_count(b, sizeof b, r->filled));
    print_delays(out, s, r);
    for (size_t g = 0; g < s->nby; g++)
        print_groups(out, s, r, g);
    print_kinds(out, s, r);
    print_top(out, s, r);
    if (r->compared)
        print_compare(out, s, r);
}
