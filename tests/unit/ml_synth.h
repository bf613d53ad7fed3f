/* Synthetic data with known answers for the ml tests: uniform features from a
 * fixed-seed generator, targets that depend on the first features only. */
#ifndef SPOOR_TEST_ML_SYNTH_H
#define SPOOR_TEST_ML_SYNTH_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

static inline double synth_uniform(uint64_t *s)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(*s >> 11) / 9007199254740992.0;
}

/* nrows x ncols uniform [0, 1) features, row-major. */
static inline double *synth_features(size_t nrows, size_t ncols, uint64_t seed)
{
    double *x = malloc(nrows * ncols * sizeof *x);
    for (size_t i = 0; i < nrows * ncols; i++)
        x[i] = synth_uniform(&seed);
    return x;
}

/* Regression target: 3 x0 + 2 x1 + U[0, noise); the rest are irrelevant. */
static inline double *synth_regression(const double *x, size_t nrows, size_t ncols, double noise, uint64_t seed)
{
    double *y = malloc(nrows * sizeof *y);
    for (size_t i = 0; i < nrows; i++)
        y[i] = 3 * x[i * ncols] + 2 * x[i * ncols + 1] + noise * synth_uniform(&seed);
    return y;
}

/* Classes from x0 and x1: 0 when x0 < 0.4, else 1 when x1 < 0.5, else 2
 * (binary: class > 0). */
static inline double *synth_classes(const double *x, size_t nrows, size_t ncols, int nclass)
{
    double *y = malloc(nrows * sizeof *y);
    for (size_t i = 0; i < nrows; i++) {
        const double *r = x + i * ncols;
        int c = r[0] < 0.4 ? 0 : r[1] < 0.5 ? 1 : 2;
        y[i] = nclass == 2 ? (c > 0) : c;
    }
    return y;
}

#endif
