/* Gradient-boosted trees through XGBoost (multi:softprob on raw features),
 * kept as plain node arrays: the saved model, spoor predict and the exported
 * C header all run the trees without XGBoost. Thresholds are moved onto the
 * fixed-point inputs' grid, so the integer-only header decides every split as
 * the model does, by construction rather than by luck. */
#include "spoor/ml.h"
#include "ml/model_internal.h"
#include "ml/xgb.h"
#include "ml/forest.h"

#include <stdlib.h>

int trees_train(const struct spoor_dataset *ds, const size_t *rows, size_t n, struct spoor_model *m,
                struct spoor_error *err)
{
    size_t p = ds->nfeat;
    double *x = spoor_xcalloc(n * p + 1, sizeof *x), *y = spoor_xcalloc(n + 1, sizeof *y);
    for (size_t i = 0; i < n; i++) {
        for (size_t f = 0; f < p; f++)
            x[i * p + f] = ds->x[rows[i] * p + f];
        y[i] = ds->cls[rows[i]];
    }
    struct spoor_xgb_params params;
    spoor_xgb_params_default(&params, SPOOR_XGB_MULTICLASS, (int)ds->nclasses);
    params.rounds = (int)m->opts.trees_rounds;
    params.max_depth = (int)m->opts.trees_depth;
    params.eta = m->opts.trees_eta;
    params.seed = (unsigned)m->opts.seed;
    struct spoor_xgb *b = NULL;
    int st = spoor_xgb_train(x, n, p, y, &params, &b, err);
    if (st == SPOOR_OK)
        st = spoor_xgb_forest(b, &m->forest, err);
    if (st == SPOOR_OK)
        spoor_forest_quantise(&m->forest, SPOOR_EXPORT_IN_FRAC);
    spoor_xgb_free(b);
    free(x);
    free(y);
    return st;
}
