/* What crosses the files of the series recipe. The recipe, in the order its
 * rows flow, one file a stage:
 *
 *   1. series.c         the run: options, the registry of metrics and groups,
 *                       map (each batch's metric columns and local groups,
 *                       then stage 2 into the batch's partial) and reduce
 *                       (the partials merged into the totals in input order);
 *                       begin and end;
 *   2. series_rows.c    one batch's pass: its rows put in group order, each
 *                       metric's values read in that order, and per group
 *                       the moments, co-moments, hour x weekday and resample
 *                       sums into the batch's partial;
 *   3. series_result.c  from the totals to the answer: metrics in input
 *                       order, groups sorted, resample buckets merged.
 *
 * Calls go one way, down the list: a file calls only files after it, never
 * one before it. series_sums.c (moment arithmetic, the (group, bucket) map)
 * sits below them all: every stage calls it, it calls none. */
#ifndef SPOOR_ANALYZE_SERIES_INTERNAL_H
#define SPOOR_ANALYZE_SERIES_INTERNAL_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "spoor/series.h"
#include "spoor/table.h"
#include "util/id_map.h"

/* Hour x weekday slots. */
enum { SERIES_SLOTS = 7 * 24 };

static inline int64_t series_floor_div(int64_t a, int64_t b) { return a / b - (a % b != 0 && (a < 0) != (b < 0)); }

/* Local time slot (weekday * 24 + hour, Monday = 0) of a local ns time. */
static inline unsigned series_hour_weekday_slot(int64_t local_ns)
{
    const int64_t ns_per_hour = 3600000000000LL, ns_per_day = 86400000000000LL;
    int64_t day = series_floor_div(local_ns, ns_per_day);
    int64_t hour = (local_ns - day * ns_per_day) / ns_per_hour;
    int64_t weekday = ((day + 3) % 7 + 7) % 7; /* 1970-01-01 was a Thursday */
    return (unsigned)(weekday * 24 + hour);
}

/* series_sums.c: moment arithmetic, batch accumulation about the batch mean
 * and the pairwise merge (Chan, Golub and LeVeque). */
void series_moments_init(struct spoor_moments *m);
void series_moments_merge(struct spoor_moments *a, const struct spoor_moments *b);
void series_comoments_merge(struct spoor_comoments *a, const struct spoor_comoments *b);
/* The co-moments of (y, x) from those of (x, y). */
struct spoor_comoments series_comoments_swapped(struct spoor_comoments c);
/* Co-moments over the rows where both x[r] and y[r] are numbers (not NaN). */
void series_comoments_of(const double *x, const double *y, size_t rows, struct spoor_comoments *out);
/* Sums of x[r] * y[r] and x[r] * z[r] (the co-moments of deviations from the
 * means) in out[0] and out[1]; z may be y. */
void series_dot2(const double *x, const double *y, const double *z, size_t rows, double out[2]);
/* (n, sum) added to *to. */
static inline void series_bucket_add(struct spoor_bucket_sum *to, uint64_t n, double sum)
{
    to->n += n;
    to->sum += sum;
}

/* series_sums.c: sums per (group, bucket): entries in order of first sight,
 * each with `stride` metric sums stored at sums + entry * stride. */
struct series_buckets {
    uint32_t *group;
    int64_t *bucket;
    uint64_t *rows;
    struct spoor_bucket_sum *sums;
    size_t n, cap, stride;
    struct spoor_id_map ids;    /* (group, bucket) -> entry, for get */
};

void series_buckets_init(struct series_buckets *b, size_t stride);
void series_buckets_release(struct series_buckets *b);
/* No entry, and `stride` metric sums to an entry from now on. */
void series_buckets_clear(struct series_buckets *b, size_t stride);
/* A new empty entry for (group, bucket), not looked up: for a list of
 * entries that is never searched (the totals'). */
size_t series_buckets_append(struct series_buckets *b, uint32_t group, int64_t bucket);
/* The entry of (group, bucket), created empty when new. */
size_t series_buckets_get(struct series_buckets *b, uint32_t group, int64_t bucket);
/* Widens every entry to `stride` metrics (new ones empty). */
void series_buckets_widen(struct series_buckets *b, size_t stride);
/* The order of n entries by group (below ngroups), then bucket, stable: a
 * radix sort, one pass per byte the buckets span and one by group. The caller
 * frees the array. */
uint32_t *series_buckets_order(const uint32_t *group, const int64_t *bucket, size_t n, size_t ngroups);

/* Re-lays a rows x old_cols matrix of elem-byte cells as rows x new_cols, the
 * new cells copied from init. Returns the new block (the old one is freed). */
void *series_widen_matrix(void *p, size_t rows, size_t old_cols, size_t new_cols, size_t elem, const void *init);

/* The state of one series pass (struct spoor_series_run, below): the shared
 * registry of metrics and groups (under mu), each batch's sums (made by a
 * worker in map), the totals they are merged into in input order (in
 * reduce), and each worker's counts and scratch. Totals are indexed by global
 * ids with a row stride of mcap metrics. */

/* Places (rows in group order) from start up to the next span's start that
 * share a group, a resample entry and an hour x weekday slot (series_rows.c's
 * SERIES_NO_KEY: the rows have no time, or the table is not kept per row). */
struct series_span {
    uint32_t start, entry, slot;
};

/* A span's start as found walking the rows: its local group, place, bucket
 * (SPOOR_NULL: no time) and slot. */
struct series_span_start {
    int64_t bucket;
    uint32_t local, start, slot;
};

/* One batch's floating-point sums, kept apart until reduce merges them into
 * the totals in input order: floating-point merging is not associative, so
 * merging them in whatever order the workers finish would change the last
 * digits from run to run. Integer counts need no such care (the workers'). */
struct series_partial {
    const struct spoor_table *batch;    /* whose sums these are, once map is done */
    bool busy;                          /* being made or waiting for its reduce */
    struct series_partial *next;        /* the run's list of partials */
    size_t nlocal, n;                   /* local groups, batch metrics */
    uint32_t *gid;                      /* [local group]: global group id */
    uint32_t *id;                       /* [batch metric]: global metric id */
    struct spoor_moments *moments;      /* [local group * n + batch metric] */
    struct spoor_bucket_sum *hour_weekday; /* [slot * n + batch metric] */
    struct spoor_comoments *comoments;  /* [a * n + c], batch metrics a < c */
    struct series_buckets buckets;      /* (global group, bucket) -> sums of batch metrics */
    size_t gid_cap, id_cap, moments_cap;
};

/* The sums of every batch reduced so far, merged in input order. The
 * resample entries are appended batch by batch (no map: series_result.c
 * merges the entries of a (group, bucket) after sorting them). */
struct series_totals {
    size_t mcap, gcap;                  /* metric stride, groups allocated */
    struct spoor_moments *moments;      /* [group * mcap + metric] */
    struct spoor_bucket_sum *hour_weekday; /* [slot * mcap + metric] */
    struct spoor_comoments *comoments;  /* [i * mcap + j], i < j */
    struct series_buckets buckets;
};

struct series_worker {
    size_t mcap, gcap;                  /* non_numeric's metrics, group_rows' groups */
    uint64_t *group_rows;               /* [group] */
    uint64_t *non_numeric;              /* [metric] */
    uint64_t hour_weekday_rows[SERIES_SLOTS];
    uint64_t rows, rows_without_time;
    struct series_partial *part;        /* the sums of the batch being mapped */

    /* per-batch scratch */
    uint32_t *view_id;
    const struct spoor_column **view_col;
    uint64_t *view_n;                   /* numbers per batch metric */
    size_t view_cap;
    /* per batch metric: 2 x values_rows doubles, a chunk's values in group
     * order, then the column converted in row order when it must be; then
     * values_n borrowed pointers (batch_view's source) */
    double **values;
    size_t values_n, values_rows;
    uint32_t *gid_of_str;               /* batch string id -> group id */
    size_t gid_cap;
    uint32_t *local_of;                 /* group id -> batch-local index */
    size_t local_cap;
    uint32_t *local_gid;
    int64_t *local_bucket;              /* per local group: its last row's bucket */
    /* Arrays sized by the batch's rows, all in the one block row_local owns
     * (freed with it). */
    uint32_t *row_local;                /* row -> batch-local group */
    uint32_t *chunk_row, *chunk_place;  /* a chunk's rows in row order and their places (chunk by chunk) */
    uint32_t *chunk_group;              /* per chunk: its first local group; [nchunks] = nlocal */
    uint32_t *chunk_next;               /* per chunk: where its next row goes */
    size_t nchunks;
    uint32_t *local_chunk;              /* per local group: its chunk */
    uint32_t *local_end;                /* per local group: its rows, then one past its last place */
    uint32_t *local_slot;               /* per local group: its last row's slot */
    uint32_t *local_spans;              /* per local group: spans found, then where the next goes */
    uint32_t *group_spans;              /* per local group: its first span; [nlocal] = nspans */
    struct series_span_start *found;    /* span starts in row order */
    struct series_span *spans;          /* nspans + 1: the last only marks the end */
    size_t row_cap;
};

struct spoor_series_run {
    struct {
        bool has_group, listed, profile, corr;
        bool profile_from_buckets;      /* each resample bucket lies in one hour: sum those at the end */
        int64_t resample_ns, utc_offset_ns;
    } opts;
    pthread_mutex_t mu;
    struct spoor_strpool *metric_names; /* metric id = pool id - 1 */
    size_t nmetrics;
    uint32_t *rank;                     /* [metric]: order of first sight in input order */
    size_t rank_cap;
    uint32_t next_rank;
    struct spoor_strpool *groups;       /* group id = pool id; 0 = no group */
    struct series_partial *partials;    /* as many as batches in flight (under mu) */
    struct series_totals totals;        /* only reduce touches them (one at a time) */
    struct series_worker *workers;
    int nworkers;
};

/* 1 -> 2: the worker's view of one batch: metric id and values of each
 * metric column. */
struct batch_view {
    size_t n;
    uint32_t *id;     /* global metric id per batch metric */
    const struct spoor_column **cols;
    /* the groups being summed: places [first, first + places) */
    uint32_t first, places;
    double **source;  /* per batch metric: its values in row order, NaN = none (read only) */
    double **values;  /* per batch metric: the values at those places, NaN = none */
    uint64_t *numbers; /* per batch metric: how many of them are numbers */
};

/* series_rows.c. Column c's values in row order: a float column whose rows
 * all hold a value (the usual metric) is its own array; any other is
 * converted into scratch, NaN where a row holds no number, counting those
 * there but not numbers. */
double *series_column_source(const struct spoor_table *b, const struct spoor_column *c, double *scratch,
                             uint64_t *non_numeric);
/* Batch b of nlocal local groups (w->row_local, their rows in w->local_end)
 * into w->part: its rows in group order, then chunk by chunk the values
 * gathered and per group each metric's moments, resample and hour x weekday
 * sums and, with `corr`, each metric pair's co-moments. */
void series_rows_pass(struct spoor_series_run *run, struct series_worker *w, const struct spoor_table *b,
                      struct batch_view *v, size_t nlocal);

/* series_result.c. The totals and the workers' counts into out. */
void series_result(const struct spoor_series_run *run, struct spoor_series *out);

#endif
