/* What the C-header exporters share. */
#ifndef SPOOR_ML_EXPORT_INTERNAL_H
#define SPOOR_ML_EXPORT_INTERNAL_H

#include "ml/export_header.h"

struct emit {
    FILE *out;
    const char *p;  /* symbol prefix, lower case */
    const char *P;  /* the same, upper case, for macros */
};

/* The predict function of each kind: float (double x[]) or fixed (long long x[] in Q16). */
int export_mlp(const struct emit *e, const struct spoor_model *m, bool fixed, struct spoor_error *err);
void export_rule(const struct emit *e, const struct spoor_model *m, bool fixed);
void export_trees(const struct emit *e, const struct spoor_model *m, bool fixed);

/* v * 2^frac rounded to the nearest integer, down or up; saturating. */
long long export_q(double v, int frac);
long long export_q_floor(double v, int frac);
long long export_q_ceil(double v, int frac);

#endif
