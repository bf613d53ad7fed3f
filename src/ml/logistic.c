/* Multinomial logistic regression trained to convergence: the mean softmax
 * cross-entropy of every training row plus (l2 / 2) * |W|^2 (not the
 * biases) on standardised features, minimised by full-batch L-BFGS with a
 * backtracking line search from zero weights. The objective is convex and,
 * with l2 > 0, has one minimum, so no seed, learning rate or epoch count
 * decides the model; training stops when the gradient's largest component
 * is below GTOL, or when no step lowers the loss any more (doubles cannot
 * go lower; converged if the gradient is small by then), or at max_iter
 * (then the log says it did not converge). */
#include "ml/model_internal.h"
#include "ml/scaler.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MEMORY 10     /* L-BFGS correction pairs */
#define GTOL 1e-6     /* converged when max |gradient| is below this */
#define STALL_GTOL 1e-4 /* or when no step lowers the loss any more and it is below this */

struct problem {
    size_t n, p, k;
    const double *x;        /* n x p, scaled */
    const uint32_t *y;
    double l2;
    double *z;              /* k logits of one row, scratch */
};

/* Parameters: W (k x p, row-major) then b (k). Returns the objective, fills g. */
static double objective(const struct problem *pr, const double *w, double *g)
{
    size_t p = pr->p, k = pr->k;
    const double *b = w + k * p;
    double *gb = g + k * p, *z = pr->z, loss = 0;
    memset(g, 0, (k * p + k) * sizeof *g);
    for (size_t r = 0; r < pr->n; r++) {
        const double *x = pr->x + r * p;
        for (size_t c = 0; c < k; c++) {
            z[c] = b[c];
            for (size_t f = 0; f < p; f++)
                z[c] += w[c * p + f] * x[f];
        }
        softmax(z, k);
        loss -= log(z[pr->y[r]] > 1e-300 ? z[pr->y[r]] : 1e-300);
        z[pr->y[r]] -= 1; /* d loss / d logits */
        for (size_t c = 0; c < k; c++) {
            gb[c] += z[c];
            for (size_t f = 0; f < p; f++)
                g[c * p + f] += z[c] * x[f];
        }
    }
    double inv = 1.0 / (double)(pr->n ? pr->n : 1), reg = 0;
    for (size_t i = 0; i < k * p + k; i++)
        g[i] *= inv;
    for (size_t i = 0; i < k * p; i++) {
        reg += w[i] * w[i];
        g[i] += pr->l2 * w[i];
    }
    return loss * inv + 0.5 * pr->l2 * reg;
}

static double dot(const double *a, const double *b, size_t d)
{
    double s = 0;
    for (size_t i = 0; i < d; i++)
        s += a[i] * b[i];
    return s;
}

static double max_abs(const double *a, size_t d)
{
    double m = 0;
    for (size_t i = 0; i < d; i++)
        m = fmax(m, fabs(a[i]));
    return m;
}

/* The L-BFGS direction -H g from the stored pairs (s, y), oldest first at (head - count). */
static void direction(const double *g, double *const *s, double *const *yv, const double *rho, size_t count,
                      size_t head, size_t d, double *dir)
{
    double alpha[MEMORY];
    for (size_t i = 0; i < d; i++)
        dir[i] = -g[i];
    for (size_t j = 0; j < count; j++) {
        size_t at = (head + MEMORY - 1 - j) % MEMORY;
        alpha[j] = rho[at] * dot(s[at], dir, d);
        for (size_t i = 0; i < d; i++)
            dir[i] -= alpha[j] * yv[at][i];
    }
    if (count) {
        size_t last = (head + MEMORY - 1) % MEMORY;
        double gamma = dot(s[last], yv[last], d) / dot(yv[last], yv[last], d);
        for (size_t i = 0; i < d; i++)
            dir[i] *= gamma;
    }
    for (size_t j = count; j-- > 0;) {
        size_t at = (head + MEMORY - 1 - j) % MEMORY;
        double beta = rho[at] * dot(yv[at], dir, d);
        for (size_t i = 0; i < d; i++)
            dir[i] += (alpha[j] - beta) * s[at][i];
    }
}

/* Minimises the objective from w (zeros); the log gets iterations, loss, convergence. */
static void lbfgs(const struct problem *pr, double *w, size_t max_iter, struct spoor_train_log *log)
{
    size_t d = pr->k * pr->p + pr->k, count = 0, head = 0, it = 0;
    double *g = spoor_xcalloc(d, sizeof *g), *gn = spoor_xcalloc(d, sizeof *gn), *wn = spoor_xcalloc(d, sizeof *wn),
           *dir = spoor_xcalloc(d, sizeof *dir), *s[MEMORY], *yv[MEMORY], rho[MEMORY];
    for (size_t j = 0; j < MEMORY; j++) {
        s[j] = spoor_xcalloc(d, sizeof **s);
        yv[j] = spoor_xcalloc(d, sizeof **yv);
    }
    double f = objective(pr, w, g);
    bool converged = max_abs(g, d) < GTOL;
    while (!converged && it < max_iter) {
        direction(g, s, yv, rho, count, head, d, dir);
        double slope = dot(g, dir, d);
        if (slope >= 0) { /* not a descent direction: start over from the gradient */
            count = 0;
            for (size_t i = 0; i < d; i++)
                dir[i] = -g[i];
            slope = dot(g, dir, d);
        }
        double step = count ? 1 : fmin(1, 1 / max_abs(g, d)), fn = f;
        for (int tries = 0; tries < 60; tries++, step /= 2) { /* Armijo backtracking */
            for (size_t i = 0; i < d; i++)
                wn[i] = w[i] + step * dir[i];
            fn = objective(pr, wn, gn);
            if (fn <= f + 1e-4 * step * slope)
                break;
        }
        it++;
        if (!(fn < f)) /* no step lowers the loss: as low as doubles go */
            break;
        for (size_t i = 0; i < d; i++) {
            s[head][i] = wn[i] - w[i];
            yv[head][i] = gn[i] - g[i];
        }
        double sy = dot(s[head], yv[head], d);
        if (sy > 1e-300) {
            rho[head] = 1 / sy;
            head = (head + 1) % MEMORY;
            count += count < MEMORY;
        }
        memcpy(w, wn, d * sizeof *w);
        memcpy(g, gn, d * sizeof *g);
        f = fn;
        converged = max_abs(g, d) < GTOL;
    }
    log->iterations = it;
    log->final_loss = f;
    log->final_gradient = max_abs(g, d);
    log->converged = converged || log->final_gradient < STALL_GTOL;
    for (size_t j = 0; j < MEMORY; j++) {
        free(s[j]);
        free(yv[j]);
    }
    free(g);
    free(gn);
    free(wn);
    free(dir);
}

int logistic_train(const struct spoor_dataset *ds, const size_t *rows, size_t n, struct spoor_model *m,
                   struct spoor_error *err)
{
    (void)err;
    size_t p = ds->nfeat, k = ds->nclasses;
    spoor_scaler_fit(&m->scaler, ds->x, p, rows, n);
    double *x = spoor_xcalloc(n * p + 1, sizeof *x);
    uint32_t *y = spoor_xcalloc(n + 1, sizeof *y);
    for (size_t r = 0; r < n; r++) {
        spoor_scaler_apply(&m->scaler, ds->x + rows[r] * p, x + r * p);
        y[r] = ds->cls[rows[r]];
    }
    double *z = spoor_xcalloc(k + 1, sizeof *z);
    struct problem pr = {.n = n, .p = p, .k = k, .x = x, .y = y, .l2 = m->opts.l2, .z = z};
    double *w = spoor_xcalloc(k * p + k, sizeof *w);
    m->log = (struct spoor_train_log){.rows = n};
    lbfgs(&pr, w, m->opts.max_iter, &m->log);
    m->nlayers = 1;
    m->layers = spoor_xcalloc(1, sizeof *m->layers);
    m->layers[0] = (struct spoor_dense){.in = p, .out = k, .w = spoor_xmalloc(k * p * sizeof(double) + 1),
                                        .b = spoor_xmalloc(k * sizeof(double))};
    memcpy(m->layers[0].w, w, k * p * sizeof(double));
    memcpy(m->layers[0].b, w + k * p, k * sizeof(double));
    free(w);
    free(z);
    free(x);
    free(y);
    return SPOOR_OK;
}
