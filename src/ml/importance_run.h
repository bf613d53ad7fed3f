/* `spoor importance` over a dataset: every method on the same rows, their
 * shares, the consensus ranking and the smallest set reaching a cumulative
 * share. Trees are trained on a held-out split (whole groups held out when the
 * dataset has a group column); SHAP and permutation importance are measured
 * on the held-out rows; lasso's alpha is cross-validated over k folds (grouped
 * likewise). Classification or regression follows ds->label_is_class. */
#ifndef SPOOR_ML_IMPORTANCE_RUN_H
#define SPOOR_ML_IMPORTANCE_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ml/dataset.h"
#include "ml/pca.h"
#include "spoor/error.h"

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
unsigned spoor_importance_methods(const char *list);

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
extern const char *const spoor_score_names[SPOOR_NSCORES];

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

void spoor_importance_opts_default(struct spoor_importance_opts *o);

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

int spoor_importance_run(const struct spoor_dataset *ds, const struct spoor_importance_opts *o,
                         struct spoor_importance_report *r, struct spoor_error *err);
void spoor_importance_report_free(struct spoor_importance_report *r);

#endif
