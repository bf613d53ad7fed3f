/* Lasso regression by coordinate descent on standardised features, with the
 * penalty alpha chosen by cross-validation along a path of decreasing alphas
 * (the largest alpha within one standard error of the least error).
 * Minimises (1/2n) |y - X b|^2 + alpha |b|_1; the coefficients are per
 * standardised feature, so their magnitudes compare across features. */
#ifndef SPOOR_ML_LASSO_H
#define SPOOR_ML_LASSO_H

#include <stddef.h>
#include <stdint.h>

#include "spoor/error.h"

#define SPOOR_LASSO_ALPHAS 50 /* alphas on the path, from the smallest that zeroes every coefficient */

struct spoor_lasso {
    double alpha;       /* the chosen alpha */
    double cv_mse;      /* its mean squared error over the folds */
    double *coef;       /* ncols, refitted on every row at that alpha */
    size_t nonzero;
};

/* fold[i] in 0 .. nfolds-1 names the fold in which row i is held out. */
int spoor_lasso_cv(const double *x, size_t nrows, size_t ncols, const double *y, const uint32_t *fold,
                   size_t nfolds, struct spoor_lasso *out, struct spoor_error *err);
void spoor_lasso_free(struct spoor_lasso *l);

#endif
