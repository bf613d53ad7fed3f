/* The state of one series pass: the shared registry of metrics and groups
 * (under mu), each batch's sums (made by a worker in map), the totals they are
 * merged into in input order (in reduce), and each worker's counts and
 * scratch. Totals are indexed by global ids with a row stride of mcap
 * metrics. */
#ifndef SPOOR_ANALYZE_SERIES_RUN_H
#define SPOOR_ANALYZE_SERIES_RUN_H

#include <pthread.h>

#include "analyze/series_internal.h"
#include "spoor/table.h"

/* A chunk's values, 64 KiB a metric, stay in the cache for the group pass. */
enum { SERIES_SLOTS = 7 * 24, SERIES_CHUNK_PLACES = 8192 };
#define SERIES_NOT_METRIC UINT32_MAX
#define SERIES_NO_RANK UINT32_MAX

#define SERIES_NO_KEY UINT32_MAX

/* Places (rows in group order) from start up to the next span's start that
 * share a group, a resample entry and an hour x weekday slot (SERIES_NO_KEY:
 * the rows have no time, or the table is not kept per row). */
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

/* The worker's view of one batch: metric id and values of each metric column. */
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

/* Orders the batch's rows by local group (each row's place), groups them in
 * chunks of about SERIES_CHUNK_PLACES places and splits the places into
 * spans; counts the rows of each resample entry and hour x weekday slot, and
 * the rows without time. */
void series_order_rows(struct spoor_series_run *run, struct series_worker *w, const struct spoor_table *b,
                       size_t nlocal);
/* Column c's values in row order: a float column whose rows all hold a value
 * (the usual metric) is its own array; any other is converted into scratch,
 * NaN where a row holds no number, counting those there but not numbers. */
double *series_column_source(const struct spoor_table *b, const struct spoor_column *c, double *scratch,
                             uint64_t *non_numeric);
/* out[place[i] - first] = source[row[i]] for n rows; returns how many are
 * numbers. A non-finite value in a column's `own` array (rare) becomes NaN
 * and counts as there but not a number. */
size_t series_column_values(const double *source, bool own, const uint32_t *row, const uint32_t *place, size_t n,
                            uint32_t first, double *out, uint64_t *non_numeric);
/* Chunk by chunk, the values gathered, then per group: each metric's
 * moments, resample and hour x weekday sums, and with `corr` each metric
 * pair's co-moments, into the batch's partial. */
void series_group_pass(struct series_worker *w, struct batch_view *v, bool corr);

/* The id of the metric in the column `name`, registering it when every numeric
 * column is a metric; SERIES_NOT_METRIC when it is none. Called with mu held. */
uint32_t series_metric_id(struct spoor_series_run *run, const char *name, size_t len);

/* A partial for a batch of nlocal groups (w->local_gid) and v's metrics,
 * empty: a free one of the run's or a new one. */
struct series_partial *series_partial_take(struct spoor_series_run *run, const struct series_worker *w,
                                           const struct batch_view *v, size_t nlocal);
/* Map is done with p: it waits for the reduce of batch b. */
void series_partial_park(struct spoor_series_run *run, struct series_partial *p, const struct spoor_table *b);
/* Merges batch b's partial, if it had one, into the totals and frees it for
 * another batch. Called by reduce, in input order. */
void series_partial_reduce(struct spoor_series_run *run, const struct spoor_table *b);
void series_partials_free(struct spoor_series_run *run);
void series_totals_free(struct series_totals *t);

#endif
