/* Combining feature-importance methods: each method's scores become shares
 * (non-negative, summing to 1), the consensus is their mean, and from it come
 * the ranking, the smallest set of features reaching a cumulative share, and
 * per-layer totals when feature names carry a layer. */
#ifndef SPOOR_ML_IMPORTANCE_H
#define SPOOR_ML_IMPORTANCE_H

#include <stddef.h>

/* share[j] = max(score[j], 0) / sum; all 0 when nothing is positive. Pass
 * magnitudes for signed scores (correlations, coefficients). */
void spoor_importance_shares(const double *score, size_t n, double *share);

/* order = feature indexes by score, largest first (ties by index). */
void spoor_importance_order(const double *score, size_t n, size_t *order);

/* How many of the first features in order it takes for their shares to reach
 * threshold (n when they never do). */
size_t spoor_importance_cumulative(const double *share, const size_t *order, size_t n, double threshold);

/* The layer of a feature name: with sep '-', the text after the last '-'
 * (`vfs_read-kernel`); with any other sep, the text before the first
 * (`kernel.vfs_read`); sep 0 tries '.' then '-'. Returns its length and sets
 * *layer, or returns 0 when the name has no layer. */
size_t spoor_importance_layer(const char *name, char sep, const char **layer);

#endif
