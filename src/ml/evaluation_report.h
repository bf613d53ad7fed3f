/* The evaluation of `spoor train` and `spoor eval` as a report: a table of
 * every method (the model first, then the baselines) and the model's
 * confusion matrix and per-class recall; or the same as one JSON object. */
#ifndef SPOOR_ML_EVALUATION_REPORT_H
#define SPOOR_ML_EVALUATION_REPORT_H

#include "spoor/ml.h"
#include "spoor/report.h"

/* `how` says which rows were scored and how; train_ms is the saved model's
 * training time (< 0: not trained here); fit, the model trained here (NULL:
 * none), adds how its fit ended (logistic). */
struct spoor_report *ml_evaluation_report(const char *how, double train_ms, const struct spoor_model *fit,
                                          const struct spoor_dataset *ds, const struct spoor_scored *s, size_t n);

#endif
