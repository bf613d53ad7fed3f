/* Streaming call stacks (see summary_internal.h). The sweep is the interval
 * engine's (src/ops/interval_stack.c) made incremental: the top of the stack
 * is the event the thread's time belongs to, `t` how far that time has been
 * handed out; an event's self time is final when it leaves the stack. */
#include "summary_internal.h"

#include <stdlib.h>
#include <string.h>


struct open_event {
    int64_t end, self;
    uint32_t cat, fn, file;
    bool event;
};

struct thread {
    struct nest_item *held;     /* bounded: in start order; unbounded: as they came */
    size_t n, cap;
    struct nest_item last;      /* the last row swept */
    bool swept, overflow, unbounded;
    struct thread_spans spans;
    struct open_event *stack;
    size_t depth, stack_cap;
    int64_t t;
};

struct summary_nest {
    struct summary_keys ids;    /* thread keys */
    struct thread *threads;
    size_t cap;
    const struct summary_keys *unbounded;
    size_t window;
    bool overflow;
};

static bool before(const struct nest_item *a, const struct nest_item *b)
{
    if (a->start != b->start)
        return a->start < b->start;
    if (a->end != b->end)
        return a->end > b->end;
    return a->seq > b->seq;
}

static int by_start(const void *a, const void *b) { return before(a, b) ? -1 : before(b, a) ? 1 : 0; }

struct summary_nest *summary_nest_new(const struct summary_keys *unbounded, size_t window)
{
    struct summary_nest *n = spoor_xcalloc(1, sizeof *n);
    n->unbounded = unbounded;
    n->window = window;
    return n;
}

static void leave(struct open_event *e, struct summary_acc *acc)
{
    if (!e->event)
        return;
    acc->cats[e->cat].self += e->self;
    acc->fn[e->fn].self += e->self;
    if (e->file != SUMMARY_NO_GROUP)
        acc->file[e->file].self += e->self;
}

static void accrue(struct thread *th, struct open_event *e, int64_t to)
{
    if (to <= th->t)
        return;
    e->self += to - th->t;
    th->t = to;
}

/* Hands out time up to `to`: events ending before it leave the stack. */
static void advance(struct thread *th, int64_t to, struct summary_acc *acc)
{
    while (th->depth) {
        struct open_event *top = &th->stack[th->depth - 1];
        if (top->end >= to) {
            accrue(th, top, to);
            break;
        }
        accrue(th, top, top->end);
        leave(top, acc);
        th->depth--;
    }
    if (th->t < to)
        th->t = to;
}

static void add_parent_pair(struct summary_acc *acc, uint32_t cat, uint32_t parent, int64_t dur)
{
    uint32_t id = summary_keys_id(&acc->parent_pairs, (uint64_t)cat << 32 | parent);
    summary_grow((void **)&acc->parent_dur, &acc->parent_cap, id, sizeof *acc->parent_dur);
    acc->parent_dur[id] += dur;
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

static void sweep(struct thread *th, const struct nest_item *x, struct summary_acc *acc)
{
    advance(th, x->start, acc);
    /* Open events ending before x cannot hold it, nor anything after it. */
    while (th->depth && th->stack[th->depth - 1].end < x->end) {
        th->depth--;
        leave(&th->stack[th->depth], acc);
    }
    const struct open_event *parent = th->depth ? &th->stack[th->depth - 1] : NULL;
    if (x->event)
        add_spans(&th->spans, x);
    if (x->event && !(parent && parent->cat == x->cat)) {
        int64_t dur = x->end - x->start;
        acc->cats[x->cat].outer_dur += dur;
        if (parent)
            add_parent_pair(acc, x->cat, parent->cat, dur);
    }
    if (th->depth == th->stack_cap) {
        th->stack_cap = th->stack_cap ? 2 * th->stack_cap : 8;
        th->stack = spoor_xrealloc(th->stack, th->stack_cap * sizeof *th->stack);
    }
    th->stack[th->depth++] = (struct open_event){x->end, 0, x->cat, x->fn, x->file, x->event};
    th->last = *x;
    th->swept = true;
}

static void hold(struct thread *th, const struct nest_item *x)
{
    if (th->n == th->cap) {
        th->cap = th->cap ? 2 * th->cap : 8; /* threads may be many and short */
        th->held = spoor_xrealloc(th->held, th->cap * sizeof *th->held);
    }
    size_t i = th->n++;
    if (!th->unbounded)
        for (; i && before(x, &th->held[i - 1]); i--)
            th->held[i] = th->held[i - 1];
    th->held[i] = *x;
}

/* Sweeps held[0..k) and keeps the rest. */
static void sweep_held(struct thread *th, size_t k, struct summary_acc *acc)
{
    for (size_t i = 0; i < k; i++)
        sweep(th, &th->held[i], acc);
    if (k < th->n)
        memmove(th->held, th->held + k, (th->n - k) * sizeof *th->held);
    th->n -= k;
}

uint32_t summary_nest_thread(struct summary_nest *n, uint64_t key)
{
    size_t known = n->ids.n;
    uint32_t id = summary_keys_id(&n->ids, key);
    if (id == known) {
        summary_grow((void **)&n->threads, &n->cap, id, sizeof *n->threads);
        n->threads[id].t = INT64_MIN;
        n->threads[id].unbounded = summary_keys_find(n->unbounded, key) != SUMMARY_NO_GROUP;
    }
    return id;
}

void summary_nest_add(struct summary_nest *n, uint32_t thread, const struct nest_item *it, struct summary_acc *acc)
{
    struct thread *th = &n->threads[thread];
    if (th->overflow)
        return;
    if (!th->unbounded && th->swept && before(it, &th->last)) {
        th->overflow = n->overflow = true;
        return;
    }
    hold(th, it);
    if (!th->unbounded && th->n >= 2 * n->window)
        sweep_held(th, th->n - n->window, acc);
}

bool summary_nest_finish(struct summary_nest *n, struct summary_acc *acc, struct summary_keys *unbounded)
{
    for (uint32_t id = 0; id < n->ids.n; id++) {
        struct thread *th = &n->threads[id];
        if (th->overflow) {
            summary_keys_id(unbounded, n->ids.keys[id]);
            continue;
        }
        if (th->unbounded && th->n)
            qsort(th->held, th->n, sizeof *th->held, by_start);
        sweep_held(th, th->n, acc);
        while (th->depth) {
            struct open_event *top = &th->stack[--th->depth];
            accrue(th, top, top->end);
            leave(top, acc);
        }
    }
    return !n->overflow;
}

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
    for (size_t i = 0; i < n->cap; i++) {
        free(n->threads[i].held);
        free(n->threads[i].stack);
        thread_spans_free(&n->threads[i].spans);
    }
    free(n->threads);
    summary_keys_free(&n->ids);
    free(n);
}
