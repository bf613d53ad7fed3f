/* What the model files share inside the ml layer. */
#ifndef SPOOR_ML_MODEL_INTERNAL_H
#define SPOOR_ML_MODEL_INTERNAL_H

#include "spoor/ml.h"

/* Trainers: fill m (a shell from spoor_model_new) from ds's rows. */
int mlp_train(const struct spoor_dataset *ds, const size_t *rows, size_t nrows, struct spoor_model *m,
              struct spoor_error *err);
int logistic_train(const struct spoor_dataset *ds, const size_t *rows, size_t nrows, struct spoor_model *m,
                   struct spoor_error *err);
int rule_train(const struct spoor_dataset *ds, const size_t *rows, size_t nrows, struct spoor_model *m,
               struct spoor_error *err);
int trees_train(const struct spoor_dataset *ds, const size_t *rows, size_t nrows, struct spoor_model *m,
                struct spoor_error *err);

/* The class a rule gives a raw row. */
uint32_t rule_apply(const struct spoor_rule *r, const double *row);

/* Forward pass of a layer stack on one scaled row: ReLU between layers, raw
 * logits out (nclasses). tmp holds 2 x the widest layer. */
void mlp_forward(const struct spoor_dense *layers, size_t nlayers, const double *in, double *logits, double *tmp);

/* In-place softmax of n logits. */
void softmax(double *v, size_t n);

#endif
