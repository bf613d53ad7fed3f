/* The charts of `spoor report` that the summary does not hold, summed on the
 * loader's workers in one pass and merged at the end:
 *   ops       per layer (cat), count and dur sum of its read, write,
 *             metadata and other calls, by name (event_op_class, ops/event_bytes.h);
 *   sizes     per layer, the access-size histogram: events with bytes
 *             (event_bytes.h) by log2 bin, count and bytes;
 *   latency   per (cat, name), dur by log2 bin;
 *   bandwidth per layer, bytes and events per time bucket (by start);
 *   heatmap   per process, the ns of its I/O events (a file or bytes, as in
 *             the summary) inside each time bucket.
 * Bins: bin 0 holds 0, bin b >= 1 holds [2^(b-1), 2^b). The time charts
 * keep at most opts columns: a worker doubles its bucket width when its own
 * buckets pass them, and the end widens the merged ones until they fit, so
 * the width is the narrowest that fits the whole run, for any --threads. */
#ifndef SPOOR_ANALYZE_JOB_CHARTS_H
#define SPOOR_ANALYZE_JOB_CHARTS_H

#include <stddef.h>
#include <stdint.h>

#include "ops/event_bytes.h"
#include "util/bucket_sums.h"
#include "spoor/table.h"

#define JOB_BINS 65

/* The log2 bin of a non-negative value. */
int job_bin(int64_t v);

struct job_layer {
    uint64_t op_count[EVENT_OPS];
    int64_t op_dur[EVENT_OPS];
    uint64_t size_count[JOB_BINS];
    int64_t size_bytes[JOB_BINS];
};

struct job_latency {
    uint64_t count[JOB_BINS];
};

struct job_charts {
    const char **cats;              /* sorted; layers[i] is cats[i]'s */
    struct job_layer *layers;
    size_t ncats;
    const char **op_cat, **op_name; /* sorted by cat, then name */
    struct job_latency *latency;
    size_t nops;
    struct bucket_sums bandwidth;   /* row: index into cats */
    struct bucket_sums heatmap;     /* row: index into pids */
    int64_t *pids;                  /* sorted */
    size_t npids;
    struct spoor_strpool *pool;     /* owns the strings */
};

struct job_charts_run;
struct job_charts_run *job_charts_begin(size_t columns, int threads);
/* A loader map(): any batch on any worker. */
void job_charts_add(struct job_charts_run *run, int worker, const struct spoor_table *batch);
void job_charts_end(struct job_charts_run *run, struct job_charts *out);
void job_charts_free(struct job_charts *c);

/* The report's sheets (job_report_sheets.c): overview, layers, top files and
 * functions, access sizes, latency, bandwidth and the I/O heatmap. */
struct spoor_report;
struct spoor_summary;
struct spoor_load_result;
struct proc_names;
void job_report_sheets(struct spoor_report *r, const struct spoor_summary *s, const struct job_charts *c,
                       const struct proc_names *names, const struct spoor_load_result *res);

#endif
