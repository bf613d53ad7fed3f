/* Moments and co-moments of metric values: batch accumulation about the batch
 * mean and the pairwise merge (Chan, Golub and LeVeque), which keeps variances
 * and correlations accurate when values carry a large common offset. */
#include "analyze/series_internal.h"

#include <math.h>
#include <string.h>

void series_moments_init(struct spoor_moments *m)
{
    *m = (struct spoor_moments){.min = INFINITY, .max = -INFINITY};
}

void series_moments_merge(struct spoor_moments *a, const struct spoor_moments *b)
{
    if (!b->n)
        return;
    if (!a->n) {
        *a = *b;
        return;
    }
    double na = (double)a->n, nb = (double)b->n, n = na + nb;
    double delta = b->mean - a->mean;
    a->mean += delta * nb / n;
    a->m2 += b->m2 + delta * delta * na * nb / n;
    a->sum += b->sum;
    a->n += b->n;
    if (b->min < a->min)
        a->min = b->min;
    if (b->max > a->max)
        a->max = b->max;
}

void series_comoments_merge(struct spoor_comoments *a, const struct spoor_comoments *b)
{
    if (!b->n)
        return;
    if (!a->n) {
        *a = *b;
        return;
    }
    double na = (double)a->n, nb = (double)b->n, n = na + nb, w = na * nb / n;
    double dx = b->mean_x - a->mean_x, dy = b->mean_y - a->mean_y;
    a->mean_x += dx * nb / n;
    a->mean_y += dy * nb / n;
    a->m2_x += b->m2_x + dx * dx * w;
    a->m2_y += b->m2_y + dy * dy * w;
    a->c_xy += b->c_xy + dx * dy * w;
    a->n += b->n;
}

struct spoor_comoments series_comoments_swapped(struct spoor_comoments c)
{
    double mean_x = c.mean_x, m2_x = c.m2_x;
    c.mean_x = c.mean_y;
    c.m2_x = c.m2_y;
    c.mean_y = mean_x;
    c.m2_y = m2_x;
    return c;
}

/* Two passes over the rows where both x and y hold a number (not NaN). */
void series_comoments_of(const double *x, const double *y, size_t rows, struct spoor_comoments *out)
{
    uint64_t n = 0;
    double sx = 0, sy = 0;
    for (size_t r = 0; r < rows; r++)
        if (x[r] == x[r] && y[r] == y[r]) {
            n++;
            sx += x[r];
            sy += y[r];
        }
    *out = (struct spoor_comoments){.n = n};
    if (!n)
        return;
    double mx = sx / (double)n, my = sy / (double)n, m2x = 0, m2y = 0, cxy = 0;
    for (size_t r = 0; r < rows; r++)
        if (x[r] == x[r] && y[r] == y[r]) {
            double dx = x[r] - mx, dy = y[r] - my;
            m2x += dx * dx;
            m2y += dy * dy;
            cxy += dx * dy;
        }
    *out = (struct spoor_comoments){n, mx, my, m2x, m2y, cxy};
}

/* Each product in four interleaved partial sums, which vectorise and do not
 * wait on each other's additions; two products in one pass over x. Each
 * product's sums are the same whether it is taken alone or with another. */
void series_dot2(const double *x, const double *y, const double *z, size_t rows, double out[2])
{
    typedef double pair __attribute__((vector_size(16)));
    pair sy0 = {0, 0}, sy1 = {0, 0}, sz0 = {0, 0}, sz1 = {0, 0};
    size_t r = 0;
    for (; r + 4 <= rows; r += 4) {
        pair x0, x1, y0, y1, z0, z1;
        memcpy(&x0, x + r, sizeof x0);
        memcpy(&x1, x + r + 2, sizeof x1);
        memcpy(&y0, y + r, sizeof y0);
        memcpy(&y1, y + r + 2, sizeof y1);
        memcpy(&z0, z + r, sizeof z0);
        memcpy(&z1, z + r + 2, sizeof z1);
        sy0 += x0 * y0;
        sy1 += x1 * y1;
        sz0 += x0 * z0;
        sz1 += x1 * z1;
    }
    out[0] = (sy0[0] + sy1[0]) + (sy0[1] + sy1[1]);
    out[1] = (sz0[0] + sz1[0]) + (sz0[1] + sz1[1]);
    for (; r < rows; r++) {
        out[0] += x[r] * y[r];
        out[1] += x[r] * z[r];
    }
}

double spoor_moments_std(const struct spoor_moments *m)
{
    return m->n < 2 ? NAN : sqrt(m->m2 / (double)(m->n - 1));
}

double spoor_comoments_r(const struct spoor_comoments *c)
{
    if (c->n < 2 || c->m2_x <= 0 || c->m2_y <= 0)
        return NAN;
    double r = c->c_xy / sqrt(c->m2_x * c->m2_y);
    return r > 1 ? 1 : r < -1 ? -1 : r;
}
