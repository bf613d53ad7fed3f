/* The unions when the rows come in one global start order (see
 * summary_internal.h): each span extends the group's open span or closes it,
 * so a group costs three numbers, whatever its number of spans. A row later
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
#include "summary_internal.h"

#include <stdlib.h>

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
    summary_grow((void **)&o->slot_of, &o->slot_of_cap, cat, sizeof *o->slot_of);
    if (!o->slot_of[cat]) {
        summary_grow((void **)&o->cat_of, &o->cat_of_cap, o->nslots, sizeof *o->cat_of);
        o->cat_of[o->nslots] = cat;
        o->slot_of[cat] = (uint32_t)++o->nslots;
    }
    uint32_t slot = o->slot_of[cat] - 1;
    summary_grow((void **)&p->cats, &p->cap, slot, sizeof *p->cats);
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
    summary_grow((void **)&o->pids, &o->pids_cap, pid, sizeof *o->pids);
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
        summary_grow((void **)&o->io, &o->io_cap, io, sizeof *o->io);
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

void ordered_lengths(struct summary_acc *a)
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
