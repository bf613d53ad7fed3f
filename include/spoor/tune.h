/* `spoor tune`: readahead set from the I/O pattern a model sees, without the
 * kernel module. Block requests (a recorded trace replayed, or tracefs text
 * fed live) are cut into the windows of `spoor windows --by dev`
 * (src/analyze/window_stream.h), each window is classified by a spoor model
 * whose inputs are window columns (read_requests, ..., named as spoor
 * windows' CSV names them) and whose action table names readahead_kb, and
 * the readahead policy the module uses too (src/features/readahead_policy.h:
 * idle windows, hysteresis, bounds) decides, per device, what readahead to
 * set. The library decides; applying it (sysfs) is the caller's. */
#ifndef SPOOR_TUNE_H
#define SPOOR_TUNE_H

#include <stdbool.h>
#include <stdint.h>

#include "spoor/load.h"
#include "spoor/ml.h"

/* The action a tuning model must have. */
#define SPOOR_TUNE_ACTION "readahead_kb"

struct spoor_tune_opts {
    int64_t every_ns;           /* the window width, > 0 */
    uint32_t hysteresis;        /* windows in a row of a class before its readahead is set, >= 1 */
    uint32_t min_kb, max_kb;    /* bounds of what is set, min_kb <= max_kb */
    uint64_t min_requests;      /* reads a window needs to be classified by the policy */
};

/* One finished window of one device, and what was decided. */
struct spoor_tune_row {
    uint64_t window;            /* from the first window */
    int64_t start_ns;
    const char *dev;            /* "major,minor" as the trace names it */
    const char *class_name;     /* the model's class of the window (idle ones too) */
    uint64_t reads;
    const char *decision;       /* idle, wait, keep or set */
    uint32_t readahead_kb;      /* in force after the window */
};

typedef int (*spoor_tune_row_fn)(void *ctx, const struct spoor_tune_row *row);

struct spoor_tuner;

/* A tuner of model m (kept, not copied). SPOOR_EUSAGE, one line naming the
 * model (name), when a feature is not a window column, or when the action
 * table is missing or is not readahead_kb, or the options are out of range. */
SPOOR_API int spoor_tuner_new(const struct spoor_model *m, const char *name, const struct spoor_tune_opts *o,
                              struct spoor_tuner **out, struct spoor_error *err);
SPOOR_API void spoor_tuner_free(struct spoor_tuner *t);

/* Replays a recorded block trace (any block format spoor reads): its windows
 * are those of `spoor windows --every E --by dev` on it, each device starting
 * at initial_kb; rows of device dev only ("major,minor"; NULL: all). Fills
 * res whatever the status. */
SPOOR_API int spoor_tune_replay(struct spoor_tuner *t, const char *path, const struct spoor_load_opts *opts,
                                uint32_t initial_kb, const char *dev, spoor_tune_row_fn row, void *ctx,
                                struct spoor_load_result *res, struct spoor_error *err);

/* Live: windows of device dev ("major,minor") from t0_ns on, every window
 * (an idle one too), its readahead device_kb at the start. The times are
 * those of the text fed: the caller makes the trace's clock its own. */
SPOOR_API void spoor_tune_live_begin(struct spoor_tuner *t, int64_t t0_ns, const char *dev, uint32_t device_kb);
/* Whole lines of ftrace text (tracefs trace_pipe) of block_rq_issue,
 * block_rq_complete and block_rq_requeue. A line it cannot read, or a
 * completion whose issue came before the start, is passed over. */
SPOOR_API void spoor_tune_live_feed(struct spoor_tuner *t, const char *text, size_t len);
/* Finishes the windows that ended by now_ns (every line before it fed),
 * unless a request issued in them is still in flight: a window waits for its
 * requests, up to SPOOR_TUNE_STALE_WINDOWS windows (after which such a
 * request counts as lost). */
#define SPOOR_TUNE_STALE_WINDOWS 4
SPOOR_API int spoor_tune_live_advance(struct spoor_tuner *t, int64_t now_ns, spoor_tune_row_fn row, void *ctx);

#endif
