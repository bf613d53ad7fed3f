/* A metric column's values at a chunk's places in group order
 * (series_order.c) as dense doubles, NaN where a row holds no number: I64,
 * F64 and text columns alike, text parsed with strtod. A float column whose
 * rows all hold a value (the usual metric) is read as it is; any other is
 * converted once a batch, in row order. */
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

/* Whether a column is a float column whose validity words are full: every
 * row holds a value (the usual metric), so its own array serves as it is. */
static bool plain_floats(const struct spoor_column *c, size_t rows)
{
    if (!c->typed || c->type != SPOOR_F64)
        return false;
    for (size_t i = 0; i < rows / 64; i++)
        if (c->valid[i] != ~0ULL)
            return false;
    return rows % 64 == 0 || c->valid[rows / 64] == (1ULL << (rows % 64)) - 1;
}

double *series_column_source(const struct spoor_table *b, const struct spoor_column *c, double *scratch,
                             uint64_t *non_numeric)
{
    if (plain_floats(c, b->nrows))
        return c->f64;
    for (size_t r = 0; r < b->nrows; r++) {
        scratch[r] = NAN;
        if (!c->typed || !spoor_column_valid(c, r))
            continue;
        double v;
        if (c->type == SPOOR_F64)
            v = c->f64[r];
        else if (c->type == SPOOR_I64)
            v = (double)c->i64[r];
        else if (!text_number(spoor_table_str(b, c->str[r]), &v))
            v = NAN;
        if (isfinite(v))
            scratch[r] = v;
        else
            ++*non_numeric;
    }
    return scratch;
}

/* out[place[i] - first] = x[row[i]], two a step; returns how many are numbers
 * (not NaN), and in *finite whether all are finite (1e999 reads as inf): no
 * v - v is other than 0 (an OR over the pairs, not a chain of adds). */
static size_t copy_values(const double *x, const uint32_t *row, const uint32_t *place, size_t n, uint32_t first,
                          double *out, bool *finite)
{
    typedef double pair __attribute__((vector_size(16)));
    typedef int64_t pair_mask __attribute__((vector_size(16)));
    /* The reads wait on memory (a batch's column is first touched here), and
     * skip through it where the chunk's groups interleave with others: asking
     * for the value this many rows of the list ahead gained ~8 % of the pass
     * (16 to 1024 tried). */
    enum { ahead = 192 };
    pair_mask odd = {0, 0}, numbers = {0, 0}; /* minus the count: a true compare is -1 */
    size_t i = 0;
    for (; i + 2 <= n; i += 2) {
        if (i + ahead < n)
            __builtin_prefetch(x + row[i + ahead]);
        pair v = {x[row[i]], x[row[i + 1]]};
        out[place[i] - first] = v[0];
        out[place[i + 1] - first] = v[1];
        odd |= v - v != (pair){0, 0};
        numbers += v == v;
    }
    bool any = odd[0] | odd[1];
    size_t count = (size_t)-(numbers[0] + numbers[1]);
    for (; i < n; i++) {
        double v = x[row[i]];
        out[place[i] - first] = v;
        any |= !(v - v == 0);
        count += v == v;
    }
    *finite = !any;
    return count;
}

size_t series_column_values(const double *source, bool own, const uint32_t *row, const uint32_t *place, size_t n,
                            uint32_t first, double *out, uint64_t *non_numeric)
{
    bool finite;
    size_t numbers = copy_values(source, row, place, n, first, out, &finite);
    if (finite || !own)
        return numbers; /* a converted source holds no non-finite number: its NaN are no number */
    numbers = 0;
    for (size_t i = 0; i < n; i++) {
        double *v = &out[place[i] - first];
        bool number = *v - *v == 0;
        *v = number ? *v : NAN;
        numbers += number;
        *non_numeric += !number;
    }
    return numbers;
}
