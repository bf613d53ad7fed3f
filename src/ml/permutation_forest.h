/* A predictor over a spoor_forest for permutation importance: it keeps every
 * tree's leaf for the original rows, and when one column is shuffled re-walks
 * only the trees that split on it (an irrelevant feature sits in few trees),
 * which makes the method cost little more than one prediction per feature. */
#ifndef SPOOR_ML_PERMUTATION_FOREST_H
#define SPOOR_ML_PERMUTATION_FOREST_H

#include <stdbool.h>
#include <stddef.h>

#include "spoor/ml.h"

struct spoor_forest_predictor;

/* For nrows rows of f's features; class ids when classification, else values. */
struct spoor_forest_predictor *spoor_forest_predictor_new(const struct spoor_forest *f, size_t nrows,
                                                          bool classification);
/* A spoor_predict_rows_fn; ctx is the predictor, nrows at most the nrows it was made for. */
void spoor_forest_predictor_run(void *ctx, const double *x, size_t nrows, size_t ncols, size_t changed, double *out);
void spoor_forest_predictor_free(struct spoor_forest_predictor *p);

#endif
