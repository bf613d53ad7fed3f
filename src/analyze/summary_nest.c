/* Streaming call stacks (see summary_internal.h). The sweep is the interval
 * engine's (src/ops/interval_stack.c) made incremental: the top of the stack
 * is the event the thread's time belongs to, `t` how far that time has been
 * handed out; an event's self time is final when it leaves the stack. */
#include "summary_internal.h"

#include <stdlib.h>
#include <string.h>

/* Ordered, the rows not yet merged may fill this many windows: the threads'
 * rows interleave, so a row is further from its place in the one start order
 * than in its thread's. */
#define ORDERED_WINDOWS 16

struct open_event {
    int64_t end, self;
    uint32_t cat, fn, file;
    bool event;
};

/* The last row a thread swept: a row of the thread before it comes too late. */
struct mark {
    struct nest_item last;
    bool any;
};

/* x came after the last row swept, so it goes before it unless its span is later. */
static bool too_late(const struct mark *m, const struct nest_item *x) { return m->any && !span_before(&m->last, x); }

/* A thread's open events; t: how far its time has been handed out. The
 * sweep works on a copy in locals, so that the sums it adds into acc cannot
 * alias it (they would reload it at every step). */
struct call_stack {
    struct open_event *v;
    size_t depth, cap;
    int64_t t;
};

struct thread {
    struct mark swept;
    bool overflow;
    struct thread_spans spans;  /* per thread only */
    struct call_stack stack;
};

struct summary_nest {
    struct summary_keys ids;    /* thread keys */
    struct thread *threads;
    struct reorder *rows;       /* per thread */
    size_t cap, rows_cap;
    const struct summary_keys *unbounded;
    size_t window;
    bool ordered, overflow;
    /* Ordered: the rows not yet merged, over all threads (one window). */
    size_t held;
};

struct summary_nest *summary_nest_new(const struct summary_keys *unbounded, size_t window, bool ordered)
{
    struct summary_nest *n = spoor_xcalloc(1, sizeof *n);
    n->unbounded = unbounded;
    n->window = window;
    n->ordered = ordered;
    return n;
}

/* Inline: once a row, from three places. */
static inline __attribute__((always_inline)) void leave(const struct open_event *e, struct summary_acc *acc)
{
    if (!e->event)
        return;
    int64_t self = e->self;
    acc->cats[e->cat].self += self;
    acc->fn[e->fn].self += self;
    if (e->file != SUMMARY_NO_GROUP)
        acc->file[e->file].self += self;
}

static void accrue(struct call_stack *s, struct open_event *e, int64_t to)
{
    if (to <= s->t)
        return;
    e->self += to - s->t;
    s->t = to;
}

/* Hands out time up to `to`: events ending before it leave the stack. */
static void advance(struct call_stack *s, int64_t to, struct summary_acc *acc)
{
    while (s->depth) {
        struct open_event *top = &s->v[s->depth - 1];
        if (top->end >= to) {
            accrue(s, top, to);
            break;
        }
        accrue(s, top, top->end);
        leave(top, acc);
        s->depth--;
    }
    if (s->t < to)
        s->t = to;
}

/* A layer mostly sits in one parent layer, so each cat remembers its last pair. */
static void add_parent_pair(struct summary_acc *acc, uint32_t cat, uint32_t parent, int64_t dur)
{
    struct layer_acc *l = &acc->cats[cat];
    if (!l->last_pair || l->last_parent != parent) {
        l->last_parent = parent;
        l->last_pair = summary_keys_id(&acc->parent_pairs, (uint64_t)cat << 32 | parent) + 1;
        summary_grow((void **)&acc->parent_dur, &acc->parent_cap, l->last_pair - 1, sizeof *acc->parent_dur);
    }
    acc->parent_dur[l->last_pair - 1] += dur;
}

static void add_spans(struct thread_spans *s, const struct nest_item *x)
{
    thread_groups_add(&s->by_fn, x->fn, x->start, x->end);
    if (x->file != SUMMARY_NO_GROUP)
        thread_groups_add(&s->by_file, x->file, x->start, x->end);
    if (x->io)
        span_groups_add(&s->io, 0, x->start, x->end);
    if (x->compute)
        span_groups_add(&s->compute, 0, x->start, x->end);
}

static void sweep(struct call_stack *s, const struct nest_item *x, struct summary_acc *acc)
{
    advance(s, x->start, acc);
    /* Open events ending before x cannot hold it, nor anything after it. */
    while (s->depth && s->v[s->depth - 1].end < x->end) {
        s->depth--;
        leave(&s->v[s->depth], acc);
    }
    const struct open_event *parent = s->depth ? &s->v[s->depth - 1] : NULL;
    if (x->event && !(parent && parent->cat == x->cat)) {
        int64_t dur = x->end - x->start;
        acc->cats[x->cat].outer_dur += dur;
        if (parent)
            add_parent_pair(acc, x->cat, parent->cat, dur);
    }
    if (s->depth == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 8;
        s->v = spoor_xrealloc(s->v, s->cap * sizeof *s->v);
    }
    s->v[s->depth++] = (struct open_event){x->end, 0, x->cat, x->fn, x->file, x->event};
}

/* Sweeps the first k rows not swept of a thread through its stack (and,
 * per thread, into its unions). */
static void sweep_thread(struct summary_nest *n, uint32_t id, size_t k, struct summary_acc *acc)
{
    if (!k)
        return;
    struct thread *th = &n->threads[id];
    struct reorder *r = &n->rows[id];
    const struct nest_item *x = r->held + r->swept, *end = x + k;
    bool spans = !n->ordered;
    struct call_stack s = th->stack;
    for (; x < end; x++) {
        sweep(&s, x, acc);
        if (spans && x->event)
            add_spans(&th->spans, x);
    }
    th->stack = s;
    r->swept += k;
    th->swept = (struct mark){end[-1], true};
}

/* The pass is to be fed again: no more merging (the unions are lost), but
 * the call stacks go on, so that every thread that overflows its window is
 * known for the next pass. */
static void fail_pass(struct summary_nest *n)
{
    n->overflow = true;
    for (uint32_t id = 0; id < n->ids.n; id++)
        n->rows[id].merging = false;
}

/* Ordered: the next k rows of all threads to the unions. */
static void merge(struct summary_nest *n, size_t k, struct summary_acc *acc)
{
    n->held -= k;
    if (!reorder_merge(n->rows, n->ids.keys, n->ids.n, k, acc))
        fail_pass(n);
}

uint32_t summary_nest_thread(struct summary_nest *n, uint64_t key)
{
    size_t known = n->ids.n;
    uint32_t id = summary_keys_id(&n->ids, key);
    if (id == known) {
        summary_grow((void **)&n->threads, &n->cap, id, sizeof *n->threads);
        summary_grow((void **)&n->rows, &n->rows_cap, id, sizeof *n->rows);
        n->threads[id].stack.t = INT64_MIN;
        n->rows[id].unbounded = summary_keys_find(n->unbounded, key) != SUMMARY_NO_GROUP;
        n->rows[id].merging = n->ordered && !n->overflow;
    }
    return id;
}

void summary_nest_add(struct summary_nest *n, uint32_t thread, const struct nest_item *it, struct summary_acc *acc)
{
    struct thread *th = &n->threads[thread];
    struct reorder *r = &n->rows[thread];
    if (th->overflow)
        return;
    if (!r->unbounded && too_late(&th->swept, it)) {
        th->overflow = true;
        fail_pass(n);
        return;
    }
    size_t at = reorder_hold(r, it);
    if (r->merging && at < r->merged) {
        /* Later than the merge: to the unions at once, exact or not. */
        r->merged++;
        if (it->event && !ordered_add(acc, it, (uint32_t)(n->ids.keys[thread] >> 32)))
            fail_pass(n);
    } else if (r->merging && ++n->held >= 2 * ORDERED_WINDOWS * n->window) {
        merge(n, n->held - ORDERED_WINDOWS * n->window, acc);
    }
    size_t held = r->n - r->swept;
    if (!r->unbounded && held >= 2 * n->window)
        sweep_thread(n, thread, held - n->window, acc);
}

bool summary_nest_finish(struct summary_nest *n, struct summary_acc *acc, struct summary_keys *unbounded)
{
    if (n->ordered && !n->overflow)
        merge(n, n->held, acc);
    for (uint32_t id = 0; id < n->ids.n; id++) {
        struct thread *th = &n->threads[id];
        if (th->overflow)
            summary_keys_id(unbounded, n->ids.keys[id]);
        if (n->overflow)
            continue; /* the pass is fed again */
        if (n->rows[id].unbounded)
            reorder_sort(&n->rows[id]);
        sweep_thread(n, id, n->rows[id].n - n->rows[id].swept, acc);
        struct call_stack *s = &th->stack;
        while (s->depth) {
            struct open_event *top = &s->v[--s->depth];
            accrue(s, top, top->end);
            leave(top, acc);
        }
    }
    return !n->overflow;
}

bool summary_nest_ordered(const struct summary_nest *n) { return n->ordered; }

size_t summary_nest_count(const struct summary_nest *n) { return n->ids.n; }

struct thread_spans *summary_nest_spans(struct summary_nest *n, size_t thread, uint64_t *key)
{
    *key = n->ids.keys[thread];
    return &n->threads[thread].spans;
}

void thread_groups_add(struct thread_groups *t, uint32_t group, int64_t start, int64_t end)
{
    span_groups_add(&t->local, summary_keys_id(&t->ids, group), start, end);
}

void thread_spans_free(struct thread_spans *t)
{
    struct thread_groups *groups[] = {&t->by_fn, &t->by_file};
    for (size_t i = 0; i < sizeof groups / sizeof *groups; i++) {
        summary_keys_free(&groups[i]->ids);
        span_groups_free(&groups[i]->local);
    }
    span_groups_free(&t->io);
    span_groups_free(&t->compute);
}

void summary_nest_free(struct summary_nest *n)
{
    if (!n)
        return;
    for (size_t i = 0; i < n->rows_cap; i++)
        free(n->rows[i].held);
    free(n->rows);
    for (size_t i = 0; i < n->cap; i++) {
        free(n->threads[i].stack.v);
        thread_spans_free(&n->threads[i].spans);
    }
    free(n->threads);
    summary_keys_free(&n->ids);
    free(n);
}
