/* spoor --help: a saved model's class (and action) for every row of a dataset */
/* spoor predict: a saved model's class (and action) for every row of a dataset. */
#include <stdio.h>

#include "load_args.h"
#include "spoor/ml.h"
#include "ml_cli.h"

static const char usage[] =
    "usage: spoor predict [options] MODEL DATASET\n"
    "\n"
    "Applies a model from spoor train to every row of a CSV or JSONL dataset that\n"
    "holds the model's features (by name; no label needed). One output row per\n"
    "input row: its line, the predicted class, the model's action for that class\n"
    "when it has an action table, and each class's score (probability; 1/0 for a rule).\n"
    "\n"
    "options:\n"
    "  --format F           csv (default) or jsonl\n"
    "  -o FILE              write to FILE (complete or not at all) instead of stdout\n"
    "  -h, --help           this help\n" LOAD_HELP_HEAD LOAD_HELP_THREADS LOAD_HELP_BASE;

static int predict(const struct spoor_model *m, const struct spoor_dataset *ds, const char *group,
                   enum spoor_output_format format, const char *output)
{
    (void)group;
    struct spoor_error err = {0};
    if (spoor_predictions_save(m, ds, output, format, &err) != SPOOR_OK) {
        fprintf(stderr, "spoor predict: %s\n", err.msg);
        return 1;
    }
    return 0;
}

int cmd_predict(int argc, char **argv)
{
    static const struct ml_model_command c = {.name = "predict", .usage = usage, .formats = {SPOOR_FORMAT_CSV, SPOOR_FORMAT_JSONL}, .nformats = 2,
                                              .run = predict};
    return ml_model_command_main(&c, argc, argv);
}
