/* `spoor windows`: the I/O pattern of block-layer requests (the rows of the
 * blkparse, ftrace and lttng readers) in fixed time windows, one row per
 * window (and device), reads and writes apart: the features an I/O-pattern
 * classifier learns from (`spoor train --label label --group run_id`).
 *
 * Windows start at the first request's issue time and are [start, start +
 * every) wide: a request issued exactly on a border belongs to the later one,
 * and its completion to the window of its completion time.
 * Rows arrive in completion order; each device's requests are put back in
 * issue order to measure how far each one lands from the one before. */
#ifndef SPOOR_WINDOWS_H
#define SPOOR_WINDOWS_H

#include <stdbool.h>
#include <stdint.h>

#include "spoor/load.h"
#include "spoor/report.h"

struct spoor_windows_opts {
    int64_t every_ns;          /* the window width, > 0 */
    bool by_dev;               /* one row per window and device; else per window */
    const char *run_id, *label;/* constant columns when not NULL */
};

/* One operation (read or write) in one window, as the integer features of
 * src/features/window_features.h (which the kernel module computes too)
 * give them: Q16 means, ratios and rates, quantiles rounded down to 5
 * significant bits, all exact in a double. Requests, sizes, distances and
 * queue depths are those issued in the window; latencies those completed in
 * it. Means, quantiles and ratios are 0 when there is nothing to average:
 * every row is then complete for a classifier, and requests, completions or
 * with_previous tell such a 0 from a measured one. */
struct spoor_window_op {
    uint64_t requests, bytes, completions;
    double size_mean, size_median;
    double iops, bandwidth;             /* per second of the window's width */
    double lat_mean, lat_p50, lat_p99;  /* ns, of the requests completed in the window */
    uint64_t with_previous;             /* requests after another of the device and op */
    double distance_mean;               /* sectors from the previous request's end */
    double jump_ratio, sequential_ratio;/* of with_previous: > 1 MiB away, 0 away */
    double queue_depth_mean;
};

enum { SPOOR_WINDOW_READ, SPOOR_WINDOW_WRITE, SPOOR_WINDOW_NOPS };

struct spoor_window {
    int64_t start_ns;
    uint32_t dev;                       /* index into devs; 0 without by_dev */
    struct spoor_window_op ops[SPOOR_WINDOW_NOPS];
};

struct spoor_windows {
    struct spoor_window *windows;       /* by start, then device */
    size_t nwindows;
    char **devs;                        /* device names ("254,0"), sorted as met */
    size_t ndevs;
    uint64_t requests;                  /* reads and writes windowed */
    uint64_t other_requests;            /* discards, flushes, others: left out */
};

/* Loads the block traces of paths and windows their requests. A path that is
 * not a block-layer trace is SPOOR_EFORMAT. Fills out (free it with
 * spoor_windows_free) and res, whatever the status. */
SPOOR_API int spoor_windows_load(const char *const *paths, size_t npaths, const struct spoor_load_opts *opts,
                                 const struct spoor_windows_opts *wo, struct spoor_windows *out,
                                 struct spoor_load_result *res, struct spoor_error *err);
SPOOR_API void spoor_windows_free(struct spoor_windows *w);

/* The windows as a report of one sheet, "windows". */
SPOOR_API struct spoor_report *spoor_windows_report(const struct spoor_windows *w,
                                                    const struct spoor_windows_opts *wo);

#endif
