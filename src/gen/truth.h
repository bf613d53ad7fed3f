/* The ground truth of a generated trace: totals, per (cat, name) counts and
 * duration sums, and for every system call the kernel events nested in it.
 * Counting always happens (it fills spoor_gen_result); the sidecar file
 * PATH.truth.json is written only when asked, streamed call by call. */
#ifndef SPOOR_GEN_TRUTH_H
#define SPOOR_GEN_TRUTH_H

#include <stdbool.h>
#include <stdint.h>

#include "gen/fmt.h"
#include "gen/model.h"
#include "gen/out.h"
#include "spoor/gen.h"

struct gen_truth {
    bool write;
    struct gen_out out;
    struct gen_buf buf;
    uint64_t lines, events, metadata, calls, kernel, background;
    uint64_t count[GEN_NKINDS];
    int64_t dur_sum[GEN_NKINDS];
};

int gen_truth_open(struct gen_truth *t, const char *trace_path, const struct gen_model *m, bool write,
                   struct spoor_error *err);
/* Counts the phase in m->ev, whose first event is on line first_line. */
int gen_truth_add(struct gen_truth *t, const struct gen_model *m, uint64_t first_line, struct spoor_error *err);
/* Writes the totals and renames the sidecar into place; fills r. After an
 * error the caller still calls gen_truth_abort. */
int gen_truth_finish(struct gen_truth *t, const struct gen_model *m, struct spoor_gen_result *r,
                     struct spoor_error *err);
void gen_truth_abort(struct gen_truth *t);

#endif
