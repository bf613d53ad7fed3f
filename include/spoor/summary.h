/* `spoor summary`: the time-period summary and layer breakdown every DFTracer
 * user runs first (dfanalyzer's "time period summary" and "layer breakdown").
 *
 * Definitions (every time in ns, every union exact):
 *   time       length of the union of a group's [ts, ts + dur] spans over all
 *              threads: wall-clock time during which the group was running;
 *   self       sum of the events' exclusive time (dur minus nested children,
 *              per thread; see spoor/interval.h);
 *   bytes      per event, the byte rule of src/ops/event_bytes.h
 *              (docs/formats.md, "Bytes"); events with bytes are "sized";
 *   parent     of a layer (cat) C: the cat of the innermost enclosing event of
 *              another cat, the one that holds most of C's time; share = dur
 *              of C's outermost events inside that layer / dur of the parent
 *              layer's outermost events (outermost: parent of another cat);
 *   compute    events whose cat, or "cat.name", is in the compute list; it
 *              hides only the I/O of its own process;
 *   I/O        events with a file (fhash/fname) or bytes;
 *   counters   profile counters (ph C with args freq and time, DataCrumbs
 *              profile mode) count freq calls and add args.time (seconds) to
 *              every time above, summed beside the unions (no span: overlap
 *              unknown); they add no self time and no parent. */
#ifndef SPOOR_SUMMARY_H
#define SPOOR_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "spoor/expr.h"
#include "spoor/load.h"
#include "spoor/report.h"
#include "spoor/stats.h"
#include "spoor/table.h"

/* Default compute list: cats compute and cpu, and the app phase "compute". */
SPOOR_API extern const char spoor_summary_default_compute[];

/* Rows held per thread to put them in start order: a writer in end-time order
 * puts a parent right after its descendants, so a row is rarely more than one
 * call tree away from its place (up to a few thousand rows in DLIO traces). */
#define SPOOR_SUMMARY_WINDOW 4096

struct spoor_summary_opts {
    const char *compute;    /* comma-separated cats or cat.name; NULL = default */
    size_t top;             /* top files and functions kept */
    size_t window;          /* rows held per reorder; 0 = SPOOR_SUMMARY_WINDOW */
    /* Inputs fed one after another: more than one (a file per process, say)
     * puts rows out of global start order from the start, so the unions are
     * kept per thread at once instead of after a failed first pass. */
    size_t inputs;
};

struct spoor_summary_layer {
    const char *cat;
    uint64_t count, sized;
    int64_t time, self, dur_sum, bytes;
    int64_t counter_time;   /* the part of time (and dur_sum) from counters */
    /* Per process, the union of the layer not overlapped by the union of the
     * same process's compute events; summed over processes. */
    int64_t not_compute;
    const char *parent;     /* NULL at top level */
    double parent_share;    /* 0..1 */
};

struct spoor_summary_top {
    const char *label;      /* a file path, or "cat.name" */
    uint64_t count;
    int64_t time, self, bytes;
    int64_t counter_time;   /* the part of time from counters */
};

#define SPOOR_SUMMARY_BINS 6
/* Upper bounds (exclusive) of the access-size bins; the last is unbounded. */
SPOOR_API extern const int64_t spoor_summary_bin_limit[SPOOR_SUMMARY_BINS - 1];
SPOOR_API extern const char *const spoor_summary_bin_name[SPOOR_SUMMARY_BINS];

struct spoor_summary {
    struct spoor_stats period;      /* events, span, processes, threads, files, hosts */
    int64_t compute_time;           /* union of compute events */
    uint64_t compute_events;        /* events of the compute list */
    /* No compute event: the cats (then cat.name functions) that look like
     * compute, comma-separated; NULL when there are none or compute_events. */
    const char *compute_like;
    struct spoor_summary_layer *layers; /* by time, longest first */
    size_t nlayers;
    struct spoor_summary_top *files, *functions; /* by time, longest first */
    size_t nfiles, nfunctions;
    uint64_t bin_count[SPOOR_SUMMARY_BINS];
    int64_t bin_bytes[SPOOR_SUMMARY_BINS];
    uint64_t io_processes;          /* processes with I/O events */
    int64_t io_time_max;            /* per-process union of I/O events, ns */
    double io_time_mean;
    double imbalance;               /* max / mean, 0 when no I/O or a mean of 0 */
    int64_t slowest_pid;            /* SPOOR_NULL when no I/O */
    struct spoor_strpool *strings;  /* owns every label */
};

/* The args the summary reads: load with SPOOR_ARGS_LISTED and these keys. */
SPOOR_API extern const char *const spoor_summary_arg_keys[];
SPOOR_API extern const size_t spoor_summary_n_arg_keys;

/* The summary is a streaming recipe: feed the inputs through spoor_load with
 * the sink (map() on `threads` workers, reduce() in input order), then ask
 * spoor_summary_again. Memory follows the unions (disjoint spans per group)
 * and a bounded reorder window per thread, never the number of events.
 *
 * Self time and parents need each thread's rows in start order (a window of
 * opts->window rows per thread), and a union is cheapest when every thread's
 * rows come in one start order: the first pass merges all threads' rows (4
 * windows deep). When rows come further out of that order (threads written in
 * blocks, a long event written after much else of its cat), or a thread's
 * rows overflow its window (a long event written after everything it holds,
 * a shuffled trace), spoor_summary_again returns true: feed the inputs once
 * more, with unions per thread and the threads that overflowed held whole.
 * The answer is the same either way. */
struct spoor_summary_run;
SPOOR_API struct spoor_summary_run *spoor_summary_begin(const struct spoor_summary_opts *opts, int threads);
SPOOR_API struct spoor_sink spoor_summary_sink(struct spoor_summary_run *run);
/* Ends a pass: false when the summary is complete, true when the inputs must
 * be fed again (at most once). */
SPOOR_API bool spoor_summary_again(struct spoor_summary_run *run);
/* The answer; frees the run. */
SPOOR_API void spoor_summary_end(struct spoor_summary_run *run, struct spoor_summary *out);

/* Summarises a whole table (fed as one batch; hashes resolve through every
 * lookup of the table). */
SPOOR_API void spoor_summarize(const struct spoor_table *t, const struct spoor_summary_opts *opts,
                               struct spoor_summary *out);
SPOOR_API void spoor_summary_free(struct spoor_summary *s);

/* `spoor summary` over traces: the streaming run above, its rows filtered by
 * where (NULL: every row), read a second time when it needs one (an error for
 * a stream, which cannot be read again); so->inputs is set from npaths.
 * Fills out (free it with spoor_summary_free) and loaded, whatever the status. */
SPOOR_API int spoor_summary_load(const char *const *paths, size_t npaths, const struct spoor_load_opts *opts,
                                 const struct spoor_summary_opts *so, const struct spoor_expr *where,
                                 struct spoor_summary *out, struct spoor_stream_load *loaded, struct spoor_error *err);

/* The result as a report: a table's header lines and tables, JSON's members
 * and CSV's long form; compute is the opts' compute cats as given, where
 * the --where text (NULL: none). */
SPOOR_API struct spoor_report *spoor_summary_report(const struct spoor_summary *s, const char *compute, const char *where);

/* `spoor report`: the job report of traces, as data for any renderer. One
 * pass of the loader feeds three recipes at once: this summary (whose period
 * is the stats recipe's), the charts beside it (read/write/metadata split per
 * layer, access-size and latency histograms, bandwidth and I/O time over
 * time), the process names (src/analyze/proc_names.h), the zoomable
 * timeline (src/analyze/timeline.h) and its counter tracks (CPU and GPU
 * utilisation, timeline_counters.h). The report's sheets: overview, inputs,
 * layers, top_files, top_functions, access_sizes, latency, over_time,
 * bandwidth, io_heatmap, processes and the timeline_* ones. Load with
 * SPOOR_ARGS_LISTED and spoor_job_report_arg_keys. When the summary needs
 * its second pass (rows far out of time order), the inputs are read again for
 * it alone and *read_twice is set; a stream cannot be, which is an error. */
struct spoor_report;
struct spoor_job_report_opts {
    struct spoor_summary_opts summary;
    const char *phase_cats;     /* the timeline's phase cats; NULL = "app,mllog,log" */
    size_t time_columns;        /* buckets of the charts over time; 0 = 256 */
};
/* The summary's args and those that name processes and make counter tracks. */
SPOOR_API extern const char *const spoor_job_report_arg_keys[];
SPOOR_API extern const size_t spoor_job_report_n_arg_keys;
SPOOR_API int spoor_job_report(const char *const *paths, size_t npaths, const struct spoor_load_opts *opts,
                               const struct spoor_job_report_opts *jopts, struct spoor_report **out,
                               struct spoor_load_result *result, bool *read_twice, struct spoor_error *err);

#endif
