/* The writer of a `spoor attribute` dataset (attribute.h). */
#ifndef SPOOR_ATTRIBUTE_WRITE_H
#define SPOOR_ATTRIBUTE_WRITE_H

#include <stdio.h>

#include "spoor/attribute.h"
#include "spoor/write.h"

/* Writes the dataset as CSV (one header) or JSON lines; nulls as in write.h.
 * Returns SPOOR_EIO when writing fails. */
int spoor_attr_dataset_write(FILE *out, const struct spoor_attr_dataset *d, enum spoor_write_format format,
                             struct spoor_error *err);

#endif
