/* Machine learning on trace-derived tables: datasets, models, evaluation,
 * feature importance and model export; what `spoor train`, `eval`, `predict`,
 * `importance` and `export-model` call.
 *
 * In the order a model is made: boosted-tree ensembles as node arrays and
 * principal components (the types models and importance results hold); a
 * dataset read through the loader, with its splits and scaler; metrics; the
 * models and their JSON; evaluation against baselines; importance methods and
 * their run over a dataset; a model as a C header. Each part keeps its
 * comment below. */
#ifndef SPOOR_ML_H
#define SPOOR_ML_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "spoor/error.h"
#include "spoor/load.h"
#include "spoor/report.h"

/* A boosted-tree ensemble as plain C node arrays, evaluated without XGBoost:
 * what a trained booster becomes so that spoor's model JSON can store it and a
 * C header (float or fixed point) can run it inside a kernel. The arrays are
 * read from XGBoost's own JSON model (XGBoosterSaveModelToBuffer, format json),
 * which keeps every threshold and leaf value at full float precision. */
/* How the summed margin becomes a prediction. */
enum spoor_forest_link {
    SPOOR_FOREST_IDENTITY, /* reg:squarederror: the margin is the prediction */
    SPOOR_FOREST_LOGISTIC, /* binary:logistic: 1 / (1 + exp(-margin)) */
    SPOOR_FOREST_SOFTMAX,  /* multi:softprob: softmax over the per-class margins */
};

struct spoor_forest_node {
    int32_t feature;      /* split feature index; -1 marks a leaf */
    int32_t left, right;  /* children, as indexes into spoor_forest.nodes */
    int32_t missing;      /* the child a missing (NaN) value goes to */
    float threshold;      /* go left when (float)x < threshold, as XGBoost does */
    float leaf;           /* a leaf's margin contribution */
    float gain;           /* the split's loss reduction (XGBoost's "gain") */
};

struct spoor_forest {
    size_t nfeatures;
    int ngroups;                 /* margins per row: 1, or the number of classes */
    enum spoor_forest_link link;
    double base_margin;          /* added to every group's margin (base_score in margin space) */
    size_t ntrees;
    int32_t *roots;              /* each tree's root node; tree t's nodes are nodes[roots[t] .. roots[t + 1]) */
    int32_t *groups;             /* the output group each tree adds to */
    size_t nnodes;
    struct spoor_forest_node *nodes;
};

/* Principal components of standardised features: the eigen-decomposition of
 * their correlation matrix (LAPACKE_dsyevd). */
struct spoor_pca {
    size_t n;
    double *variance;  /* n eigenvalues, largest first */
    double *ratio;     /* each component's share of the total variance */
    double *loadings;  /* n x n row-major: loadings[feature * n + component]; each
                          component's largest-magnitude loading is positive */
};

/* Datasets for learning: a CSV or JSONL file read through the engine's readers
 * into a numeric matrix (row-major doubles), a label (class ids with names, or
 * numbers) and an optional group column (e.g. run_id), plus the splits and the
 * standard scaler every model needs.
 *
 * Library code never prints: what was dropped (constant or duplicate features,
 * rows with missing values) is reported in the dataset for the caller to warn
 * about. */
enum spoor_label_kind {
    SPOOR_LABEL_AUTO,   /* strings become classes, numbers stay numbers */
    SPOOR_LABEL_CLASS,  /* always classes (numbers by their text, e.g. "3") */
    SPOOR_LABEL_NUMBER, /* always numbers (a string label is an error) */
};

struct spoor_dataset_spec {
    /* Feature columns by name or glob (fnmatch), in this order, each column once.
     * None: every numeric column except the label and the group. A name that
     * matches no column is an error; a glob that matches none is too. */
    const char *const *features;
    size_t nfeatures;
    /* Take the features exactly as listed (plain names, no globs) and drop none:
     * for applying a trained model, whose inputs are fixed. */
    bool exact;
    const char *label;              /* NULL: no label */
    enum spoor_label_kind label_kind;
    /* Class names to number the labels by (a trained model's classes); a label
     * outside them is an error. NULL: classes in order of first sight. */
    const char *const *classes;
    size_t nclasses;
    const char *group;              /* NULL: no group column */
    /* Leaky features (dataset_leak.c): not looked for, listed, or listed and dropped. */
    enum { SPOOR_LEAKS_IGNORE, SPOOR_LEAKS_WARN, SPOOR_LEAKS_DROP } leaks;
};

/* A feature left out, and why (for a one-line warning). */
struct spoor_dataset_drop {
    char *name;
    const char *reason;             /* "constant", "duplicate of", "not numeric", or why it leaks */
    char *other;                    /* the kept feature it duplicates, or NULL */
    double r;                       /* Pearson r with `other` */
    bool leak;                      /* a leaky feature (dataset_leak.c) */
    bool kept;                      /* a leak listed but kept (SPOOR_LEAKS_WARN) */
};

/* A column that looks like a group id (see dataset_leak.c). */
struct spoor_dataset_group_like {
    char *name;
    size_t distinct;
};

struct spoor_dataset {
    char *path;
    size_t nrows, nfeat;
    double *x;                      /* nrows * nfeat, row-major */
    char **feat_names;              /* nfeat */
    uint64_t *line;                 /* source line of each row */

    char *label_name;               /* NULL when no label */
    bool label_is_class;
    double *y;                      /* label per row: the class id, or the number */
    uint32_t *cls;                  /* class id per row (label_is_class only) */
    char **class_names;
    size_t nclasses;

    char *group_name;               /* NULL when no group */
    uint32_t *group;                /* group id per row, in order of first sight */
    char **group_names;
    size_t ngroups;

    struct spoor_dataset_drop *dropped;
    size_t ndropped;
    struct spoor_dataset_group_like *group_like; /* columns but the label that look like group ids */
    size_t ngroup_like;
    uint64_t skipped_rows;          /* rows lacking a feature, the label or the group */
    uint64_t first_skipped_line;
    char first_skipped_field[64];
};

/* Reads path (format detected, or as load->read.format says) and builds the
 * dataset. Every field of the file becomes a column (no field fills the event
 * table's fixed ts/name/... columns). Unless spec->exact, constant features and
 * features with |r| > 0.999 against an earlier kept one are dropped and listed;
 * then leaky features are listed (and dropped) as spec->leaks says, and the
 * columns that look like group ids are listed in ds->group_like.
 * Rows lacking a value are skipped and counted; with load->read.strict the
 * first one is an error. result (may be NULL) receives the reader's report. */
SPOOR_API int spoor_dataset_load(const char *path, const struct spoor_dataset_spec *spec,
                                 const struct spoor_load_opts *load, struct spoor_dataset **out,
                                 struct spoor_load_result *result, struct spoor_error *err);
SPOOR_API void spoor_dataset_free(struct spoor_dataset *ds);

/* Index of the feature named name, or -1. */
SPOOR_API long spoor_dataset_feature(const struct spoor_dataset *ds, const char *name);

/* ---- splits: lists of row indexes into a dataset ---- */

struct spoor_split {
    size_t *train, *test;
    size_t ntrain, ntest;
};

struct spoor_folds {
    struct spoor_split *fold;       /* fold[i].test is the i-th held-out part */
    size_t n;
};

/* Splits rows (NULL = every row of ds; else nrows indexes) into train and test
 * with about test_frac of them in test. With ds->group set, whole groups go to
 * test (the honest split when rows of a group are correlated); otherwise rows
 * are drawn per class (stratified) when the label is a class, else at random.
 * Deterministic for a seed. Fails when a side would be empty. */
SPOOR_API int spoor_split_holdout(const struct spoor_dataset *ds, const size_t *rows, size_t nrows, double test_frac,
                                  uint64_t seed, struct spoor_split *out, struct spoor_error *err);
/* The same without groups: stratified (classes) or random rows, even when ds
 * has a group column (to reproduce a row-level split on purpose). */
SPOOR_API int spoor_split_rows(const struct spoor_dataset *ds, const size_t *rows, size_t nrows, double test_frac,
                               uint64_t seed, struct spoor_split *out, struct spoor_error *err);

/* k folds over rows: whole groups per fold when ds has groups, else stratified
 * (classes) or random rows. k must be 2..number of rows (or groups). */
SPOOR_API int spoor_folds_kfold(const struct spoor_dataset *ds, const size_t *rows, size_t nrows, size_t k,
                                uint64_t seed, struct spoor_folds *out, struct spoor_error *err);
/* One fold per group, holding that group out (leave-one-group-out). Needs a
 * group column with at least two groups among rows. */
SPOOR_API int spoor_folds_logo(const struct spoor_dataset *ds, const size_t *rows, size_t nrows,
                               struct spoor_folds *out, struct spoor_error *err);

/* The first class (label_is_class) with rows among `rows` but none in
 * s->test, or -1 when the test part has every class. */
SPOOR_API long spoor_split_missing_class(const struct spoor_dataset *ds, const struct spoor_split *s);

SPOOR_API void spoor_split_free(struct spoor_split *s);
SPOOR_API void spoor_folds_free(struct spoor_folds *f);

/* ---- the standard scaler, fitted on training rows only ---- */

struct spoor_scaler {
    size_t n;
    double *mean, *scale;           /* scale = standard deviation, 1 when it is 0 */
};

/* How well predicted classes match true ones: accuracy, macro-F1, per-class
 * recall, the confusion matrix. */
struct spoor_metrics {
    size_t k, n;
    size_t *confusion;              /* k x k: row = true class, column = predicted */
    double accuracy, macro_f1;
    double *recall, *precision, *f1; /* per class */
};

/* Fills m from n (true, predicted) pairs over k classes. */
SPOOR_API void spoor_metrics_compute(struct spoor_metrics *m, size_t k, const uint32_t *truth, const uint32_t *pred,
                                     size_t n);
SPOOR_API void spoor_metrics_free(struct spoor_metrics *m);

/* A trained classifier, whatever its kind, with everything needed to apply it
 * to new rows: the feature names in order, the scaler fitted on the training
 * rows, the class names, an optional per-class action table, and the settings
 * and seed it was trained with. Saved as spoor's JSON model (model_json.h) and
 * exported as a C header (export_header.h). */
enum spoor_model_kind { SPOOR_MODEL_MLP, SPOOR_MODEL_LOGISTIC, SPOOR_MODEL_RULE, SPOOR_MODEL_TREES };

SPOOR_API const char *spoor_model_kind_name(enum spoor_model_kind k);
/* Parses "mlp", "logistic", "rule", "trees"; -1 for anything else. */
SPOOR_API int spoor_model_kind_parse(const char *s);

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
SPOOR_API void spoor_train_opts_default(struct spoor_train_opts *o);

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
SPOOR_API struct spoor_model *spoor_model_new(enum spoor_model_kind kind, const struct spoor_dataset *ds);
SPOOR_API void spoor_model_free(struct spoor_model *m);

/* Class scores of one raw row (nfeat values) into scores (nclasses values):
 * probabilities for MLP, logistic and trees, one-hot for a rule. Returns the
 * predicted class (the first highest score). */
SPOOR_API uint32_t spoor_model_predict(const struct spoor_model *m, const double *row, double *scores);

/* The validation part the MLP trainer carves from training rows for early
 * stopping (whole groups when ds has them): out->train keeps the
 * rest. An empty validation part when opts->val_frac is 0. */
SPOOR_API int spoor_model_val_split(const struct spoor_dataset *ds, const size_t *rows, size_t nrows,
                                    const struct spoor_train_opts *opts, struct spoor_split *out,
                                    struct spoor_error *err);

/* Trains a model of opts->kind on ds's rows (indexes). */
SPOOR_API int spoor_model_train(const struct spoor_dataset *ds, const size_t *rows, size_t nrows,
                                const struct spoor_train_opts *opts, struct spoor_model **out, struct spoor_error *err);

/* Sets the action table from "name:class=value,class=value,..." (every class
 * must get a value). */
SPOOR_API int spoor_model_set_actions(struct spoor_model *m, const char *spec, struct spoor_error *err);

/* spoor's model file: versioned, human-readable JSON holding everything to
 * apply a model (features, scaler, classes, weights, rule or trees, action
 * table) and how it was trained (settings, seed, epochs). Numbers are written
 * with enough digits to read back bit for bit. */
#define SPOOR_MODEL_FORMAT "spoor-model"
#define SPOOR_MODEL_VERSION 1

SPOOR_API void spoor_model_write_json(const struct spoor_model *m, FILE *out);
/* Writes path whole or not at all. */
SPOOR_API int spoor_model_save(const struct spoor_model *m, const char *path, struct spoor_error *err);

/* Parses and checks a model (untrusted input: every size, index and number is
 * verified, so a model read without error is safe to evaluate). name (the
 * file) starts every error message. */
SPOOR_API int spoor_model_parse(const char *text, size_t len, const char *name, struct spoor_model **out,
                                struct spoor_error *err);
SPOOR_API int spoor_model_load(const char *path, struct spoor_model **out, struct spoor_error *err);

/* Honest evaluation: a method (a model kind, or a baseline: the majority class
 * or k-NN) is fitted on the training rows of each split and predicts only its
 * held-out rows; predictions of every fold are pooled. */
#define SPOOR_KNN_K 5

/* Fits method on s->train (model settings from opts, kind ignored) and
 * predicts s->test into pred (s->ntest classes). */
SPOOR_API int spoor_fit_predict(const struct spoor_dataset *ds, const struct spoor_split *s, const char *method,
                                const struct spoor_train_opts *opts, uint32_t *pred, struct spoor_error *err);

/* Pooled held-out predictions over folds: rows[i] was predicted pred[i]
 * (n = the sum of the folds' test rows). Arrays are allocated. */
struct spoor_pooled {
    size_t n;
    size_t *rows;
    uint32_t *pred;
};

SPOOR_API int spoor_cross_predict(const struct spoor_dataset *ds, const struct spoor_folds *folds, const char *method,
                                  const struct spoor_train_opts *opts, struct spoor_pooled *out,
                                  struct spoor_error *err);
/* Metrics of pooled predictions against the dataset's classes. */
SPOOR_API void spoor_pooled_metrics(const struct spoor_dataset *ds, const struct spoor_pooled *p,
                                    struct spoor_metrics *m);
SPOOR_API void spoor_pooled_free(struct spoor_pooled *p);

/* One method's held-out scores. */
struct spoor_scored {
    const char *name;
    struct spoor_metrics m;
};

/* `spoor train`: the model trained on the training rows and scored on
 * held-out ones beside the three baselines (majority, depth-2 rule, 5-NN) on
 * the same rows; or, cross-validated, every method's pooled fold predictions
 * scored and the model then trained on every row. */
struct spoor_train_plan {
    struct spoor_train_opts train;
    double test_frac;               /* held-out share: whole groups when ds has them, else stratified rows */
    bool row_split;                 /* hold out stratified rows even when ds has groups */
    bool cv;                        /* cross-validate instead of holding out ... */
    size_t folds;                   /* ... over this many folds; 0: leave one group out */
    const char *save_split;         /* NULL, or a CSV of each row's part (line,part) of the held-out split */
};

struct spoor_trained {
    struct spoor_model *model;
    double train_ms;                /* the saved model's training time */
    char how[384];                  /* which rows were scored and how */
    struct spoor_scored scored[4];  /* the model, then the baselines */
    /* Held-out groups that lacked this class (NULL: none): every group was
     * then held out in turn (leave-one-group-out) instead. */
    const char *missing_class;
};

SPOOR_API int spoor_train_evaluate(const struct spoor_dataset *ds, const struct spoor_train_plan *p, struct spoor_trained *out,
                                   struct spoor_error *err);
/* The evaluation as a report: a table of every method and the model's
 * confusion matrix and per-class recall (how the fit ended for logistic
 * regression); or the same as one JSON object. */
SPOOR_API struct spoor_report *spoor_trained_report(const struct spoor_trained *t, const struct spoor_dataset *ds);
SPOOR_API void spoor_trained_free(struct spoor_trained *t);

/* `spoor eval`: the saved model scored on every row of ds, beside the
 * baselines cross-validated on the same rows (leave-one-group-out when
 * grouped, else 5 stratified folds); *out is the report as
 * spoor_trained_report makes it. */
SPOOR_API int spoor_model_score(const struct spoor_model *m, const struct spoor_dataset *ds, bool grouped,
                                struct spoor_report **out, struct spoor_error *err);

/* `spoor predict`: each row's line, predicted class, action (with an action
 * table) and class scores, written to path (NULL: stdout) as CSV or JSON lines. */
SPOOR_API int spoor_predictions_save(const struct spoor_model *m, const struct spoor_dataset *ds, const char *path,
                                     enum spoor_output_format format, struct spoor_error *err);

/* The dataset spec that reads a model's features exactly, with its label
 * numbered by the model's classes when with_label (a leaky feature then
 * listed, not dropped), and the group column (NULL: none). */
SPOOR_API void spoor_model_dataset_spec(const struct spoor_model *m, bool with_label, const char *group,
                                        struct spoor_dataset_spec *spec);

/* Combining feature-importance methods: each method's scores become shares
 * (non-negative, summing to 1), the consensus is their mean, and from it come
 * the ranking, the smallest set of features reaching a cumulative share, and
 * per-layer totals when feature names carry a layer. */
/* The layer of a feature name: with sep '-', the text after the last '-'
 * (`vfs_read-kernel`); with any other sep, the text before the first
 * (`kernel.vfs_read`); sep 0 tries '.' then '-'. Returns its length and sets
 * *layer, or returns 0 when the name has no layer. */
SPOOR_API size_t spoor_importance_layer(const char *name, char sep, const char **layer);

/* `spoor importance` over a dataset: every method on the same rows, their
 * shares, the consensus ranking and the smallest set reaching a cumulative
 * share. Trees are trained on a held-out split (whole groups held out when the
 * dataset has a group column); SHAP and permutation importance are measured
 * on the held-out rows; lasso's alpha is cross-validated over k folds (grouped
 * likewise). Classification or regression follows ds->label_is_class. */
enum spoor_imp_method {
    SPOOR_IMP_CORR = 1,
    SPOOR_IMP_PCA = 2,
    SPOOR_IMP_LASSO = 4,
    SPOOR_IMP_TREES = 8,        /* gain of the boosted trees */
    SPOOR_IMP_SHAP = 16,
    SPOOR_IMP_PERMUTATION = 32,
    SPOOR_IMP_ALL = 63,
};

/* Parses a comma-separated list of method names (corr,pca,lasso,trees,shap,
 * permutation, or all) into a mask; 0 when a name is unknown. */
SPOOR_API unsigned spoor_importance_methods(const char *list);

/* The per-feature scores a report holds, in column order. */
enum spoor_imp_score {
    SPOOR_SCORE_PEARSON,     /* r with the target; the correlation ratio eta for classes */
    SPOOR_SCORE_SPEARMAN,    /* the same on ranks */
    SPOOR_SCORE_LASSO,       /* |coefficient| per standardised feature (summed over classes) */
    SPOOR_SCORE_GAIN,        /* total gain of the feature's splits */
    SPOOR_SCORE_SHAP,        /* mean |SHAP| on held-out rows (summed over classes) */
    SPOOR_SCORE_PERMUTATION, /* drop of held-out accuracy or R^2 when shuffled */
    SPOOR_NSCORES,
};
SPOOR_API extern const char *const spoor_score_names[SPOOR_NSCORES];

struct spoor_importance_opts {
    unsigned methods;
    double test_frac;    /* held-out share of rows (or groups) */
    size_t folds;        /* lasso cross-validation folds */
    int repeats;         /* shuffles per feature for permutation importance */
    int rounds, max_depth;
    int threads;         /* XGBoost threads */
    uint64_t seed;
    double cumulative;   /* the share the smallest feature set must reach */
};

SPOOR_API void spoor_importance_opts_default(struct spoor_importance_opts *o);

struct spoor_importance_report {
    size_t nfeat;
    bool classification;
    double *score[SPOOR_NSCORES];   /* nfeat each; NULL when the method did not run */
    double *pearson, *spearman;     /* nfeat x nfeat feature correlation matrices (corr, pca) */
    struct spoor_pca pca;           /* pca.n = 0 when not run */
    double lasso_alpha, lasso_cv_mse; /* averaged over one-vs-rest classes */
    size_t lasso_folds;
    size_t ntrain, ntest;           /* the trees' split */
    double heldout_score;           /* the trees' held-out accuracy or R^2 */
    double *consensus;              /* mean share over the methods that score features */
    size_t *order;                  /* features by consensus, largest first */
    size_t ncumulative;             /* the first ncumulative of order reach opts.cumulative */
};

SPOOR_API int spoor_importance_run(const struct spoor_dataset *ds, const struct spoor_importance_opts *o,
                                   struct spoor_importance_report *r, struct spoor_error *err);
SPOOR_API void spoor_importance_report_free(struct spoor_importance_report *r);

/* Loads the dataset as spoor_dataset_load does; with SPOOR_LABEL_AUTO a
 * numeric target of at most 10 distinct integers becomes classes too. *why
 * says what the task was decided from ("text", "numbers", "at most 10
 * distinct integers"), NULL when spec->label_kind fixed it. */
SPOOR_API int spoor_importance_dataset_load(const char *path, const struct spoor_dataset_spec *spec,
                                            const struct spoor_load_opts *opts, struct spoor_dataset **out, const char **why,
                                            struct spoor_error *err);

/* How much of an importance result a report shows. */
struct spoor_importance_view {
    char layer_sep;      /* 0: '.' or '-' (see spoor_importance_layer) */
    size_t top;          /* features listed in the table (0: all) */
    size_t pairs;        /* strongest correlated pairs listed */
    size_t components;   /* PCA components listed */
};

/* The result as a report: a table, JSON or CSV of its own sheets each. */
SPOOR_API struct spoor_report *spoor_importance_to_report(const struct spoor_dataset *ds, const struct spoor_importance_report *r,
                                                         const struct spoor_importance_opts *o,
                                                         const struct spoor_importance_view *shown);
/* Writes an nfeat x nfeat feature matrix (r->pearson, r->spearman) as CSV
 * with the feature names as header row and first column. */
SPOOR_API int spoor_importance_matrix_save(const struct spoor_dataset *ds, const double *m, const char *path,
                                           struct spoor_error *err);

/* A trained model as a dependency-free C header for a kernel module or any C
 * program: static tables and one predict function, the scaler folded into the
 * first layer. The fixed-point variant uses integer arithmetic only (no float,
 * no libc, no allocation) and compiles with -ffreestanding -nostdlib
 * -mgeneral-regs-only; it takes features in Q16 (floor(value * 65536)). */
#define SPOOR_EXPORT_IN_FRAC 16 /* fractional bits of fixed-point inputs */

/* A kernel stack is 8-16 KiB and the kernel build warns past 2 KiB per
 * frame: a fixed-point predict function may keep at most this much on it. */
#define SPOOR_EXPORT_STACK_MAX 1024

struct spoor_export_opts {
    const char *prefix;             /* names every symbol (a C identifier) */
    bool fixed;                     /* integer-only NAME_predict_fixed() */
    bool static_buffers;            /* the function's arrays static: little stack, not reentrant */
};

/* Writes the header. Its NAME_STACK_BYTES states the bytes of locals the
 * predict function declares (arrays and scalars, counted as they are written).
 * A fixed-point function over SPOOR_EXPORT_STACK_MAX without static buffers is
 * refused (SPOOR_EUSAGE) before anything is written. stack (may be NULL)
 * receives the figure. */
SPOOR_API int spoor_export_header(const struct spoor_model *m, FILE *out, const struct spoor_export_opts *o,
                                  size_t *stack, struct spoor_error *err);

#endif
