/* An MLP (or logistic model) as C: the scaler folded into the first layer
 * (w / scale, b - w . mean / scale), then dense layers with ReLU between and
 * the argmax of the logits (softmax does not change it).
 *
 * Fixed point: activations are Q16 in long long. The first layer's weights
 * are tiny or large depending on each feature's unit, so each input column
 * gets its own shift, chosen for up to 31 bits of weight without overflowing
 * the 64-bit product for inputs within mean +- 50 standard deviations (inputs
 * are clamped there). Later layers use Q16 weights and Q32 biases. */
#include "ml/export_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define FRAC 16
#define SPREAD 50 /* inputs beyond mean +- SPREAD * scale are clamped */

/* The first layer with the scaler folded in; false when that overflows. */
static bool fold(const struct spoor_model *m, double *w, double *b)
{
    const struct spoor_dense *d = &m->layers[0];
    bool finite = true;
    for (size_t j = 0; j < d->out; j++) {
        b[j] = d->b[j];
        for (size_t i = 0; i < d->in; i++) {
            w[j * d->in + i] = d->w[j * d->in + i] / m->scaler.scale[i];
            b[j] -= w[j * d->in + i] * m->scaler.mean[i];
            finite = finite && isfinite(w[j * d->in + i]);
        }
        finite = finite && isfinite(b[j]);
    }
    return finite;
}

static void matrix(FILE *out, const char *type, const char *p, const char *name, size_t l, size_t rows, size_t cols,
                   const double *v, int frac)
{
    fprintf(out, "static const %s %s_%s%zu[%zu][%zu] = {\n", type, p, name, l, rows, cols);
    for (size_t j = 0; j < rows; j++) {
        fprintf(out, "    {");
        for (size_t i = 0; i < cols; i++) {
            if (frac < 0)
                fprintf(out, "%s%.17g", i ? ", " : "", v[j * cols + i]);
            else
                fprintf(out, "%s%lldLL", i ? ", " : "", export_q(v[j * cols + i], frac));
        }
        fprintf(out, "}%s\n", j + 1 < rows ? "," : "");
    }
    fprintf(out, "};\n");
}

static void vector(FILE *out, const char *type, const char *p, const char *name, size_t l, size_t n, const double *v,
                   int frac)
{
    fprintf(out, "static const %s %s_%s%zu[%zu] = {", type, p, name, l, n);
    for (size_t i = 0; i < n; i++) {
        if (frac < 0)
            fprintf(out, "%s%.17g", i ? ", " : "", v[i]);
        else
            fprintf(out, "%s%lldLL", i ? ", " : "", export_q(v[i], frac));
    }
    fprintf(out, "};\n");
}

/* Per input column: the shift of its weights and the clamp of its Q16 input. */
static void first_layer_shifts(const struct spoor_model *m, const double *w, int *shift, long long *xmax)
{
    const struct spoor_dense *d = &m->layers[0];
    for (size_t i = 0; i < d->in; i++) {
        double wmax = 0;
        for (size_t j = 0; j < d->out; j++)
            wmax = fmax(wmax, fabs(w[j * d->in + i]));
        double x = ldexp(fabs(m->scaler.mean[i]) + SPREAD * m->scaler.scale[i], FRAC);
        int e = 0;
        if (wmax > 0) {
            double by_weight = floor(log2(2147483647.0 / wmax)), by_product = floor(log2(ldexp(1, 61) / (wmax * x)));
            e = (int)fmin(fmax(fmin(by_weight, by_product), 0), 62);
        }
        double wq = fmax(1, ldexp(wmax, e));
        xmax[i] = (long long)fmin(x, ldexp(1, 61) / wq);
        shift[i] = e;
    }
}

static void fixed_tables(struct emit *e, const struct spoor_model *m, const double *w0, const double *b0)
{
    const struct spoor_dense *d = &m->layers[0];
    int *shift = spoor_xcalloc(d->in, sizeof *shift);
    long long *xmax = spoor_xcalloc(d->in, sizeof *xmax);
    first_layer_shifts(m, w0, shift, xmax);
    fprintf(e->out, "static const long long %s_qw0[%zu][%zu] = {\n", e->p, d->out, d->in);
    for (size_t j = 0; j < d->out; j++) {
        fprintf(e->out, "    {");
        for (size_t i = 0; i < d->in; i++)
            fprintf(e->out, "%s%lldLL", i ? ", " : "", export_q(w0[j * d->in + i], shift[i]));
        fprintf(e->out, "}%s\n", j + 1 < d->out ? "," : "");
    }
    fprintf(e->out, "};\nstatic const int %s_shift0[%zu] = {", e->p, d->in);
    for (size_t i = 0; i < d->in; i++)
        fprintf(e->out, "%s%d", i ? ", " : "", shift[i]);
    fprintf(e->out, "};\nstatic const long long %s_xmax[%zu] = {", e->p, d->in);
    for (size_t i = 0; i < d->in; i++)
        fprintf(e->out, "%s%lldLL", i ? ", " : "", xmax[i]);
    fprintf(e->out, "};\n");
    vector(e->out, "long long", e->p, "qb", 0, d->out, b0, FRAC);
    for (size_t l = 1; l < m->nlayers; l++) {
        matrix(e->out, "long long", e->p, "qw", l, m->layers[l].out, m->layers[l].in, m->layers[l].w, FRAC);
        vector(e->out, "long long", e->p, "qb", l, m->layers[l].out, m->layers[l].b, 2 * FRAC);
    }
    free(shift);
    free(xmax);
}

static void float_body(struct emit *e, const struct spoor_model *m)
{
    FILE *out = e->out;
    for (size_t l = 0; l < m->nlayers; l++) {
        const struct spoor_dense *d = &m->layers[l];
        fprintf(out, "    for (j = 0; j < %zu; j++) {\n        s = %s_b%zu[j];\n", d->out, e->p, l);
        fprintf(out, "        for (i = 0; i < %zu; i++)\n            s += %s_w%zu[j][i] * ", d->in, e->p, l);
        if (l == 0)
            fprintf(out, "x[i];\n");
        else
            fprintf(out, "a%zu[i];\n", l - 1);
        fprintf(out, "        a%zu[j] = %s;\n    }\n", l, l + 1 < m->nlayers ? "s > 0 ? s : 0" : "s");
    }
}

static void fixed_body(struct emit *e, const struct spoor_model *m)
{
    FILE *out = e->out;
    const char *p = e->p;
    fprintf(out, "    for (j = 0; j < %zu; j++) {\n        s = %s_qb0[j];\n", m->layers[0].out, p);
    fprintf(out, "        for (i = 0; i < %zu; i++) {\n", m->layers[0].in);
    fprintf(out, "            v = x[i] < -%s_xmax[i] ? -%s_xmax[i] : x[i] > %s_xmax[i] ? %s_xmax[i] : x[i];\n",
            p, p, p, p);
    fprintf(out, "            s += %s_rshift(%s_qw0[j][i] * v, %s_shift0[i]);\n        }\n", p, p, p);
    fprintf(out, "        a0[j] = %s;\n    }\n", m->nlayers > 1 ? "s > 0 ? s : 0" : "s");
    for (size_t l = 1; l < m->nlayers; l++) {
        const struct spoor_dense *d = &m->layers[l];
        fprintf(out, "    for (j = 0; j < %zu; j++) {\n        s = %s_qb%zu[j];\n", d->out, p, l);
        fprintf(out, "        for (i = 0; i < %zu; i++)\n            s += %s_qw%zu[j][i] * a%zu[i];\n", d->in, p, l,
                l - 1);
        fprintf(out, "        s = %s_rshift(s, %d);\n        a%zu[j] = %s;\n    }\n", p, FRAC, l,
                l + 1 < m->nlayers ? "s > 0 ? s : 0" : "s");
    }
}

int export_mlp(struct emit *e, const struct spoor_model *m, bool fixed, struct spoor_error *err)
{
    FILE *out = e->out;
    const struct spoor_dense *d0 = &m->layers[0];
    double *w0 = spoor_xcalloc(d0->in * d0->out, sizeof *w0), *b0 = spoor_xcalloc(d0->out, sizeof *b0);
    if (!fold(m, w0, b0)) {
        free(w0);
        free(b0);
        return spoor_fail(err, SPOOR_EFORMAT, "folding the scaler into the first layer overflows a double");
    }
    if (fixed) {
        fixed_tables(e, m, w0, b0);
        fprintf(out, "\n/* Rounded arithmetic shift right (left as is when s is 0). */\n"
                     "static inline long long %s_rshift(long long v, int s)\n"
                     "{\n    return s > 0 ? (v + (1LL << (s - 1))) >> s : v;\n}\n",
                e->p);
    } else {
        matrix(out, "double", e->p, "w", 0, d0->out, d0->in, w0, -1);
        vector(out, "double", e->p, "b", 0, d0->out, b0, -1);
        for (size_t l = 1; l < m->nlayers; l++) {
            matrix(out, "double", e->p, "w", l, m->layers[l].out, m->layers[l].in, m->layers[l].w, -1);
            vector(out, "double", e->p, "b", l, m->layers[l].out, m->layers[l].b, -1);
        }
    }
    const char *type = fixed ? "long long" : "double";
    fprintf(out, "\nstatic inline int %s_predict%s(const %s *x)\n{\n", e->p, fixed ? "_fixed" : "", type);
    export_local(e, type, fixed ? "s, v" : "s", (fixed ? 2 : 1) * sizeof(double), false);
    for (size_t l = 0; l < m->nlayers; l++) {
        char decl[64];
        snprintf(decl, sizeof decl, "a%zu[%zu]", l, m->layers[l].out);
        export_local(e, type, decl, m->layers[l].out * sizeof(double), true);
    }
    export_local(e, "int", "i, j, best = 0", 3 * sizeof(int), false);
    (fixed ? fixed_body : float_body)(e, m);
    size_t last = m->nlayers - 1;
    fprintf(out, "    for (j = 1; j < %zu; j++)\n        if (a%zu[j] > a%zu[best])\n            best = j;\n", m->nclasses,
            last, last);
    fprintf(out, "    (void)i;\n    return best;\n}\n");
    free(w0);
    free(b0);
    return SPOOR_OK;
}
