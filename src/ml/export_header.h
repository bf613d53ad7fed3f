/* A trained model as a dependency-free C header for a kernel module or any C
 * program: static tables and one predict function, the scaler folded into the
 * first layer. The fixed-point variant uses integer arithmetic only (no float,
 * no libc, no allocation) and compiles with -ffreestanding -nostdlib
 * -mgeneral-regs-only; it takes features in Q16 (value * 65536). */
#ifndef SPOOR_ML_EXPORT_HEADER_H
#define SPOOR_ML_EXPORT_HEADER_H

#include <stdbool.h>
#include <stdio.h>

#include "ml/model.h"

#define SPOOR_EXPORT_IN_FRAC 16 /* fractional bits of fixed-point inputs */

/* Writes the header; prefix names every symbol (a C identifier). */
int spoor_export_header(const struct spoor_model *m, FILE *out, bool fixed, const char *prefix,
                        struct spoor_error *err);

#endif
