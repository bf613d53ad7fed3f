/* What the C-header exporters share. */
#ifndef SPOOR_ML_EXPORT_INTERNAL_H
#define SPOOR_ML_EXPORT_INTERNAL_H

#include "spoor/ml.h"

struct emit {
    FILE *out;
    const char *p;          /* symbol prefix, lower case */
    const char *P;          /* the same, upper case, for macros */
    bool static_buffers;    /* arrays of the predict function are static */
    size_t stack;           /* bytes of locals the predict function declares so far */
};

/* Declares one local of the predict function ("    TYPE DECL;"), bytes big,
 * and counts it in e->stack; an array (buffer) is static instead, and not
 * counted, with e->static_buffers. A buffer's declarator has no initialiser. */
void export_local(struct emit *e, const char *type, const char *decl, size_t bytes, bool buffer);

/* The predict function of each kind: float (double x[]) or fixed (long long x[] in Q16). */
int export_mlp(struct emit *e, const struct spoor_model *m, bool fixed, struct spoor_error *err);
int export_rule(struct emit *e, const struct spoor_model *m, bool fixed, struct spoor_error *err);
int export_trees(struct emit *e, const struct spoor_model *m, bool fixed, struct spoor_error *err);

/* v * 2^frac rounded to the nearest integer or down; saturating. */
long long export_q(double v, int frac);
long long export_q_floor(double v, int frac);

/* The Q16 input a value becomes, as the fixed-point header documents:
 * floor((float)x * 65536), saturating at +-2^62. */
long long spoor_export_input(double x);

/* Whether threshold t is a float and a multiple of 1/65536: a model that
 * goes left when (float)x < t on such thresholds is decided exactly alike by
 * the fixed-point header (export_tree.c), for every input. */
bool spoor_export_on_grid(double t);

#endif
