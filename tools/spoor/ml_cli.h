/* What the model commands (train, eval, predict) share: loading a dataset with
 * warnings for what was dropped, comma lists, and the evaluation report with
 * the baselines beside the model. */
#ifndef SPOOR_ML_CLI_H
#define SPOOR_ML_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "ml/dataset.h"
#include "ml/metrics.h"

/* Splits "a,b,c" into a NULL-terminated array of copies (free with ml_list_free). */
char **ml_list_split(const char *s, size_t *n);
void ml_list_free(char **v);

/* Loads the dataset; prints skipped lines and rows, dropped features (one
 * warning each) and any error on stderr. Returns 0, or the exit code. */
int ml_dataset_load(const char *cmd, const char *path, const struct spoor_dataset_spec *spec,
                    const struct spoor_load_opts *opts, struct spoor_dataset **out);

/* Loads the model at model_path and the dataset holding its features (label
 * as the model names it when with_label, numbered by the model's classes).
 * Returns 0, or the exit code after printing why. */
struct spoor_model;
int ml_model_dataset_load(const char *cmd, const char *model_path, const char *path, bool with_label,
                          const char *group, const struct spoor_load_opts *opts, struct spoor_model **model,
                          struct spoor_dataset **ds);

/* One method's held-out scores. */
struct ml_scored {
    const char *name;
    struct spoor_metrics m;
};

/* The evaluation: a table of every method (the model first, then the
 * baselines) and the model's confusion matrix and per-class recall; or the
 * same as one JSON object. `how` says which rows were scored and how;
 * train_ms is the saved model's training time (< 0: not trained here). */
void ml_report(FILE *out, bool json, const char *how, double train_ms, const struct spoor_dataset *ds,
               const struct ml_scored *s, size_t n);

#endif
