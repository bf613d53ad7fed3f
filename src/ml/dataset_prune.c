/* Redundant features: a constant column carries no information, and a column
 * almost perfectly correlated with another (|r| > 0.999, e.g. x and 1 - x, or
 * the same quantity in two units) only splits importance between twins. */
#include "ml/dataset_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define DUPLICATE_R 0.999

static void add_drop(struct spoor_dataset *ds, const char *name, const char *reason, const char *other, double r)
{
    ds->dropped = spoor_xrealloc(ds->dropped, (ds->ndropped + 1) * sizeof *ds->dropped);
    ds->dropped[ds->ndropped++] = (struct spoor_dataset_drop){
        .name = spoor_xstrdup(name), .reason = reason, .other = other ? spoor_xstrdup(other) : NULL, .r = r};
}

/* Column f centred and scaled to unit norm into z (false when constant). */
static bool unit_column(const struct spoor_dataset *ds, size_t f, double *z)
{
    size_t n = ds->nrows;
    double mean = 0, ss = 0, lo = ds->x[f], hi = lo;
    for (size_t r = 0; r < n; r++) {
        double v = ds->x[r * ds->nfeat + f];
        mean += v;
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
    }
    if (lo == hi)
        return false;
    mean /= (double)n;
    for (size_t r = 0; r < n; r++) {
        z[r] = ds->x[r * ds->nfeat + f] - mean;
        ss += z[r] * z[r];
    }
    double inv = 1 / sqrt(ss);
    for (size_t r = 0; r < n; r++)
        z[r] *= inv;
    return true;
}

void dataset_drop_redundant(struct spoor_dataset *ds)
{
    size_t n = ds->nrows, p = ds->nfeat;
    double *z = spoor_xcalloc(n * p + 1, sizeof *z); /* kept columns, column-major */
    size_t *keep = spoor_xcalloc(p + 1, sizeof *keep);
    size_t nkeep = 0;
    for (size_t f = 0; f < p; f++) {
        double *col = z + nkeep * n;
        if (!unit_column(ds, f, col)) {
            add_drop(ds, ds->feat_names[f], "constant", NULL, 0);
            continue;
        }
        size_t twin = nkeep;
        double r = 0;
        for (size_t k = 0; k < nkeep && twin == nkeep; k++) {
            r = 0;
            for (size_t i = 0; i < n; i++)
                r += col[i] * z[k * n + i];
            if (fabs(r) > DUPLICATE_R)
                twin = k;
        }
        if (twin < nkeep)
            add_drop(ds, ds->feat_names[f], "duplicate of", ds->feat_names[keep[twin]], r);
        else
            keep[nkeep++] = f;
    }
    if (nkeep < p) {
        for (size_t r = 0; r < n; r++)
            for (size_t k = 0; k < nkeep; k++)
                ds->x[r * nkeep + k] = ds->x[r * p + keep[k]];
        for (size_t f = 0, k = 0; f < p; f++) {
            if (k < nkeep && keep[k] == f)
                ds->feat_names[k++] = ds->feat_names[f];
            else
                free(ds->feat_names[f]);
        }
        ds->nfeat = nkeep;
    }
    free(keep);
    free(z);
}
