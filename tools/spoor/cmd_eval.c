/* spoor --help: score a saved model on a labelled dataset, beside baselines */
/* spoor eval: scores a saved model on a labelled dataset, beside baselines
 * cross-validated on the same dataset. */
#include <stdlib.h>
#include <string.h>

#include "cli_getopt.h"
#include "load_args.h"
#include "spoor/ml.h"
#include "ml_cli.h"

static const char usage[] =
    "usage: spoor eval [options] MODEL DATASET\n"
    "\n"
    "Scores a model from spoor train on every row of a labelled dataset (the\n"
    "model's label column, its features by name): accuracy, macro-F1, the\n"
    "confusion matrix and per-class recall. Beside it, the baselines (majority\n"
    "class, best depth-2 rule, 5-NN) cross-validated on DATASET itself:\n"
    "leave-one-group-out with --group, else 5 stratified folds.\n"
    "Evaluate on rows the model was not trained on, or the score means little.\n"
    "\n"
    "options:\n"
    "  --group COL          group column for the baselines' folds (e.g. run_id)\n"
    "  --format F           table (default), json or html (a page of charts; -o FILE.html)\n"
    "  -o FILE              write to FILE (complete or not at all) instead of stdout\n"
    "  -h, --help           this help\n" LOAD_HELP_HEAD LOAD_HELP_THREADS LOAD_HELP_BASE;

static int score(const struct spoor_model *m, const struct spoor_dataset *ds, const char *group,
                 enum spoor_output_format format,
                 const char *output)
{
    struct ml_scored s[4] = {{.name = spoor_model_kind_name(m->kind)}, {.name = "majority"},
                             {.name = "rule (depth 2)"}, {.name = "knn (k=5)"}};
    uint32_t *pred = spoor_xcalloc(ds->nrows + 1, sizeof *pred);
    double scores[m->nclasses + 1];
    for (size_t i = 0; i < ds->nrows; i++)
        pred[i] = spoor_model_predict(m, ds->x + i * ds->nfeat, scores);
    spoor_metrics_compute(&s[0].m, ds->nclasses, ds->cls, pred, ds->nrows);
    free(pred);
    struct spoor_error err = {0};
    struct spoor_folds folds;
    int st = group ? spoor_folds_logo(ds, NULL, 0, &folds, &err)
                   : spoor_folds_kfold(ds, NULL, 0, 5, m->opts.seed, &folds, &err);
    bool have_folds = st == SPOOR_OK;
    const char *methods[] = {"majority", "rule", "knn"};
    for (size_t b = 0; b < 3 && st == SPOOR_OK; b++) {
        struct spoor_pooled p;
        if ((st = spoor_cross_predict(ds, &folds, methods[b], &m->opts, &p, &err)) == SPOOR_OK) {
            spoor_pooled_metrics(ds, &p, &s[b + 1].m);
            spoor_pooled_free(&p);
        }
    }
    if (have_folds)
        spoor_folds_free(&folds);
    char how[512];
    snprintf(how, sizeof how, "model on all %zu rows of %s; baselines: %s on the same rows", ds->nrows, ds->path,
             group ? "leave-one-group-out" : "5-fold stratified cross-validation");
    if (st == SPOOR_OK) {
        struct spoor_report *r = ml_report(how, -1, NULL, ds, s, 4);
        st = spoor_report_save(r, output, format, 1, &err);
        spoor_report_free(r);
    }
    if (st != SPOOR_OK)
        fprintf(stderr, "spoor eval: %s\n", err.msg);
    for (size_t i = 0; i < 4; i++)
        spoor_metrics_free(&s[i].m);
    return cli_exit_code(st);
}

int cmd_eval(int argc, char **argv)
{
    static const struct ml_model_command c = {.name = "eval", .usage = usage, .formats = {SPOOR_FORMAT_TABLE, SPOOR_FORMAT_JSON, SPOOR_FORMAT_HTML}, .nformats = 3,
                                              .with_label = true, .with_group = true, .run = score};
    return ml_model_command_main(&c, argc, argv);
}
