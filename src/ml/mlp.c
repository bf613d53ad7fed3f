/* Training an MLP: ReLU, inverted dropout after every hidden layer, softmax cross-entropy, Adam,
 * minibatches, and early stopping on a validation part carved from the
 * training rows (whole groups when the dataset has them; never the test rows),
 * keeping the weights of the best validation loss. Every random draw comes
 * from one seeded generator, so a seed gives the same model. */
#include "ml/model_internal.h"
#include "ml/shuffle.h"
#include "ml/scaler.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Parameters, gradients and Adam moments share one flat layout. */
struct net {
    size_t nlayers, nparams, widest;
    struct spoor_dense *layers;     /* views into params */
    double *params, *grad, *m1, *m2;
    size_t *offset;                 /* of each layer's w in the flat arrays (b follows) */
};

static void net_init(struct net *n, const size_t *width, size_t nwidth, struct spoor_rng *rng)
{
    memset(n, 0, sizeof *n);
    n->nlayers = nwidth - 1;
    n->layers = spoor_xcalloc(n->nlayers, sizeof *n->layers);
    n->offset = spoor_xcalloc(n->nlayers, sizeof *n->offset);
    for (size_t l = 0; l < n->nlayers; l++) {
        n->offset[l] = n->nparams;
        n->nparams += width[l + 1] * (width[l] + 1);
        n->widest = width[l + 1] > n->widest ? width[l + 1] : n->widest;
    }
    n->widest = width[0] > n->widest ? width[0] : n->widest;
    n->params = spoor_xcalloc(n->nparams, sizeof *n->params);
    n->grad = spoor_xcalloc(n->nparams, sizeof *n->grad);
    n->m1 = spoor_xcalloc(n->nparams, sizeof *n->m1);
    n->m2 = spoor_xcalloc(n->nparams, sizeof *n->m2);
    for (size_t l = 0; l < n->nlayers; l++) {
        struct spoor_dense *d = &n->layers[l];
        d->in = width[l];
        d->out = width[l + 1];
        d->w = n->params + n->offset[l];
        d->b = d->w + d->in * d->out;
        /* PyTorch's default for nn.Linear: uniform in +-1/sqrt(fan_in). */
        double bound = 1 / sqrt((double)d->in);
        for (size_t i = 0; i < d->out * (d->in + 1); i++)
            d->w[i] = (2 * ml_uniform(rng) - 1) * bound;
    }
}

static void net_free(struct net *n)
{
    free(n->layers);
    free(n->offset);
    free(n->params);
    free(n->grad);
    free(n->m1);
    free(n->m2);
}

/* Activations of one sample: act[0] is the input, act[l + 1] the output of
 * layer l (after ReLU and dropout for hidden layers; logits for the last). */
struct trace {
    double **act, **keep;           /* keep: dropout factor per hidden unit (0 or 1/(1-p)) */
    double *delta, *next_delta;
};

static void trace_init(struct trace *t, const struct net *n)
{
    t->act = spoor_xcalloc(n->nlayers + 1, sizeof *t->act);
    t->keep = spoor_xcalloc(n->nlayers + 1, sizeof *t->keep);
    for (size_t l = 0; l <= n->nlayers; l++) {
        t->act[l] = spoor_xcalloc(n->widest, sizeof **t->act);
        t->keep[l] = spoor_xcalloc(n->widest, sizeof **t->keep);
    }
    t->delta = spoor_xcalloc(n->widest, sizeof *t->delta);
    t->next_delta = spoor_xcalloc(n->widest, sizeof *t->next_delta);
}

static void trace_free(struct trace *t, const struct net *n)
{
    for (size_t l = 0; l <= n->nlayers; l++) {
        free(t->act[l]);
        free(t->keep[l]);
    }
    free(t->act);
    free(t->keep);
    free(t->delta);
    free(t->next_delta);
}

/* Forward with dropout, backward of the cross-entropy into n->grad; returns the loss. */
static double sample_step(struct net *n, struct trace *t, const double *x, uint32_t label, double dropout,
                          struct spoor_rng *rng)
{
    size_t L = n->nlayers;
    memcpy(t->act[0], x, n->layers[0].in * sizeof *x);
    for (size_t l = 0; l < L; l++) {
        const struct spoor_dense *d = &n->layers[l];
        for (size_t j = 0; j < d->out; j++) {
            double s = d->b[j];
            for (size_t i = 0; i < d->in; i++)
                s += d->w[j * d->in + i] * t->act[l][i];
            if (l + 1 < L) {
                t->keep[l + 1][j] = dropout > 0 && ml_uniform(rng) < dropout ? 0 : 1 / (1 - dropout);
                s = s > 0 ? s * t->keep[l + 1][j] : 0;
            }
            t->act[l + 1][j] = s;
        }
    }
    size_t k = n->layers[L - 1].out;
    double *p = t->delta;
    memcpy(p, t->act[L], k * sizeof *p);
    softmax(p, k);
    double loss = -log(p[label] > 1e-300 ? p[label] : 1e-300);
    p[label] -= 1; /* d loss / d logits */
    for (size_t l = L; l-- > 0;) {
        const struct spoor_dense *d = &n->layers[l];
        double *gw = n->grad + n->offset[l], *gb = gw + d->in * d->out;
        for (size_t i = 0; i < d->in; i++)
            t->next_delta[i] = 0;
        for (size_t j = 0; j < d->out; j++) {
            double g = t->delta[j];
            if (g == 0)
                continue;
            gb[j] += g;
            for (size_t i = 0; i < d->in; i++) {
                gw[j * d->in + i] += g * t->act[l][i];
                t->next_delta[i] += g * d->w[j * d->in + i];
            }
        }
        if (l == 0)
            break;
        /* Through the previous layer's ReLU and dropout. */
        for (size_t i = 0; i < d->in; i++)
            t->delta[i] = t->act[l][i] > 0 ? t->next_delta[i] * t->keep[l][i] : 0;
    }
    return loss;
}

static void adam_step(struct net *n, double lr, size_t step, size_t batch)
{
    const double b1 = 0.9, b2 = 0.999, eps = 1e-8;
    double c1 = 1 - pow(b1, (double)step), c2 = 1 - pow(b2, (double)step);
    for (size_t i = 0; i < n->nparams; i++) {
        double g = n->grad[i] / (double)batch;
        n->m1[i] = b1 * n->m1[i] + (1 - b1) * g;
        n->m2[i] = b2 * n->m2[i] + (1 - b2) * g * g;
        n->params[i] -= lr * (n->m1[i] / c1) / (sqrt(n->m2[i] / c2) + eps);
        n->grad[i] = 0;
    }
}

static double mean_loss(const struct net *n, const double *x, const uint32_t *y, size_t rows, size_t nfeat)
{
    size_t k = n->layers[n->nlayers - 1].out;
    double logits[k], tmp[2 * n->widest], loss = 0;
    for (size_t r = 0; r < rows; r++) {
        mlp_forward(n->layers, n->nlayers, x + r * nfeat, logits, tmp);
        softmax(logits, k);
        loss -= log(logits[y[r]] > 1e-300 ? logits[y[r]] : 1e-300);
    }
    return loss / (double)(rows ? rows : 1);
}

/* The rows' scaled features and classes, packed. */
static void pack(const struct spoor_dataset *ds, const struct spoor_scaler *s, const size_t *rows, size_t n,
                 double *x, uint32_t *y)
{
    for (size_t r = 0; r < n; r++) {
        spoor_scaler_apply(s, ds->x + rows[r] * ds->nfeat, x + r * ds->nfeat);
        y[r] = ds->cls[rows[r]];
    }
}

static void keep_layers(struct spoor_model *m, const struct net *n, const double *params)
{
    m->nlayers = n->nlayers;
    m->layers = spoor_xcalloc(n->nlayers, sizeof *m->layers);
    for (size_t l = 0; l < n->nlayers; l++) {
        const struct spoor_dense *d = &n->layers[l];
        size_t nw = d->in * d->out;
        m->layers[l] = (struct spoor_dense){.in = d->in, .out = d->out, .w = spoor_xmalloc(nw * sizeof(double)),
                                            .b = spoor_xmalloc(d->out * sizeof(double))};
        memcpy(m->layers[l].w, params + n->offset[l], nw * sizeof(double));
        memcpy(m->layers[l].b, params + n->offset[l] + nw, d->out * sizeof(double));
    }
}

int spoor_model_val_split(const struct spoor_dataset *ds, const size_t *rows, size_t nrows,
                          const struct spoor_train_opts *opts, struct spoor_split *out, struct spoor_error *err)
{
    if (opts->val_frac > 0)
        return spoor_split_holdout(ds, rows, nrows, opts->val_frac, opts->seed ^ 0x5eed, out, err);
    *out = (struct spoor_split){.train = spoor_xcalloc(nrows + 1, sizeof *out->train), .ntrain = nrows,
                                .test = spoor_xcalloc(1, sizeof *out->test)};
    memcpy(out->train, rows, nrows * sizeof *rows);
    return SPOOR_OK;
}

int mlp_train(const struct spoor_dataset *ds, const size_t *rows, size_t nrows, struct spoor_model *m,
              struct spoor_error *err)
{
    const struct spoor_train_opts *o = &m->opts;
    struct spoor_split part;
    int st = spoor_model_val_split(ds, rows, nrows, o, &part, err);
    if (st != SPOOR_OK)
        return st;
    spoor_scaler_fit(&m->scaler, ds->x, ds->nfeat, rows, nrows);
    size_t p = ds->nfeat, ntr = part.ntrain, nval = part.ntest;
    double *xtr = spoor_xcalloc(ntr * p + 1, sizeof *xtr), *xval = spoor_xcalloc(nval * p + 1, sizeof *xval);
    uint32_t *ytr = spoor_xcalloc(ntr + 1, sizeof *ytr), *yval = spoor_xcalloc(nval + 1, sizeof *yval);
    pack(ds, &m->scaler, part.train, ntr, xtr, ytr);
    pack(ds, &m->scaler, part.test, nval, xval, yval);

    size_t width[10] = {p}, nwidth = 1;
    for (size_t h = 0; h < o->nhidden; h++)
        width[nwidth++] = o->hidden[h];
    width[nwidth++] = ds->nclasses;
    struct spoor_rng rng;
    spoor_rng_seed(&rng, o->seed);
    struct net n;
    net_init(&n, width, nwidth, &rng);
    struct trace t;
    trace_init(&t, &n);
    double *best = spoor_xmalloc(n.nparams * sizeof *best);
    memcpy(best, n.params, n.nparams * sizeof *best);
    size_t *order = spoor_xcalloc(ntr + 1, sizeof *order), step = 0, since_best = 0;
    for (size_t i = 0; i < ntr; i++)
        order[i] = i;
    double dropout = o->dropout, best_loss = INFINITY;
    size_t batch = o->batch ? o->batch : ntr;
    m->log = (struct spoor_train_log){.rows = nrows, .val_rows = nval};
    for (size_t epoch = 1; epoch <= o->epochs; epoch++) {
        ml_shuffle(&rng, order, ntr);
        for (size_t b = 0; b < ntr; b += batch) {
            size_t end = b + batch < ntr ? b + batch : ntr;
            for (size_t i = b; i < end; i++)
                sample_step(&n, &t, xtr + order[i] * p, ytr[order[i]], dropout, &rng);
            adam_step(&n, o->lr, ++step, end - b);
        }
        m->log.epochs_run = epoch;
        if (!nval)
            continue;
        double loss = mean_loss(&n, xval, yval, nval, p);
        if (loss < best_loss) {
            best_loss = loss;
            m->log.best_epoch = epoch;
            since_best = 0;
            memcpy(best, n.params, n.nparams * sizeof *best);
        } else if (++since_best >= o->patience) {
            break;
        }
    }
    m->log.best_val_loss = nval ? best_loss : 0;
    keep_layers(m, &n, nval ? best : n.params);
    if (!nval)
        m->log.best_epoch = m->log.epochs_run;
    free(order);
    free(best);
    trace_free(&t, &n);
    net_free(&n);
    free(xtr);
    free(xval);
    free(ytr);
    free(yval);
    spoor_split_free(&part);
    return SPOOR_OK;
}
