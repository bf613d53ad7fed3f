/* The unions when every row comes in one global start order (see
 * summary_internal.h): each span extends the group's open span or closes it,
 * so a group costs three numbers, whatever its number of spans.
 *
 * The time of a cat not overlapped by the compute of its own process,
 * |C \ K| = |C u K| - |K|, needs no spans either: each (cat, process) run is
 * fed the cat's events and every compute event of the process. A run made
 * when its cat first comes starts as a copy of the process's compute run,
 * which is what C u K is while C is empty. */
#include "summary_internal.h"

#include <stdlib.h>

struct ordered_runs {
    struct union_run compute;           /* every process's compute */
    struct union_run *io;               /* per io pid id */
    size_t io_cap;
    struct union_run *pid_compute;      /* per pid id */
    uint32_t *pid_first;                /* per pid id: its first (cat, pid) id, + 1 */
    size_t pid_cap, pid_first_cap;
    struct union_run *with_compute;     /* per (cat, pid) id: C u K */
    uint32_t *next;                     /* per (cat, pid) id: the pid's next one, + 1 */
    size_t cat_pid_cap, next_cap;
};

void union_run_add(struct union_run *r, int64_t start, int64_t end)
{
    if (end <= start)
        return; /* an empty span adds nothing to a union */
    if (r->hi > r->lo && start <= r->hi) {
        if (end > r->hi)
            r->hi = end;
        return;
    }
    r->closed += r->hi - r->lo;
    r->lo = start;
    r->hi = end;
}

int64_t union_run_length(const struct union_run *r) { return r->closed + (r->hi - r->lo); }

/* The (cat, pid) run of x, made on first sight. */
static struct union_run *cat_pid_run(struct summary_acc *a, struct ordered_runs *o, const struct nest_item *x)
{
    size_t known = a->cat_pids.n;
    uint32_t id = summary_keys_id(&a->cat_pids, (uint64_t)x->cat << 32 | x->pid);
    if (id == known) {
        summary_grow((void **)&o->with_compute, &o->cat_pid_cap, id, sizeof *o->with_compute);
        summary_grow((void **)&o->next, &o->next_cap, id, sizeof *o->next);
        summary_grow((void **)&o->pid_first, &o->pid_first_cap, x->pid, sizeof *o->pid_first);
        o->with_compute[id] = o->pid_compute[x->pid];
        o->next[id] = o->pid_first[x->pid];
        o->pid_first[x->pid] = id + 1;
    }
    return &o->with_compute[id];
}

static void add_compute(struct ordered_runs *o, const struct nest_item *x)
{
    union_run_add(&o->compute, x->start, x->end);
    union_run_add(&o->pid_compute[x->pid], x->start, x->end);
    for (uint32_t id = o->pid_first[x->pid]; id; id = o->next[id - 1])
        union_run_add(&o->with_compute[id - 1], x->start, x->end);
}

void ordered_add(struct summary_acc *a, const struct nest_item *x)
{
    if (!a->ordered)
        a->ordered = spoor_xcalloc(1, sizeof *a->ordered);
    struct ordered_runs *o = a->ordered;
    union_run_add(&a->fn[x->fn].run, x->start, x->end);
    union_run_add(&a->cats[x->cat].run, x->start, x->end);
    if (x->file != SUMMARY_NO_GROUP)
        union_run_add(&a->file[x->file].run, x->start, x->end);
    if (x->io_pid != SUMMARY_NO_GROUP) {
        summary_grow((void **)&o->io, &o->io_cap, x->io_pid, sizeof *o->io);
        union_run_add(&o->io[x->io_pid], x->start, x->end);
    }
    summary_grow((void **)&o->pid_compute, &o->pid_cap, x->pid, sizeof *o->pid_compute);
    union_run_add(cat_pid_run(a, o, x), x->start, x->end);
    if (x->compute)
        add_compute(o, x);
}

void ordered_lengths(struct summary_acc *a)
{
    struct ordered_runs none = {0}, *o = a->ordered ? a->ordered : &none;
    for (uint32_t f = 0; f < a->fns.n; f++)
        a->fn[f].time = union_run_length(&a->fn[f].run);
    for (uint32_t f = 0; f < a->files.n; f++)
        a->file[f].time = union_run_length(&a->file[f].run);
    for (uint32_t p = 0; p < a->io_pids.n; p++)
        a->io_time[p] = p < o->io_cap ? union_run_length(&o->io[p]) : 0;
    for (uint32_t c = 0; c < a->cats_cap; c++)
        a->cat_time[c] = union_run_length(&a->cats[c].run);
    for (uint32_t g = 0; g < a->cat_pids.n; g++) {
        uint64_t key = a->cat_pids.keys[g];
        a->cat_rest[key >> 32] +=
            union_run_length(&o->with_compute[g]) - union_run_length(&o->pid_compute[(uint32_t)key]);
    }
    a->compute_time = union_run_length(&o->compute);
}

void ordered_free(struct summary_acc *a)
{
    struct ordered_runs *o = a->ordered;
    if (!o)
        return;
    free(o->io);
    free(o->pid_compute);
    free(o->pid_first);
    free(o->with_compute);
    free(o->next);
    free(o);
    a->ordered = NULL;
}
