/* A trained classifier, whatever its kind, with everything needed to apply it
 * to new rows: the feature names in order, the scaler fitted on the training
 * rows, the class names, an optional per-class action table, and the settings
 * and seed it was trained with. Saved as spoor's JSON model (model_json.h) and
 * exported as a C header (export_header.h). */
#ifndef SPOOR_ML_MODEL_H
#define SPOOR_ML_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ml/dataset.h"
#include "ml/xgb_forest.h"

enum spoor_model_kind { SPOOR_MODEL_MLP, SPOOR_MODEL_LOGISTIC, SPOOR_MODEL_RULE, SPOOR_MODEL_TREES };

const char *spoor_model_kind_name(enum spoor_model_kind k);
/* Parses "mlp", "logistic", "rule", "trees"; -1 for anything else. */
int spoor_model_kind_parse(const char *s);

/* One fully connected layer: out = w * in + b, w is out x in, row-major. */
struct spoor_dense {
    size_t in, out;
    double *w, *b;
};

/* A depth-2 decision rule on raw (unscaled) features: the root goes left when
 * (float)feat[0] < thr[0]; its left side then splits on feat[1] and thr[1],
 * its right side on feat[2] and thr[2], alike; thresholds are floats on the
 * Q16 grid (rule.c says why); leaf[0..3] are the classes of the four outcomes in order
 * (left-left, left-right, right-left, right-right). */
struct spoor_rule {
    uint32_t feat[3];
    double thr[3];
    uint32_t leaf[4];
};

/* Training settings, kept in the model so a run can be repeated. */
struct spoor_train_opts {
    enum spoor_model_kind kind;
    size_t hidden[8];               /* MLP hidden layer widths */
    size_t nhidden;
    double dropout, lr;
    size_t batch, epochs, patience;
    double val_frac;                /* validation part carved from the training rows */
    uint64_t seed;
    size_t trees_rounds, trees_depth;
    double trees_eta;
    double l2;                      /* logistic: penalty (l2 / 2) |W|^2 on the mean loss */
    size_t max_iter;                /* logistic: L-BFGS iterations at most */
};

/* mlp:32,16, dropout 0.2, Adam lr 1e-3, batch 128, 60 epochs, patience 8,
 * validation 0.15, seed 1; trees 100 rounds of depth 4, eta 0.3; logistic
 * l2 1e-4, at most 10000 iterations. */
void spoor_train_opts_default(struct spoor_train_opts *o);

/* What training saw, for the model file and the report. */
struct spoor_train_log {
    size_t rows, val_rows;
    size_t epochs_run, best_epoch;  /* MLP: epochs run and the one whose weights were kept */
    double best_val_loss;
    size_t iterations;              /* logistic: L-BFGS iterations run */
    double final_loss, final_gradient; /* logistic: objective and max |gradient| at the end */
    bool converged;
};

struct spoor_model {
    enum spoor_model_kind kind;
    char **feat_names;
    size_t nfeat;
    char **class_names;
    size_t nclasses;
    char *label_name;
    struct spoor_scaler scaler;     /* MLP and logistic; rules and trees use raw values */
    struct spoor_dense *layers;     /* MLP: hidden layers (ReLU) then the output; logistic: one */
    size_t nlayers;
    struct spoor_rule rule;
    struct spoor_forest forest;     /* trees: one group per class, softmax link */
    char *action_name;              /* per-class action table, e.g. "readahead_kb"; NULL: none */
    int64_t *action;                /* nclasses values */
    struct spoor_train_opts opts;
    struct spoor_train_log log;
};

/* A model shell for ds's features and classes (names copied). */
struct spoor_model *spoor_model_new(enum spoor_model_kind kind, const struct spoor_dataset *ds);
void spoor_model_free(struct spoor_model *m);

/* Class scores of one raw row (nfeat values) into scores (nclasses values):
 * probabilities for MLP, logistic and trees, one-hot for a rule. Returns the
 * predicted class (the first highest score). */
uint32_t spoor_model_predict(const struct spoor_model *m, const double *row, double *scores);

/* The validation part the MLP trainer carves from training rows for early
 * stopping (whole groups when ds has them): out->train keeps the
 * rest. An empty validation part when opts->val_frac is 0. */
int spoor_model_val_split(const struct spoor_dataset *ds, const size_t *rows, size_t nrows,
                          const struct spoor_train_opts *opts, struct spoor_split *out, struct spoor_error *err);

/* Trains a model of opts->kind on ds's rows (indexes). */
int spoor_model_train(const struct spoor_dataset *ds, const size_t *rows, size_t nrows,
                      const struct spoor_train_opts *opts, struct spoor_model **out, struct spoor_error *err);

/* Sets the action table from "name:class=value,class=value,..." (every class
 * must get a value). */
int spoor_model_set_actions(struct spoor_model *m, const char *spec, struct spoor_error *err);

#endif
