/* Fitting on training rows and predicting held-out ones, for models and the
 * baselines printed beside them. */
#include "spoor/ml.h"
#include "ml/scaler.h"

#include <stdlib.h>
#include <string.h>

/* The most frequent training class for every test row. */
static void majority(const struct spoor_dataset *ds, const struct spoor_split *s, uint32_t *pred)
{
    size_t *count = spoor_xcalloc(ds->nclasses + 1, sizeof *count);
    uint32_t best = 0;
    for (size_t i = 0; i < s->ntrain; i++)
        count[ds->cls[s->train[i]]]++;
    for (size_t c = 1; c < ds->nclasses; c++)
        best = count[c] > count[best] ? (uint32_t)c : best;
    for (size_t i = 0; i < s->ntest; i++)
        pred[i] = best;
    free(count);
}

/* k nearest training rows (Euclidean on features scaled by the training rows);
 * the most frequent class among them, ties to the class of the nearer row. */
static void knn(const struct spoor_dataset *ds, const struct spoor_split *s, uint32_t *pred)
{
    size_t p = ds->nfeat, k = SPOOR_KNN_K < s->ntrain ? SPOOR_KNN_K : s->ntrain;
    struct spoor_scaler sc;
    spoor_scaler_fit(&sc, ds->x, p, s->train, s->ntrain);
    double *tr = spoor_xcalloc(s->ntrain * p + 1, sizeof *tr), q[p + 1];
    for (size_t i = 0; i < s->ntrain; i++)
        spoor_scaler_apply(&sc, ds->x + s->train[i] * p, tr + i * p);
    double dist[SPOOR_KNN_K];
    uint32_t cls[SPOOR_KNN_K];
    size_t *votes = spoor_xcalloc(ds->nclasses + 1, sizeof *votes);
    for (size_t t = 0; t < s->ntest; t++) {
        spoor_scaler_apply(&sc, ds->x + s->test[t] * p, q);
        size_t have = 0;
        for (size_t i = 0; i < s->ntrain; i++) {
            double d = 0;
            for (size_t f = 0; f < p; f++)
                d += (tr[i * p + f] - q[f]) * (tr[i * p + f] - q[f]);
            if (have == k && d >= dist[k - 1])
                continue;
            size_t j = have < k ? have++ : k - 1; /* insertion into the sorted nearest list */
            for (; j > 0 && dist[j - 1] > d; j--) {
                dist[j] = dist[j - 1];
                cls[j] = cls[j - 1];
            }
            dist[j] = d;
            cls[j] = ds->cls[s->train[i]];
        }
        memset(votes, 0, ds->nclasses * sizeof *votes);
        uint32_t best = cls[0];
        for (size_t j = 0; j < have; j++)
            if (++votes[cls[j]] > votes[best])
                best = cls[j];
        pred[t] = best;
    }
    free(votes);
    free(tr);
    spoor_scaler_free(&sc);
}

int spoor_fit_predict(const struct spoor_dataset *ds, const struct spoor_split *s, const char *method,
                      const struct spoor_train_opts *opts, uint32_t *pred, struct spoor_error *err)
{
    if (strcmp(method, "majority") == 0) {
        majority(ds, s, pred);
        return SPOOR_OK;
    }
    if (strcmp(method, "knn") == 0) {
        knn(ds, s, pred);
        return SPOOR_OK;
    }
    int kind = spoor_model_kind_parse(method);
    if (kind < 0)
        return spoor_fail(err, SPOOR_EUSAGE, "unknown method '%s'", method);
    struct spoor_train_opts o = *opts;
    o.kind = (enum spoor_model_kind)kind;
    struct spoor_model *m = NULL;
    int st = spoor_model_train(ds, s->train, s->ntrain, &o, &m, err);
    if (st != SPOOR_OK)
        return st;
    double scores[m->nclasses + 1];
    for (size_t i = 0; i < s->ntest; i++)
        pred[i] = spoor_model_predict(m, ds->x + s->test[i] * ds->nfeat, scores);
    spoor_model_free(m);
    return SPOOR_OK;
}

int spoor_cross_predict(const struct spoor_dataset *ds, const struct spoor_folds *folds, const char *method,
                        const struct spoor_train_opts *opts, struct spoor_pooled *out, struct spoor_error *err)
{
    memset(out, 0, sizeof *out);
    for (size_t f = 0; f < folds->n; f++)
        out->n += folds->fold[f].ntest;
    out->rows = spoor_xcalloc(out->n + 1, sizeof *out->rows);
    out->pred = spoor_xcalloc(out->n + 1, sizeof *out->pred);
    size_t at = 0;
    for (size_t f = 0; f < folds->n; f++) {
        const struct spoor_split *s = &folds->fold[f];
        int st = spoor_fit_predict(ds, s, method, opts, out->pred + at, err);
        if (st != SPOOR_OK) {
            spoor_pooled_free(out);
            return st;
        }
        memcpy(out->rows + at, s->test, s->ntest * sizeof *s->test);
        at += s->ntest;
    }
    return SPOOR_OK;
}

void spoor_pooled_metrics(const struct spoor_dataset *ds, const struct spoor_pooled *p, struct spoor_metrics *m)
{
    uint32_t *truth = spoor_xcalloc(p->n + 1, sizeof *truth);
    for (size_t i = 0; i < p->n; i++)
        truth[i] = ds->cls[p->rows[i]];
    spoor_metrics_compute(m, ds->nclasses, truth, p->pred, p->n);
    free(truth);
}

void spoor_pooled_free(struct spoor_pooled *p)
{
    free(p->rows);
    free(p->pred);
    memset(p, 0, sizeof *p);
}
