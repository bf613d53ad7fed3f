/* `spoor lifecycle`: the pivot of an event log into entities and stages
 * (first), the delays recipe over it, and the report it builds. Each part
 * keeps its comment below. */
#ifndef SPOOR_LIFECYCLE_H
#define SPOOR_LIFECYCLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "spoor/error.h"
#include "spoor/load.h"
#include "spoor/report.h"

/* The pivot behind `spoor lifecycle` (the recipe is lifecycle.h): each record
 * of an event log names an entity, a stage and a time. The spec lists the
 * stages, the delays between them and how to name entities; the pivot keeps,
 * per entity, the first (earliest) time of each listed stage and how often
 * each stage was seen.
 *
 * The pivot runs in the loader's map() on every worker thread (a table of the
 * entities each worker saw) and is merged once at the end, so its memory is
 * bounded by the number of distinct entities, never by the number of records. */
enum { SPOOR_LC_MAX_STAGES = 16, SPOOR_LC_MAX_DELAYS = 16, SPOOR_LC_MAX_BY = 4, SPOOR_LC_MAX_FILLS = 8 };
/* The fields the pivot reads: --by fields, the fill field, worker and host. */
enum { SPOOR_LC_MAX_FIELDS = SPOOR_LC_MAX_BY + 3 };

struct spoor_lc_spec {
    const char *stages[SPOOR_LC_MAX_STAGES];
    size_t nstages;
    struct {
        const char *name;
        int to, from;                   /* stage indexes: value = time(to) - time(from) */
    } delay[SPOOR_LC_MAX_DELAYS];
    size_t ndelays;
    const char *by[SPOOR_LC_MAX_BY];    /* fields grouped by */
    size_t nby;
    /* A missing stage takes another stage's time, for entities whose field
     * fill_field equals fill_value (transfers: local ones skip Started/Loaded). */
    struct {
        int missing, source;
    } fill[SPOOR_LC_MAX_FILLS];
    size_t nfills;
    const char *fill_field, *fill_value;
    int top_delay;                      /* delay ranking the slowest entities */
    bool top_named;                     /* set by --top-by, else settled by finish() */
    size_t top;                         /* how many; 0 = none */
    /* How the cascade scheduler names things (presets; NULL/false for
     * generic options). The entity field's default name. The worker is
     * "HOST:WORKER" (host_field, worker_field) except on records whose host
     * is `controller`, which carry the full name. With entity_worker an
     * entity is one (entity, worker) pair, named "ENTITY @ WORKER" (a
     * transfer is one dataset to one worker). The attribute last_field
     * takes its entity's latest logged value; the others their earliest. */
    const char *entity_field, *worker_field, *host_field, *controller, *last_field;
    bool entity_worker;
    char *storage;                      /* owned copy of the names (spoor_lc_spec_free) */
};

/* The two presets for the cascade scheduler's log ("cascade-tasks",
 * "cascade-transmits"); SPOOR_EUSAGE for another name. Fields: task (or
 * dataset), action, at, worker, host, mode; groups: worker, mode. */
SPOOR_API int spoor_lc_spec_preset(struct spoor_lc_spec *s, const char *name, struct spoor_error *err);
/* Adds what one option says: "A,B,C" stages, "NAME=B-A" delay, "MISSING=SOURCE"
 * fill, "FIELD=VALUE" fill condition, a --by field. Stages must be set before
 * delays and fills name them. */
SPOOR_API int spoor_lc_spec_stages(struct spoor_lc_spec *s, const char *list, struct spoor_error *err);
SPOOR_API int spoor_lc_spec_delay(struct spoor_lc_spec *s, const char *def, struct spoor_error *err);
SPOOR_API int spoor_lc_spec_fill(struct spoor_lc_spec *s, const char *def, struct spoor_error *err);
SPOOR_API int spoor_lc_spec_fill_if(struct spoor_lc_spec *s, const char *def, struct spoor_error *err);
SPOOR_API int spoor_lc_spec_by(struct spoor_lc_spec *s, const char *field, struct spoor_error *err);
/* Ranks the slowest entities by this delay (default: "total" if defined, else
 * the first delay). */
SPOOR_API int spoor_lc_spec_top_by(struct spoor_lc_spec *s, const char *name, struct spoor_error *err);
/* Checks the spec is complete (stages and delays given) and settles defaults. */
SPOOR_API int spoor_lc_spec_finish(struct spoor_lc_spec *s, struct spoor_error *err);
SPOOR_API void spoor_lc_spec_free(struct spoor_lc_spec *s);
struct spoor_lc_counts {
    uint64_t records;       /* rows read */
    uint64_t other_stage;   /* rows whose stage is not listed (another entity kind) */
    uint64_t no_entity;     /* listed stage, but no entity */
    uint64_t no_time;       /* listed stage, but no time */
};

/* `spoor lifecycle`: per-entity delays between the stages of an event log.
 *
 * A delay NAME=B-A is time(B) - time(A) for every entity of the pivot
 * (src/ops/lifecycle_pivot.h) that has both stages. The recipe folds the delays into
 * totals, per-group totals for each --by field (each with its box: quartiles
 * and whiskers), per-kind counts of missing and repeated stages, the N
 * slowest entities and, against a second log, entity-by-entity differences
 * and the other log's groups. */
/* A delay's box over its entities (quantiles as util/quantile.h defines
 * them: linear between order statistics, numpy's default). The whiskers are
 * Tukey's, as matplotlib, seaborn and ECharts draw them: they reach the most
 * extreme values within 1.5 IQR of the quartiles (the fences), and the
 * values beyond the fences, outliers, are counted. */
struct spoor_lc_box {
    double p25, median, p75;        /* ns, multiples of 0.25 */
    double low, high;               /* whisker ends, ns: the most extreme delays within the fences, or the
                                     * quartile when that delay lies inside the box (as matplotlib does) */
    uint64_t below, above;          /* outliers: entities below the lower fence, above the upper */
};

struct spoor_lc_stat {
    uint64_t count;
    int64_t sum, min, max;  /* ns over `count` entities */
    struct spoor_lc_box box;        /* set when count > 0 */
};

struct spoor_lc_group {
    const char *value;
    uint64_t entities;
    struct spoor_lc_stat delay[SPOOR_LC_MAX_DELAYS];
};

/* Entities of one kind: the entity's name up to its first '(' or ':'
 * ("retrieve(0, 11):ab" -> "retrieve"). */
struct spoor_lc_kind {
    const char *kind;
    uint64_t entities, complete;        /* complete: every stage seen (or filled) */
    uint64_t missing[SPOOR_LC_MAX_STAGES], repeated[SPOOR_LC_MAX_STAGES];
};

struct spoor_lc_entity {
    const char *name;
    int64_t delay[SPOOR_LC_MAX_DELAYS]; /* SPOOR_NULL when a stage is missing */
    int64_t other[SPOOR_LC_MAX_DELAYS]; /* --compare: the other log's delays */
};

struct spoor_lc_diff {
    uint64_t count;                     /* matched entities with the delay in both logs */
    int64_t sum_a, sum_b;
};

struct spoor_lc_result {
    struct spoor_lc_counts counts;
    uint64_t entities, filled;          /* filled: entities that had stages filled in */
    struct spoor_lc_stat total[SPOOR_LC_MAX_DELAYS];
    struct spoor_lc_group *group[SPOOR_LC_MAX_BY]; /* sorted by value */
    size_t ngroups[SPOOR_LC_MAX_BY];
    struct spoor_lc_kind *kind;         /* sorted by kind */
    size_t nkinds;
    struct spoor_lc_entity *top;        /* slowest first, ties by name */
    size_t ntop;
    bool compared;
    struct spoor_lc_counts other_counts;
    uint64_t matched, only_here, only_other;
    struct spoor_lc_diff diff[SPOOR_LC_MAX_DELAYS];
    struct spoor_lc_entity *top_diff;   /* largest |other - this| of the top delay first */
    size_t ntop_diff;
    /* The other log's own --by groups (all its entities, by their values in
     * it), for the two runs' boxes side by side; sorted by value. */
    struct spoor_lc_group *other_group[SPOOR_LC_MAX_BY];
    size_t nother_groups[SPOOR_LC_MAX_BY];
    struct spoor_strpool *strings;
};

SPOOR_API void spoor_lc_result_free(struct spoor_lc_result *r);

/* A `spoor lifecycle` result as a report: a table's lines and tables, JSON's
 * members, CSV's long form (section,by,key,delay,count,sum_ns,mean_ns,
 * min_ns,max_ns,other_sum_ns,diff_ns,rel_diff, then the box's p25_ns,
 * median_ns,p75_ns,whisker_low_ns,whisker_high_ns,outliers_low,outliers_high:
 * one value set per row, so it pipes into any tool), and for HTML the mean
 * delays per group as bars and the boxes as box plots. docs/cli.md shows each. */
/* Lines read and skipped over all inputs of the (first) log. */
struct spoor_lc_input {
    uint64_t lines, skipped;
};

/* The report of r; it points into s and r, which must outlive it. */
SPOOR_API struct spoor_report *spoor_lc_report(const struct spoor_lc_spec *s, const struct spoor_lc_result *r,
                                               const struct spoor_lc_input *in);

/* `spoor lifecycle` over logs: paths read into one pivot (the spec's fields
 * loaded as args, whatever opts->read.args says), and compare (NULL: none)
 * into another; the merged pivots folded into the result and its report. */
struct spoor_lc_run {
    struct spoor_load_result loaded, other_loaded; /* what each read skipped, for the caller to tell */
    struct spoor_lc_result result;
    struct spoor_report *report;        /* NULL unless the run succeeded */
};

SPOOR_API int spoor_lc_run(const struct spoor_lc_spec *s, const char *const *paths, size_t n, const char *compare,
                           const struct spoor_load_opts *opts, struct spoor_lc_run *out, struct spoor_error *err);
SPOOR_API void spoor_lc_run_free(struct spoor_lc_run *r);

#endif
