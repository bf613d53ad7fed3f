/* Principal components of standardised features: the eigen-decomposition of
 * their correlation matrix (LAPACKE_dsyevd). */
#ifndef SPOOR_ML_PCA_H
#define SPOOR_ML_PCA_H

#include <stddef.h>

#include "spoor/error.h"

struct spoor_pca {
    size_t n;
    double *variance;  /* n eigenvalues, largest first */
    double *ratio;     /* each component's share of the total variance */
    double *loadings;  /* n x n row-major: loadings[feature * n + component]; each
                          component's largest-magnitude loading is positive */
};

/* From an n x n correlation matrix (spoor_corr_matrix). */
int spoor_pca_from_corr(const double *corr, size_t n, struct spoor_pca *out, struct spoor_error *err);
void spoor_pca_free(struct spoor_pca *p);

#endif
