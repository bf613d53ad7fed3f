/* The HTML-only sheets of `spoor report` that its charts are drawn from
 * (job_report_pivots.c): the same numbers as the JSON sheets beside them,
 * laid out as a heatmap reads them, one row per layer, operation or process
 * and a pivot column per log2 bin or time bucket. */
#ifndef SPOOR_ANALYZE_JOB_REPORT_PIVOTS_H
#define SPOOR_ANALYZE_JOB_REPORT_PIVOTS_H

#include <stddef.h>
#include <stdint.h>

#include "analyze/job_charts.h"
#include "analyze/proc_names.h"

/* A cell of a chart over time: its row (a label or a pid), its bucket's
 * start t, the events and the sum in it. */
struct time_cell {
    const char *label;
    int64_t pid, t;
    uint64_t count;
    int64_t sum;
};

struct spoor_report;
/* access_sizes_chart: per layer, calls per access-size bin. */
void job_pivot_sizes(struct spoor_report *r, const struct job_charts *c);
/* latency_chart: per (cat, name), calls per latency bin. */
void job_pivot_latency(struct spoor_report *r, const struct job_charts *c);
/* io_heatmap_chart: per process ("name pid", or the pid when it has no
 * name), I/O ns per time bucket of 2^shift ns, from the n cells by pid then
 * time. */
void job_pivot_io(struct spoor_report *r, const struct time_cell *cells, size_t n, int shift,
                  const struct proc_names *names);

#endif
