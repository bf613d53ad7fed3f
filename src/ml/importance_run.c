#include "spoor/ml.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ml/corr.h"
#include "ml/lasso.h"
#include "ml/permutation.h"
#include "ml/permutation_forest.h"
#include "ml/xgb.h"
#include "ml/forest.h"
#include "ml/pca.h"
#include "ml/importance.h"

/* Ranking features needs no fine split points; 64 bins train 2.5x faster than
 * XGBoost's default 256 (measured on 8,000 x 200). */
#define IMPORTANCE_MAX_BIN 64

const char *const spoor_score_names[SPOOR_NSCORES] = {"pearson", "spearman", "lasso", "gain", "shap", "permutation"};

static const struct {
    const char *name;
    unsigned mask;
} method_names[] = {
    {"corr", SPOOR_IMP_CORR},   {"pca", SPOOR_IMP_PCA},   {"lasso", SPOOR_IMP_LASSO},
    {"trees", SPOOR_IMP_TREES}, {"shap", SPOOR_IMP_SHAP}, {"permutation", SPOOR_IMP_PERMUTATION},
    {"all", SPOOR_IMP_ALL},
};

unsigned spoor_importance_methods(const char *list)
{
    unsigned mask = 0;
    for (const char *p = list; *p;) {
        size_t n = strcspn(p, ",");
        size_t k = 0;
        while (k < sizeof method_names / sizeof *method_names &&
               (strlen(method_names[k].name) != n || strncmp(method_names[k].name, p, n) != 0))
            k++;
        if (k == sizeof method_names / sizeof *method_names)
            return 0;
        mask |= method_names[k].mask;
        p += n + (p[n] == ',');
    }
    return mask;
}

void spoor_importance_opts_default(struct spoor_importance_opts *o)
{
    *o = (struct spoor_importance_opts){
        .methods = SPOOR_IMP_ALL, .test_frac = 0.2, .folds = 5, .repeats = 5, .rounds = 100, .max_depth = 6,
        .threads = 2, .seed = 1, .cumulative = 0.95,
    };
}

static double *new_scores(size_t n) { return spoor_xcalloc(n + 1, sizeof(double)); }

/* The rows listed, as a row-major matrix, with their labels. */
static double *gather(const struct spoor_dataset *ds, const size_t *rows, size_t n, double **y)
{
    double *x = spoor_xmalloc((n * ds->nfeat + 1) * sizeof *x);
    *y = spoor_xmalloc((n + 1) * sizeof **y);
    for (size_t i = 0; i < n; i++) {
        memcpy(x + i * ds->nfeat, ds->x + rows[i] * ds->nfeat, ds->nfeat * sizeof *x);
        (*y)[i] = ds->y[rows[i]];
    }
    return x;
}

/* Feature correlation matrices and each feature's association with the target:
 * r for a number, the correlation ratio for classes. */
static int run_corr(const struct spoor_dataset *ds, struct spoor_importance_report *r, struct spoor_error *err)
{
    size_t n = ds->nrows, p = ds->nfeat, q = p + 1;
    double *xy = spoor_xmalloc((n * q + 1) * sizeof *xy), *m = spoor_xmalloc((q * q + 1) * sizeof *m);
    for (size_t i = 0; i < n; i++) {
        memcpy(xy + i * q, ds->x + i * p, p * sizeof *xy);
        xy[i * q + p] = ds->y[i];
    }
    int rc = SPOOR_OK;
    for (int spearman = 0; spearman < 2; spearman++) {
        rc = spoor_corr_matrix(xy, n, q, spearman, m, err);
        if (rc != SPOOR_OK)
            break;
        double *matrix = spoor_xmalloc((p * p + 1) * sizeof *matrix), *target = new_scores(p);
        for (size_t a = 0; a < p; a++) {
            memcpy(matrix + a * p, m + a * q, p * sizeof *matrix);
            target[a] = m[p * q + a];
        }
        *(spearman ? &r->spearman : &r->pearson) = matrix;
        r->score[spearman ? SPOOR_SCORE_SPEARMAN : SPOOR_SCORE_PEARSON] = target;
    }
    if (rc == SPOOR_OK && r->classification) {
        int *label = spoor_xmalloc((n + 1) * sizeof *label);
        for (size_t i = 0; i < n; i++)
            label[i] = (int)ds->cls[i];
        spoor_corr_ratio(ds->x, n, p, label, (int)ds->nclasses, r->score[SPOOR_SCORE_PEARSON]);
        for (size_t j = 0; j < p; j++)
            spoor_rank_column(xy, n, q, j);
        spoor_corr_ratio(xy, n, q, label, (int)ds->nclasses, r->score[SPOOR_SCORE_SPEARMAN]);
        free(label);
    }
    free(xy);
    free(m);
    return rc;
}

/* Lasso on the number, or one-vs-rest on each class (|coefficients| summed;
 * for two classes one fit). */
static int run_lasso(const struct spoor_dataset *ds, const struct spoor_importance_opts *o,
                     struct spoor_importance_report *r, struct spoor_error *err)
{
    size_t k = o->folds;
    if (ds->group && ds->ngroups < k)
        k = ds->ngroups;
    struct spoor_folds folds;
    int rc = spoor_folds_kfold(ds, NULL, 0, k, o->seed, &folds, err);
    if (rc != SPOOR_OK)
        return rc;
    uint32_t *fold = spoor_xmalloc((ds->nrows + 1) * sizeof *fold);
    for (size_t f = 0; f < folds.n; f++)
        for (size_t i = 0; i < folds.fold[f].ntest; i++)
            fold[folds.fold[f].test[i]] = (uint32_t)f;
    r->lasso_folds = folds.n;
    double *target = spoor_xmalloc((ds->nrows + 1) * sizeof *target), *score = new_scores(ds->nfeat);
    size_t fits = r->classification ? (ds->nclasses == 2 ? 1 : ds->nclasses) : 1;
    for (size_t c = 0; c < fits && rc == SPOOR_OK; c++) {
        for (size_t i = 0; i < ds->nrows; i++)
            target[i] = !r->classification ? ds->y[i] : ds->cls[i] == (fits == 1 ? 1 : c);
        struct spoor_lasso l;
        rc = spoor_lasso_cv(ds->x, ds->nrows, ds->nfeat, target, fold, folds.n, &l, err);
        if (rc != SPOOR_OK)
            break;
        for (size_t j = 0; j < ds->nfeat; j++)
            score[j] += fabs(l.coef[j]);
        r->lasso_alpha += l.alpha / (double)fits;
        r->lasso_cv_mse += l.cv_mse / (double)fits;
        spoor_lasso_free(&l);
    }
    r->score[SPOOR_SCORE_LASSO] = score;
    free(target);
    free(fold);
    spoor_folds_free(&folds);
    return rc;
}

static void mean_abs_shap(const double *contribs, size_t nrows, int outputs, size_t p, double *score)
{
    for (size_t i = 0; i < nrows * (size_t)outputs; i++)
        for (size_t j = 0; j < p; j++)
            score[j] += fabs(contribs[i * (p + 1) + j]) / (double)nrows;
}

static int run_trees(const struct spoor_dataset *ds, const struct spoor_importance_opts *o,
                     struct spoor_importance_report *r, struct spoor_error *err)
{
    struct spoor_split split;
    int rc = spoor_split_holdout(ds, NULL, 0, o->test_frac, o->seed, &split, err);
    if (rc != SPOOR_OK)
        return rc;
    size_t p = ds->nfeat;
    r->ntrain = split.ntrain;
    r->ntest = split.ntest;
    double *ytrain, *ytest;
    double *xtrain = gather(ds, split.train, split.ntrain, &ytrain), *xtest = gather(ds, split.test, split.ntest, &ytest);
    struct spoor_xgb_params params;
    enum spoor_xgb_task task = !r->classification  ? SPOOR_XGB_REGRESSION
                               : ds->nclasses == 2 ? SPOOR_XGB_BINARY
                                                   : SPOOR_XGB_MULTICLASS;
    spoor_xgb_params_default(&params, task, (int)ds->nclasses);
    params.rounds = o->rounds;
    params.max_depth = o->max_depth;
    params.max_bin = IMPORTANCE_MAX_BIN;
    params.seed = (unsigned)o->seed;
    params.nthread = o->threads;
    struct spoor_xgb *b = NULL;
    struct spoor_forest f = {0};
    rc = spoor_xgb_train(xtrain, split.ntrain, p, ytrain, &params, &b, err);
    if (rc == SPOOR_OK)
        rc = spoor_xgb_forest(b, &f, err);
    if (rc == SPOOR_OK) {
        r->score[SPOOR_SCORE_GAIN] = new_scores(p);
        spoor_forest_total_gain(&f, r->score[SPOOR_SCORE_GAIN]);
    }
    if (rc == SPOOR_OK && (o->methods & SPOOR_IMP_SHAP)) {
        int k = spoor_xgb_outputs(b);
        double *contribs = spoor_xmalloc((split.ntest * (size_t)k * (p + 1) + 1) * sizeof *contribs);
        rc = spoor_xgb_contribs(b, xtest, split.ntest, contribs, err);
        if (rc == SPOOR_OK) {
            r->score[SPOOR_SCORE_SHAP] = new_scores(p);
            mean_abs_shap(contribs, split.ntest, k, p, r->score[SPOOR_SCORE_SHAP]);
        }
        free(contribs);
    }
    if (rc == SPOOR_OK) {
        /* The held-out score is permutation importance's baseline; with 0 repeats it is all that runs. */
        struct spoor_forest_predictor *pred = spoor_forest_predictor_new(&f, split.ntest, r->classification);
        double *drop = new_scores(p);
        int repeats = (o->methods & SPOOR_IMP_PERMUTATION) ? o->repeats : 0;
        spoor_permutation_importance(xtest, split.ntest, p, ytest, r->classification, spoor_forest_predictor_run,
                                     pred, repeats, o->seed, &r->heldout_score, drop);
        if (repeats)
            r->score[SPOOR_SCORE_PERMUTATION] = drop;
        else
            free(drop);
        spoor_forest_predictor_free(pred);
    }
    if (!(o->methods & SPOOR_IMP_TREES)) { /* trained only for SHAP or permutation */
        free(r->score[SPOOR_SCORE_GAIN]);
        r->score[SPOOR_SCORE_GAIN] = NULL;
    }
    spoor_forest_free(&f);
    spoor_xgb_free(b);
    free(xtrain);
    free(ytrain);
    free(xtest);
    free(ytest);
    spoor_split_free(&split);
    return rc;
}

/* The mean of each method's shares. Pearson and Spearman count as one method
 * (their mean), so correlation does not outvote the models, and enter squared
 * (the share of variance explained): |r| of pure noise is ~1/sqrt(n), which
 * over hundreds of irrelevant features would add up to a large share. */
static void consensus(struct spoor_importance_report *r, double threshold)
{
    size_t p = r->nfeat, methods = 0;
    double *share = new_scores(p), *corr = NULL;
    r->consensus = new_scores(p);
    r->order = spoor_xmalloc((p + 1) * sizeof *r->order);
    if (r->score[SPOOR_SCORE_PEARSON]) {
        corr = new_scores(p);
        for (size_t j = 0; j < p; j++)
            corr[j] = (r->score[SPOOR_SCORE_PEARSON][j] * r->score[SPOOR_SCORE_PEARSON][j] +
                       r->score[SPOOR_SCORE_SPEARMAN][j] * r->score[SPOOR_SCORE_SPEARMAN][j]) / 2;
    }
    for (int s = SPOOR_SCORE_SPEARMAN; s < SPOOR_NSCORES; s++) {
        const double *score = s == SPOOR_SCORE_SPEARMAN ? corr : r->score[s];
        if (!score)
            continue;
        spoor_importance_shares(score, p, share);
        for (size_t j = 0; j < p; j++)
            r->consensus[j] += share[j];
        methods++;
    }
    for (size_t j = 0; j < p && methods; j++)
        r->consensus[j] /= (double)methods;
    spoor_importance_order(r->consensus, p, r->order);
    r->ncumulative = methods ? spoor_importance_cumulative(r->consensus, r->order, p, threshold) : 0;
    free(share);
    free(corr);
}

int spoor_importance_run(const struct spoor_dataset *ds, const struct spoor_importance_opts *o,
                         struct spoor_importance_report *r, struct spoor_error *err)
{
    memset(r, 0, sizeof *r);
    r->nfeat = ds->nfeat;
    r->classification = ds->label_is_class;
    if (ds->nfeat == 0 || ds->nrows < 2)
        return spoor_fail(err, SPOOR_EUSAGE, "%s: no features or fewer than 2 rows left to rank", ds->path);
    if (r->classification && ds->nclasses < 2)
        return spoor_fail(err, SPOOR_EUSAGE, "%s: the target %s has a single class", ds->path, ds->label_name);
    int rc = SPOOR_OK;
    if (o->methods & (SPOOR_IMP_CORR | SPOOR_IMP_PCA))
        rc = run_corr(ds, r, err);
    if (rc == SPOOR_OK && (o->methods & SPOOR_IMP_PCA))
        rc = spoor_pca_from_corr(r->pearson, ds->nfeat, &r->pca, err);
    if (!(o->methods & SPOOR_IMP_CORR)) { /* computed only for PCA */
        free(r->score[SPOOR_SCORE_PEARSON]);
        free(r->score[SPOOR_SCORE_SPEARMAN]);
        r->score[SPOOR_SCORE_PEARSON] = r->score[SPOOR_SCORE_SPEARMAN] = NULL;
    }
    if (rc == SPOOR_OK && (o->methods & SPOOR_IMP_LASSO))
        rc = run_lasso(ds, o, r, err);
    if (rc == SPOOR_OK && (o->methods & (SPOOR_IMP_TREES | SPOOR_IMP_SHAP | SPOOR_IMP_PERMUTATION)))
        rc = run_trees(ds, o, r, err);
    if (rc == SPOOR_OK)
        consensus(r, o->cumulative);
    if (rc != SPOOR_OK)
        spoor_importance_report_free(r);
    return rc;
}

void spoor_importance_report_free(struct spoor_importance_report *r)
{
    for (int s = 0; s < SPOOR_NSCORES; s++)
        free(r->score[s]);
    free(r->pearson);
    free(r->spearman);
    spoor_pca_free(&r->pca);
    free(r->consensus);
    free(r->order);
    memset(r, 0, sizeof *r);
}
