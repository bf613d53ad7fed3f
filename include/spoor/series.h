/* `spoor series`: profiles of metric tables (one row per sample: a time, an
 * optional group such as a node, numeric metrics) in one streaming pass.
 *
 * The loader maps the time field to ts and the group field to name
 * (fields_exclusive); every other numeric column is a metric. Per-thread
 * accumulators are fed batch by batch from map() and merged at the end, so
 * memory grows with groups x time buckets x metrics, never with rows.
 *
 * Numerics: sums of values give the means (exact for values whose sum is
 * exact); variances and co-moments are computed per batch about the batch
 * mean, then merged with the pairwise update of Chan, Golub and LeVeque, so
 * large offsets (epoch-like values, 1e9 + small noise) keep their precision. */
#ifndef SPOOR_SERIES_H
#define SPOOR_SERIES_H

#include <stdbool.h>
#include <stdint.h>

#include "spoor/load.h"
#include "spoor/report.h"

/* What to compute; the sections not asked for cost nothing. */
struct spoor_series_opts {
    const char *const *metrics;  /* NULL: every numeric column but time and group */
    size_t nmetrics;
    bool groups;                 /* per-group statistics (needs a group field) */
    bool profile;                /* hour x weekday sums (hour and weekday derive from them) */
    bool corr;                   /* pairwise co-moments of every metric pair */
    int64_t resample_ns;         /* > 0: per (group, bucket) means */
    int64_t utc_offset_ns;       /* local time = UTC + offset, for hours, weekdays, buckets */
};

/* Count, mean, variance and range of one metric over some rows. */
struct spoor_moments {
    uint64_t n;
    double sum;     /* the mean is sum / n */
    double mean;    /* running mean, for merging m2 */
    double m2;      /* sum of squared deviations from the mean */
    double min, max;
};

/* Pairwise-complete co-moments of two metrics (rows where both hold a number). */
struct spoor_comoments {
    uint64_t n;
    double mean_x, mean_y, m2_x, m2_y, c_xy;
};

/* Sum and count of one metric in one bucket. */
struct spoor_bucket_sum {
    uint64_t n;
    double sum;
};

struct spoor_series_metric {
    const char *name;
    uint64_t missing;       /* rows without a value */
    uint64_t non_numeric;   /* rows whose value is not a finite number */
    struct spoor_moments all;
};

struct spoor_series_bucket {
    uint32_t group;         /* index into groups */
    int64_t start_ns;       /* bucket start, UTC ns (aligned in local time) */
    uint64_t rows;
    struct spoor_bucket_sum *sums; /* per metric */
};

struct spoor_series {
    struct spoor_series_metric *metrics;
    size_t nmetrics;
    uint64_t rows, rows_without_time;
    const char **groups;            /* sorted, digits compared as numbers */
    size_t ngroups;
    struct spoor_moments *group_moments;   /* [group * nmetrics + metric] */
    struct spoor_bucket_sum *hour_weekday; /* [(weekday * 24 + hour) * nmetrics + metric], Monday = 0 */
    uint64_t hour_weekday_rows[7 * 24];
    struct spoor_comoments *comoments;     /* [i * nmetrics + j], i < j */
    struct spoor_series_bucket *buckets;   /* sorted by group, then start */
    size_t nbuckets;
    struct spoor_bucket_sum *bucket_sums;  /* [bucket * nmetrics + metric]: what their sums point into */
    struct spoor_strpool *strings;         /* owns metric and group names */
};

struct spoor_series_run;

/* Accumulators for `threads` workers; sink() feeds them from spoor_load. */
SPOOR_API struct spoor_series_run *spoor_series_begin(const struct spoor_series_opts *opts, int threads);
SPOOR_API struct spoor_sink spoor_series_sink(struct spoor_series_run *run);
/* Merges every worker's state into out and frees the run. */
SPOOR_API void spoor_series_end(struct spoor_series_run *run, struct spoor_series *out);
SPOOR_API void spoor_series_free(struct spoor_series *s);

/* `spoor series` over metric tables: the run above in one pass over paths.
 * Fills out (free it with spoor_series_free) and res, whatever the status. */
SPOOR_API int spoor_series_load(const char *const *paths, size_t npaths, const struct spoor_load_opts *opts,
                                const struct spoor_series_opts *so, struct spoor_series *out, struct spoor_load_result *res,
                                struct spoor_error *err);

/* The sections of its report, in output order (bits of spoor_series_show.sections). */
enum spoor_series_section {
    SPOOR_SERIES_SEC_METRICS = 1 << 0,
    SPOOR_SERIES_SEC_GROUPS = 1 << 1,
    SPOOR_SERIES_SEC_HOUR = 1 << 2,
    SPOOR_SERIES_SEC_WEEKDAY = 1 << 3,
    SPOOR_SERIES_SEC_HOUR_WEEKDAY = 1 << 4,
    SPOOR_SERIES_SEC_CORR = 1 << 5,
    SPOOR_SERIES_SEC_PAIRS = 1 << 6,
    SPOOR_SERIES_SEC_RESAMPLE = 1 << 7,
    SPOOR_SERIES_SEC_HEADROOM = 1 << 8,
};
enum { SPOOR_SERIES_NSECTIONS = 9 };
/* Their names (--show), in the same order. */
SPOOR_API extern const char *const spoor_series_section_names[SPOOR_SERIES_NSECTIONS];

struct spoor_series_show {
    unsigned sections;            /* spoor_series_section bits */
    const char *group_field;      /* NULL without --group */
    double corr_threshold;        /* pairs at least this correlated are listed */
    const char *resample_text;    /* the bucket width as given, e.g. "1h" */
    const char *target_metric;    /* headroom to a target; NULL: none */
    double target;
    int64_t utc_offset_ns;        /* hours and weekdays are local to it */
};

/* The result as a report: the inputs of res and the sections asked for.
 * SPOOR_EUSAGE when the target metric is not among the result's. */
SPOOR_API int spoor_series_report(const struct spoor_series *s, const struct spoor_load_result *res,
                                  const struct spoor_series_show *show, struct spoor_report **out, struct spoor_error *err);

/* Standard deviation (n - 1 in the denominator, as pandas); NaN when n < 2. */
SPOOR_API double spoor_moments_std(const struct spoor_moments *m);
/* Pearson's r; NaN when either variance is zero or n < 2. */
SPOOR_API double spoor_comoments_r(const struct spoor_comoments *c);

/* Parses "+HH:MM", "-HH", "+HHMM", "Z" or "0"; false otherwise. */
SPOOR_API bool spoor_series_parse_offset(const char *s, int64_t *ns);

#endif
