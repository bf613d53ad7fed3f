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

/* The kind of an entity name (its length up to the first '(' or ':'). */
size_t spoor_lc_kind_len(const char *name, size_t len);
/* The relative difference (b - a) / a, or NaN when a is 0. */
double spoor_lc_relative(int64_t a, int64_t b);

#endif
