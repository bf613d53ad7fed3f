/* Permutation importance: how much a fitted model's score on held-out rows
 * drops when one feature's values are shuffled among those rows (breaking its
 * link to the target while keeping its distribution). */
#ifndef SPOOR_ML_PERMUTATION_H
#define SPOOR_ML_PERMUTATION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SPOOR_ALL_COLUMNS SIZE_MAX

/* Predicts nrows rows of x (row-major, ncols) into out: a class id per row for
 * classification, else the value. The first call (changed = SPOOR_ALL_COLUMNS)
 * passes the original rows; later ones differ from them in column `changed`
 * only, which a predictor may use to redo just the work that column affects. */
typedef void (*spoor_predict_rows_fn)(void *ctx, const double *x, size_t nrows, size_t ncols, size_t changed,
                                      double *out);

/* Accuracy of class ids (classification), else R^2 (1 - SSE / SST; 0 when y is constant). */
double spoor_score(const double *pred, const double *y, size_t n, bool classification);

/* drop[j] = score on x - mean score over `repeats` shuffles of column j;
 * *baseline = the score on x. Deterministic for a seed. */
void spoor_permutation_importance(const double *x, size_t nrows, size_t ncols, const double *y, bool classification,
                                  spoor_predict_rows_fn predict, void *ctx, int repeats, uint64_t seed,
                                  double *baseline, double *drop);

#endif
