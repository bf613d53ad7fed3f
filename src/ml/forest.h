/* Building, evaluating and changing a boosted-tree ensemble (struct
 * spoor_forest, spoor/ml.h): private to src/ml and its tests. */
#ifndef SPOOR_ML_FOREST_H
#define SPOOR_ML_FOREST_H

#include <stdbool.h>
#include <stddef.h>

#include "spoor/error.h"
#include "spoor/ml.h"

/* Reads XGBoost's JSON model text (objectives reg:squarederror, binary:logistic,
 * multi:softprob). On error fills err with what is wrong and leaves f empty. */
int spoor_forest_from_xgb_json(const char *json, size_t len, struct spoor_forest *f, struct spoor_error *err);

/* The margins of one row (ngroups values), before the link. */
void spoor_forest_margin(const struct spoor_forest *f, const double *row, double *margin);
/* The prediction of one row (ngroups values): the margins through the link. */
void spoor_forest_predict(const struct spoor_forest *f, const double *row, double *out);
/* Applies the link to ngroups margins in place. */
void spoor_forest_link(const struct spoor_forest *f, double *margin);
/* The leaf value one tree gives a row. */
float spoor_forest_tree_leaf(const struct spoor_forest *f, size_t tree, const double *row);
/* Moves every split threshold down to the nearest multiple of 2^-frac (frac
 * <= 23). Then (float)x < threshold holds exactly when floor(x * 2^frac) <
 * threshold * 2^frac for every float x: an integer compare on inputs in fixed
 * point decides every split as the float model does (a row on the threshold
 * stays on the right, as XGBoost trained it). Returns how many moved. */
size_t spoor_forest_quantise(struct spoor_forest *f, int frac);
/* Total gain of every feature's splits (nfeatures values). */
void spoor_forest_total_gain(const struct spoor_forest *f, double *gain);

void spoor_forest_free(struct spoor_forest *f);

#endif
