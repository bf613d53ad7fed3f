/* Models of every kind: construction, prediction, the action table. */
#include "ml/model_internal.h"
#include "ml/forest.h"
#include "ml/scaler.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const kind_names[] = {"mlp", "logistic", "rule", "trees"};

const char *spoor_model_kind_name(enum spoor_model_kind k) { return kind_names[k]; }

int spoor_model_kind_parse(const char *s)
{
    for (int k = 0; k < 4; k++)
        if (strcmp(s, kind_names[k]) == 0)
            return k;
    return -1;
}

void spoor_train_opts_default(struct spoor_train_opts *o)
{
    *o = (struct spoor_train_opts){.kind = SPOOR_MODEL_MLP, .hidden = {32, 16}, .nhidden = 2, .dropout = 0.2,
                                   .lr = 1e-3, .batch = 128, .epochs = 60, .patience = 8, .val_frac = 0.15,
                                   .seed = 1, .trees_rounds = 100, .trees_depth = 4, .trees_eta = 0.3,
                                   .l2 = 1e-4, .max_iter = 10000};
}

static char **copy_names(char *const *names, size_t n)
{
    char **c = spoor_xcalloc(n + 1, sizeof *c);
    for (size_t i = 0; i < n; i++)
        c[i] = spoor_xstrdup(names[i]);
    return c;
}

struct spoor_model *spoor_model_new(enum spoor_model_kind kind, const struct spoor_dataset *ds)
{
    struct spoor_model *m = spoor_xcalloc(1, sizeof *m);
    m->kind = kind;
    m->nfeat = ds->nfeat;
    m->feat_names = copy_names(ds->feat_names, ds->nfeat);
    m->nclasses = ds->nclasses;
    m->class_names = copy_names(ds->class_names, ds->nclasses);
    m->label_name = spoor_xstrdup(ds->label_name ? ds->label_name : "label");
    return m;
}

void spoor_model_dataset_spec(const struct spoor_model *m, bool with_label, const char *group,
                              struct spoor_dataset_spec *spec)
{
    *spec = (struct spoor_dataset_spec){.features = (const char *const *)m->feat_names, .nfeatures = m->nfeat,
                                        .exact = true, .label = with_label ? m->label_name : NULL,
                                        .classes = (const char *const *)m->class_names, .nclasses = m->nclasses,
                                        .group = group, .leaks = with_label ? SPOOR_LEAKS_WARN : SPOOR_LEAKS_IGNORE};
}

static void free_names(char **names, size_t n)
{
    for (size_t i = 0; i < n && names; i++)
        free(names[i]);
    free(names);
}

void spoor_model_free(struct spoor_model *m)
{
    if (!m)
        return;
    free_names(m->feat_names, m->nfeat);
    free_names(m->class_names, m->nclasses);
    free(m->label_name);
    spoor_scaler_free(&m->scaler);
    for (size_t l = 0; l < m->nlayers; l++) {
        free(m->layers[l].w);
        free(m->layers[l].b);
    }
    free(m->layers);
    spoor_forest_free(&m->forest);
    free(m->action_name);
    free(m->action);
    free(m);
}

void softmax(double *v, size_t n)
{
    double hi = v[0], sum = 0;
    for (size_t i = 1; i < n; i++)
        hi = v[i] > hi ? v[i] : hi;
    for (size_t i = 0; i < n; i++)
        sum += v[i] = exp(v[i] - hi);
    for (size_t i = 0; i < n; i++)
        v[i] /= sum;
}

void mlp_forward(const struct spoor_dense *layers, size_t nlayers, const double *in, double *logits, double *tmp)
{
    size_t widest = 0;
    for (size_t l = 0; l < nlayers; l++)
        widest = layers[l].out > widest ? layers[l].out : widest;
    const double *a = in;
    for (size_t l = 0; l < nlayers; l++) {
        const struct spoor_dense *d = &layers[l];
        double *o = l + 1 == nlayers ? logits : tmp + (l % 2) * widest;
        for (size_t j = 0; j < d->out; j++) {
            double s = d->b[j];
            for (size_t i = 0; i < d->in; i++)
                s += d->w[j * d->in + i] * a[i];
            o[j] = l + 1 == nlayers || s > 0 ? s : 0;
        }
        a = o;
    }
}

uint32_t rule_apply(const struct spoor_rule *r, const double *row)
{
    bool left = (float)row[r->feat[0]] < r->thr[0];
    int node = left ? 1 : 2;
    bool second = (float)row[r->feat[node]] < r->thr[node];
    return r->leaf[(left ? 0 : 2) + (second ? 0 : 1)];
}

uint32_t spoor_model_predict(const struct spoor_model *m, const double *row, double *scores)
{
    size_t k = m->nclasses;
    switch (m->kind) {
    case SPOOR_MODEL_RULE:
        for (size_t c = 0; c < k; c++)
            scores[c] = 0;
        scores[rule_apply(&m->rule, row)] = 1;
        break;
    case SPOOR_MODEL_TREES:
        spoor_forest_predict(&m->forest, row, scores);
        break;
    case SPOOR_MODEL_MLP:
    case SPOOR_MODEL_LOGISTIC: {
        double z[m->nfeat + 1], tmp[2 * 1024];
        spoor_scaler_apply(&m->scaler, row, z);
        mlp_forward(m->layers, m->nlayers, z, scores, tmp);
        softmax(scores, k);
        break;
    }
    }
    uint32_t best = 0;
    for (size_t c = 1; c < k; c++)
        best = scores[c] > scores[best] ? (uint32_t)c : best;
    return best;
}

int spoor_model_train(const struct spoor_dataset *ds, const size_t *rows, size_t nrows,
                      const struct spoor_train_opts *opts, struct spoor_model **out, struct spoor_error *err)
{
    if (!ds->label_is_class || ds->nclasses < 2)
        return spoor_fail(err, SPOOR_EUSAGE, "%s: the label needs at least two classes to train a classifier", ds->path);
    struct spoor_model *m = spoor_model_new(opts->kind, ds);
    m->opts = *opts;
    m->log.rows = nrows;
    int (*trainer[])(const struct spoor_dataset *, const size_t *, size_t, struct spoor_model *, struct spoor_error *) = {
        [SPOOR_MODEL_MLP] = mlp_train, [SPOOR_MODEL_LOGISTIC] = logistic_train, [SPOOR_MODEL_RULE] = rule_train,
        [SPOOR_MODEL_TREES] = trees_train};
    int st = trainer[opts->kind](ds, rows, nrows, m, err);
    if (st != SPOOR_OK) {
        spoor_model_free(m);
        return st;
    }
    *out = m;
    return SPOOR_OK;
}

int spoor_model_set_actions(struct spoor_model *m, const char *spec, struct spoor_error *err)
{
    const char *colon = strchr(spec, ':');
    if (!colon || colon == spec)
        return spoor_fail(err, SPOOR_EUSAGE, "actions '%s': expected NAME:CLASS=VALUE,...", spec);
    int64_t *action = spoor_xcalloc(m->nclasses + 1, sizeof *action);
    bool *set = spoor_xcalloc(m->nclasses + 1, sizeof *set);
    char *list = spoor_xstrdup(colon + 1), *save = NULL;
    int st = SPOOR_OK;
    for (char *item = strtok_r(list, ",", &save); item && st == SPOOR_OK; item = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(item, '='), *end = NULL;
        size_t c = 0;
        if (eq) {
            *eq = '\0';
            while (c < m->nclasses && strcmp(m->class_names[c], item) != 0)
                c++;
        }
        long long v = eq ? strtoll(eq + 1, &end, 10) : 0;
        if (!eq || c == m->nclasses || end == eq + 1 || *end)
            st = spoor_fail(err, SPOOR_EUSAGE, "actions: '%s' is not CLASS=INTEGER for a class of the model", item);
        else {
            action[c] = v;
            set[c] = true;
        }
    }
    for (size_t c = 0; c < m->nclasses && st == SPOOR_OK; c++)
        if (!set[c])
            st = spoor_fail(err, SPOOR_EUSAGE, "actions: no value for class '%s'", m->class_names[c]);
    free(list);
    free(set);
    if (st != SPOOR_OK) {
        free(action);
        return st;
    }
    free(m->action);
    free(m->action_name);
    m->action = action;
    m->action_name = spoor_xstrndup(spec, (size_t)(colon - spec));
    return SPOOR_OK;
}
