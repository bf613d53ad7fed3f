/* What the dataset files share inside the ml layer. */
#ifndef SPOOR_ML_DATASET_INTERNAL_H
#define SPOOR_ML_DATASET_INTERNAL_H

#include "spoor/ml.h"

/* Drops constant features and features with |r| > 0.999 against an earlier kept
 * one, compacting ds->x and listing each in ds->dropped. */
void dataset_drop_redundant(struct spoor_dataset *ds);

/* Finds leaky features (dataset_leak.c), lists each in ds->dropped and, with
 * drop, removes it. */
void dataset_find_leaks(struct spoor_dataset *ds, bool drop);
/* A name such as "id", "run", "run_id" or "*_id" (any case): a column so named,
 * whose values repeat over rows, looks like a group id. */
bool dataset_id_like_name(const char *name);

/* Lists a feature in ds->dropped (d's strings copied). */
void dataset_note_drop(struct spoor_dataset *ds, const struct spoor_dataset_drop *d);
/* Removes the features flagged in drop[] (nfeat flags), compacting x and the names. */
void dataset_keep_features(struct spoor_dataset *ds, const bool *drop);

#endif
