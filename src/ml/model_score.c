/* `spoor eval`: a saved model scored on every row of a labelled dataset,
 * beside the baselines cross-validated on the same rows. */
#include "spoor/ml.h"
#include "ml/evaluation_report.h"

#include <stdio.h>
#include <stdlib.h>

int spoor_model_score(const struct spoor_model *m, const struct spoor_dataset *ds, bool grouped,
                      struct spoor_report **out, struct spoor_error *err)
{
    struct spoor_scored s[4] = {{.name = spoor_model_kind_name(m->kind)}, {.name = "majority"},
                                {.name = "rule (depth 2)"}, {.name = "knn (k=5)"}};
    uint32_t *pred = spoor_xcalloc(ds->nrows + 1, sizeof *pred);
    double scores[m->nclasses + 1];
    for (size_t i = 0; i < ds->nrows; i++)
        pred[i] = spoor_model_predict(m, ds->x + i * ds->nfeat, scores);
    spoor_metrics_compute(&s[0].m, ds->nclasses, ds->cls, pred, ds->nrows);
    free(pred);
    struct spoor_folds folds;
    int st = grouped ? spoor_folds_logo(ds, NULL, 0, &folds, err)
                     : spoor_folds_kfold(ds, NULL, 0, 5, m->opts.seed, &folds, err);
    bool have_folds = st == SPOOR_OK;
    const char *methods[] = {"majority", "rule", "knn"};
    for (size_t b = 0; b < 3 && st == SPOOR_OK; b++) {
        struct spoor_pooled p;
        if ((st = spoor_cross_predict(ds, &folds, methods[b], &m->opts, &p, err)) == SPOOR_OK) {
            spoor_pooled_metrics(ds, &p, &s[b + 1].m);
            spoor_pooled_free(&p);
        }
    }
    if (have_folds)
        spoor_folds_free(&folds);
    char how[512];
    snprintf(how, sizeof how, "model on all %zu rows of %s; baselines: %s on the same rows", ds->nrows, ds->path,
             grouped ? "leave-one-group-out" : "5-fold stratified cross-validation");
    *out = st == SPOOR_OK ? ml_evaluation_report(how, -1, NULL, ds, s, 4) : NULL;
    for (size_t i = 0; i < 4; i++)
        spoor_metrics_free(&s[i].m);
    return st;
}
