/* Stage 3 of the streaming summary (see summary_internal.h): the exact unions
 * of the rows' spans per function, file, cat, process's I/O and compute, and
 * their lengths. On the first pass rows come in one global start order (a
 * merge of the threads' reorders of summary_stacks.c) and each union is a
 * run of three numbers; when that pass fails, the second keeps each
 * thread's unions as lists of spans and merges them per group at the end.
 * Both merges of many sources in start order play one tournament. */
#include "summary_internal.h"
#include "util/parallel.h"

#include <stdlib.h>
#include <string.h>

/* A k-way merge's tournament: sources keyed by the start of their next item
 * (the threads' rows in one start order; on the second pass, the threads'
 * unions of a group). The winner is the source whose next item starts first,
 * and each match keeps its loser, so a new start for the winner replays one
 * path of fixed length with selects, not branches (a heap's sift-down
 * mispredicted about once a turn). Ties come in any order: the merges feed
 * only unions. */
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

/* Room for n sources, each TOURNAMENT_DONE until the caller sets its start. */
static void tournament_init(struct tournament *t, size_t n)
{
    t->leaves = 2;
    while (t->leaves < n)
        t->leaves *= 2;
    t->start = spoor_xmalloc(t->leaves * sizeof *t->start);
    t->loser = spoor_xmalloc(t->leaves * sizeof *t->loser);
    for (size_t leaf = 0; leaf < t->leaves; leaf++)
        t->start[leaf] = TOURNAMENT_DONE;
}

/* Plays every match once the starts are set; returns the winner. */
static uint32_t tournament_build(struct tournament *t)
{
    /* winner[leaves + i] = i; each match's winner goes up, its loser stays */
    uint32_t *winner = spoor_xmalloc(2 * t->leaves * sizeof *winner);
    for (uint32_t leaf = 0; leaf < t->leaves; leaf++)
        winner[t->leaves + leaf] = leaf;
    for (size_t node = t->leaves - 1; node; node--) {
        uint32_t a = winner[2 * node], b = winner[2 * node + 1];
        bool b_wins = t->start[b] < t->start[a];
        winner[node] = b_wins ? b : a;
        t->loser[node] = b_wins ? a : b;
    }
    t->loser[0] = winner[1];
    free(winner);
    return t->loser[0];
}

static void tournament_free(struct tournament *t)
{
    free(t->start);
    free(t->loser);
}

/* The first pass: the unions when the rows come in one global start order:
 * each span extends the group's open span or closes it, so a group costs
 * three numbers, whatever its number of spans. A row later
 * than that order is still exact when it starts in or after its group's open
 * span (the spans closed before end before it); one that starts earlier
 * fails the pass. The rows come from a merge of the threads' reorders.
 *
 * The time of a cat not overlapped by the compute of its own process,
 * |C \ K| = |C u K| - |K|, needs no spans either: each (cat, process) run is
 * fed the cat's events and every compute event of the process. A run made
 * when its cat first comes starts as a copy of the process's compute run,
 * which is what C u K is while C is empty. Cats are few, so a process keeps
 * its runs in an array by a dense slot per cat, not in a hash. */

/* A process's compute and, per cat it has (by slot), C u K. */
struct cat_run {
    struct union_run run;
    bool seen;
};
struct process_runs {
    struct union_run compute;
    struct cat_run *cats;
    size_t cap;
};

struct ordered_runs {
    struct union_run compute;           /* every process's compute */
    struct union_run *io;               /* per io pid id */
    size_t io_cap;
    struct process_runs *pids;          /* per pid id */
    size_t pids_cap;
    uint32_t *slot_of;                  /* per cat string id: its slot + 1 (cats are few) */
    size_t slot_of_cap;
    uint32_t *cat_of;                   /* per slot: the cat string id */
    size_t nslots, cat_of_cap;
};

/* Times as unsigned with the sign bit flipped: the same order, and a run
 * zeroed (never fed) has its open span at the earliest time, so it needs no
 * flag. */
static inline uint64_t run_time(int64_t t) { return (uint64_t)t ^ (UINT64_C(1) << 63); }

/* start and end as run_time(); end >= start. Returns true when start is
 * before the open span (the union is then wrong). Branch-free: whether a span
 * extends the open one is a coin toss per row. Inline: 3 to 6 runs a row. */
static inline __attribute__((always_inline)) bool union_run_add(struct union_run *r, uint64_t start, uint64_t end)
{
    uint64_t lo = r->lo, hi = r->hi;
    uint64_t from = start > hi ? start : hi;
    r->length += end > from ? (int64_t)(end - from) : 0;
    r->lo = start > hi ? start : lo;
    r->hi = end > hi ? end : hi;
    return start < lo;
}

/* The C u K run of a cat in process p, made on first sight. */
static struct union_run *new_cat_run(struct ordered_runs *o, struct process_runs *p, uint32_t cat)
{
    spoor_grow((void **)&o->slot_of, &o->slot_of_cap, cat, sizeof *o->slot_of);
    if (!o->slot_of[cat]) {
        spoor_grow((void **)&o->cat_of, &o->cat_of_cap, o->nslots, sizeof *o->cat_of);
        o->cat_of[o->nslots] = cat;
        o->slot_of[cat] = (uint32_t)++o->nslots;
    }
    uint32_t slot = o->slot_of[cat] - 1;
    spoor_grow((void **)&p->cats, &p->cap, slot, sizeof *p->cats);
    if (!p->cats[slot].seen)
        p->cats[slot] = (struct cat_run){p->compute, true};
    return &p->cats[slot].run;
}

/* Inline, the run seen before: once a row. */
static inline struct union_run *cat_run(struct ordered_runs *o, struct process_runs *p, uint32_t cat)
{
    uint32_t slot = cat < o->slot_of_cap ? o->slot_of[cat] : 0;
    if (slot && slot <= p->cap && p->cats[slot - 1].seen)
        return &p->cats[slot - 1].run;
    return new_cat_run(o, p, cat);
}

/* A compute event into every process's compute, its process's, and its
 * process's C u K of every cat; true when one went wrong. */
static bool add_compute(struct ordered_runs *o, struct process_runs *p, uint64_t start, uint64_t end)
{
    bool late = union_run_add(&o->compute, start, end);
    late |= union_run_add(&p->compute, start, end);
    for (size_t slot = 0; slot < p->cap; slot++)
        if (p->cats[slot].seen)
            late |= union_run_add(&p->cats[slot].run, start, end);
    return late;
}

static struct ordered_runs *runs_of(struct summary_acc *a)
{
    if (!a->ordered)
        a->ordered = spoor_xcalloc(1, sizeof *a->ordered);
    return a->ordered;
}

static struct process_runs *process_of(struct ordered_runs *o, uint32_t pid)
{
    spoor_grow((void **)&o->pids, &o->pids_cap, pid, sizeof *o->pids);
    return &o->pids[pid];
}

/* x into the runs of its groups; p is its process's (pid id pid). True when
 * one went wrong. */
static inline __attribute__((always_inline)) bool add_row(struct summary_acc *a, struct ordered_runs *o,
                                                          struct process_runs *p, uint32_t pid,
                                                          const struct nest_item *x)
{
    if (x->end <= x->start)
        return false; /* an empty span adds nothing to a union */
    uint64_t start = run_time(x->start), end = run_time(x->end);
    bool late = union_run_add(&a->fn[x->fn].run, start, end);
    late |= union_run_add(&a->cats[x->cat].run, start, end);
    if (x->file != SUMMARY_NO_GROUP)
        late |= union_run_add(&a->file[x->file].run, start, end);
    if (x->io) {
        uint32_t io = a->io_of[pid] - 1;
        spoor_grow((void **)&o->io, &o->io_cap, io, sizeof *o->io);
        late |= union_run_add(&o->io[io], start, end);
    }
    late |= union_run_add(cat_run(o, p, x->cat), start, end);
    if (x->compute)
        late |= add_compute(o, p, start, end);
    return late;
}

bool ordered_add(struct summary_acc *a, const struct nest_item *x, uint32_t pid)
{
    struct ordered_runs *o = runs_of(a);
    return !add_row(a, o, process_of(o, pid), pid, x);
}

/* The winning thread gives rows for as long as they start no later than any
 * other's (its process's runs looked up once for them). */
bool reorder_merge(struct reorder *rows, const uint64_t *keys, size_t nthreads, size_t k, struct summary_acc *acc)
{
    struct tournament t;
    tournament_init(&t, nthreads);
    for (uint32_t id = 0; id < nthreads; id++)
        if (rows[id].n > rows[id].merged)
            t.start[id] = tournament_key(rows[id].held[rows[id].merged].start);
    struct ordered_runs *o = runs_of(acc);
    bool late = false;
    for (uint32_t id = tournament_build(&t); k; id = tournament_replay(&t, id)) {
        int64_t second = tournament_second(&t, id);
        struct reorder *r = &rows[id];
        uint32_t pid = (uint32_t)(keys[id] >> 32);
        struct process_runs *p = process_of(o, pid);
        do {
            const struct nest_item *x = &r->held[r->merged++];
            if (x->event)
                late |= add_row(acc, o, p, pid, x);
            k--;
        } while (k && r->merged < r->n && r->held[r->merged].start <= second);
        t.start[id] = r->merged < r->n ? tournament_key(r->held[r->merged].start) : TOURNAMENT_DONE;
    }
    tournament_free(&t);
    return !late;
}

/* Their lengths into acc (fn and file time, io_time, cat_time, cat_rest,
 * compute_time). */
static void ordered_lengths(struct summary_acc *a)
{
    struct ordered_runs none = {0}, *o = a->ordered ? a->ordered : &none;
    for (uint32_t f = 0; f < a->fns.n; f++)
        a->fn[f].time = a->fn[f].run.length;
    for (uint32_t f = 0; f < a->files.n; f++)
        a->file[f].time = a->file[f].run.length;
    for (uint32_t p = 0; p < a->io_pids.n; p++)
        a->io_time[p] = p < o->io_cap ? o->io[p].length : 0;
    for (uint32_t c = 0; c < a->cats_cap; c++)
        a->cat_time[c] = a->cats[c].run.length;
    for (size_t pid = 0; pid < o->pids_cap; pid++) {
        const struct process_runs *p = &o->pids[pid];
        for (size_t slot = 0; slot < p->cap; slot++)
            if (p->cats[slot].seen)
                a->cat_rest[o->cat_of[slot]] += p->cats[slot].run.length - p->compute.length;
    }
    a->compute_time = o->compute.length;
}

void ordered_free(struct summary_acc *a)
{
    struct ordered_runs *o = a->ordered;
    if (!o)
        return;
    free(o->io);
    for (size_t pid = 0; pid < o->pids_cap; pid++)
        free(o->pids[pid].cats);
    free(o->pids);
    free(o->slot_of);
    free(o->cat_of);
    free(o);
    a->ordered = NULL;
}

/* The second pass: exact unions per group, each a list of disjoint spans
 * (summary_internal.h); the unions of every thread are merged at the end.
 * Memory follows the size of the unions, not the number of events. */

/* start is no less than the start of the group's last add. */
static void span_groups_add(struct span_groups *s, uint32_t group, int64_t start, int64_t end)
{
    if (end <= start)
        return; /* an empty span adds nothing to a union */
    spoor_grow((void **)&s->g, &s->cap, group, sizeof *s->g);
    struct span_group *g = &s->g[group];
    if (g->n && start <= g->v[g->n - 1].end) {
        if (end > g->v[g->n - 1].end)
            g->v[g->n - 1].end = end;
        return;
    }
    if (g->n == g->cap) {
        g->cap = g->cap ? g->cap + g->cap / 2 : 4;
        g->v = spoor_xrealloc(g->v, g->cap * sizeof *g->v);
    }
    g->v[g->n++] = (struct spoor_span){start, end};
}

static size_t span_groups_get(const struct span_groups *s, uint32_t group, const struct spoor_span **spans)
{
    *spans = group < s->cap ? s->g[group].v : NULL;
    return group < s->cap ? s->g[group].n : 0;
}

static void span_groups_free(struct span_groups *s)
{
    for (size_t i = 0; i < s->cap; i++)
        free(s->g[i].v);
    free(s->g);
    memset(s, 0, sizeof *s);
}

static void thread_groups_add(struct thread_groups *t, uint32_t group, int64_t start, int64_t end)
{
    span_groups_add(&t->local, spoor_id_map_id(&t->ids, group), start, end);
}

void thread_spans_add(struct thread_spans *s, const struct nest_item *x)
{
    thread_groups_add(&s->by_fn, x->fn, x->start, x->end);
    if (x->file != SUMMARY_NO_GROUP)
        thread_groups_add(&s->by_file, x->file, x->start, x->end);
    if (x->io)
        span_groups_add(&s->io, 0, x->start, x->end);
    if (x->compute)
        span_groups_add(&s->compute, 0, x->start, x->end);
}

void thread_spans_free(struct thread_spans *t)
{
    struct thread_groups *groups[] = {&t->by_fn, &t->by_file};
    for (size_t i = 0; i < sizeof groups / sizeof *groups; i++) {
        spoor_id_map_free(&groups[i]->ids);
        span_groups_free(&groups[i]->local);
    }
    span_groups_free(&t->io);
    span_groups_free(&t->compute);
}

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

static void add_part(struct span_parts *p, uint32_t target, const struct span_group *g)
{
    if (p->n == p->cap) {
        p->cap = p->cap ? 2 * p->cap : 64;
        p->v = spoor_xrealloc(p->v, p->cap * sizeof *p->v);
    }
    p->v[p->n++] = (struct span_part){target, *g};
}

/* Moves g (left empty) into the parts of target. */
static void span_parts_take(struct span_parts *p, uint32_t target, struct span_group *g)
{
    if (g->n)
        add_part(p, target, g);
    else
        free(g->v);
    *g = (struct span_group){0};
}

/* Adds g, unchanged, to the parts of target (p->borrowed). */
static void span_parts_borrow(struct span_parts *p, uint32_t target, const struct span_group *g)
{
    if (g->n)
        add_part(p, target, g);
}

/* Puts the parts in runs of one target, in target order (a counting sort:
 * targets are dense ids); returns how many. */
static size_t sort_parts(struct span_parts *p)
{
    uint32_t max = 0;
    for (size_t i = 0; i < p->n; i++)
        if (p->v[i].target > max)
            max = p->v[i].target;
    size_t *first = spoor_xcalloc((size_t)max + 2, sizeof *first);
    for (size_t i = 0; i < p->n; i++)
        first[p->v[i].target + 1]++;
    for (size_t t = 0; t <= max; t++)
        first[t + 1] += first[t];
    struct span_part *sorted = spoor_xmalloc((p->n ? p->n : 1) * sizeof *sorted);
    for (size_t i = 0; i < p->n; i++)
        sorted[first[p->v[i].target]++] = p->v[i];
    free(first);
    free(p->v);
    p->v = sorted;
    p->cap = p->n ? p->n : 1;
    return p->n;
}

static void close_span(struct span_group *out, int64_t lo, int64_t hi)
{
    if (!out || hi <= lo)
        return;
    if (out->n == out->cap) {
        out->cap = out->cap ? out->cap + out->cap / 2 : 16;
        out->v = spoor_xrealloc(out->v, out->cap * sizeof *out->v);
    }
    out->v[out->n++] = (struct spoor_span){lo, hi};
}

static int by_start(const void *a, const void *b)
{
    const struct spoor_span *x = a, *y = b;
    return (x->start > y->start) - (x->start < y->start);
}

/* The union of many short unions (threads that touched a group a few times):
 * all their spans sorted at once, cheaper than a heap of them. */
static int64_t union_of_many(const struct span_part *parts, size_t k, size_t total, struct span_group *out)
{
    struct spoor_span *all = spoor_xmalloc(total * sizeof *all);
    size_t n = 0;
    for (size_t i = 0; i < k; i++)
        for (size_t j = 0; j < parts[i].spans.n; j++)
            all[n++] = parts[i].spans.v[j];
    qsort(all, n, sizeof *all, by_start);
    n = spoor_spans_union(all, n);
    int64_t length = spoor_spans_length(all, n);
    if (out)
        *out = (struct span_group){all, n, total};
    else
        free(all);
    return length;
}

/* The union of k unions by a k-way merge of their spans: its length, and the
 * union itself into out unless NULL. The top union gives spans for as long as
 * they come first: threads take turns in runs. */
static int64_t union_of(const struct span_part *parts, size_t k, struct span_group *out)
{
    if (k == 1 && !out)
        return spoor_spans_length(parts[0].spans.v, parts[0].spans.n);
    size_t spans = 0;
    for (size_t i = 0; i < k; i++)
        spans += parts[i].spans.n;
    if (k > 64 && spans < 8 * k)
        return union_of_many(parts, k, spans, out);
    struct tournament t;
    tournament_init(&t, k);
    const struct spoor_span **next = spoor_xmalloc(k * sizeof *next);
    for (uint32_t i = 0; i < k; i++) {
        t.start[i] = parts[i].spans.v[0].start; /* a span's start is below its end */
        next[i] = parts[i].spans.v;
    }
    int64_t total = 0, lo = 0, hi = 0;
    for (uint32_t top = tournament_build(&t); t.start[top] != TOURNAMENT_DONE; top = tournament_replay(&t, top)) {
        int64_t second = tournament_second(&t, top);
        const struct spoor_span *end = parts[top].spans.v + parts[top].spans.n;
        do {
            const struct spoor_span *s = next[top]++;
            if (s->start <= hi && hi > lo) {
                if (s->end > hi)
                    hi = s->end;
            } else {
                total += hi - lo;
                close_span(out, lo, hi);
                lo = s->start;
                hi = s->end;
            }
        } while (next[top] < end && next[top]->start <= second);
        t.start[top] = next[top] < end ? next[top]->start : TOURNAMENT_DONE;
    }
    free(next);
    tournament_free(&t);
    close_span(out, lo, hi);
    return total + (hi - lo);
}

/* Only the length of each target's union, into length[target]. */
static void span_parts_lengths(struct span_parts *p, int64_t *length)
{
    for (size_t i = 0, j, n = sort_parts(p); i < n; i = j) {
        for (j = i; j < n && p->v[j].target == p->v[i].target; j++)
            ;
        length[p->v[i].target] = union_of(p->v + i, j - i, NULL);
    }
}

/* Merges the parts of each target into dst; p is then empty. */
static void span_parts_merge(struct span_parts *p, struct span_groups *dst)
{
    for (size_t i = 0, j, n = sort_parts(p); i < n; i = j) {
        for (j = i; j < n && p->v[j].target == p->v[i].target; j++)
            ;
        uint32_t target = p->v[i].target;
        spoor_grow((void **)&dst->g, &dst->cap, target, sizeof *dst->g);
        free(dst->g[target].v);
        if (j - i == 1 && !p->borrowed) {
            dst->g[target] = p->v[i].spans;
        } else {
            dst->g[target] = (struct span_group){0};
            union_of(p->v + i, j - i, &dst->g[target]);
            for (size_t k = i; k < j && !p->borrowed; k++)
                free(p->v[k].spans.v);
        }
    }
    p->n = 0;
}

static void span_parts_free(struct span_parts *p)
{
    for (size_t i = 0; i < p->n && !p->borrowed; i++)
        free(p->v[i].spans.v);
    free(p->v);
}

/* Length of the intersection of two unions. */
static int64_t spans_intersection(const struct spoor_span *a, size_t na, const struct spoor_span *b, size_t nb)
{
    int64_t total = 0;
    size_t i = 0, j = 0;
    while (i < na && j < nb) {
        int64_t lo = a[i].start > b[j].start ? a[i].start : b[j].start;
        int64_t hi = a[i].end < b[j].end ? a[i].end : b[j].end;
        if (hi > lo)
            total += hi - lo;
        if (a[i].end < b[j].end)
            i++;
        else
            j++;
    }
    return total;
}

/* The lengths. Fed in global start order they are read off their runs
 * (ordered_lengths). Per thread, each group's union over every thread:
 * the threads' unions of the group are collected as parts and merged (an
 * exact union of unions). A (cat, process) union is that of the process's
 * threads' unions of the cat's functions, read in place. The functions'
 * lengths, the largest share, go to a second thread when there are cores
 * (both only read the functions' unions). */

/* Moves every group of a thread into the parts of the same group. */
static void take_all(struct span_parts *p, struct thread_groups *t)
{
    for (uint32_t i = 0; i < t->ids.n; i++)
        span_parts_take(p, (uint32_t)t->ids.keys[i], &t->local.g[i]);
}

/* Compute overlaps I/O only within a process (another rank computing does not
 * hide this one's I/O), so each (cat, process) union is cut by the same
 * process's compute union and the rests are summed over processes. Each
 * layer's union is then the union of its per-process unions, and
 * compute_time the union of every process's compute. */
static void per_process(struct summary_acc *a, struct span_groups *by_cat_pid, struct span_groups *compute_by_pid)
{
    struct span_parts cats = {0}, compute = {0};
    for (uint32_t g = 0; g < a->cat_pids.n; g++) {
        uint64_t key = a->cat_pids.keys[g];
        uint32_t cat = (uint32_t)(key >> 32), pid = (uint32_t)key;
        const struct spoor_span *s, *c;
        size_t ns = span_groups_get(by_cat_pid, g, &s);
        size_t nc = span_groups_get(compute_by_pid, pid, &c);
        a->cat_rest[cat] += spoor_spans_length(s, ns) - spans_intersection(s, ns, c, nc);
        span_parts_take(&cats, cat, &by_cat_pid->g[g]);
    }
    span_parts_lengths(&cats, a->cat_time);
    for (uint32_t pid = 0; pid < compute_by_pid->cap; pid++)
        span_parts_take(&compute, 0, &compute_by_pid->g[pid]);
    int64_t compute_time[1] = {0};
    span_parts_lengths(&compute, compute_time);
    a->compute_time = compute_time[0];
    span_parts_free(&cats);
    span_parts_free(&compute);
}

/* The threads' unions collected as parts per group, and the two halves of
 * their lengths: the functions' (task 0) and all the others (task 1). */
struct lengths_job {
    struct summary_acc *acc;
    struct span_parts fn, file, cat_pid, io, compute;
    int64_t *fn_length;
};

static void other_lengths(struct lengths_job *j)
{
    struct summary_acc *acc = j->acc;
    struct span_groups by_cat_pid = {0}, compute_by_pid = {0};
    span_parts_merge(&j->cat_pid, &by_cat_pid);
    span_parts_merge(&j->compute, &compute_by_pid);
    per_process(acc, &by_cat_pid, &compute_by_pid);
    span_groups_free(&by_cat_pid);
    span_groups_free(&compute_by_pid);
    int64_t *length = spoor_xcalloc(acc->files.n + 1, sizeof *length);
    span_parts_lengths(&j->file, length);
    for (uint32_t f = 0; f < acc->files.n; f++)
        acc->file[f].time = length[f];
    free(length);
    span_parts_lengths(&j->io, acc->io_time);
}

static void lengths_task(void *ctx, size_t task, int worker)
{
    struct lengths_job *j = ctx;
    (void)worker;
    if (task == 0)
        span_parts_lengths(&j->fn, j->fn_length);
    else
        other_lengths(j);
}

static void per_thread(struct nest_threads *n, struct summary_acc *acc, int threads)
{
    struct lengths_job j = {.acc = acc, .cat_pid = {.borrowed = true}};
    for (size_t t = 0; t < n->n; t++) {
        struct thread_spans *s = &n->spans[t];
        uint32_t pid = (uint32_t)(n->keys[t] >> 32);
        for (uint32_t i = 0; i < s->by_fn.ids.n; i++) {
            uint64_t cat = acc->fns.keys[s->by_fn.ids.keys[i]] >> 32;
            span_parts_borrow(&j.cat_pid, spoor_id_map_id(&acc->cat_pids, cat << 32 | pid), &s->by_fn.local.g[i]);
        }
        take_all(&j.fn, &s->by_fn);
        take_all(&j.file, &s->by_file);
        if (s->io.cap)
            span_parts_take(&j.io, spoor_id_map_find(&acc->io_pids, acc->pids.keys[pid]), &s->io.g[0]);
        if (s->compute.cap)
            span_parts_take(&j.compute, pid, &s->compute.g[0]);
        thread_spans_free(s);
    }
    j.fn_length = spoor_xcalloc(acc->fns.n + 1, sizeof *j.fn_length);
    spoor_parallel_for(2, threads > 1 ? 2 : 1, lengths_task, &j);
    for (uint32_t f = 0; f < acc->fns.n; f++)
        acc->fn[f].time = j.fn_length[f];
    free(j.fn_length);
    struct span_parts *all[] = {&j.fn, &j.file, &j.cat_pid, &j.io, &j.compute};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        span_parts_free(all[i]);
}

void summary_unions(struct summary_acc *acc, struct nest_threads *per_thread_unions, int threads)
{
    spoor_grow((void **)&acc->cats, &acc->cats_cap, spoor_strpool_count(acc->strings), sizeof *acc->cats);
    acc->cat_time = spoor_xcalloc(acc->cats_cap, sizeof *acc->cat_time);
    acc->cat_rest = spoor_xcalloc(acc->cats_cap, sizeof *acc->cat_rest);
    acc->io_time = spoor_xcalloc(acc->io_pids.n + 1, sizeof *acc->io_time);
    if (per_thread_unions)
        per_thread(per_thread_unions, acc, threads);
    else
        ordered_lengths(acc);
}
