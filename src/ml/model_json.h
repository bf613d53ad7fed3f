/* spoor's model file: versioned, human-readable JSON holding everything to
 * apply a model (features, scaler, classes, weights, rule or trees, action
 * table) and how it was trained (settings, seed, epochs). Numbers are written
 * with enough digits to read back bit for bit. */
#ifndef SPOOR_ML_MODEL_JSON_H
#define SPOOR_ML_MODEL_JSON_H

#include <stdio.h>

#include "ml/model.h"

#define SPOOR_MODEL_FORMAT "spoor-model"
#define SPOOR_MODEL_VERSION 1

void spoor_model_write_json(const struct spoor_model *m, FILE *out);
/* Writes path whole or not at all. */
int spoor_model_save(const struct spoor_model *m, const char *path, struct spoor_error *err);

/* Parses and checks a model (untrusted input: every size, index and number is
 * verified, so a model read without error is safe to evaluate). name (the
 * file) starts every error message. */
int spoor_model_parse(const char *text, size_t len, const char *name, struct spoor_model **out,
                      struct spoor_error *err);
int spoor_model_load(const char *path, struct spoor_model **out, struct spoor_error *err);

#endif
