/* The arithmetic of combining importance methods (see spoor/ml.h):
 * shares, the ranking, the cumulative cut. Private to src/ml and its tests. */
#ifndef SPOOR_ML_IMPORTANCE_H
#define SPOOR_ML_IMPORTANCE_H

#include <stdbool.h>
#include <stddef.h>

#include "spoor/error.h"
#include "spoor/ml.h"

/* share[j] = max(score[j], 0) / sum; all 0 when nothing is positive. Pass
 * magnitudes for signed scores (correlations, coefficients). */
void spoor_importance_shares(const double *score, size_t n, double *share);

/* order = feature indexes by score, largest first (ties by index). */
void spoor_importance_order(const double *score, size_t n, size_t *order);

/* How many of the first features in order it takes for their shares to reach
 * threshold (n when they never do). */
size_t spoor_importance_cumulative(const double *share, const size_t *order, size_t n, double threshold);

#endif
