/* The lifecycle recipe's fold over merged pivots and the helpers its report
 * shares; private to the library (a client calls spoor_lc_run). */
#ifndef SPOOR_ANALYZE_LIFECYCLE_H
#define SPOOR_ANALYZE_LIFECYCLE_H

#include <stddef.h>
#include <stdint.h>

#include "ops/lifecycle_pivot.h"
#include "spoor/lifecycle.h"

/* Folds a merged pivot (and, for --compare, the other log's merged pivot, or
 * NULL) into the result. */
void spoor_lc_analyze(const struct spoor_lc_spec *s, const struct spoor_lc_pivot *p,
                      const struct spoor_lc_pivot *other, struct spoor_lc_result *out);

/* What the fold leaves for the boxes, entity by entity (index = id - 1):
 * each delay's value (SPOOR_NULL when a stage is missing) and, per --by
 * field, the entity's group (its index in the result's sorted groups). */
struct spoor_lc_columns {
    size_t n;
    int64_t *delay[SPOOR_LC_MAX_DELAYS];
    uint32_t *group[SPOOR_LC_MAX_BY];
};

/* Sets the box of every delay's total and group in r (whose counts the fold
 * set) from the columns, one delay per task on up to `threads` threads; the
 * delay columns are used up (freed, set NULL). */
void spoor_lc_boxes(const struct spoor_lc_spec *s, struct spoor_lc_columns *c, int threads,
                    struct spoor_lc_result *r);
/* The box of sorted[0..n), n > 0. */
struct spoor_lc_box spoor_lc_box_of(const int64_t *sorted, size_t n);

/* The kind of an entity name (its length up to the first '(' or ':'). */
size_t spoor_lc_kind_len(const char *name, size_t len);
/* The relative difference (b - a) / a, or NaN when a is 0. */
double spoor_lc_relative(int64_t a, int64_t b);

#endif
