/* spoor --help: score a saved model on a labelled dataset, beside baselines */
/* spoor eval: scores a saved model on a labelled dataset, beside baselines
 * cross-validated on the same dataset. */
#include <stdio.h>

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
                 enum spoor_output_format format, const char *output)
{
    struct spoor_error err = {0};
    struct spoor_report *r = NULL;
    int st = spoor_model_score(m, ds, group != NULL, &r, &err);
    if (st == SPOOR_OK)
        st = spoor_report_save(r, output, format, 1, &err);
    spoor_report_free(r);
    if (st != SPOOR_OK)
        fprintf(stderr, "spoor eval: %s\n", err.msg);
    return cli_exit_code(st);
}

int cmd_eval(int argc, char **argv)
{
    static const struct ml_model_command c = {.name = "eval", .usage = usage, .formats = {SPOOR_FORMAT_TABLE, SPOOR_FORMAT_JSON, SPOOR_FORMAT_HTML}, .nformats = 3,
                                              .with_label = true, .with_group = true, .run = score};
    return ml_model_command_main(&c, argc, argv);
}
