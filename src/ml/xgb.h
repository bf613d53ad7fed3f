/* Gradient-boosted trees through XGBoost's C API: training (deterministic for a
 * given seed and thread count), prediction, TreeSHAP contributions, and the
 * trained trees as a spoor_forest that runs without XGBoost. */
#ifndef SPOOR_ML_XGB_H
#define SPOOR_ML_XGB_H

#include <stddef.h>

#include "spoor/ml.h"
#include "spoor/error.h"

enum spoor_xgb_task {
    SPOOR_XGB_REGRESSION, /* reg:squarederror */
    SPOOR_XGB_BINARY,     /* binary:logistic; labels 0/1 */
    SPOOR_XGB_MULTICLASS, /* multi:softprob; labels 0 .. nclass-1 */
};

struct spoor_xgb_params {
    enum spoor_xgb_task task;
    int nclass;        /* MULTICLASS only */
    int rounds;        /* boosting rounds (trees per class) */
    int max_depth;
    int max_bin;       /* histogram bins per feature (XGBoost's hist method) */
    double eta;        /* learning rate */
    double subsample;  /* row fraction per tree (1 = all; below 1 draws from seed) */
    unsigned seed;
    int nthread;       /* XGBoost's OpenMP threads; results do not depend on it */
};

/* rounds 100, max_depth 6, max_bin 256, eta 0.3, subsample 1, seed 0, nthread 1. */
void spoor_xgb_params_default(struct spoor_xgb_params *p, enum spoor_xgb_task task, int nclass);

struct spoor_xgb;

/* Trains on x (nrows x ncols, row-major; NaN = missing) and labels y. */
int spoor_xgb_train(const double *x, size_t nrows, size_t ncols, const double *y,
                    const struct spoor_xgb_params *p, struct spoor_xgb **out, struct spoor_error *err);

/* Outputs per row: nclass for MULTICLASS (probabilities), else 1 (the value,
 * or the probability of class 1). */
int spoor_xgb_outputs(const struct spoor_xgb *b);

/* Predictions for nrows rows: nrows x outputs values. */
int spoor_xgb_predict(struct spoor_xgb *b, const double *x, size_t nrows, double *out, struct spoor_error *err);

/* TreeSHAP (pred_contribs): nrows x outputs x (ncols + 1) values in margin
 * space; the last of each row's ncols + 1 is the bias, and the row sums to the
 * margin. */
int spoor_xgb_contribs(struct spoor_xgb *b, const double *x, size_t nrows, double *out, struct spoor_error *err);

/* The trained trees as node arrays (see xgb_forest.h). */
int spoor_xgb_forest(struct spoor_xgb *b, struct spoor_forest *f, struct spoor_error *err);

void spoor_xgb_free(struct spoor_xgb *b);

#endif
