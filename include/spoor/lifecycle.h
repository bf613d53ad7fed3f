/* `spoor lifecycle`: per-entity delays between the stages of an event log.
 *
 * A delay NAME=B-A is time(B) - time(A) for every entity of the pivot
 * (lifecycle_pivot.h) that has both stages. The recipe folds the delays into
 * totals, per-group totals for each --by field, per-kind counts of missing
 * and repeated stages, the N slowest entities and, against a second log,
 * entity-by-entity differences. */
#ifndef SPOOR_LIFECYCLE_H
#define SPOOR_LIFECYCLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "spoor/lifecycle_pivot.h"

struct spoor_lc_stat {
    uint64_t count;
    int64_t sum, min, max;  /* ns over `count` entities */
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
    struct spoor_strpool *strings;
};

/* Folds a merged pivot (and, for --compare, the other log's merged pivot, or
 * NULL) into the result. */
void spoor_lc_analyze(const struct spoor_lc_spec *s, const struct spoor_lc_pivot *p,
                      const struct spoor_lc_pivot *other, struct spoor_lc_result *out);
void spoor_lc_result_free(struct spoor_lc_result *r);

/* The kind of an entity name (its length up to the first '(' or ':'). */
size_t spoor_lc_kind_len(const char *name, size_t len);
/* The relative difference (b - a) / a, or NaN when a is 0. */
double spoor_lc_relative(int64_t a, int64_t b);

#endif
