/* Principal components (struct spoor_pca, spoor/ml.h) through LAPACKE:
 * private to src/ml and its tests. */
#ifndef SPOOR_ML_PCA_H
#define SPOOR_ML_PCA_H

#include <stdbool.h>
#include <stddef.h>

#include "spoor/error.h"
#include "spoor/ml.h"

/* From an n x n correlation matrix (spoor_corr_matrix). */
int spoor_pca_from_corr(const double *corr, size_t n, struct spoor_pca *out, struct spoor_error *err);
void spoor_pca_free(struct spoor_pca *p);

#endif
