/* The layer breakdown: per cat, union time, self time, counts, bytes, the
 * share of the parent layer and the time not overlapped by compute. */
#include "summary_internal.h"

#include <stdlib.h>
#include <string.h>

static int by_time_desc(const void *a, const void *b)
{
    const struct spoor_summary_layer *x = a, *y = b;
    if (x->time != y->time)
        return x->time > y->time ? -1 : 1;
    return strcmp(x->cat, y->cat);
}

/* Each layer's parent: the parent cat holding most of its time (ties: lower id). */
static void pick_parents(const struct summary_acc *a, size_t ncats, uint32_t *parent, double *share)
{
    int64_t *best = spoor_xcalloc(ncats ? ncats : 1, sizeof *best);
    for (size_t c = 0; c < ncats; c++)
        parent[c] = SUMMARY_NO_GROUP;
    for (uint32_t id = 0; id < a->parent_pairs.n; id++) {
        uint64_t key = a->parent_pairs.keys[id];
        uint32_t cat = (uint32_t)(key >> 32), par = (uint32_t)key;
        int64_t dur = a->parent_dur[id];
        if (dur > best[cat] || (dur == best[cat] && par < parent[cat])) {
            best[cat] = dur;
            parent[cat] = par;
        }
    }
    for (size_t c = 0; c < ncats; c++)
        share[c] = parent[c] != SUMMARY_NO_GROUP && a->cats[parent[c]].outer_dur > 0
                       ? (double)best[c] / (double)a->cats[parent[c]].outer_dur
                       : 0;
    free(best);
}

/* Compute overlaps I/O only within a process (another rank computing does not
 * hide this one's I/O), so each (cat, process) union is cut by the same
 * process's compute union and the rests are summed over processes. Each
 * layer's union is then the union of its per-process unions (moved into
 * by_cat), and compute_time the union of every process's compute. */
static void per_process(struct summary_acc *a, struct span_groups *by_cat, int64_t *rest, struct spoor_summary *out)
{
    struct span_parts cats = {0}, compute = {0};
    for (uint32_t g = 0; g < a->cat_pids.n; g++) {
        uint64_t key = a->cat_pids.keys[g];
        uint32_t cat = (uint32_t)(key >> 32), pid = (uint32_t)key;
        const struct spoor_span *s, *c;
        size_t ns = span_groups_get(&a->by_cat_pid, g, &s);
        size_t nc = span_groups_get(&a->compute_by_pid, pid, &c);
        rest[cat] += spoor_spans_length(s, ns) - spans_intersection(s, ns, c, nc);
        span_parts_take(&cats, cat, &a->by_cat_pid.g[g]);
    }
    span_parts_merge(&cats, by_cat);
    for (uint32_t pid = 0; pid < a->compute_by_pid.cap; pid++)
        span_parts_take(&compute, 0, &a->compute_by_pid.g[pid]);
    struct span_groups all = {0};
    span_parts_merge(&compute, &all);
    out->compute_time = span_groups_length(&all, 0);
    span_groups_free(&all);
    span_parts_free(&cats);
    span_parts_free(&compute);
}

void summary_layers(struct summary_acc *a, struct spoor_summary *out)
{
    size_t ncats = spoor_strpool_count(a->strings);
    summary_grow((void **)&a->cats, &a->cats_cap, ncats, sizeof *a->cats);
    int64_t *rest = spoor_xcalloc(ncats, sizeof *rest);
    struct span_groups by_cat = {0};
    per_process(a, &by_cat, rest, out);
    uint32_t *parent = spoor_xmalloc(ncats * sizeof *parent);
    double *share = spoor_xmalloc(ncats * sizeof *share);
    pick_parents(a, ncats, parent, share);
    out->layers = spoor_xcalloc(ncats, sizeof *out->layers);
    for (size_t c = 0; c < ncats; c++) {
        const struct layer_acc *l = &a->cats[c];
        if (!l->count)
            continue;
        out->layers[out->nlayers++] = (struct spoor_summary_layer){
            .cat = summary_own(out, spoor_strpool_get(a->strings, (uint32_t)c, NULL)),
            .count = l->count,
            .sized = l->sized,
            .time = span_groups_length(&by_cat, (uint32_t)c),
            .self = l->self,
            .dur_sum = l->dur_sum,
            .bytes = l->bytes,
            .not_compute = rest[c],
            .parent = parent[c] == SUMMARY_NO_GROUP ? NULL
                                                    : summary_own(out, spoor_strpool_get(a->strings, parent[c], NULL)),
            .parent_share = share[c],
        };
    }
    qsort(out->layers, out->nlayers, sizeof *out->layers, by_time_desc);
    free(parent);
    free(share);
    free(rest);
    span_groups_free(&by_cat);
}
