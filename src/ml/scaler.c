/* The standard scaler: fitted on training rows only (fitting on all rows would
 * leak the test rows' distribution into the model), saved inside the model. */
#include "spoor/ml.h"
#include "ml/scaler.h"

#include <math.h>
#include <stdlib.h>

void spoor_scaler_fit(struct spoor_scaler *s, const double *x, size_t n, const size_t *rows, size_t nrows)
{
    s->n = n;
    s->mean = spoor_xcalloc(n + 1, sizeof *s->mean);
    s->scale = spoor_xcalloc(n + 1, sizeof *s->scale);
    for (size_t i = 0; i < nrows; i++)
        for (size_t f = 0; f < n; f++)
            s->mean[f] += x[rows[i] * n + f];
    for (size_t f = 0; f < n; f++)
        s->mean[f] /= nrows ? (double)nrows : 1;
    for (size_t i = 0; i < nrows; i++)
        for (size_t f = 0; f < n; f++) {
            double d = x[rows[i] * n + f] - s->mean[f];
            s->scale[f] += d * d;
        }
    for (size_t f = 0; f < n; f++) {
        double sd = sqrt(s->scale[f] / (nrows ? (double)nrows : 1));
        s->scale[f] = sd > 0 ? sd : 1; /* a constant column stays 0 after centring */
    }
}

void spoor_scaler_apply(const struct spoor_scaler *s, const double *in, double *out)
{
    for (size_t f = 0; f < s->n; f++)
        out[f] = (in[f] - s->mean[f]) / s->scale[f];
}

void spoor_scaler_free(struct spoor_scaler *s)
{
    free(s->mean);
    free(s->scale);
    s->mean = s->scale = NULL;
    s->n = 0;
}
