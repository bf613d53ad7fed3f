/* Printing a spoor importance report as a table, JSON or CSV, and the feature
 * correlation matrices as CSV. */
#ifndef SPOOR_IMPORTANCE_PRINT_H
#define SPOOR_IMPORTANCE_PRINT_H

#include <stdio.h>

#include "ml/dataset.h"
#include "ml/importance_run.h"

struct importance_view {
    const struct spoor_dataset *ds;
    const struct spoor_importance_report *r;
    const struct spoor_importance_opts *opts;
    char layer_sep;      /* 0: '.' or '-' (see spoor_importance_layer) */
    size_t top;          /* features listed in the table (0: all) */
    size_t pairs;        /* strongest correlated pairs listed */
    size_t components;   /* PCA components listed */
};

void importance_print_table(FILE *out, const struct importance_view *v);
void importance_print_json(FILE *out, const struct importance_view *v);
void importance_print_csv(FILE *out, const struct importance_view *v);
/* An n x n matrix with the feature names as header row and first column. */
void importance_print_matrix(FILE *out, const struct spoor_dataset *ds, const double *m);

#endif
