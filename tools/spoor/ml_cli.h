/* What the model commands (train, eval, predict) share: loading a dataset with
 * warnings for what was dropped, and the MODEL DATASET command
 * shape (eval, predict). */
#ifndef SPOOR_ML_CLI_H
#define SPOOR_ML_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "spoor/ml.h"
#include "spoor/report.h"

/* Loads the dataset; prints skipped lines and rows, dropped features (one
 * warning each) and any error on stderr. Returns 0, or the exit code. */
int ml_dataset_load(const char *cmd, const char *path, const struct spoor_dataset_spec *spec,
                    const struct spoor_load_opts *opts, struct spoor_dataset **out);

/* A command of the form `spoor CMD [options] MODEL DATASET` (eval, predict). */
struct ml_model_command {
    const char *name, *usage;
    enum spoor_output_format formats[3]; /* --format choices, the default first */
    size_t nformats;
    bool with_label, with_group;    /* the dataset needs the label; --group is accepted */
    int (*run)(const struct spoor_model *m, const struct spoor_dataset *ds, const char *group,
               enum spoor_output_format format, const char *output);
};

/* Parses the options (the reading ones too), loads the model and the dataset
 * and runs the command. Returns the exit code. */
int ml_model_command_main(const struct ml_model_command *c, int argc, char **argv);

#endif
