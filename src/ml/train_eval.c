/* `spoor train`'s run: the model trained and scored on held-out rows (or by
 * cross-validation) beside the baselines on the same rows, the held-out split
 * saved on request, and the evaluation as a report. */
#include "spoor/ml.h"
#include "ml/evaluation_report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *const baselines[] = {"majority", "rule", "knn"};

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* The model trained on rows, timed. */
static int train_timed(const struct spoor_train_plan *p, const struct spoor_dataset *ds, const size_t *rows, size_t n,
                       struct spoor_trained *t, struct spoor_error *err)
{
    double t0 = now_ms();
    int st = spoor_model_train(ds, rows, n, &p->train, &t->model, err);
    t->train_ms = now_ms() - t0;
    return st;
}

/* Every row's part of the held-out split, by source line. */
static int save_split(const struct spoor_train_plan *p, const struct spoor_dataset *ds,
                      const struct spoor_split *split, struct spoor_error *err)
{
    struct spoor_split val;
    struct spoor_train_opts o = p->train;
    if (o.kind != SPOOR_MODEL_MLP)
        o.val_frac = 0; /* only the MLP carves a validation part */
    int st = spoor_model_val_split(ds, split->train, split->ntrain, &o, &val, err);
    if (st != SPOOR_OK)
        return st;
    const char **part = spoor_xcalloc(ds->nrows + 1, sizeof *part);
    for (size_t i = 0; i < split->ntest; i++)
        part[split->test[i]] = "test";
    for (size_t i = 0; i < val.ntrain; i++)
        part[val.train[i]] = "train";
    for (size_t i = 0; i < val.ntest; i++)
        part[val.test[i]] = "validation";
    struct spoor_report *rep = spoor_report_new("split");
    static const struct spoor_sheet_col cols[] = {{"line", SPOOR_CU_NONE, 0, SPOOR_HINT_NONE},
                                                  {"part", SPOOR_CU_NONE, 0, SPOOR_HINT_CATEGORY}};
    struct spoor_sheet *sh = spoor_report_table(rep, "split", SPOOR_FORMATS_ALL, cols, 2);
    spoor_sheet_reserve(sh, ds->nrows);
    for (size_t r = 0; r < ds->nrows; r++) {
        spoor_sheet_count(sh, ds->line[r]);
        if (part[r])
            spoor_sheet_name(sh, part[r]);
        else
            spoor_sheet_null(sh);
    }
    st = spoor_report_save(rep, p->save_split, SPOOR_FORMAT_CSV, 1, err);
    spoor_report_free(rep);
    free(part);
    spoor_split_free(&val);
    return st;
}

/* Cross-validated scores of the model and the baselines, then the model on every row. */
static int cross_validate(const struct spoor_train_plan *p, bool logo, const struct spoor_dataset *ds,
                          struct spoor_trained *t, struct spoor_error *err)
{
    struct spoor_folds folds;
    int st = logo ? spoor_folds_logo(ds, NULL, 0, &folds, err)
                  : spoor_folds_kfold(ds, NULL, 0, p->folds, p->train.seed, &folds, err);
    if (st != SPOOR_OK)
        return st;
    snprintf(t->how, sizeof t->how, "%s over %zu rows (%zu folds%s, seed %llu); predictions of every fold pooled",
             logo ? "leave-one-group-out" : "k-fold cross-validation", ds->nrows, folds.n,
             ds->group ? ", whole groups" : ", stratified", (unsigned long long)p->train.seed);
    const char *methods[] = {spoor_model_kind_name(p->train.kind), baselines[0], baselines[1], baselines[2]};
    for (size_t i = 0; i < 4 && st == SPOOR_OK; i++) {
        struct spoor_pooled pooled;
        if ((st = spoor_cross_predict(ds, &folds, methods[i], &p->train, &pooled, err)) == SPOOR_OK) {
            spoor_pooled_metrics(ds, &pooled, &t->scored[i].m);
            spoor_pooled_free(&pooled);
        }
    }
    spoor_folds_free(&folds);
    if (st != SPOOR_OK)
        return st;
    size_t *all = spoor_xcalloc(ds->nrows + 1, sizeof *all);
    for (size_t i = 0; i < ds->nrows; i++)
        all[i] = i;
    st = train_timed(p, ds, all, ds->nrows, t, err);
    free(all);
    return st;
}

/* Scores the model (held-out) and the baselines on the same rows. */
static int holdout(const struct spoor_train_plan *p, const struct spoor_dataset *ds, struct spoor_trained *t,
                   struct spoor_error *err)
{
    struct spoor_split split;
    bool grouped = ds->group && !p->row_split;
    int st = grouped ? spoor_split_holdout(ds, NULL, 0, p->test_frac, p->train.seed, &split, err)
                     : spoor_split_rows(ds, NULL, 0, p->test_frac, p->train.seed, &split, err);
    if (st != SPOOR_OK)
        return st;
    /* Whole groups can leave a class out of the test part: its recall would be
     * no measure at all, so every group is held out in turn instead. */
    long missing = grouped ? spoor_split_missing_class(ds, &split) : -1;
    if (missing >= 0) {
        spoor_split_free(&split);
        if (p->save_split)
            return spoor_fail(err, SPOOR_EUSAGE,
                              "the held-out groups have no '%s' row, so train falls back to leave-one-group-out, "
                              "which has no split to save (--save-split)", ds->class_names[missing]);
        t->missing_class = ds->class_names[missing];
        st = cross_validate(p, true, ds, t, err);
        size_t used = strlen(t->how);
        snprintf(t->how + used, sizeof t->how - used, "; instead of a held-out split whose groups had no '%s' row",
                 t->missing_class);
        return st;
    }
    snprintf(t->how, sizeof t->how, "held-out %zu of %zu rows (%s, seed %llu); trained on the other %zu", split.ntest,
             ds->nrows, grouped ? "whole groups" : "stratified rows", (unsigned long long)p->train.seed,
             split.ntrain);
    uint32_t *truth = spoor_xcalloc(split.ntest + 1, sizeof *truth), *pred = spoor_xcalloc(split.ntest + 1, sizeof *pred);
    for (size_t i = 0; i < split.ntest; i++)
        truth[i] = ds->cls[split.test[i]];
    st = p->save_split ? save_split(p, ds, &split, err) : SPOOR_OK;
    if (st == SPOOR_OK)
        st = train_timed(p, ds, split.train, split.ntrain, t, err);
    if (st == SPOOR_OK) {
        double scores[ds->nclasses + 1];
        for (size_t i = 0; i < split.ntest; i++)
            pred[i] = spoor_model_predict(t->model, ds->x + split.test[i] * ds->nfeat, scores);
        spoor_metrics_compute(&t->scored[0].m, ds->nclasses, truth, pred, split.ntest);
    }
    for (size_t b = 0; b < 3 && st == SPOOR_OK; b++)
        if ((st = spoor_fit_predict(ds, &split, baselines[b], &p->train, pred, err)) == SPOOR_OK)
            spoor_metrics_compute(&t->scored[b + 1].m, ds->nclasses, truth, pred, split.ntest);
    free(truth);
    free(pred);
    spoor_split_free(&split);
    return st;
}

int spoor_train_evaluate(const struct spoor_dataset *ds, const struct spoor_train_plan *p, struct spoor_trained *out,
                         struct spoor_error *err)
{
    *out = (struct spoor_trained){.train_ms = -1,
                                  .scored = {{.name = spoor_model_kind_name(p->train.kind)}, {.name = "majority"},
                                             {.name = "rule (depth 2)"}, {.name = "knn (k=5)"}}};
    return p->cv ? cross_validate(p, !p->folds, ds, out, err) : holdout(p, ds, out, err);
}

struct spoor_report *spoor_trained_report(const struct spoor_trained *t, const struct spoor_dataset *ds)
{
    return ml_evaluation_report(t->how, t->train_ms, t->model, ds, t->scored, 4);
}

void spoor_trained_free(struct spoor_trained *t)
{
    for (size_t i = 0; i < 4; i++)
        spoor_metrics_free(&t->scored[i].m);
    spoor_model_free(t->model);
    t->model = NULL;
}
