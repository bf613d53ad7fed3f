/* The HTML-only chart sheets of `spoor report` (job_report_pivots.h): the
 * histograms and the process x time heatmap as pivots, so that the page draws
 * each as one heatmap, its rows the layers, operations or processes and its
 * columns the log2 bins (named by their lower bounds: the x axis is a log
 * scale) or the time buckets (named by their start after the first). An
 * empty cell is null: the heatmap leaves it blank. */
#include "analyze/job_report_pivots.h"

#include "spoor/report.h"

#include <stdbool.h>
#include <stdio.h>

#define HTML_ONLY SPOOR_FORMAT_BIT(SPOOR_FORMAT_HTML)

enum { NAME_CAP = 40 };

/* A bin's lower bound as text: 2^(b-1), or 0 for bin 0. */
static void bin_name(char *buf, size_t cap, int b, bool bytes)
{
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    if (!b)
        snprintf(buf, cap, bytes ? "0 B" : "0 ns");
    else if (bytes)
        snprintf(buf, cap, "%d %s", 1 << ((b - 1) % 10), units[(b - 1) / 10]);
    else
        spoor_fmt_duration(buf, cap, (double)((uint64_t)1 << (b - 1)));
}

/* A sheet of the label columns, then a column of counts per bin in use. */
static struct spoor_sheet *bins_sheet(struct spoor_report *r, const char *key, const char *title,
                                      const char *const *labels, size_t nlabels, const bool used[JOB_BINS],
                                      bool bytes)
{
    size_t n = nlabels;
    for (int b = 0; b < JOB_BINS; b++)
        n += used[b];
    struct spoor_sheet *s = spoor_report_rows(r, key, n, HTML_ONLY);
    spoor_sheet_title(s, "%s", title);
    for (size_t i = 0; i < nlabels; i++)
        spoor_sheet_column(s, i, labels[i], SPOOR_CU_NONE, 0, SPOOR_HINT_CATEGORY);
    for (int b = 0; b < JOB_BINS; b++)
        if (used[b]) {
            char name[NAME_CAP];
            bin_name(name, sizeof name, b, bytes);
            spoor_sheet_column(s, nlabels++, name, SPOOR_CU_COUNT, 0, SPOOR_HINT_PIVOT);
        }
    return s;
}

static void bin_cells(struct spoor_sheet *s, const uint64_t count[JOB_BINS], const bool used[JOB_BINS])
{
    for (int b = 0; b < JOB_BINS; b++)
        if (used[b] && count[b])
            spoor_sheet_count(s, count[b]);
        else if (used[b])
            spoor_sheet_null(s);
}

static bool any(const uint64_t count[JOB_BINS], bool used[JOB_BINS])
{
    bool some = false;
    for (int b = 0; b < JOB_BINS; b++)
        if (count[b])
            some = used[b] = true;
    return some;
}

void job_pivot_sizes(struct spoor_report *r, const struct job_charts *c)
{
    bool used[JOB_BINS] = {0};
    for (size_t i = 0; i < c->ncats; i++)
        any(c->layers[i].size_count, used);
    static const char *const labels[] = {"cat"};
    struct spoor_sheet *s = bins_sheet(r, "access_sizes_chart", "access sizes: calls per layer and log2 bin of bytes",
                                       labels, 1, used, true);
    for (size_t i = 0; i < c->ncats; i++)
        if (any(c->layers[i].size_count, used)) {
            spoor_sheet_text(s, c->cats[i]);
            bin_cells(s, c->layers[i].size_count, used);
        }
}

void job_pivot_latency(struct spoor_report *r, const struct job_charts *c)
{
    bool used[JOB_BINS] = {0};
    for (size_t i = 0; i < c->nops; i++)
        any(c->latency[i].count, used);
    static const char *const labels[] = {"cat", "name"};
    struct spoor_sheet *s = bins_sheet(r, "latency_chart", "latency: calls per operation and log2 bin of dur",
                                       labels, 2, used, false);
    for (size_t i = 0; i < c->nops; i++)
        if (any(c->latency[i].count, used)) {
            spoor_sheet_text(s, c->op_cat[i]);
            spoor_sheet_text(s, c->op_name[i]);
            bin_cells(s, c->latency[i].count, used);
        }
}

/* A bucket's start after the first, in the unit of the whole span, with the
 * decimals that tell neighbouring buckets apart (column names are keys). */
static void offset_name(char *buf, size_t cap, int64_t offset, int64_t width, int64_t span)
{
    static const char *const names[] = {"ns", "us", "ms", "s"};
    static const double scale[] = {1, 1e3, 1e6, 1e9};
    int u = 3;
    while (u > 0 && (double)span < scale[u])
        u--;
    int decimals = 0;
    for (double step = (double)width / scale[u]; step < 10 && decimals < 9; step *= 10)
        decimals++;
    snprintf(buf, cap, "+%.*f %s", decimals, (double)offset / scale[u], names[u]);
}

void job_pivot_io(struct spoor_report *r, const struct time_cell *cells, size_t n, int shift,
                  const struct proc_names *names)
{
    int64_t width = (int64_t)1 << shift, lo = INT64_MAX, hi = INT64_MIN;
    for (size_t i = 0; i < n; i++) {
        lo = cells[i].t < lo ? cells[i].t : lo;
        hi = cells[i].t > hi ? cells[i].t : hi;
    }
    size_t buckets = n ? (size_t)((hi - lo) >> shift) + 1 : 0;
    struct spoor_sheet *s = spoor_report_rows(r, "io_heatmap_chart", 1 + buckets, HTML_ONLY);
    spoor_sheet_title(s, "I/O time per process and time bucket (from the run's first I/O)");
    spoor_sheet_column(s, 0, "process", SPOOR_CU_NONE, 0, SPOOR_HINT_CATEGORY);
    for (size_t k = 0; k < buckets; k++) {
        char name[NAME_CAP];
        offset_name(name, sizeof name, (int64_t)k * width, width, hi + width - lo);
        spoor_sheet_column(s, 1 + k, name, SPOOR_CU_NS, 0, SPOOR_HINT_PIVOT);
    }
    for (size_t i = 0; i < n;) {
        int64_t pid = cells[i].pid;
        const char *name = proc_names_of(names, pid);
        if (name)
            spoor_sheet_textf(s, "%s %lld", name, (long long)pid);
        else
            spoor_sheet_textf(s, "%lld", (long long)pid);
        for (size_t k = 0; k < buckets; k++)
            if (i < n && cells[i].pid == pid && cells[i].t == lo + (int64_t)k * width)
                spoor_sheet_int(s, cells[i++].sum);
            else
                spoor_sheet_null(s);
    }
}
