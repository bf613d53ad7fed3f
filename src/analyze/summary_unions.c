/* The unions' lengths. Fed in global start order they are read off their
 * runs (summary_ordered.c). Per thread, each group's union over every thread:
 * the threads' unions of the group are collected as parts and merged (an
 * exact union of unions). A (cat, process) union is that of the process's
 * threads' unions of the cat's functions, read in place. The functions'
 * lengths, the largest share, go to a second thread when there are cores
 * (both only read the functions' unions). */
#include "summary_internal.h"

#include <pthread.h>
#include <stdlib.h>

struct lengths_job {
    struct span_parts *parts;
    int64_t *length;
};

static void *lengths_main(void *arg)
{
    struct lengths_job *j = arg;
    span_parts_lengths(j->parts, j->length);
    return NULL;
}

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

static void per_thread(struct summary_nest *n, struct summary_acc *acc, int threads)
{
    struct span_parts fn = {0}, file = {0}, cat_pid = {.borrowed = true}, io = {0}, compute = {0};
    for (size_t t = 0; t < summary_nest_count(n); t++) {
        uint64_t key;
        struct thread_spans *s = summary_nest_spans(n, t, &key);
        uint32_t pid = (uint32_t)(key >> 32);
        for (uint32_t i = 0; i < s->by_fn.ids.n; i++) {
            uint64_t cat = acc->fns.keys[s->by_fn.ids.keys[i]] >> 32;
            span_parts_borrow(&cat_pid, summary_keys_id(&acc->cat_pids, cat << 32 | pid), &s->by_fn.local.g[i]);
        }
        take_all(&fn, &s->by_fn);
        take_all(&file, &s->by_file);
        if (s->io.cap)
            span_parts_take(&io, summary_keys_find(&acc->io_pids, acc->pids.keys[pid]), &s->io.g[0]);
        if (s->compute.cap)
            span_parts_take(&compute, pid, &s->compute.g[0]);
        thread_spans_free(s);
    }
    struct lengths_job fns = {&fn, spoor_xcalloc(acc->fns.n + 1, sizeof *fns.length)};
    pthread_t helper;
    bool two = threads > 1 && pthread_create(&helper, NULL, lengths_main, &fns) == 0;
    if (!two)
        lengths_main(&fns);
    struct span_groups by_cat_pid = {0}, compute_by_pid = {0};
    span_parts_merge(&cat_pid, &by_cat_pid);
    span_parts_merge(&compute, &compute_by_pid);
    per_process(acc, &by_cat_pid, &compute_by_pid);
    span_groups_free(&by_cat_pid);
    span_groups_free(&compute_by_pid);
    int64_t *length = spoor_xcalloc(acc->files.n + 1, sizeof *length);
    span_parts_lengths(&file, length);
    for (uint32_t f = 0; f < acc->files.n; f++)
        acc->file[f].time = length[f];
    free(length);
    span_parts_lengths(&io, acc->io_time);
    if (two)
        pthread_join(helper, NULL);
    for (uint32_t f = 0; f < acc->fns.n; f++)
        acc->fn[f].time = fns.length[f];
    free(fns.length);
    struct span_parts *all[] = {&fn, &file, &cat_pid, &io, &compute};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        span_parts_free(all[i]);
}

void summary_unions(struct summary_nest *n, struct summary_acc *acc, int threads)
{
    summary_grow((void **)&acc->cats, &acc->cats_cap, spoor_strpool_count(acc->strings), sizeof *acc->cats);
    acc->cat_time = spoor_xcalloc(acc->cats_cap, sizeof *acc->cat_time);
    acc->cat_rest = spoor_xcalloc(acc->cats_cap, sizeof *acc->cat_rest);
    acc->io_time = spoor_xcalloc(acc->io_pids.n + 1, sizeof *acc->io_time);
    if (summary_nest_ordered(n))
        ordered_lengths(acc);
    else
        per_thread(n, acc, threads);
    summary_counters_fold(acc);
}
