/* Profile counters (DataCrumbs profile mode): per interval and function, the
 * number of calls and their summed time, with no span. Their time cannot
 * join a union (nothing says when within the interval the calls ran, or
 * whether they overlapped), so it is summed beside the unions and added to
 * their lengths at the end: a layer's, function's, file's, process's I/O or
 * compute time is its spanned union plus its counters' time, and "not
 * compute" counts a counter of another cat whole. Self time needs nesting,
 * which counters lack: they add none. */
#include "summary_internal.h"

void summary_counter_add(struct summary_acc *a, uint32_t cat, uint32_t fn, uint32_t file, uint32_t io_pid,
                         bool compute, int64_t ns)
{
    struct layer_acc *l = &a->cats[cat];
    l->counter_time += ns;
    l->dur_sum += ns;
    a->fn[fn].counter_time += ns;
    if (file != SUMMARY_NO_GROUP)
        a->file[file].counter_time += ns;
    if (io_pid != SUMMARY_NO_GROUP) {
        summary_grow((void **)&a->io_counter, &a->io_counter_cap, io_pid, sizeof *a->io_counter);
        a->io_counter[io_pid] += ns;
    }
    if (compute)
        a->compute_counter += ns;
    else
        l->counter_rest += ns;
}

void summary_counters_fold(struct summary_acc *a)
{
    for (size_t c = 0; c < a->cats_cap; c++) {
        a->cat_time[c] += a->cats[c].counter_time;
        a->cat_rest[c] += a->cats[c].counter_rest;
    }
    for (uint32_t f = 0; f < a->fns.n; f++)
        a->fn[f].time += a->fn[f].counter_time;
    for (uint32_t f = 0; f < a->files.n; f++)
        a->file[f].time += a->file[f].counter_time;
    for (uint32_t p = 0; p < a->io_pids.n && p < a->io_counter_cap; p++)
        a->io_time[p] += a->io_counter[p];
    a->compute_time += a->compute_counter;
}
