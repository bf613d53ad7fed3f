/* `spoor gen --kind cascade`: a synthetic log of the cascade scheduler with
 * known answers for `spoor lifecycle`, in the scheduler's record shapes
 * (docs/cli.md): `task` or `dataset`, action, worker, host, at, mode.
 *
 * Tasks ("retrieve(3, 41):9e3779b9", four kinds) go through taskPlanned,
 * taskEnqueued, taskStarted and taskFinished on a worker ("h1:w2"); about
 * half of them have their output (a dataset of the task's name) transferred
 * to a worker, an eighth to a second one too, in mode local (only
 * transmitPlanned and transmitFinished are logged), remote or redundant (all
 * four transmit stages). The controller logs the Planned stages, the workers
 * the others. Records are written in time order within windows of a few hundred
 * tasks, as JSON lines or, for a path ending in .log, as Python logging lines.
 * Entity names and placement depend only on the entity's index, times on the
 * seed: two seeds give two runs of the same workflow to --compare.
 *
 * Faults on request: a stage record dropped or repeated for ~2 % of entities
 * each, and a broken line every ~1000. The sidecars PATH.truth-tasks.csv and
 * PATH.truth-transmits.csv hold the exact `spoor lifecycle --preset ...
 * --format csv` output, computed from the generator's own records. */
#ifndef SPOOR_GEN_CASCADE_H
#define SPOOR_GEN_CASCADE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "spoor/error.h"

struct spoor_gen_cascade_opts {
    uint64_t records;       /* stop after the window that reaches this many records */
    unsigned hosts, workers; /* workers per host */
    uint64_t seed;
    bool faults;            /* drop and repeat stage records, add broken lines */
    bool truth;             /* write the two sidecars */
    size_t top;             /* slowest entities in the truth (spoor lifecycle --top) */
};

struct spoor_gen_cascade_result {
    uint64_t lines, records, bad_lines, tasks, transfers;
    uint64_t bytes;
};

int spoor_gen_cascade_write(const char *path, const struct spoor_gen_cascade_opts *opts,
                            struct spoor_gen_cascade_result *result, struct spoor_error *err);

/* The truth sidecar of one preset: PATH.truth-tasks.csv or PATH.truth-transmits.csv. */
void spoor_gen_cascade_truth_path(const char *path, bool transmits, char *out, size_t cap);

#endif
