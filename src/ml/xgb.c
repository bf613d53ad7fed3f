/* The XGBoost C API behind spoor_xgb: data goes in as float DMatrix (what
 * XGBoost computes in), NaN as missing; every call's failure becomes one
 * error line with XGBoost's own message. */
#include "ml/xgb.h"
#include "ml/xgb_api.h"
#include "ml/forest.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

struct spoor_xgb {
    BoosterHandle booster;
    size_t ncols;
    int outputs;
};

void spoor_xgb_params_default(struct spoor_xgb_params *p, enum spoor_xgb_task task, int nclass)
{
    *p = (struct spoor_xgb_params){
        .task = task, .nclass = nclass, .rounds = 100, .max_depth = 6, .max_bin = 256, .eta = 0.3, .subsample = 1,
        .seed = 0, .nthread = 1,
    };
}

static int xgb_fail(struct spoor_error *err, const char *what)
{
    return spoor_fail(err, SPOOR_EFORMAT, "xgboost: %s: %s", what, spoor_xgb_api()->XGBGetLastError());
}

static int make_dmatrix(const double *x, size_t nrows, size_t ncols, DMatrixHandle *out, struct spoor_error *err)
{
    float *xf = spoor_xmalloc((nrows * ncols + 1) * sizeof *xf);
    for (size_t i = 0; i < nrows * ncols; i++)
        xf[i] = (float)x[i];
    int rc = spoor_xgb_api()->XGDMatrixCreateFromMat(xf, nrows, ncols, NAN, out);
    free(xf);
    return rc == 0 ? SPOOR_OK : xgb_fail(err, "creating the data matrix");
}

static int set_param(BoosterHandle b, const char *name, const char *fmt, double v, struct spoor_error *err)
{
    char text[64];
    snprintf(text, sizeof text, fmt, v);
    return spoor_xgb_api()->XGBoosterSetParam(b, name, text) == 0 ? SPOOR_OK : xgb_fail(err, name);
}

static int configure(BoosterHandle b, const struct spoor_xgb_params *p, struct spoor_error *err)
{
    static const char *const objective[] = {
        [SPOOR_XGB_REGRESSION] = "reg:squarederror",
        [SPOOR_XGB_BINARY] = "binary:logistic",
        [SPOOR_XGB_MULTICLASS] = "multi:softprob",
    };
    /* hist is deterministic for a given seed and fast on wide data; verbosity 0
     * keeps XGBoost's own warnings off our stderr. */
    const struct spoor_xgb_api *xgb = spoor_xgb_api();
    if (xgb->XGBoosterSetParam(b, "objective", objective[p->task]) != 0 ||
        xgb->XGBoosterSetParam(b, "tree_method", "hist") != 0 || xgb->XGBoosterSetParam(b, "verbosity", "0") != 0)
        return xgb_fail(err, "setting parameters");
    int rc = set_param(b, "max_depth", "%.0f", p->max_depth, err);
    if (rc == SPOOR_OK) rc = set_param(b, "max_bin", "%.0f", p->max_bin, err);
    if (rc == SPOOR_OK) rc = set_param(b, "eta", "%.17g", p->eta, err);
    if (rc == SPOOR_OK) rc = set_param(b, "subsample", "%.17g", p->subsample, err);
    if (rc == SPOOR_OK) rc = set_param(b, "seed", "%.0f", p->seed, err);
    if (rc == SPOOR_OK) rc = set_param(b, "nthread", "%.0f", p->nthread > 0 ? p->nthread : 1, err);
    if (rc == SPOOR_OK && p->task == SPOOR_XGB_MULTICLASS) rc = set_param(b, "num_class", "%.0f", p->nclass, err);
    return rc;
}

int spoor_xgb_train(const double *x, size_t nrows, size_t ncols, const double *y,
                    const struct spoor_xgb_params *p, struct spoor_xgb **out, struct spoor_error *err)
{
    *out = NULL;
    if (nrows == 0 || ncols == 0)
        return spoor_fail(err, SPOOR_EUSAGE, "xgboost: no rows or no features to train on");
    if (p->task == SPOOR_XGB_MULTICLASS && p->nclass < 2)
        return spoor_fail(err, SPOOR_EUSAGE, "xgboost: multi-class training needs at least 2 classes");
    int rc = spoor_xgb_api_load(err);
    if (rc != SPOOR_OK)
        return rc;
    DMatrixHandle d;
    rc = make_dmatrix(x, nrows, ncols, &d, err);
    if (rc != SPOOR_OK)
        return rc;
    float *yf = spoor_xmalloc(nrows * sizeof *yf);
    for (size_t i = 0; i < nrows; i++)
        yf[i] = (float)y[i];
    struct spoor_xgb *b = spoor_xcalloc(1, sizeof *b);
    b->ncols = ncols;
    b->outputs = p->task == SPOOR_XGB_MULTICLASS ? p->nclass : 1;
    if (spoor_xgb_api()->XGDMatrixSetFloatInfo(d, "label", yf, nrows) != 0)
        rc = xgb_fail(err, "setting the labels");
    else if (spoor_xgb_api()->XGBoosterCreate(&d, 1, &b->booster) != 0)
        rc = xgb_fail(err, "creating the booster");
    else
        rc = configure(b->booster, p, err);
    for (int round = 0; rc == SPOOR_OK && round < p->rounds; round++)
        if (spoor_xgb_api()->XGBoosterUpdateOneIter(b->booster, round, d) != 0)
            rc = xgb_fail(err, "training");
    free(yf);
    spoor_xgb_api()->XGDMatrixFree(d);
    if (rc != SPOOR_OK) {
        spoor_xgb_free(b);
        return rc;
    }
    *out = b;
    return SPOOR_OK;
}

int spoor_xgb_outputs(const struct spoor_xgb *b) { return b->outputs; }

/* Runs one XGBoost prediction type and copies the expected count of values. */
static int predict_type(struct spoor_xgb *b, const double *x, size_t nrows, int type, size_t per_row,
                        double *out, struct spoor_error *err)
{
    DMatrixHandle d;
    int rc = make_dmatrix(x, nrows, b->ncols, &d, err);
    if (rc != SPOOR_OK)
        return rc;
    char config[128];
    snprintf(config, sizeof config,
             "{\"type\": %d, \"training\": false, \"iteration_begin\": 0, \"iteration_end\": 0, \"strict_shape\": false}",
             type);
    const bst_ulong *shape;
    bst_ulong dim;
    const float *result;
    if (spoor_xgb_api()->XGBoosterPredictFromDMatrix(b->booster, d, config, &shape, &dim, &result) != 0) {
        rc = xgb_fail(err, "predicting");
    } else {
        size_t n = 1;
        for (bst_ulong i = 0; i < dim; i++)
            n *= shape[i];
        if (n != nrows * per_row)
            rc = spoor_fail(err, SPOOR_EFORMAT, "xgboost: predicted %zu values, expected %zu", n, nrows * per_row);
        for (size_t i = 0; rc == SPOOR_OK && i < n; i++)
            out[i] = result[i];
    }
    spoor_xgb_api()->XGDMatrixFree(d);
    return rc;
}

int spoor_xgb_predict(struct spoor_xgb *b, const double *x, size_t nrows, double *out, struct spoor_error *err)
{
    return predict_type(b, x, nrows, 0, (size_t)b->outputs, out, err);
}

int spoor_xgb_contribs(struct spoor_xgb *b, const double *x, size_t nrows, double *out, struct spoor_error *err)
{
    return predict_type(b, x, nrows, 2, (size_t)b->outputs * (b->ncols + 1), out, err);
}

int spoor_xgb_forest(struct spoor_xgb *b, struct spoor_forest *f, struct spoor_error *err)
{
    bst_ulong len;
    const char *json;
    if (spoor_xgb_api()->XGBoosterSaveModelToBuffer(b->booster, "{\"format\": \"json\"}", &len, &json) != 0)
        return xgb_fail(err, "saving the model");
    return spoor_forest_from_xgb_json(json, len, f, err);
}

void spoor_xgb_free(struct spoor_xgb *b)
{
    if (!b)
        return;
    if (b->booster)
        spoor_xgb_api()->XGBoosterFree(b->booster);
    free(b);
}
