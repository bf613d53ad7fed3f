/* A trained model as a dependency-free C header for a kernel module or any C
 * program: static tables and one predict function, the scaler folded into the
 * first layer. The fixed-point variant uses integer arithmetic only (no float,
 * no libc, no allocation) and compiles with -ffreestanding -nostdlib
 * -mgeneral-regs-only; it takes features in Q16 (floor(value * 65536)). */
#ifndef SPOOR_ML_EXPORT_HEADER_H
#define SPOOR_ML_EXPORT_HEADER_H

#include <stdbool.h>
#include <stdio.h>

#include "ml/model.h"

#define SPOOR_EXPORT_IN_FRAC 16 /* fractional bits of fixed-point inputs */

/* A kernel stack is 8-16 KiB and the kernel build warns past 2 KiB per
 * frame: a fixed-point predict function may keep at most this much on it. */
#define SPOOR_EXPORT_STACK_MAX 1024

/* The Q16 input a value becomes, as the fixed-point header documents:
 * floor((float)x * 65536), saturating at +-2^62. */
long long spoor_export_input(double x);

/* Whether threshold t is a float and a multiple of 1/65536: a model that
 * goes left when (float)x < t on such thresholds is decided exactly alike by
 * the fixed-point header (export_tree.c), for every input. */
bool spoor_export_on_grid(double t);

struct spoor_export_opts {
    const char *prefix;             /* names every symbol (a C identifier) */
    bool fixed;                     /* integer-only NAME_predict_fixed() */
    bool static_buffers;            /* the function's arrays static: little stack, not reentrant */
};

/* Writes the header. Its NAME_STACK_BYTES states the bytes of locals the
 * predict function declares (arrays and scalars, counted as they are written).
 * A fixed-point function over SPOOR_EXPORT_STACK_MAX without static buffers is
 * refused (SPOOR_EUSAGE) before anything is written. stack (may be NULL)
 * receives the figure. */
int spoor_export_header(const struct spoor_model *m, FILE *out, const struct spoor_export_opts *o, size_t *stack,
                        struct spoor_error *err);

#endif
