/* A metric column's values at a run of places in group order (series_order.c)
 * as dense doubles, NaN where a row holds no number: I64, F64 and text
 * columns alike, text parsed with strtod. Gathered place by place: the stores
 * go in order, which the cache streams, where storing each row at its place
 * scattered them. */
#include "analyze/series_run.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Whether text is a whole finite number; its value in *v. */
static bool text_number(const char *s, double *v)
{
    char *end;
    *v = strtod(s, &end);
    return end != s && *end == '\0' && isfinite(*v);
}

/* Whether a column's validity words are full: every row holds a value. */
static bool all_there(const struct spoor_column *c, size_t rows)
{
    for (size_t i = 0; i < rows / 64; i++)
        if (c->valid[i] != ~0ULL)
            return false;
    return rows % 64 == 0 || c->valid[rows / 64] == (1ULL << (rows % 64)) - 1;
}

/* out[place[i] - first] = f[row[i]], two a step; whether all are finite
 * (1e999 reads as inf): no v - v is other than 0 (an OR over the pairs, not a
 * chain of adds). */
static bool copy_finite(const double *f, const uint32_t *row, const uint32_t *place, size_t n, uint32_t first,
                        double *out)
{
    typedef double pair __attribute__((vector_size(16)));
    typedef int64_t pair_mask __attribute__((vector_size(16)));
    pair_mask odd = {0, 0};
    size_t i = 0;
    for (; i + 2 <= n; i += 2) {
        pair v = {f[row[i]], f[row[i + 1]]};
        out[place[i] - first] = v[0];
        out[place[i + 1] - first] = v[1];
        odd |= v - v != (pair){0, 0};
    }
    bool any = odd[0] | odd[1];
    for (; i < n; i++) {
        out[place[i] - first] = f[row[i]];
        any |= !(f[row[i]] - f[row[i]] == 0);
    }
    return !any;
}

/* A float column (the usual metric): a plain gather when every row of the
 * column holds a value and the gathered ones are finite, else place by place
 * with the absent and non-finite ones made NaN. Reads the array under unset
 * rows too; what it holds there is never used. Returns how many are
 * numbers. */
static size_t float_values(const struct spoor_column *c, size_t rows, const uint32_t *row, const uint32_t *place,
                           size_t n, uint32_t first, double *out, uint64_t *non_numeric)
{
    const double *f = c->f64;
    if (all_there(c, rows) && copy_finite(f, row, place, n, first, out))
        return n;
    size_t numbers = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t r = row[i];
        bool there = (c->valid[r >> 6] >> (r & 63)) & 1, number = there && f[r] - f[r] == 0;
        out[place[i] - first] = number ? f[r] : NAN;
        numbers += number;
        *non_numeric += there && !number;
    }
    return numbers;
}

size_t series_column_values(const struct spoor_table *b, const struct spoor_column *c, const uint32_t *row,
                            const uint32_t *place, size_t n, uint32_t first, double *out, uint64_t *non_numeric)
{
    if (c->typed && c->type == SPOOR_F64)
        return float_values(c, b->nrows, row, place, n, first, out, non_numeric);
    const uint64_t *valid = c->valid;
    size_t numbers = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t r = row[i];
        double *at = &out[place[i] - first];
        *at = NAN;
        if (!c->typed || !((valid[r >> 6] >> (r & 63)) & 1))
            continue;
        double v;
        if (c->type == SPOOR_I64)
            v = (double)c->i64[r];
        else if (!text_number(spoor_table_str(b, c->str[r]), &v))
            v = NAN;
        if (isfinite(v)) {
            *at = v;
            numbers++;
        } else {
            ++*non_numeric;
        }
    }
    return numbers;
}
