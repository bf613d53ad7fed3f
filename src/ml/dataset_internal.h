/* What the dataset files share inside the ml layer. */
#ifndef SPOOR_ML_DATASET_INTERNAL_H
#define SPOOR_ML_DATASET_INTERNAL_H

#include "ml/dataset.h"

/* Drops constant features and features with |r| > 0.999 against an earlier kept
 * one, compacting ds->x and listing each in ds->dropped. */
void dataset_drop_redundant(struct spoor_dataset *ds);

#endif
