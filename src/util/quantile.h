/* The one quantile: of values already sorted, by linear interpolation between
 * the two order statistics around the rank (Hyndman & Fan's definition 7,
 * the default of numpy.quantile, pandas, R's quantile and a spreadsheet's
 * PERCENTILE.INC), so a reader can check any of spoor's quantiles with the
 * tool at hand. The median of an even count is then the mean of the middle
 * two. */
#ifndef SPOOR_UTIL_QUANTILE_H
#define SPOOR_UTIL_QUANTILE_H

#include <stddef.h>
#include <stdint.h>

/* The p-quantile (0 <= p <= 1) of sorted[0..n), n > 0: with h = (n - 1) p,
 * x[floor h] + (h - floor h) (x[floor h + 1] - x[floor h]) (0-based).
 * Exact for quartiles of integers below 2^50 in magnitude: the fraction is a
 * quarter, and the result a multiple of 0.25. */
double spoor_quantile_sorted(const int64_t *sorted, size_t n, double p);

#endif
