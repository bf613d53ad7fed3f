/* The known answers of a generated cascade log for one lifecycle preset,
 * folded entity by entity from the generator's own records (not by reading the
 * log back) and written as `spoor lifecycle --format csv` would print them. */
#ifndef SPOOR_GEN_CASCADE_TRUTH_H
#define SPOOR_GEN_CASCADE_TRUTH_H

#include <stdint.h>

#include "spoor/error.h"
#include "spoor/lifecycle.h"

struct cascade_truth;

/* NULL (err set) if the preset is unknown. */
struct cascade_truth *cascade_truth_new(const char *preset, size_t top, struct spoor_error *err);
/* One entity: the first time of each stage (SPOOR_NULL if never logged), how
 * many records of each stage were logged, and its worker and mode. */
void cascade_truth_entity(struct cascade_truth *t, const char *name, const int64_t *first, const uint32_t *seen,
                          const char *worker, const char *mode);
/* Writes the sidecar: lines and skipped lines of the log, records read (all
 * stages) and records of this preset's stages. */
int cascade_truth_write(struct cascade_truth *t, const char *path, uint64_t lines, uint64_t skipped, uint64_t records,
                        uint64_t own_records, struct spoor_error *err);
void cascade_truth_free(struct cascade_truth *t);

#endif
