/* Redundant features: a constant column carries no information, and a column
 * almost perfectly correlated with another (|r| > 0.999, e.g. x and 1 - x, or
 * the same quantity in two units) only splits importance between twins. */
#include "ml/dataset_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define DUPLICATE_R 0.999

void dataset_note_drop(struct spoor_dataset *ds, const struct spoor_dataset_drop *d)
{
    ds->dropped = spoor_xrealloc(ds->dropped, (ds->ndropped + 1) * sizeof *ds->dropped);
    ds->dropped[ds->ndropped] = *d;
    ds->dropped[ds->ndropped].name = spoor_xstrdup(d->name);
    ds->dropped[ds->ndropped++].other = d->other ? spoor_xstrdup(d->other) : NULL;
}

void dataset_keep_features(struct spoor_dataset *ds, const bool *drop)
{
    size_t n = ds->nrows, p = ds->nfeat, nkeep = 0;
    size_t *keep = spoor_xcalloc(p + 1, sizeof *keep);
    for (size_t f = 0; f < p; f++) {
        if (drop[f])
            free(ds->feat_names[f]);
        else
            ds->feat_names[nkeep] = ds->feat_names[f], keep[nkeep++] = f;
    }
    /* In place: each value moves to a place no later than its own, after every value read before it. */
    for (size_t r = 0; r < n && nkeep < p; r++)
        for (size_t k = 0; k < nkeep; k++)
            ds->x[r * nkeep + k] = ds->x[r * p + keep[k]];
    ds->nfeat = nkeep;
    free(keep);
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
    bool *drop = spoor_xcalloc(p + 1, sizeof *drop);
    size_t nkeep = 0;
    for (size_t f = 0; f < p; f++) {
        double *col = z + nkeep * n;
        if (!unit_column(ds, f, col)) {
            dataset_note_drop(ds, &(struct spoor_dataset_drop){.name = ds->feat_names[f], .reason = "constant"});
            drop[f] = true;
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
        if (twin < nkeep) {
            dataset_note_drop(ds, &(struct spoor_dataset_drop){.name = ds->feat_names[f], .reason = "duplicate of",
                                                               .other = ds->feat_names[keep[twin]], .r = r});
            drop[f] = true;
        } else {
            keep[nkeep++] = f;
        }
    }
    dataset_keep_features(ds, drop);
    free(drop);
    free(keep);
    free(z);
}
