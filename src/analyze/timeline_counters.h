/* The timeline's counter tracks: CPU and GPU utilisation over time, drawn
 * above the process lanes of `spoor report`'s timeline and zoomed with them.
 *
 * Tracks. From mpstat rows (cat mpstat, src/read/mpstat.c): per CPU (`cpu`
 * column, `all` or a number) the utilisation 100 - %idle of each sample;
 * "cpu all" is a track of its own, the per-CPU ones form the group "cpu"
 * (folded on the page). From nvidia-smi pmon rows (cat pmon,
 * src/read/pmon.c): per GPU (`gpu` column) the sum of its processes' sm %
 * at each sample time (pmon prints a row per process); a row with no sm
 * value (`-`) adds nothing, and a GPU sample whose rows all have none is no
 * sample (it is not taken as 0).
 *
 * Levels. A point is the mean of a track's samples in a bucket of 2^shift
 * ns (aligned to 0, as the timeline's cells), drawn at the bucket's middle.
 * The coarsest level has at most `columns` buckets over the tracks' span
 * (the timeline's coarsest: about a screen); each finer level halves the
 * width, down to the finest at which no bucket holds two samples of a
 * track (finer would repeat the samples), and no finer than 2^16 buckets
 * over the span. Levels are emitted coarsest first while all their points
 * together stay within `points`, so a week of per-second mpstat keeps its
 * coarse levels and the page stays small; a view past the finest level
 * kept draws that level. Values are summed in hundredths of a percent
 * (mpstat prints two decimals), so the means are exact sums over any
 * threads. */
#ifndef SPOOR_ANALYZE_TIMELINE_COUNTERS_H
#define SPOOR_ANALYZE_TIMELINE_COUNTERS_H

#include <stddef.h>
#include <stdint.h>

#include "spoor/table.h"

/* The columns it reads. */
#define COUNTERS_ARG_KEYS "cpu", "idle", "gpu", "sm"

struct counter_track {
    const char *name;           /* "cpu all", "cpu 3", "gpu 0" */
    const char *group;          /* "cpu" for a per-CPU track, else "" */
    const char *source;         /* the rows' cat: mpstat or pmon */
    uint64_t samples;
    int64_t first, last;        /* the first and last sample's ts */
};

struct counter_point {
    uint32_t track;
    int64_t bucket;             /* index at the level's width */
    uint64_t samples;
    int64_t sum;                /* hundredths of a percent */
};

struct counter_level {
    int shift;
    struct counter_point *points; /* by track, then bucket */
    size_t n;
};

struct counters {
    struct counter_track *tracks; /* "cpu all", the GPUs, then the CPUs, by number */
    size_t ntracks;
    struct counter_level *levels; /* coarsest first */
    size_t nlevels, nlevels_dropped;
    struct spoor_strpool *pool;   /* owns the names */
};

struct counters_run;
struct counters_run *counters_begin(size_t columns, size_t points, int threads);
/* A loader map(): any batch on any worker. */
void counters_add(struct counters_run *run, int worker, const struct spoor_table *batch);
/* Merges the workers into out and frees the run. */
void counters_end(struct counters_run *run, struct counters *out);
void counters_free(struct counters *c);

/* The sheets timeline_tracks and timeline_counters (timeline_counters.c has
 * their layout). */
struct spoor_report;
void counters_sheets(struct spoor_report *r, const struct counters *c);

#endif
