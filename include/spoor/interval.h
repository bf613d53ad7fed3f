/* The interval engine: exact unions of time spans, call stacks rebuilt from
 * the nesting of events, and the sweep-line join that attributes the time of
 * calls (system calls) to the events (kernel functions) that ran during them.
 *
 * Every event row is the closed span [ts, ts + dur] in int64 ns. Rows with a
 * null ts or dur, a negative dur, or an end past INT64_MAX take no part.
 *
 * Nesting. Within a group (by default one (pid, tid) thread), B is nested in A
 * when A.ts <= B.ts and B.end <= A.end. An event's parent is the innermost
 * event that contains it: the one that started last; of two events with the
 * same span, the later row is the outer (writers in end-time order, like
 * DataCrumbs, write a parent after its children). Events touching at an end
 * point are siblings. A partial overlap (B starts inside A and ends after it)
 * is no nesting: B's parent is the innermost event that contains it wholly.
 *
 * Self time. At every instant, the time of a group belongs to the open event
 * that started last (ties as above): an event's self time is how long it was
 * that event. With proper nesting this is dur minus the union of its
 * children's spans; with a partial overlap the later-starting event takes the
 * shared time. Either way the self times of a group add up to the length of
 * the union of its events: nothing is counted twice.
 *
 * Order. Rows may come in any order. Each group is put in start order with a
 * bounded reorder (a sliding heap of 64, then 4096 rows, which fits end-time
 * order whose call trees are shorter than the window) and sorted in full only
 * when that fails. */
#ifndef SPOOR_INTERVAL_H
#define SPOOR_INTERVAL_H

#include <stddef.h>
#include <stdint.h>

#include "spoor/error.h"
#include "spoor/table.h"

/* ---- unions ---- */

struct spoor_span {
    int64_t start, end;     /* [start, end) */
};

/* Replaces s[0..n) by its union: disjoint spans in increasing order, empty
 * ones dropped, overlapping or touching ones merged. Returns the new count. */
SPOOR_API size_t spoor_spans_union(struct spoor_span *s, size_t n);
/* Total length of a union. */
SPOOR_API int64_t spoor_spans_length(const struct spoor_span *s, size_t n);
/* Length of a union's part inside [lo, hi). O(log n + spans inside). */
SPOOR_API int64_t spoor_spans_covered(const struct spoor_span *s, size_t n, int64_t lo, int64_t hi);

/* ---- grouping ---- */

enum spoor_iv_key {
    SPOOR_IV_THREAD,        /* (pid, tid) */
    SPOOR_IV_PID,
    SPOOR_IV_NONE,          /* one group */
};

/* ---- call stacks ---- */

#define SPOOR_IV_NO_PARENT UINT32_MAX

/* Per table row; rows not selected or taking no part have depth -1, parent
 * SPOOR_IV_NO_PARENT and self SPOOR_NULL. */
struct spoor_nesting {
    size_t nrows;
    int32_t *depth;         /* 0 for an event no other event contains */
    uint32_t *parent;       /* row of the innermost event containing it */
    int64_t *self;          /* exclusive time, ns */
};

/* Rebuilds the call stacks of rows[0..n) of t (rows NULL: every row), grouped
 * by key. threads: 0 or 1 = the calling thread only. */
SPOOR_API int spoor_nesting_build(const struct spoor_table *t, const uint32_t *rows, size_t n, enum spoor_iv_key key,
                                  int threads, struct spoor_nesting *out, struct spoor_error *err);
SPOOR_API void spoor_nesting_free(struct spoor_nesting *n);

/* ---- attribution: calls x events ---- */

enum spoor_attr_mode {
    /* Each event's self time (nesting among the events of its own thread)
     * clipped to the call: nothing is counted twice. */
    SPOOR_ATTR_SELF,
    /* The part of every event that lies inside the call. */
    SPOOR_ATTR_OVERLAP,
    /* The whole dur of every event nested in the call. */
    SPOOR_ATTR_INCLUSIVE,
    /* The DataCrumbs notebook: the whole dur of every event overlapping the
     * call (it matched events of every process: use with SPOOR_IV_NONE). */
    SPOOR_ATTR_NOTEBOOK,
};

/* An event overlaps a call when they share time (e.start < c.end and
 * c.start < e.end) or it is nested in the call; so an event that only touches
 * the call's start or end does not, and a zero-length event on either end does. */

struct spoor_attr_opts {
    enum spoor_iv_key key;  /* which events a call sees: its thread's, its process's, all */
    enum spoor_attr_mode mode;
    int threads;            /* 0 or 1 = the calling thread only */
};

/* Time of one function (name, cat) in one call. */
struct spoor_attr_fn {
    uint32_t name, cat;     /* ids in the table's pool */
    int64_t ns;
};

/* One entry per call, in the order the calls were given. A function is listed
 * when at least one of its events matches the call under the mode (overlaps
 * it; is nested in it for INCLUSIVE; shares time with it for SELF), in the
 * order of its first such event's start clipped to the call (ties: lower row). */
struct spoor_attribution {
    size_t ncalls;
    size_t *first;          /* call i's functions: fns[first[i] .. first[i + 1]) */
    struct spoor_attr_fn *fns;
    /* Time of the call inside the union of the events it sees, and the rest
     * (dur - covered); SPOOR_NULL for a call taking no part. */
    int64_t *covered, *unattributed;
};

/* Attributes each of calls[0..ncalls) to events[0..nevents) (rows of t; NULL:
 * every row). Same answer for any number of threads. */
SPOOR_API int spoor_attribute(const struct spoor_table *t, const uint32_t *calls, size_t ncalls, const uint32_t *events,
                              size_t nevents, const struct spoor_attr_opts *opts, struct spoor_attribution *out,
                              struct spoor_error *err);
SPOOR_API void spoor_attribution_free(struct spoor_attribution *a);

#endif
