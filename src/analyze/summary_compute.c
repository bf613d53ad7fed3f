/* Time not overlapped by compute, per layer. Compute overlaps I/O only within
 * a process (another rank computing does not hide this one's I/O), so each
 * (cat, process) union is cut by the same process's compute union and the
 * rests are summed over processes. */
#include "summary_internal.h"

#include <stdlib.h>

void summary_not_compute(const struct spoor_table *t, const struct summary_rows *rows, int64_t *not_compute,
                         struct spoor_summary *out)
{
    size_t n = t->nrows ? t->nrows : 1;
    struct summary_keys pids = {0}, pairs = {0};
    uint32_t *pid_of = spoor_xmalloc(n * sizeof *pid_of), *group = spoor_xmalloc(n * sizeof *group);
    for (size_t r = 0; r < t->nrows; r++) {
        pid_of[r] = summary_keys_id(&pids, (uint64_t)t->pid[r]);
        group[r] = summary_is_event(t, r) ? summary_keys_id(&pairs, (uint64_t)t->cat[r] << 32 | pid_of[r])
                                          : SUMMARY_NO_GROUP;
    }
    struct grouped_spans by_pair, compute, all_compute;
    grouped_spans_build(t, rows, group, pairs.n, &by_pair);
    for (size_t r = 0; r < t->nrows; r++)
        group[r] = rows->compute[r] ? pid_of[r] : SUMMARY_NO_GROUP;
    grouped_spans_build(t, rows, group, pids.n, &compute);
    for (size_t r = 0; r < t->nrows; r++)
        group[r] = rows->compute[r] ? 0 : SUMMARY_NO_GROUP;
    grouped_spans_build(t, rows, group, 1, &all_compute);
    out->compute_time = grouped_spans_length(&all_compute, 0);

    for (uint32_t g = 0; g < by_pair.ngroups; g++) {
        uint64_t key = pairs.keys[g];
        uint32_t cat = (uint32_t)(key >> 32), pid = (uint32_t)key;
        const struct spoor_span *s = by_pair.spans + by_pair.first[g];
        size_t ns = by_pair.first[g + 1] - by_pair.first[g];
        const struct spoor_span *c = compute.spans + compute.first[pid];
        size_t nc = compute.first[pid + 1] - compute.first[pid];
        not_compute[cat] += spoor_spans_length(s, ns) - spans_intersection(s, ns, c, nc);
    }
    grouped_spans_free(&by_pair);
    grouped_spans_free(&compute);
    grouped_spans_free(&all_compute);
    free(pid_of);
    free(group);
    summary_keys_free(&pids);
    summary_keys_free(&pairs);
}
