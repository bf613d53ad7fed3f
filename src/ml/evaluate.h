/* Honest evaluation: a method (a model kind, or a baseline: the majority class
 * or k-NN) is fitted on the training rows of each split and predicts only its
 * held-out rows; predictions of every fold are pooled. */
#ifndef SPOOR_ML_EVALUATE_H
#define SPOOR_ML_EVALUATE_H

#include "ml/dataset.h"
#include "ml/metrics.h"
#include "ml/model.h"

#define SPOOR_KNN_K 5

/* "mlp", "logistic", "rule", "trees", "majority", "knn". */
bool spoor_method_known(const char *method);

/* Fits method on s->train (model settings from opts, kind ignored) and
 * predicts s->test into pred (s->ntest classes). */
int spoor_fit_predict(const struct spoor_dataset *ds, const struct spoor_split *s, const char *method,
                      const struct spoor_train_opts *opts, uint32_t *pred, struct spoor_error *err);

/* Pooled held-out predictions over folds: rows[i] was predicted pred[i]
 * (n = the sum of the folds' test rows). Arrays are allocated. */
struct spoor_pooled {
    size_t n;
    size_t *rows;
    uint32_t *pred;
};

int spoor_cross_predict(const struct spoor_dataset *ds, const struct spoor_folds *folds, const char *method,
                        const struct spoor_train_opts *opts, struct spoor_pooled *out, struct spoor_error *err);
/* Metrics of pooled predictions against the dataset's classes. */
void spoor_pooled_metrics(const struct spoor_dataset *ds, const struct spoor_pooled *p, struct spoor_metrics *m);
void spoor_pooled_free(struct spoor_pooled *p);

#endif
