/* A boosted-tree ensemble as plain C node arrays, evaluated without XGBoost:
 * what a trained booster becomes so that spoor's model JSON can store it and a
 * C header (float or fixed point) can run it inside a kernel. The arrays are
 * read from XGBoost's own JSON model (XGBoosterSaveModelToBuffer, format json),
 * which keeps every threshold and leaf value at full float precision. */
#ifndef SPOOR_ML_XGB_FOREST_H
#define SPOOR_ML_XGB_FOREST_H

#include <stddef.h>
#include <stdint.h>

#include "spoor/error.h"

/* How the summed margin becomes a prediction. */
enum spoor_forest_link {
    SPOOR_FOREST_IDENTITY, /* reg:squarederror: the margin is the prediction */
    SPOOR_FOREST_LOGISTIC, /* binary:logistic: 1 / (1 + exp(-margin)) */
    SPOOR_FOREST_SOFTMAX,  /* multi:softprob: softmax over the per-class margins */
};

struct spoor_forest_node {
    int32_t feature;      /* split feature index; -1 marks a leaf */
    int32_t left, right;  /* children, as indexes into spoor_forest.nodes */
    int32_t missing;      /* the child a missing (NaN) value goes to */
    float threshold;      /* go left when (float)x < threshold, as XGBoost does */
    float leaf;           /* a leaf's margin contribution */
    float gain;           /* the split's loss reduction (XGBoost's "gain") */
};

struct spoor_forest {
    size_t nfeatures;
    int ngroups;                 /* margins per row: 1, or the number of classes */
    enum spoor_forest_link link;
    double base_margin;          /* added to every group's margin (base_score in margin space) */
    size_t ntrees;
    int32_t *roots;              /* each tree's root node; tree t's nodes are nodes[roots[t] .. roots[t + 1]) */
    int32_t *groups;             /* the output group each tree adds to */
    size_t nnodes;
    struct spoor_forest_node *nodes;
};

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
