/* What the model commands (train, eval, predict) share: loading a dataset with
 * warnings for what was dropped, comma lists, and the evaluation report with
 * the baselines beside the model. */
#ifndef SPOOR_ML_CLI_H
#define SPOOR_ML_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "spoor/ml.h"
#include "spoor/report.h"

/* Splits "a,b,c" into a NULL-terminated array of copies (free with ml_list_free). */
char **ml_list_split(const char *s, size_t *n);
void ml_list_free(char **v);

/* Loads the dataset; prints skipped lines and rows, dropped features (one
 * warning each) and any error on stderr. Returns 0, or the exit code. */
int ml_dataset_load(const char *cmd, const char *path, const struct spoor_dataset_spec *spec,
                    const struct spoor_load_opts *opts, struct spoor_dataset **out);

/* Loads the model at model_path and the dataset holding its features (label
 * as the model names it when with_label, numbered by the model's classes;
 * with the label, a leaky feature is warned about and kept).
 * Returns 0, or the exit code after printing why. */
struct spoor_model;
int ml_model_dataset_load(const char *cmd, const char *model_path, const char *path, bool with_label,
                          const char *group, const struct spoor_load_opts *opts, struct spoor_model **model,
                          struct spoor_dataset **ds);

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

/* One method's held-out scores. */
struct ml_scored {
    const char *name;
    struct spoor_metrics m;
};

/* The evaluation as a report: a table of every method (the model first, then
 * the baselines) and the model's confusion matrix and per-class recall; or
 * the same as one JSON object. `how` says which rows were scored and how;
 * train_ms is the saved model's training time (< 0: not trained here); fit,
 * the model trained here (NULL: none), adds how its fit ended (logistic). */
struct spoor_report *ml_report(const char *how, double train_ms, const struct spoor_model *fit,
                               const struct spoor_dataset *ds, const struct ml_scored *s, size_t n);

#endif
