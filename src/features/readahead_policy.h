/* When to change a device's readahead, from the classes of its windows: one
 * policy for the kernel module (kernel/, spoor_ra) and `spoor tune`, so that
 * both make the same decisions from the same classes. Freestanding, as
 * window_features.c.
 *
 * - A window with fewer reads than min_requests is idle: it is not
 *   classified, and neither extends nor breaks a run of windows.
 * - Hysteresis: a class must win `hysteresis` windows in a row before its
 *   readahead is set, so that one odd window changes nothing.
 * - Bounds: the readahead set is the class's action clamped to
 *   [min_kb, max_kb]. */
#ifndef SPOOR_FEATURES_READAHEAD_POLICY_H
#define SPOOR_FEATURES_READAHEAD_POLICY_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include <stdbool.h>
#include <stdint.h>
#endif

struct spoor_rap_config {
    uint32_t hysteresis;        /* windows in a row (1: act on every window) */
    uint32_t min_kb, max_kb;    /* min_kb <= max_kb */
    uint64_t min_requests;      /* reads a window needs to be classified */
};

struct spoor_rap_state {
    int32_t candidate;          /* the class of the current run of windows; -1: none yet */
    uint32_t streak;            /* its windows in a row */
    int32_t applied;            /* the class whose readahead is in force; -1: none yet */
    uint32_t kb;                /* the readahead in force */
};

enum spoor_rap_decision {
    SPOOR_RAP_IDLE,             /* too few reads: not classified */
    SPOOR_RAP_WAIT,             /* a class that has not yet won enough windows in a row */
    SPOOR_RAP_KEEP,             /* the class's readahead is the one in force */
    SPOOR_RAP_SET,              /* set state->kb, the class's readahead, now */
};

/* A device whose readahead is device_kb, before any window. */
void spoor_rap_start(struct spoor_rap_state *s, uint32_t device_kb);

/* One window of `reads` read requests, classified cls (ignored when idle),
 * whose action is action_kb; updates *s (on SET, s->kb is the new value). */
enum spoor_rap_decision spoor_rap_step(const struct spoor_rap_config *c, struct spoor_rap_state *s, uint64_t reads,
                                       int32_t cls, uint32_t action_kb);

/* "idle", "wait", "keep", "set". */
const char *spoor_rap_decision_name(enum spoor_rap_decision d);

#endif
