/* Correlations through one BLAS call: columns are standardised into a
 * column-major copy Z, and Z^T Z / n (dsyrk) is the correlation matrix. */
#include "ml/corr.h"

#include "ml/blas.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "spoor/error.h"

struct ranked {
    double v;
    size_t row;
};

static int by_value(const void *a, const void *b)
{
    double x = ((const struct ranked *)a)->v, y = ((const struct ranked *)b)->v;
    return (x > y) - (x < y);
}

void spoor_rank_column(double *x, size_t nrows, size_t ncols, size_t j)
{
    struct ranked *r = spoor_xmalloc((nrows + 1) * sizeof *r);
    for (size_t i = 0; i < nrows; i++)
        r[i] = (struct ranked){x[i * ncols + j], i};
    qsort(r, nrows, sizeof *r, by_value);
    for (size_t i = 0; i < nrows;) {
        size_t k = i;
        while (k + 1 < nrows && r[k + 1].v == r[i].v)
            k++;
        double rank = (double)(i + k) / 2 + 1;
        for (size_t m = i; m <= k; m++)
            x[r[m].row * ncols + j] = rank;
        i = k + 1;
    }
    free(r);
}

/* Column j of x, centred and scaled to unit norm, into z (nrows values);
 * false for a constant column (z all 0). */
static bool standardise(const double *x, size_t nrows, size_t ncols, size_t j, double *z)
{
    double mean = 0, ss = 0;
    for (size_t i = 0; i < nrows; i++)
        mean += x[i * ncols + j];
    mean /= (double)nrows;
    for (size_t i = 0; i < nrows; i++) {
        z[i] = x[i * ncols + j] - mean;
        ss += z[i] * z[i];
    }
    double norm = sqrt(ss);
    /* Relative to the values' scale: rounding leaves a tiny ss for constants. */
    bool constant = !(norm > 1e-12 * (fabs(mean) + 1) * sqrt((double)nrows));
    for (size_t i = 0; i < nrows; i++)
        z[i] = constant ? 0 : z[i] / norm;
    return !constant;
}

int spoor_corr_matrix(const double *x, size_t nrows, size_t ncols, bool spearman, double *r,
                      struct spoor_error *err)
{
    int rc = spoor_blas_load(err);
    if (rc != SPOOR_OK)
        return rc;
    double *ranks = NULL;
    if (spearman) {
        ranks = spoor_xmalloc((nrows * ncols + 1) * sizeof *ranks);
        memcpy(ranks, x, nrows * ncols * sizeof *ranks);
        for (size_t j = 0; j < ncols; j++)
            spoor_rank_column(ranks, nrows, ncols, j);
        x = ranks;
    }
    double *z = spoor_xmalloc((nrows * ncols + 1) * sizeof *z);
    for (size_t j = 0; j < ncols; j++)
        standardise(x, nrows, ncols, j, z + j * nrows);
    spoor_blas()->dsyrk(CblasColMajor, CblasUpper, CblasTrans, (int)ncols, (int)nrows, 1.0, z, (int)nrows, 0.0, r,
                (int)ncols);
    for (size_t a = 0; a < ncols; a++) {
        r[a * ncols + a] = 1;
        for (size_t b = a + 1; b < ncols; b++) {
            double v = r[b * ncols + a]; /* column-major upper = row-major lower */
            v = v > 1 ? 1 : v < -1 ? -1 : v;
            r[a * ncols + b] = r[b * ncols + a] = v;
        }
    }
    free(z);
    free(ranks);
    return SPOOR_OK;
}

void spoor_corr_ratio(const double *x, size_t nrows, size_t ncols, const int *label, int nclass, double *eta)
{
    double *sum = spoor_xmalloc((size_t)nclass * sizeof *sum);
    size_t *count = spoor_xmalloc((size_t)nclass * sizeof *count);
    for (size_t j = 0; j < ncols; j++) {
        memset(sum, 0, (size_t)nclass * sizeof *sum);
        memset(count, 0, (size_t)nclass * sizeof *count);
        double mean = 0;
        for (size_t i = 0; i < nrows; i++) {
            sum[label[i]] += x[i * ncols + j];
            count[label[i]]++;
            mean += x[i * ncols + j];
        }
        mean /= (double)nrows;
        double total = 0, between = 0;
        for (size_t i = 0; i < nrows; i++)
            total += (x[i * ncols + j] - mean) * (x[i * ncols + j] - mean);
        for (int c = 0; c < nclass; c++)
            if (count[c])
                between += (double)count[c] * (sum[c] / (double)count[c] - mean) * (sum[c] / (double)count[c] - mean);
        eta[j] = total > 0 ? sqrt(fmin(1, between / total)) : 0;
    }
    free(sum);
    free(count);
}
