/* What crosses the files of the streaming summary. The recipe, in the order
 * its rows flow, one file a stage:
 *
 *   1. summary.c         the passes over the input, and each batch's rows into
 *                        the sums (counts, bytes, counters) and, per thread,
 *                        into the call stacks;
 *   2. summary_stacks.c  each thread's rows put in start order and swept
 *                        through its call stack (self time, parent layers);
 *                        the rows passed on to the unions;
 *   3. summary_unions.c  the exact unions and their lengths: in one global
 *                        start order on the first pass, per thread and merged
 *                        at the end on a second;
 *   4. summary_result.c  from the sums and lengths to the answer: layers, top
 *                        files and functions, I/O figures, compute look-alikes.
 *
 * Calls go one way, down the list: a file calls only files after it, never
 * one before it. Below them all: util's id maps (dense ids for 64-bit keys)
 * and grown arrays. */
#ifndef SPOOR_SUMMARY_INTERNAL_H
#define SPOOR_SUMMARY_INTERNAL_H

#include <stdbool.h>

#include "spoor/interval.h"
#include "spoor/summary.h"
#include "util/grow.h"
#include "util/id_map.h"

#define SUMMARY_NO_GROUP SPOOR_ID_NONE
/* The args the summary reads (spoor_summary_arg_keys; `spoor report` reads
 * more). */
#define SUMMARY_ARG_KEYS "fhash", "hhash", "fname", "hostname", "freq", "time", EVENT_BYTES_KEYS


/* The sums, filled by stages 1-3 and read by 4. */

/* A union fed in start order, reduced to what its length needs: its open
 * span [lo, hi] (times as summary_unions.c's run_time) and the union's
 * length so far, the open span's included. */
struct union_run {
    uint64_t lo, hi;
    int64_t length;
};

/* What the layer breakdown and the top lists sum per key. */
struct layer_acc {
    uint64_t count, sized;
    int64_t self, dur_sum, bytes;
    int64_t outer_dur;      /* dur of events whose parent is of another cat (or none) */
    uint32_t last_parent, last_pair; /* the last parent cat met, its parent_pairs id + 1 */
    struct union_run run;   /* in global start order */
    int64_t counter_time, counter_rest; /* profile counters' time (summary.c), not compute's */
};
struct top_acc {
    uint64_t count;
    int64_t self, bytes, time;  /* time: the union's length, at the end */
    struct union_run run;   /* in global start order */
    int64_t counter_time;       /* profile counters' time, in time at the end */
};

/* Everything summed over the stream; filled in input order. */
struct summary_acc {
    struct spoor_strpool *strings;      /* cats and names */
    struct layer_acc *cats;             /* by string id */
    size_t cats_cap;
    struct spoor_id_map fns;            /* cat id << 32 | name id */
    struct top_acc *fn;
    size_t fn_cap;
    struct spoor_id_map files;          /* resolver file ids */
    struct top_acc *file;
    size_t file_cap;
    struct spoor_id_map pids, cat_pids; /* pid; cat id << 32 | pid id */
    struct spoor_id_map io_pids;        /* pids with I/O events */
    uint32_t *io_of;                    /* per pid id: its io_pids id + 1, 0 before its first I/O */
    size_t io_of_cap;
    struct spoor_id_map parent_pairs;   /* cat id << 32 | parent cat id */
    int64_t *parent_dur;
    size_t parent_cap;
    struct ordered_runs *ordered;       /* the unions in global start order, when fed so */
    /* The unions' lengths, at the end: per io pid id; per cat string id its
     * time and its time not overlapped by its processes' compute. */
    int64_t *io_time, *cat_time, *cat_rest;
    int64_t compute_time;
    uint64_t compute_rows;              /* events of the compute list */
    int64_t *io_counter;                /* per io pid id: its I/O counters' time */
    size_t io_counter_cap;
    int64_t compute_counter;            /* compute counters' time */
    uint64_t bin_count[SPOOR_SUMMARY_BINS];
    int64_t bin_bytes[SPOOR_SUMMARY_BINS];
};

/* 1 -> 2: one row taking part in the call stacks, held in its thread's
 * reorder (32 bytes: rows are moved while put in order, and held until
 * merged). Its thread is the reorder's; the later of two rows with the same
 * span is the outer, so arrival order breaks ties. */
struct nest_item {
    int64_t start, end;
    uint32_t cat, fn, file; /* fn and file SUMMARY_NO_GROUP when none */
    bool event;             /* metadata rows nest but are not summed */
    bool compute;
    bool io;                /* an I/O event (a file or bytes): in its process's I/O union */
};

/* The call stacks of every thread, rebuilt as rows stream in: each thread's
 * rows pass a bounded reorder into start order and feed its stack sweep (the
 * one of spoor/interval.h) that sums self time and the parent layer into acc.
 * A row that comes later than its thread's reorder allows marks the thread,
 * to be replayed held whole (unbounded).
 * `ordered`: the threads' reorders are one window, swept by a merge of the
 * threads, so rows also reach the unions in global start order (ordered_add);
 * a row too late for a union, or a thread's overflow, fails the pass, to be
 * replayed per thread (the stacks go on to the end, so that the replay knows
 * every thread to hold whole).
 * Per thread: each thread its own window and its own unions (thread_spans),
 * merged at the end. summary_stacks.c. */
struct summary_nest;
/* window: rows held per thread (ordered: ORDERED_WINDOWS of them for all);
 * the oldest half is swept when twice as many are. */
struct summary_nest *summary_nest_new(const struct spoor_id_map *unbounded, size_t window, bool ordered);
/* The thread of a key (pid id << 32 | tid id), for summary_nest_add. */
uint32_t summary_nest_thread(struct summary_nest *n, uint64_t key);
/* Adds a row of a thread (summary_nest_thread). */
void summary_nest_add(struct summary_nest *n, uint32_t thread, const struct nest_item *it, struct summary_acc *acc);
/* Sweeps what is left; returns false when a reorder overflowed (per thread:
 * with the thread's key added to unbounded). */
bool summary_nest_finish(struct summary_nest *n, struct summary_acc *acc, struct spoor_id_map *unbounded);
void summary_nest_free(struct summary_nest *n);

/* 2 -> 3: a thread's rows, put in start order: start up, end down and, for
 * the same span, the later row first (it is the outer). Two cursors take
 * them: the call-stack sweep, and, ordered, the merge into the unions
 * (reorder_merge). */
struct reorder {
    struct nest_item *held;
    size_t n, cap;
    size_t swept;               /* held[0..swept) went through the stack */
    size_t merged;              /* merging: held[0..merged) went to the unions */
    bool unbounded, merging;
};

/* Exact unions of spans per group, each a list of disjoint spans in order,
 * added in start order (each thread's call-stack sweep feeds its own groups,
 * so each add extends or follows the last span). */
struct span_group {
    struct spoor_span *v;
    size_t n, cap;
};
struct span_groups {
    struct span_group *g;
    size_t cap;
};
/* Unions of the groups one thread touched: ids maps a group (function or
 * file id) to its place in local, so a thread costs what it touched. */
struct thread_groups {
    struct spoor_id_map ids;
    struct span_groups local;
};
/* The unions of one thread's events, fed by its sweep in start order. A
 * cat's union is that of its functions', so it is not kept apart. */
struct thread_spans {
    struct thread_groups by_fn, by_file;
    struct span_groups io, compute; /* group 0 */
};
/* The nest's threads after a per-thread pass: each thread's key
 * (pid id << 32 | tid id) and unions. */
struct nest_threads {
    struct thread_spans *spans;
    const uint64_t *keys;
    size_t n;
};
/* After finish: false when the pass was ordered (its unions were fed as it
 * went), else the threads into *out. */
bool summary_nest_threads(struct summary_nest *n, struct nest_threads *out);

/* summary_unions.c. The unions fed in one global start order: a union_run
 * per group. False when x came too late for a union. */
bool ordered_add(struct summary_acc *acc, const struct nest_item *x, uint32_t pid);
/* Feeds the unions (as ordered_add) the next k rows not yet merged of
 * nthreads reorders, in start order; keys: the threads' keys. False when a
 * row came too late for a union. */
bool reorder_merge(struct reorder *rows, const uint64_t *keys, size_t nthreads, size_t k, struct summary_acc *acc);
void ordered_free(struct summary_acc *acc);
/* Per thread: a thread's event into its unions; the unions freed. */
void thread_spans_add(struct thread_spans *s, const struct nest_item *x);
void thread_spans_free(struct thread_spans *t);
/* The unions' lengths into acc (fn and file time, io_time, cat_time,
 * cat_rest, compute_time): read off the ordered runs, or with per_thread the
 * unions of every thread merged per group (on up to `threads` threads). */
void summary_unions(struct summary_acc *acc, struct nest_threads *per_thread, int threads);

/* summary_result.c. From the sums and the unions' lengths to the answer. */
void summary_result(struct summary_acc *acc, const struct spoor_strpool *files, size_t top,
                    struct spoor_summary *out);

#endif
