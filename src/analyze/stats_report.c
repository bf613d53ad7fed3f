/* A `spoor stats` result as a report: the table's header lines and per-cat
 * and per-name tables, JSON's members and CSV's one table of both (docs/cli.md
 * shows each). */
#include "spoor/stats.h"
#include "spoor/report.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TABLE_ONLY SPOOR_FORMAT_BIT(SPOOR_FORMAT_TABLE)
#define JSON_ONLY SPOOR_FORMAT_BIT(SPOOR_FORMAT_JSON)
#define CSV_ONLY SPOOR_FORMAT_BIT(SPOOR_FORMAT_CSV)

static double mean(const struct spoor_dur_stats *d) { return d->timed ? (double)d->sum / (double)d->timed : 0; }

/* The lines a table starts with: where, each input, the counts. */
static void header_lines(struct spoor_report *r, const struct spoor_stats *s, const struct spoor_load_result *res,
                         const char *where)
{
    struct spoor_sheet *p = spoor_report_props(r, NULL, TABLE_ONLY);
    char a[64], b[64];
    if (where) {
        spoor_sheet_prop(p, "where", SPOOR_CU_NONE, 0);
        spoor_sheet_text(p, where);
        spoor_sheet_note(p, "only matching events are counted");
    }
    for (size_t i = 0; i < res->ninputs; i++) {
        const struct spoor_input_report *in = &res->inputs[i];
        spoor_sheet_prop(p, "trace", SPOOR_CU_NONE, 0);
        spoor_sheet_text(p, in->path);
        spoor_sheet_note(p, "%s on disk, %s uncompressed", spoor_fmt_count(a, sizeof a, in->disk_bytes),
                         spoor_fmt_count(b, sizeof b, in->bytes));
        spoor_sheet_prop(p, "dialect", SPOOR_CU_NONE, 0);
        spoor_sheet_textf(p, "%s: ts in %s, dur in %s%s", in->dialect.name, spoor_unit_name(in->dialect.ts_unit),
                          spoor_unit_name(in->dialect.dur_unit), in->dialect.pid_tid_swapped ? ", pid/tid swapped" : "");
        if (in->dialect.assumed[0]) {
            spoor_sheet_prop(p, "assumed", SPOOR_CU_NONE, 0);
            spoor_sheet_text(p, in->dialect.assumed);
        }
        if (in->dialect.clock[0]) {
            spoor_sheet_prop(p, "clock", SPOOR_CU_NONE, 0);
            spoor_sheet_text(p, in->dialect.clock);
        }
        char *reasons = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&reasons, &len);
        for (size_t k = 0; f && k < in->skips.nreasons; k++)
            fprintf(f, "%s%llu %s", k ? ", " : " (", (unsigned long long)in->skips.count[k], in->skips.reason[k]);
        if (f)
            fclose(f);
        spoor_sheet_prop(p, "lines", SPOOR_CU_NONE, 0);
        spoor_sheet_textf(p, "%s, skipped %s%s%s", spoor_fmt_count(a, sizeof a, in->lines),
                          spoor_fmt_count(b, sizeof b, in->skips.total), reasons ? reasons : "",
                          in->skips.nreasons ? ")" : "");
        free(reasons);
        if (in->redefined) {
            spoor_sheet_prop(p, "redefined", SPOOR_CU_NONE, 0);
            spoor_sheet_textf(p, "%llu hash definitions (FH/HH/SH) change an earlier one; each event takes the one"
                                 " in force at its line",
                              (unsigned long long)in->redefined);
        }
        if (in->warning) {
            spoor_sheet_prop(p, "warning", SPOOR_CU_NONE, 0);
            spoor_sheet_text(p, in->warning);
        }
    }
    spoor_sheet_prop(p, "events", SPOOR_CU_COUNT, 0);
    spoor_sheet_count(p, s->events);
    spoor_sheet_note(p, "+ %s metadata", spoor_fmt_count(a, sizeof a, s->metadata_events));
    if (s->first_ts != SPOOR_NULL) {
        spoor_sheet_prop(p, "time span", SPOOR_CU_NS, 0);
        spoor_sheet_int(p, s->last_end - s->first_ts);
        spoor_sheet_note(p, "first ts %" PRId64 " ns, last end %" PRId64 " ns", s->first_ts, s->last_end);
    }
    spoor_sheet_prop(p, "seen", SPOOR_CU_NONE, 0);
    spoor_sheet_textf(p, "%" PRIu64 " files, %" PRIu64 " hosts, %" PRIu64 " processes, %" PRIu64 " threads", s->files,
                      s->hosts, s->processes, s->threads);
}

/* The inputs and counts as a program wants them (JSON). */
static void header_members(struct spoor_report *r, const struct spoor_stats *s, const struct spoor_load_result *res,
                           const char *where)
{
    if (where) {
        struct spoor_sheet *w = spoor_report_props(r, NULL, JSON_ONLY);
        spoor_sheet_prop(w, "where", SPOOR_CU_NONE, 0);
        spoor_sheet_text(w, where);
    }
    spoor_stats_inputs_sheet(r, res, JSON_ONLY);
    struct spoor_sheet *p = spoor_report_props(r, NULL, JSON_ONLY);
    const struct {
        const char *key;
        uint64_t n;
    } counts[] = {{"events", s->events}, {"metadata_events", s->metadata_events}};
    for (size_t i = 0; i < 2; i++) {
        spoor_sheet_prop(p, counts[i].key, SPOOR_CU_COUNT, 0);
        spoor_sheet_count(p, counts[i].n);
    }
    if (s->first_ts != SPOOR_NULL) {
        const struct {
            const char *key;
            int64_t ns;
        } times[] = {{"first_ts", s->first_ts}, {"last_end", s->last_end}, {"span", s->last_end - s->first_ts}};
        for (size_t i = 0; i < 3; i++) {
            spoor_sheet_prop(p, times[i].key, SPOOR_CU_NS, 0);
            spoor_sheet_int(p, times[i].ns);
        }
    }
    const struct {
        const char *key;
        uint64_t n;
    } seen[] = {{"files", s->files}, {"hosts", s->hosts}, {"processes", s->processes}, {"threads", s->threads}};
    for (size_t i = 0; i < 4; i++) {
        spoor_sheet_prop(p, seen[i].key, SPOOR_CU_COUNT, 0);
        spoor_sheet_count(p, seen[i].n);
    }
}

/* The dur statistics per group in the layout of one format: a table's
 * (human units, "-" when untimed), JSON's (raw ns, left out when untimed) or
 * CSV's (one sheet of both levels, a level column first). */
enum layout { FOR_TABLE, FOR_JSON, FOR_CSV };

static void group_columns(struct spoor_sheet *sh, enum layout l, bool with_name)
{
    static const char *const table[] = {"cat", "name", "count", "sum(dur)", "mean", "min", "max"};
    static const char *const json[] = {"cat", "name", "count", "timed", "dur_sum", "dur_mean", "dur_min", "dur_max"};
    static const char *const csv[] = {"level", "cat", "name", "count", "timed",
                                      "dur_sum_ns", "dur_mean_ns", "dur_min_ns", "dur_max_ns"};
    const char *const *h = l == FOR_TABLE ? table : l == FOR_JSON ? json : csv;
    size_t n = l == FOR_TABLE ? 7 : l == FOR_JSON ? 8 : 9, c = 0;
    for (size_t i = 0; i < n; i++) {
        if (!with_name && !strcmp(h[i], "name"))
            continue;
        bool dur = i + 4 >= n, count = !dur && (!strcmp(h[i], "count") || !strcmp(h[i], "timed"));
        spoor_sheet_column(sh, c++, h[i], dur ? SPOOR_CU_NS : count ? SPOOR_CU_COUNT : SPOOR_CU_NONE, 3,
                           dur || count ? SPOOR_HINT_SERIES : SPOOR_HINT_CATEGORY);
    }
}

static void group_rows(struct spoor_sheet *sh, enum layout l, const char *level, const struct spoor_stats_group *g,
                       size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const struct spoor_dur_stats *d = &g[i].dur;
        if (l == FOR_CSV)
            spoor_sheet_name(sh, level);
        spoor_sheet_name(sh, g[i].cat);
        if (g[i].name)
            spoor_sheet_name(sh, g[i].name);
        else if (l == FOR_CSV) /* a cat's row has no name */
            spoor_sheet_null(sh);
        spoor_sheet_count(sh, d->count);
        if (l != FOR_TABLE)
            spoor_sheet_count(sh, d->timed);
        if (!d->timed) { /* "-" in a table, left out of JSON, empty in CSV */
            for (int k = 0; k < 4; k++)
                (l == FOR_TABLE ? spoor_sheet_null : spoor_sheet_absent)(sh);
            continue;
        }
        spoor_sheet_int(sh, d->sum);
        spoor_sheet_float(sh, mean(d));
        spoor_sheet_int(sh, d->min);
        spoor_sheet_int(sh, d->max);
    }
}

struct spoor_report *spoor_stats_report(const struct spoor_stats *s, const struct spoor_load_result *res,
                                       const char *where)
{
    struct spoor_report *r = spoor_report_new("spoor stats");
    header_lines(r, s, res, where);
    header_members(r, s, res, where);
    for (enum layout l = FOR_TABLE; l <= FOR_JSON; l++) {
        unsigned shown = l == FOR_TABLE ? TABLE_ONLY : JSON_ONLY;
        struct spoor_sheet *by_cat = spoor_report_rows(r, "by_cat", l == FOR_TABLE ? 6 : 7, shown);
        group_columns(by_cat, l, false);
        group_rows(by_cat, l, "cat", s->by_cat, s->nby_cat);
        struct spoor_sheet *by_name = spoor_report_rows(r, "by_name", l == FOR_TABLE ? 7 : 8, shown);
        group_columns(by_name, l, true);
        group_rows(by_name, l, "name", s->by_name, s->nby_name);
    }
    struct spoor_sheet *csv = spoor_report_rows(r, "groups", 9, CSV_ONLY);
    group_columns(csv, FOR_CSV, true);
    group_rows(csv, FOR_CSV, "cat", s->by_cat, s->nby_cat);
    group_rows(csv, FOR_CSV, "name", s->by_name, s->nby_name);
    return r;
}
