/* The standard scaler (struct spoor_scaler, spoor/ml.h), fitted on training
 * rows only: private to src/ml and its tests. */
#ifndef SPOOR_ML_SCALER_H
#define SPOOR_ML_SCALER_H

#include <stdbool.h>
#include <stddef.h>

#include "spoor/error.h"
#include "spoor/ml.h"

/* Fits on the rows listed (x is row-major with n columns). */
void spoor_scaler_fit(struct spoor_scaler *s, const double *x, size_t n, const size_t *rows, size_t nrows);
/* (v - mean) / scale for one row of s->n values, from in to out (may alias). */
void spoor_scaler_apply(const struct spoor_scaler *s, const double *in, double *out);
void spoor_scaler_free(struct spoor_scaler *s);

#endif
