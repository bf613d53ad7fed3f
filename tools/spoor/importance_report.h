/* A spoor importance result as a report (a table, JSON or CSV of its own
 * sheets each), and the feature correlation matrices as one. */
#ifndef SPOOR_IMPORTANCE_REPORT_H
#define SPOOR_IMPORTANCE_REPORT_H

#include "spoor/report.h"

#include "spoor/ml.h"

struct importance_view {
    const struct spoor_dataset *ds;
    const struct spoor_importance_report *r;
    const struct spoor_importance_opts *opts;
    char layer_sep;      /* 0: '.' or '-' (see spoor_importance_layer) */
    size_t top;          /* features listed in the table (0: all) */
    size_t pairs;        /* strongest correlated pairs listed */
    size_t components;   /* PCA components listed */
};

struct spoor_report *importance_report(const struct importance_view *v);
/* An n x n matrix with the feature names as header row and first column. */
struct spoor_report *importance_matrix_report(const struct spoor_dataset *ds, const double *m);

#endif
