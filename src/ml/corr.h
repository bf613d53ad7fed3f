/* Correlation of the columns of a row-major double matrix: Pearson on the
 * values, Spearman on their ranks, and the correlation ratio for a class
 * label. Inputs hold no NaN (the importance driver drops incomplete rows). */
#ifndef SPOOR_ML_CORR_H
#define SPOOR_ML_CORR_H

#include <stdbool.h>
#include <stddef.h>

#include "spoor/error.h"

/* Replaces column j of x (nrows x ncols) by its ranks 1..nrows, ties sharing
 * their average rank. */
void spoor_rank_column(double *x, size_t nrows, size_t ncols, size_t j);

/* r (ncols x ncols) = Pearson correlation of every pair of columns of x; with
 * spearman, of their ranks. A constant column correlates 0 with the others
 * (1 with itself). SPOOR_EIO when BLAS cannot be loaded (ml/blas.h). */
int spoor_corr_matrix(const double *x, size_t nrows, size_t ncols, bool spearman, double *r,
                      struct spoor_error *err);

/* Correlation ratio eta of each column with class labels 0 .. nclass-1: the
 * square root of the share of the column's variance explained by the class
 * means (0 = no association, 1 = the class fixes the value). */
void spoor_corr_ratio(const double *x, size_t nrows, size_t ncols, const int *label, int nclass, double *eta);

#endif
