/* Pieces of the streaming summary shared between its files (src/analyze/summary*.c). */
#ifndef SPOOR_SUMMARY_INTERNAL_H
#define SPOOR_SUMMARY_INTERNAL_H

#include <stdbool.h>

#include "spoor/interval.h"
#include "spoor/summary.h"

#define SUMMARY_NO_GROUP UINT32_MAX

/* Grows *v (elements of `size` bytes, *cap of them) to hold index `need`,
 * zeroing the new part. Inline: called per row, it rarely grows. */
void summary_grow_to(void **v, size_t *cap, size_t need, size_t size);
static inline void summary_grow(void **v, size_t *cap, size_t need, size_t size)
{
    if (need >= *cap)
        summary_grow_to(v, cap, need, size);
}

/* Dense ids 0..n-1 for 64-bit keys (pids, pairs of ids), in order of first
 * sight; keys[id] is the key. Zero-initialise; summary_keys_free. */
struct summary_keys {
    uint64_t *keys;
    size_t n;
    uint32_t *slots, last;
    size_t nslots;
};
uint32_t summary_keys_id(struct summary_keys *k, uint64_t key);
/* The id of a key seen before, else SUMMARY_NO_GROUP. */
uint32_t summary_keys_find(const struct summary_keys *k, uint64_t key);
void summary_keys_free(struct summary_keys *k);

/* Exact unions of spans per group, each a list of disjoint spans in order.
 * Spans are added in start order (each thread's call-stack sweep feeds its
 * own groups, so each add extends or follows the last span); the unions of
 * every thread are merged at the end. Memory follows the size of the unions,
 * not the number of events. */
struct span_group {
    struct spoor_span *v;
    size_t n, cap;
};
struct span_groups {
    struct span_group *g;
    size_t cap;
};
/* start is no less than the start of the group's last add. */
void span_groups_add(struct span_groups *s, uint32_t group, int64_t start, int64_t end);
size_t span_groups_get(const struct span_groups *s, uint32_t group, const struct spoor_span **spans);
void span_groups_free(struct span_groups *s);

/* Unions gathered per target group, then merged into each target's union.
 * Parts are owned (taken) or, when `borrowed`, read only (shared with other
 * parts, which own them). */
struct span_parts {
    struct span_part {
        uint32_t target;
        struct span_group spans;
    } *v;
    size_t n, cap;
    bool borrowed;
};
/* Moves g (left empty) into the parts of target. */
void span_parts_take(struct span_parts *p, uint32_t target, struct span_group *g);
/* Adds g, unchanged, to the parts of target (p->borrowed). */
void span_parts_borrow(struct span_parts *p, uint32_t target, const struct span_group *g);
/* Merges the parts of each target into dst; p is then empty. */
void span_parts_merge(struct span_parts *p, struct span_groups *dst);
/* Only the length of each target's union, into length[target]. */
void span_parts_lengths(struct span_parts *p, int64_t *length);
void span_parts_free(struct span_parts *p);
/* Length of the intersection of two unions. */
int64_t spans_intersection(const struct spoor_span *a, size_t na, const struct spoor_span *b, size_t nb);

/* A union fed in start order, reduced to what its length needs: its open
 * span [lo, hi] (times as summary_ordered.c's run_time) and the union's
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
    struct union_run run;   /* in global start order (summary_ordered.c) */
    int64_t counter_time, counter_rest; /* profile counters' time (summary_counters.c), not compute's */
};
struct top_acc {
    uint64_t count;
    int64_t self, bytes, time;  /* time: the union's length, at the end */
    struct union_run run;   /* in global start order (summary_ordered.c) */
    int64_t counter_time;       /* profile counters' time, in time at the end */
};

/* One row taking part in the call stacks, held in its thread's reorder (32
 * bytes: rows are moved while put in order, and held until merged). Its
 * thread is the reorder's; the later of two rows with the same span is the
 * outer, so arrival order breaks ties (see span_before). */
struct nest_item {
    int64_t start, end;
    uint32_t cat, fn, file; /* fn and file SUMMARY_NO_GROUP when none */
    bool event;             /* metadata rows nest but are not summed */
    bool compute;
    bool io;                /* an I/O event (a file or bytes): in its process's I/O union */
};

/* Unions of the groups one thread touched: ids maps a group (function or
 * file id) to its place in local, so a thread costs what it touched. */
struct thread_groups {
    struct summary_keys ids;
    struct span_groups local;
};
void thread_groups_add(struct thread_groups *t, uint32_t group, int64_t start, int64_t end);

/* The unions of one thread's events, fed by its sweep in start order. A
 * cat's union is that of its functions', so it is not kept apart. */
struct thread_spans {
    struct thread_groups by_fn, by_file;
    struct span_groups io, compute; /* group 0 */
};
void thread_spans_free(struct thread_spans *t);

/* Everything summed over the stream; filled in input order. */
struct summary_acc {
    struct spoor_strpool *strings;      /* cats and names */
    struct layer_acc *cats;             /* by string id */
    size_t cats_cap;
    struct summary_keys fns;            /* cat id << 32 | name id */
    struct top_acc *fn;
    size_t fn_cap;
    struct summary_keys files;          /* resolver file ids */
    struct top_acc *file;
    size_t file_cap;
    struct summary_keys pids, cat_pids; /* pid; cat id << 32 | pid id */
    struct summary_keys io_pids;        /* pids with I/O events */
    uint32_t *io_of;                    /* per pid id: its io_pids id + 1, 0 before its first I/O */
    size_t io_of_cap;
    struct summary_keys parent_pairs;   /* cat id << 32 | parent cat id */
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

void summary_acc_free(struct summary_acc *a);

/* A thread's rows put in start order: start up, end down (iv_before's) and,
 * for the same span, the later row first (it is the outer). Insertion from
 * the end, since rows come nearly in order (a parent right after its
 * descendants): a new row goes before every held row whose span is not
 * before its own. Two cursors take them in that order: the call-stack sweep,
 * and, when merging, the merge into the unions. Unbounded: held as they
 * come, sorted once at the end. */
static inline bool span_before(const struct nest_item *a, const struct nest_item *b)
{
    return a->start != b->start ? a->start < b->start : a->end > b->end;
}

struct reorder {
    struct nest_item *held;
    size_t n, cap;
    size_t swept;               /* held[0..swept) went through the stack */
    size_t merged;              /* merging: held[0..merged) went to the unions */
    bool unbounded, merging;
};
/* Room for one more row: rows both cursors passed are dropped, or the
 * buffer grows. */
void reorder_make_room(struct reorder *r);
/* Holds x no earlier than `swept`; returns its place (before `merged`: it
 * came too late for the merge). Inline: once a row. */
static inline size_t reorder_hold(struct reorder *r, const struct nest_item *x)
{
    if (r->n == r->cap)
        reorder_make_room(r);
    size_t i = r->n++;
    if (!r->unbounded)
        for (; i > r->swept && !span_before(&r->held[i - 1], x); i--)
            r->held[i] = r->held[i - 1];
    r->held[i] = *x;
    return i;
}
/* Unbounded: the rows not swept, in order (the later of the same span first). */
void reorder_sort(struct reorder *r);

/* A k-way merge's tournament: sources keyed by the start of their next item
 * (the threads' rows in one start order, summary_ordered.c; the threads'
 * unions of a group, summary_spans.c). The winner is the source whose next
 * item starts first, and each match keeps its loser, so a new start for the
 * winner replays one path of fixed length with selects, not branches (a heap's
 * sift-down mispredicted about once a turn). Ties come in any order: the merges
 * feed only unions. summary_merge.c. */
struct tournament {
    int64_t *start;   /* per source, its next item's start; TOURNAMENT_DONE: none */
    uint32_t *loser;  /* [0]: the winner; [1, leaves): the loser of each match */
    size_t leaves;    /* a power of two, no fewer than the sources */
};
#define TOURNAMENT_DONE INT64_MAX
/* A source's key for a start: below TOURNAMENT_DONE (a start at INT64_MAX
 * ties with the one before it; a union it reaches out of order fails the
 * pass, which is replayed per thread). */
static inline int64_t tournament_key(int64_t start) { return start < INT64_MAX ? start : INT64_MAX - 1; }
/* Room for n sources, each TOURNAMENT_DONE until the caller sets its start. */
void tournament_init(struct tournament *t, size_t n);
/* Plays every match once the starts are set; returns the winner. */
uint32_t tournament_build(struct tournament *t);
void tournament_free(struct tournament *t);
/* The winner w's start changed: the new winner. Inline: once a run. */
static inline uint32_t tournament_replay(struct tournament *t, uint32_t w)
{
    for (size_t node = (w + t->leaves) >> 1; node; node >>= 1) {
        uint32_t l = t->loser[node];
        bool swap = t->start[l] < t->start[w];
        t->loser[node] = swap ? w : l;
        w = swap ? l : w;
    }
    return t->loser[0] = w;
}
/* The start up to which the winner w may give items: the best start of those
 * that lost to it. */
static inline int64_t tournament_second(const struct tournament *t, uint32_t w)
{
    int64_t second = TOURNAMENT_DONE;
    for (size_t node = (w + t->leaves) >> 1; node; node >>= 1) {
        int64_t s = t->start[t->loser[node]];
        second = s < second ? s : second;
    }
    return second;
}

/* Feeds the unions (ordered_add) the next k rows not yet merged of nthreads
 * reorders, in start order; keys: the threads' keys (pid id << 32 | tid id).
 * False when a row came too late for a union. */
bool reorder_merge(struct reorder *rows, const uint64_t *keys, size_t nthreads, size_t k, struct summary_acc *acc);

/* The unions fed in one global start order: a union_run per group. A
 * (cat, process) union is kept together with the process's compute, since
 * |C \ K| = |C u K| - |K|: then no union needs its spans. False when x came
 * too late for a union (see union_run_add). */
bool ordered_add(struct summary_acc *acc, const struct nest_item *x, uint32_t pid);
/* Their lengths into acc (fn and file time, io_time, cat_time, cat_rest,
 * compute_time). */
void ordered_lengths(struct summary_acc *acc);
void ordered_free(struct summary_acc *acc);

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
 * merged at the end. */
struct summary_nest;
/* window: rows held per thread (ordered: ORDERED_WINDOWS of them for all);
 * the oldest half is swept when twice as many are. */
struct summary_nest *summary_nest_new(const struct summary_keys *unbounded, size_t window, bool ordered);
/* The thread of a key (pid id << 32 | tid id), for summary_nest_add. */
uint32_t summary_nest_thread(struct summary_nest *n, uint64_t key);
/* Adds a row of a thread (summary_nest_thread). */
void summary_nest_add(struct summary_nest *n, uint32_t thread, const struct nest_item *it, struct summary_acc *acc);
/* Sweeps what is left; returns false when a reorder overflowed (per thread:
 * with the thread's key added to unbounded). */
bool summary_nest_finish(struct summary_nest *n, struct summary_acc *acc, struct summary_keys *unbounded);
bool summary_nest_ordered(const struct summary_nest *n);
/* After finish, per thread: the threads, each with its key and unions. */
size_t summary_nest_count(const struct summary_nest *n);
struct thread_spans *summary_nest_spans(struct summary_nest *n, size_t thread, uint64_t *key);
/* The unions' lengths into acc: ordered, read off; per thread, the unions
 * of every thread merged per group (on up to 2 threads). */
void summary_unions(struct summary_nest *n, struct summary_acc *acc, int threads);
void summary_nest_free(struct summary_nest *n);

/* One batch of rows, in input order, into acc and nest. */
struct summary_batch_ctx {
    const char *compute;
    struct spoor_resolver *resolver;
    const struct spoor_strpool *files; /* the resolver's names, once a batch came */
    struct summary_keys tids;
    uint32_t *string_of;        /* per batch string id: acc string id */
    size_t string_cap;
    struct fn_cache {
        uint32_t cat;           /* batch cat id */
        uint32_t acc_cat, fn;   /* acc cat string id, function id */
        bool compute;
    } *fn_of;                   /* per batch name id */
    size_t fn_cap;
    int64_t last_pid, last_tid; /* the last row's thread */
    bool thread_known;
    uint32_t pid, thread;       /* its pid id and call-stack thread in the nest */
};
void summary_batch(struct summary_batch_ctx *ctx, const struct spoor_table *b, struct summary_acc *acc,
                   struct summary_nest *nest);

/* Profile counters (summary_counters.c): a counter row's time into the sums
 * of its cat, function, file, I/O process (io_pid: its io_pids id, or
 * SUMMARY_NO_GROUP) and compute; folded into the unions' lengths at the end
 * of summary_unions. */
void summary_counter_add(struct summary_acc *a, uint32_t cat, uint32_t fn, uint32_t file, uint32_t io_pid,
                         bool compute, int64_t ns);
void summary_counters_fold(struct summary_acc *a);

/* From the sums to the answer. */
const char *summary_own(struct spoor_summary *out, const char *s);
void summary_layers(struct summary_acc *acc, struct spoor_summary *out);
void summary_top(struct summary_acc *acc, const struct spoor_strpool *files, size_t top, struct spoor_summary *out);
void summary_io(struct summary_acc *acc, struct spoor_summary *out);
/* When no event was compute: the cats and functions that look like it. */
void summary_compute_like(const struct summary_acc *acc, struct spoor_summary *out);

#endif
