/* The sheets of `spoor report` beside the timeline: the overview (the stats
 * figures of the summary's period, the inputs), the layers (the summary's
 * layer table joined with the read/write/metadata/other split), top files
 * and functions, the distributions (access sizes per layer, latency per
 * operation, log2 bins) and the charts over time (bandwidth per layer, I/O
 * time per process). Small sheets show in a table too; the long ones, made
 * for charts, in JSON and HTML. Columns carry chart hints: the time axis, the
 * series to plot, the categories to group by; a column no chart should plot
 * has none. The histograms and the process x time heatmap are charted from
 * sheets of their own, in HTML only (job_report_pivots.c): one row per layer,
 * operation or process, a pivot column per bin or time bucket. */
#include "analyze/job_charts.h"
#include "analyze/job_report_pivots.h"
#include "analyze/proc_names.h"

#include "spoor/report.h"
#include "spoor/summary.h"

#include <stdlib.h>
#include <string.h>

#define JSON_HTML (SPOOR_FORMAT_BIT(SPOOR_FORMAT_JSON) | SPOOR_FORMAT_BIT(SPOOR_FORMAT_HTML))
#define TABLE_JSON (SPOOR_FORMAT_BIT(SPOOR_FORMAT_TABLE) | JSON_HTML)

/* A rows sheet whose columns keep the hints given: SPOOR_HINT_NONE there is
 * a column no chart plots (spoor_report_table would take a hint from its
 * unit). */
static struct spoor_sheet *sheet(struct spoor_report *r, const char *key, unsigned formats,
                                 const struct spoor_sheet_col *cols, size_t n)
{
    struct spoor_sheet *s = spoor_report_rows(r, key, n, formats);
    for (size_t c = 0; c < n; c++)
        spoor_sheet_column(s, c, cols[c].name, cols[c].unit, cols[c].digits, cols[c].hint);
    return s;
}

static void prop(struct spoor_sheet *p, const char *key, enum spoor_cell_unit unit, int64_t v)
{
    spoor_sheet_prop(p, key, unit, 0);
    spoor_sheet_int_or_null(p, v, SPOOR_NULL);
}

static void overview(struct spoor_report *r, const struct spoor_summary *s, const struct proc_names *names,
                     const struct spoor_load_result *res)
{
    const struct spoor_stats *p = &s->period;
    struct spoor_sheet *o = spoor_report_props(r, "overview", TABLE_JSON);
    spoor_sheet_title(o, "overview");
    prop(o, "events", SPOOR_CU_COUNT, (int64_t)p->events);
    prop(o, "metadata_events", SPOOR_CU_COUNT, (int64_t)p->metadata_events);
    bool timed = p->first_ts != SPOOR_NULL;
    prop(o, "job_time", SPOOR_CU_NS, timed ? p->last_end - p->first_ts : SPOOR_NULL);
    prop(o, "first_ts", SPOOR_CU_NS, p->first_ts);
    prop(o, "last_end", SPOOR_CU_NS, p->last_end);
    prop(o, "processes", SPOOR_CU_COUNT, (int64_t)p->processes);
    prop(o, "threads", SPOOR_CU_COUNT, (int64_t)p->threads);
    prop(o, "files", SPOOR_CU_COUNT, (int64_t)p->files);
    prop(o, "hosts", SPOOR_CU_COUNT, (int64_t)p->hosts);
    uint64_t skipped = 0;
    for (size_t i = 0; i < res->ninputs; i++)
        skipped += res->inputs[i].skips.total;
    prop(o, "skipped_lines", SPOOR_CU_COUNT, (int64_t)skipped);
    prop(o, "compute_time", SPOOR_CU_NS, s->compute_time);
    prop(o, "io_processes", SPOOR_CU_COUNT, (int64_t)s->io_processes);
    spoor_sheet_prop(o, "io_imbalance", SPOOR_CU_RATIO, 6);
    if (s->io_time_mean > 0)
        spoor_sheet_float(o, s->imbalance);
    else
        spoor_sheet_null(o);
    prop(o, "slowest_pid", SPOOR_CU_NONE, s->slowest_pid);
    const char *slowest = s->slowest_pid == SPOOR_NULL ? NULL : proc_names_of(names, s->slowest_pid);
    spoor_sheet_prop(o, "slowest_name", SPOOR_CU_NONE, 0);
    if (slowest)
        spoor_sheet_text(o, slowest);
    else
        spoor_sheet_null(o);
    for (size_t i = 0; i < res->ninputs; i++) {
        const struct spoor_dialect *d = &res->inputs[i].dialect;
        spoor_sheet_prop(o, "dialect", SPOOR_CU_NONE, 0);
        spoor_sheet_textf(o, "%s: ts in %s, dur in %s", d->name, spoor_unit_name(d->ts_unit),
                          spoor_unit_name(d->dur_unit));
        spoor_sheet_note(o, "%s", res->inputs[i].path);
    }
    spoor_stats_inputs_sheet(r, res, JSON_HTML);
}

static const struct job_layer *layer_of(const struct job_charts *c, const char *cat)
{
    size_t lo = 0, hi = c->ncats;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int d = strcmp(c->cats[mid], cat);
        if (!d)
            return &c->layers[mid];
        if (d < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

static void layers(struct spoor_report *r, const struct spoor_summary *s, const struct job_charts *c)
{
    /* charted: the dur of each kind of call stacked per layer, and their counts */
    const struct spoor_sheet_col cols[] = {
        {"cat", SPOOR_CU_NONE, 0, SPOOR_HINT_CATEGORY},   {"count", SPOOR_CU_COUNT, 0, SPOOR_HINT_NONE},
        {"time", SPOOR_CU_NS, 0, SPOOR_HINT_NONE},        {"self", SPOOR_CU_NS, 0, SPOOR_HINT_NONE},
        {"dur_sum", SPOOR_CU_NS, 0, SPOOR_HINT_NONE},     {"bytes", SPOOR_CU_BYTES, 0, SPOOR_HINT_NONE},
        {"read_dur", SPOOR_CU_NS, 0, SPOOR_HINT_STACKED}, {"write_dur", SPOOR_CU_NS, 0, SPOOR_HINT_STACKED},
        {"metadata_dur", SPOOR_CU_NS, 0, SPOOR_HINT_STACKED}, {"other_dur", SPOOR_CU_NS, 0, SPOOR_HINT_STACKED},
        {"read_count", SPOOR_CU_COUNT, 0, SPOOR_HINT_SERIES}, {"write_count", SPOOR_CU_COUNT, 0, SPOOR_HINT_SERIES},
        {"metadata_count", SPOOR_CU_COUNT, 0, SPOOR_HINT_SERIES}, {"other_count", SPOOR_CU_COUNT, 0, SPOOR_HINT_SERIES},
        {"parent", SPOOR_CU_NONE, 0, SPOOR_HINT_NONE},    {"parent_share", SPOOR_CU_SHARE, 6, SPOOR_HINT_NONE}};
    struct spoor_sheet *t = sheet(r, "layers", TABLE_JSON, cols, sizeof cols / sizeof *cols);
    spoor_sheet_title(t, "layers (time: union of the layer's calls; *_dur: dur sums by call kind)");
    for (size_t i = 0; i < s->nlayers; i++) {
        const struct spoor_summary_layer *l = &s->layers[i];
        const struct job_layer *j = layer_of(c, l->cat);
        spoor_sheet_text(t, l->cat);
        spoor_sheet_count(t, l->count);
        spoor_sheet_int(t, l->time);
        spoor_sheet_int(t, l->self);
        spoor_sheet_int(t, l->dur_sum);
        spoor_sheet_int(t, l->bytes);
        for (int k = 0; k < EVENT_OPS; k++)
            spoor_sheet_int(t, j ? j->op_dur[k] : 0);
        for (int k = 0; k < EVENT_OPS; k++)
            spoor_sheet_count(t, j ? j->op_count[k] : 0);
        if (l->parent) {
            spoor_sheet_text(t, l->parent);
            spoor_sheet_float(t, l->parent_share);
        } else {
            spoor_sheet_null(t);
            spoor_sheet_null(t);
        }
    }
}

static void top(struct spoor_report *r, const char *key, const struct spoor_summary_top *e, size_t n)
{
    const struct spoor_sheet_col cols[] = {{"label", SPOOR_CU_NONE, 0, SPOOR_HINT_CATEGORY},
                                           {"count", SPOOR_CU_COUNT, 0, 0},
                                           {"time", SPOOR_CU_NS, 0, 0},
                                           {"self", SPOOR_CU_NS, 0, 0},
                                           {"bytes", SPOOR_CU_BYTES, 0, 0}};
    struct spoor_sheet *t = spoor_report_table(r, key, TABLE_JSON, cols, 5);
    spoor_sheet_title(t, "%s", key);
    for (size_t i = 0; i < n; i++) {
        spoor_sheet_text(t, e[i].label);
        spoor_sheet_count(t, e[i].count);
        spoor_sheet_int(t, e[i].time);
        spoor_sheet_int(t, e[i].self);
        spoor_sheet_int(t, e[i].bytes);
    }
}

/* A log2 bin's bounds: [0, 1) for bin 0, else [2^(b-1), 2^b). */
static void bin_bounds(struct spoor_sheet *t, int b)
{
    spoor_sheet_int(t, b ? (int64_t)1 << (b - 1) : 0);
    spoor_sheet_int(t, b == 64 ? INT64_MAX : b ? (int64_t)1 << b : 1);
}

static void distributions(struct spoor_report *r, const struct job_charts *c)
{
    /* charted from their pivots */
    const struct spoor_sheet_col sizes[] = {{"cat", SPOOR_CU_NONE, 0, SPOOR_HINT_NONE},
                                            {"from_bytes", SPOOR_CU_BYTES, 0, SPOOR_HINT_NONE},
                                            {"to_bytes", SPOOR_CU_BYTES, 0, SPOOR_HINT_NONE},
                                            {"count", SPOOR_CU_COUNT, 0, SPOOR_HINT_NONE},
                                            {"bytes", SPOOR_CU_BYTES, 0, SPOOR_HINT_NONE}};
    struct spoor_sheet *t = sheet(r, "access_sizes", TABLE_JSON, sizes, 5);
    spoor_sheet_title(t, "access sizes per layer (log2 bins, [from, to) bytes)");
    for (size_t i = 0; i < c->ncats; i++)
        for (int b = 0; b < JOB_BINS; b++)
            if (c->layers[i].size_count[b]) {
                spoor_sheet_text(t, c->cats[i]);
                bin_bounds(t, b);
                spoor_sheet_count(t, c->layers[i].size_count[b]);
                spoor_sheet_int(t, c->layers[i].size_bytes[b]);
            }
    job_pivot_sizes(r, c);
    const struct spoor_sheet_col lat[] = {{"cat", SPOOR_CU_NONE, 0, SPOOR_HINT_NONE},
                                          {"name", SPOOR_CU_NONE, 0, SPOOR_HINT_NONE},
                                          {"from_ns", SPOOR_CU_NS, 0, SPOOR_HINT_NONE},
                                          {"to_ns", SPOOR_CU_NS, 0, SPOOR_HINT_NONE},
                                          {"count", SPOOR_CU_COUNT, 0, SPOOR_HINT_NONE}};
    t = sheet(r, "latency", JSON_HTML, lat, 5);
    for (size_t i = 0; i < c->nops; i++)
        for (int b = 0; b < JOB_BINS; b++)
            if (c->latency[i].count[b]) {
                spoor_sheet_text(t, c->op_cat[i]);
                spoor_sheet_text(t, c->op_name[i]);
                bin_bounds(t, b);
                spoor_sheet_count(t, c->latency[i].count[b]);
            }
    job_pivot_latency(r, c);
}

static int by_row_then_time(const void *a, const void *b)
{
    const struct time_cell *x = a, *y = b;
    int c = x->label && y->label ? strcmp(x->label, y->label) : (x->pid > y->pid) - (x->pid < y->pid);
    return c ? c : (x->t > y->t) - (x->t < y->t);
}

/* A time chart's cells, by row then time; labels (or pids) name the rows. */
static struct time_cell *time_cells(const struct bucket_sums *s, const char *const *labels, const int64_t *pids)
{
    struct time_cell *cells = malloc((s->cells.n ? s->cells.n : 1) * sizeof *cells);
    for (size_t i = 0; i < s->cells.n; i++) {
        uint32_t row = bucket_sums_row(s, i);
        cells[i] = (struct time_cell){labels ? labels[row] : NULL, pids ? pids[row] : 0,
                                      bucket_sums_bucket(s, i) << s->shift, s->count[i], s->sum[i]};
    }
    qsort(cells, s->cells.n, sizeof *cells, by_row_then_time);
    return cells;
}

static void over_time(struct spoor_report *r, const struct job_charts *c, const struct proc_names *names)
{
    struct spoor_sheet *p = spoor_report_props(r, "over_time", TABLE_JSON);
    spoor_sheet_title(p, "over time");
    prop(p, "bandwidth_bucket_ns", SPOOR_CU_NS, (int64_t)1 << c->bandwidth.shift);
    prop(p, "heatmap_bucket_ns", SPOOR_CU_NS, (int64_t)1 << c->heatmap.shift);
    const struct spoor_sheet_col bw[] = {{"t", SPOOR_CU_NS, 0, SPOOR_HINT_TIME},
                                         {"cat", SPOOR_CU_NONE, 0, SPOOR_HINT_CATEGORY},
                                         {"events", SPOOR_CU_COUNT, 0, SPOOR_HINT_NONE},
                                         {"bytes", SPOOR_CU_BYTES, 0, SPOOR_HINT_NONE},
                                         {"mib_per_s", SPOOR_CU_MIB_PER_S, 3, SPOOR_HINT_SERIES}};
    struct spoor_sheet *t = spoor_report_table(r, "bandwidth", JSON_HTML, bw, 5);
    struct time_cell *cells = time_cells(&c->bandwidth, c->cats, NULL);
    double seconds = (double)((int64_t)1 << c->bandwidth.shift) / 1e9;
    for (size_t i = 0; i < c->bandwidth.cells.n; i++) {
        spoor_sheet_int(t, cells[i].t);
        spoor_sheet_text(t, cells[i].label);
        spoor_sheet_count(t, cells[i].count);
        spoor_sheet_int(t, cells[i].sum);
        spoor_sheet_float(t, (double)cells[i].sum / (1024.0 * 1024.0) / seconds);
    }
    free(cells);
    /* charted from its pivot */
    const struct spoor_sheet_col hm[] = {{"pid", SPOOR_CU_NONE, 0, SPOOR_HINT_NONE},
                                         {"name", SPOOR_CU_NONE, 0, SPOOR_HINT_NONE},
                                         {"t", SPOOR_CU_NS, 0, SPOOR_HINT_NONE},
                                         {"events", SPOOR_CU_COUNT, 0, SPOOR_HINT_NONE},
                                         {"io_ns", SPOOR_CU_NS, 0, SPOOR_HINT_NONE}};
    t = sheet(r, "io_heatmap", JSON_HTML, hm, 5);
    cells = time_cells(&c->heatmap, NULL, c->pids);
    for (size_t i = 0; i < c->heatmap.cells.n; i++) {
        const char *name = proc_names_of(names, cells[i].pid);
        spoor_sheet_int(t, cells[i].pid);
        if (name)
            spoor_sheet_text(t, name);
        else
            spoor_sheet_null(t);
        spoor_sheet_int(t, cells[i].t);
        spoor_sheet_count(t, cells[i].count);
        spoor_sheet_int(t, cells[i].sum);
    }
    job_pivot_io(r, cells, c->heatmap.cells.n, c->heatmap.shift, names);
    free(cells);
}

void job_report_sheets(struct spoor_report *r, const struct spoor_summary *s, const struct job_charts *c,
                       const struct proc_names *names, const struct spoor_load_result *res)
{
    overview(r, s, names, res);
    layers(r, s, c);
    top(r, "top_files", s->files, s->nfiles);
    top(r, "top_functions", s->functions, s->nfunctions);
    distributions(r, c);
    over_time(r, c, names);
}
