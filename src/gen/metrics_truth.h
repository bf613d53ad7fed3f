/* The metric generator's ground truth: exact integer sums (values in 1/256
 * units) per node, hour x weekday slot, node-hour bucket and metric pair,
 * written as the sections `spoor series --format json` prints. */
#ifndef SPOOR_GEN_METRICS_TRUTH_H
#define SPOOR_GEN_METRICS_TRUTH_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

enum { GEN_METRICS = 5 };
extern const char *const gen_metric_names[GEN_METRICS];

struct gen_metrics_truth;

struct gen_metrics_truth *gen_metrics_truth_new(int nodes);
void gen_metrics_truth_free(struct gen_metrics_truth *t);
/* One row: its UTC time in seconds, node index, and per metric the value in
 * 1/256 units, or `absent`/`text` set when the cell is empty or not a number. */
void gen_metrics_truth_add(struct gen_metrics_truth *t, int64_t time_s, int node, const int64_t *k,
                           const bool *absent, const bool *text);
void gen_metrics_truth_write(const struct gen_metrics_truth *t, FILE *out, uint64_t skipped);

#endif
