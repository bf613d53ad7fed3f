#include "spoor/ml.h"

#include "ml/blas.h"
#include "ml/pca.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

int spoor_pca_from_corr(const double *corr, size_t n, struct spoor_pca *out, struct spoor_error *err)
{
    memset(out, 0, sizeof *out);
    int rc = spoor_blas_load(err);
    if (rc != SPOOR_OK)
        return rc;
    double *a = spoor_xmalloc((n * n + 1) * sizeof *a), *w = spoor_xmalloc((n + 1) * sizeof *w);
    memcpy(a, corr, n * n * sizeof *a);
    lapack_int info = spoor_blas()->dsyevd(LAPACK_ROW_MAJOR, 'V', 'U', (lapack_int)n, a, (lapack_int)n, w);
    if (info != 0) {
        free(a);
        free(w);
        return spoor_fail(err, SPOOR_EFORMAT, "pca: the eigen-decomposition failed (LAPACK info %d)", (int)info);
    }
    out->n = n;
    out->variance = spoor_xmalloc((n + 1) * sizeof *out->variance);
    out->ratio = spoor_xmalloc((n + 1) * sizeof *out->ratio);
    out->loadings = spoor_xmalloc((n * n + 1) * sizeof *out->loadings);
    double total = 0;
    for (size_t k = 0; k < n; k++)
        total += w[k] > 0 ? w[k] : 0;
    /* dsyevd returns eigenvalues ascending, eigenvectors as columns. */
    for (size_t k = 0; k < n; k++) {
        size_t src = n - 1 - k, big = 0;
        for (size_t j = 1; j < n; j++)
            big = fabs(a[j * n + src]) > fabs(a[big * n + src]) ? j : big;
        double sign = a[big * n + src] < 0 ? -1 : 1;
        out->variance[k] = w[src] > 0 ? w[src] : 0;
        out->ratio[k] = total > 0 ? out->variance[k] / total : 0;
        for (size_t j = 0; j < n; j++)
            out->loadings[j * n + k] = sign * a[j * n + src];
    }
    free(a);
    free(w);
    return SPOOR_OK;
}

void spoor_pca_free(struct spoor_pca *p)
{
    free(p->variance);
    free(p->ratio);
    free(p->loadings);
    memset(p, 0, sizeof *p);
}
