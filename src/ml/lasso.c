/* Covariance-update coordinate descent: with the Gram matrix G = Z^T Z / n and
 * c = Z^T y / n of the standardised rows, one coordinate update costs O(p)
 * (only when its coefficient moves), so a whole alpha path costs little more
 * than the one BLAS call that builds G. */
#include "ml/lasso.h"

#include "ml/blas.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PATH_RATIO 1e-3 /* the last alpha is this fraction of the first */
#define TOLERANCE 1e-7  /* stop when no coefficient moves more than this */
#define MAX_SWEEPS 1000

struct gram {
    size_t p;
    double *g, *c;        /* p x p and p */
    double *mean, *sd;    /* the rows' feature means and standard deviations (0: constant) */
    double ymean;
};

/* The Gram system of the rows whose fold is not `skip`. */
static void gram_build(const double *x, size_t nrows, size_t p, const double *y, const uint32_t *fold, uint32_t skip,
                       struct gram *gm)
{
    size_t n = 0;
    for (size_t i = 0; i < nrows; i++)
        n += fold[i] != skip;
    gm->p = p;
    gm->mean = spoor_xcalloc(p + 1, sizeof *gm->mean);
    gm->sd = spoor_xcalloc(p + 1, sizeof *gm->sd);
    gm->g = spoor_xmalloc((p * p + 1) * sizeof *gm->g);
    gm->c = spoor_xmalloc((p + 1) * sizeof *gm->c);
    double *z = spoor_xmalloc((n * p + 1) * sizeof *z), *yc = spoor_xmalloc((n + 1) * sizeof *yc);
    gm->ymean = 0;
    for (size_t i = 0; i < nrows; i++)
        if (fold[i] != skip) {
            gm->ymean += y[i];
            for (size_t j = 0; j < p; j++)
                gm->mean[j] += x[i * p + j];
        }
    gm->ymean /= (double)n;
    for (size_t j = 0; j < p; j++)
        gm->mean[j] /= (double)n;
    for (size_t i = 0, r = 0; i < nrows; i++)
        if (fold[i] != skip) {
            yc[r] = y[i] - gm->ymean;
            for (size_t j = 0; j < p; j++) {
                double d = x[i * p + j] - gm->mean[j];
                z[j * n + r] = d;
                gm->sd[j] += d * d;
            }
            r++;
        }
    for (size_t j = 0; j < p; j++) {
        double sd = sqrt(gm->sd[j] / (double)n);
        gm->sd[j] = sd > 1e-12 * (fabs(gm->mean[j]) + 1) ? sd : 0;
        for (size_t r = 0; r < n; r++)
            z[j * n + r] = gm->sd[j] > 0 ? z[j * n + r] / gm->sd[j] : 0;
    }
    spoor_blas()->dsyrk(CblasColMajor, CblasUpper, CblasTrans, (int)p, (int)n, 1.0 / (double)n, z, (int)n, 0.0, gm->g, (int)p);
    for (size_t a = 0; a < p; a++)
        for (size_t b = a + 1; b < p; b++)
            gm->g[a * p + b] = gm->g[b * p + a];
    spoor_blas()->dgemv(CblasColMajor, CblasTrans, (int)n, (int)p, 1.0 / (double)n, z, (int)n, yc, 1, 0.0, gm->c, 1);
    free(z);
    free(yc);
}

static void gram_free(struct gram *gm)
{
    free(gm->g);
    free(gm->c);
    free(gm->mean);
    free(gm->sd);
}

/* Coordinate descent at one alpha from the warm start b (with gb = G b). */
static void descend(const struct gram *gm, double alpha, double *b, double *gb)
{
    size_t p = gm->p;
    for (int sweep = 0; sweep < MAX_SWEEPS; sweep++) {
        double moved = 0;
        for (size_t j = 0; j < p; j++) {
            double gjj = gm->g[j * p + j];
            if (gjj <= 0)
                continue;
            double rho = gm->c[j] - gb[j] + gjj * b[j];
            double nb = (rho > alpha ? rho - alpha : rho < -alpha ? rho + alpha : 0) / gjj;
            double d = nb - b[j];
            if (d == 0)
                continue;
            for (size_t k = 0; k < p; k++)
                gb[k] += gm->g[k * p + j] * d;
            b[j] = nb;
            moved = fmax(moved, fabs(d));
        }
        if (moved < TOLERANCE)
            break;
    }
}

static double path_alpha(double alpha_max, size_t k)
{
    return alpha_max * pow(PATH_RATIO, (double)k / (SPOOR_LASSO_ALPHAS - 1));
}

/* Each alpha's mean squared error on the rows of fold k, fitted on the others. */
static void fold_errors(const double *x, size_t nrows, size_t p, const double *y, const uint32_t *fold, uint32_t k,
                        double alpha_max, double *mse)
{
    size_t held = 0;
    struct gram gm;
    gram_build(x, nrows, p, y, fold, k, &gm);
    double *b = spoor_xcalloc(p + 1, sizeof *b), *gb = spoor_xcalloc(p + 1, sizeof *gb);
    for (size_t a = 0; a < SPOOR_LASSO_ALPHAS; a++) {
        descend(&gm, path_alpha(alpha_max, a), b, gb);
        for (size_t i = 0; i < nrows; i++)
            if (fold[i] == k) {
                double pred = gm.ymean;
                for (size_t j = 0; j < p; j++)
                    if (b[j] != 0)
                        pred += b[j] * (x[i * p + j] - gm.mean[j]) / gm.sd[j];
                mse[a] += (y[i] - pred) * (y[i] - pred);
                held += a == 0;
            }
    }
    for (size_t a = 0; a < SPOOR_LASSO_ALPHAS; a++)
        mse[a] /= held > 0 ? (double)held : 1;
    free(b);
    free(gb);
    gram_free(&gm);
}

/* The one-standard-error rule: the largest alpha whose mean error over the
 * folds is within one standard error of the least one. The least error alone
 * picks a tiny alpha that keeps noise features with small coefficients. */
static size_t choose_alpha(const double (*mse)[SPOOR_LASSO_ALPHAS], size_t nfolds, double *cv_mse)
{
    double mean[SPOOR_LASSO_ALPHAS], se[SPOOR_LASSO_ALPHAS];
    size_t least = 0;
    for (size_t a = 0; a < SPOOR_LASSO_ALPHAS; a++) {
        double sum = 0, ss = 0;
        for (size_t k = 0; k < nfolds; k++)
            sum += mse[k][a];
        mean[a] = sum / (double)nfolds;
        for (size_t k = 0; k < nfolds; k++)
            ss += (mse[k][a] - mean[a]) * (mse[k][a] - mean[a]);
        se[a] = sqrt(ss / (double)(nfolds - 1) / (double)nfolds);
        least = mean[a] < mean[least] ? a : least;
    }
    size_t a = 0;
    while (mean[a] > mean[least] + se[least])
        a++;
    *cv_mse = mean[a];
    return a;
}

int spoor_lasso_cv(const double *x, size_t nrows, size_t ncols, const double *y, const uint32_t *fold,
                   size_t nfolds, struct spoor_lasso *out, struct spoor_error *err)
{
    memset(out, 0, sizeof *out);
    if (nfolds < 2 || nrows < nfolds)
        return spoor_fail(err, SPOOR_EUSAGE, "lasso: cross-validation needs at least 2 folds and a row per fold");
    int rc = spoor_blas_load(err);
    if (rc != SPOOR_OK)
        return rc;
    struct gram all;
    gram_build(x, nrows, ncols, y, fold, UINT32_MAX, &all);
    double alpha_max = 0;
    for (size_t j = 0; j < ncols; j++)
        alpha_max = fmax(alpha_max, fabs(all.c[j]));
    /* mse[k][a]: fold k's mean squared error at alpha a. */
    double (*mse)[SPOOR_LASSO_ALPHAS] = spoor_xcalloc(nfolds, sizeof *mse);
    for (uint32_t k = 0; alpha_max > 0 && k < nfolds; k++)
        fold_errors(x, nrows, ncols, y, fold, k, alpha_max, mse[k]);
    size_t best = choose_alpha(mse, nfolds, &out->cv_mse);
    free(mse);
    out->coef = spoor_xcalloc(ncols + 1, sizeof *out->coef);
    double *gb = spoor_xcalloc(ncols + 1, sizeof *gb);
    for (size_t a = 0; alpha_max > 0 && a <= best; a++)
        descend(&all, path_alpha(alpha_max, a), out->coef, gb);
    for (size_t j = 0; j < ncols; j++)
        out->nonzero += out->coef[j] != 0;
    out->alpha = path_alpha(alpha_max, best);
    free(gb);
    gram_free(&all);
    return SPOOR_OK;
}

void spoor_lasso_free(struct spoor_lasso *l)
{
    free(l->coef);
    memset(l, 0, sizeof *l);
}
