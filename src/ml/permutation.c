#include "ml/permutation.h"

#include <stdlib.h>
#include <string.h>

#include "ml/shuffle.h"
#include "spoor/error.h"

double spoor_score(const double *pred, const double *y, size_t n, bool classification)
{
    if (n == 0)
        return 0;
    if (classification) {
        size_t hit = 0;
        for (size_t i = 0; i < n; i++)
            hit += pred[i] == y[i];
        return (double)hit / (double)n;
    }
    double mean = 0, sse = 0, sst = 0;
    for (size_t i = 0; i < n; i++)
        mean += y[i];
    mean /= (double)n;
    for (size_t i = 0; i < n; i++) {
        sse += (y[i] - pred[i]) * (y[i] - pred[i]);
        sst += (y[i] - mean) * (y[i] - mean);
    }
    return sst > 0 ? 1 - sse / sst : 0;
}

void spoor_permutation_importance(const double *x, size_t nrows, size_t ncols, const double *y, bool classification,
                                  spoor_predict_rows_fn predict, void *ctx, int repeats, uint64_t seed,
                                  double *baseline, double *drop)
{
    double *work = spoor_xmalloc((nrows * ncols + 1) * sizeof *work), *pred = spoor_xmalloc((nrows + 1) * sizeof *pred);
    size_t *perm = spoor_xmalloc((nrows + 1) * sizeof *perm);
    memcpy(work, x, nrows * ncols * sizeof *work);
    predict(ctx, work, nrows, ncols, SPOOR_ALL_COLUMNS, pred);
    *baseline = spoor_score(pred, y, nrows, classification);
    struct spoor_rng rng;
    spoor_rng_seed(&rng, seed);
    for (size_t j = 0; j < ncols; j++) {
        double drop_sum = 0; /* of baseline - score: exactly 0 when shuffling changes nothing */
        for (int r = 0; r < repeats; r++) {
            for (size_t i = 0; i < nrows; i++)
                perm[i] = i;
            ml_shuffle(&rng, perm, nrows);
            for (size_t i = 0; i < nrows; i++)
                work[i * ncols + j] = x[perm[i] * ncols + j];
            predict(ctx, work, nrows, ncols, j, pred);
            drop_sum += *baseline - spoor_score(pred, y, nrows, classification);
        }
        for (size_t i = 0; i < nrows; i++)
            work[i * ncols + j] = x[i * ncols + j];
        drop[j] = drop_sum / (repeats > 0 ? repeats : 1);
    }
    free(work);
    free(pred);
    free(perm);
}
