/* The one quantile definition (quantile.h). */
#include "util/quantile.h"

#include <math.h>

double spoor_quantile_sorted(const int64_t *sorted, size_t n, double p)
{
    double h = (double)(n - 1) * p, below = floor(h);
    size_t i = (size_t)below;
    if (i + 1 >= n)
        return (double)sorted[n - 1];
    /* the step as an unsigned integer first: exact, and no overflow however
     * far apart the two are */
    return (double)sorted[i] + (h - below) * (double)((uint64_t)sorted[i + 1] - (uint64_t)sorted[i]);
}
