/* Stage 2 of the streaming summary (see summary_internal.h): the call stacks.
 * Each thread's rows, as stage 1 hands them over, are put in start order in
 * the thread's reorder and swept through its call stack: the sweep is the
 * interval engine's (src/ops/interval_stack.c) made incremental: the top of
 * the stack is the event the thread's time belongs to, `t` how far that time
 * has been handed out; an event's self time is final when it leaves the
 * stack. The rows go on to the unions (summary_unions.c): ordered, merged
 * from every thread's reorder in one start order; per thread, into the
 * thread's own unions as it sweeps them. */
#include "summary_internal.h"

#include <stdlib.h>
#include <string.h>

/* The reorder (summary_internal.h) puts a thread's rows in start order by
 * span_before, insertion from the end, since rows come nearly in order (a
 * parent right after its descendants): a new row goes before every held row
 * whose span is not before its own. Unbounded: held as they come, sorted once
 * at the end. */
static inline bool span_before(const struct nest_item *a, const struct nest_item *b)
{
    return a->start != b->start ? a->start < b->start : a->end > b->end;
}

/* A stable merge sort by span_before: rows of the same span keep their order. */
static void sort_stable(struct nest_item *v, size_t n)
{
    struct nest_item *tmp = spoor_xmalloc(n * sizeof *tmp);
    for (size_t width = 1; width < n; width *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * width) {
            size_t mid = lo + width < n ? lo + width : n, hi = lo + 2 * width < n ? lo + 2 * width : n;
            size_t a = lo, b = mid, o = lo;
            while (a < mid && b < hi)
                tmp[o++] = span_before(&v[b], &v[a]) ? v[b++] : v[a++];
            while (a < mid)
                tmp[o++] = v[a++];
            while (b < hi)
                tmp[o++] = v[b++];
        }
        memcpy(v, tmp, n * sizeof *v);
    }
    free(tmp);
}

/* The first row a cursor still needs. */
static size_t first_needed(const struct reorder *r)
{
    return r->merging && r->merged < r->swept ? r->merged : r->swept;
}

/* Room for one more row: rows both cursors passed are dropped, or the
 * buffer grows. */
static void reorder_make_room(struct reorder *r)
{
    size_t first = first_needed(r);
    if (first && first >= r->n / 2) {
        /* room in front: the rows both cursors passed */
        memmove(r->held, r->held + first, (r->n - first) * sizeof *r->held);
        r->n -= first;
        r->swept -= first;
        r->merged -= r->merging ? first : 0;
    } else {
        r->cap = r->cap ? 2 * r->cap : 8; /* threads may be many and short */
        r->held = spoor_xrealloc(r->held, r->cap * sizeof *r->held);
    }
}

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

/* Unbounded: the rows not swept, in order. Held as they came: reversed, then
 * sorted stably, the later row of a span comes first. */
static void reorder_sort(struct reorder *r)
{
    struct nest_item *v = r->held + r->swept;
    size_t n = r->n - r->swept;
    for (size_t i = 0; i < n / 2; i++) {
        struct nest_item x = v[i];
        v[i] = v[n - 1 - i];
        v[n - 1 - i] = x;
    }
    sort_stable(v, n);
}

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
    struct call_stack stack;
};

struct summary_nest {
    struct spoor_id_map ids;    /* thread keys */
    struct thread *threads;
    struct reorder *rows;       /* per thread */
    struct thread_spans *spans; /* per thread: its unions (per thread only) */
    size_t cap, rows_cap, spans_cap;
    const struct spoor_id_map *unbounded;
    size_t window;
    bool ordered, overflow;
    /* Ordered: the rows not yet merged, over all threads (one window). */
    size_t held;
};

struct summary_nest *summary_nest_new(const struct spoor_id_map *unbounded, size_t window, bool ordered)
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
        l->last_pair = spoor_id_map_id(&acc->parent_pairs, (uint64_t)cat << 32 | parent) + 1;
        spoor_grow((void **)&acc->parent_dur, &acc->parent_cap, l->last_pair - 1, sizeof *acc->parent_dur);
    }
    acc->parent_dur[l->last_pair - 1] += dur;
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
            thread_spans_add(&n->spans[id], x);
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
    uint32_t id = spoor_id_map_id(&n->ids, key);
    if (id == known) {
        spoor_grow((void **)&n->threads, &n->cap, id, sizeof *n->threads);
        spoor_grow((void **)&n->rows, &n->rows_cap, id, sizeof *n->rows);
        spoor_grow((void **)&n->spans, &n->spans_cap, id, sizeof *n->spans);
        n->threads[id].stack.t = INT64_MIN;
        n->rows[id].unbounded = spoor_id_map_find(n->unbounded, key) != SUMMARY_NO_GROUP;
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

bool summary_nest_finish(struct summary_nest *n, struct summary_acc *acc, struct spoor_id_map *unbounded)
{
    if (n->ordered && !n->overflow)
        merge(n, n->held, acc);
    for (uint32_t id = 0; id < n->ids.n; id++) {
        struct thread *th = &n->threads[id];
        if (th->overflow)
            spoor_id_map_id(unbounded, n->ids.keys[id]);
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

bool summary_nest_threads(struct summary_nest *n, struct nest_threads *out)
{
    *out = (struct nest_threads){n->spans, n->ids.keys, n->ids.n};
    return !n->ordered;
}

void summary_nest_free(struct summary_nest *n)
{
    if (!n)
        return;
    for (size_t i = 0; i < n->rows_cap; i++)
        free(n->rows[i].held);
    free(n->rows);
    for (size_t i = 0; i < n->cap; i++)
        free(n->threads[i].stack.v);
    free(n->threads);
    for (size_t i = 0; i < n->spans_cap; i++)
        thread_spans_free(&n->spans[i]);
    free(n->spans);
    spoor_id_map_free(&n->ids);
    free(n);
}
