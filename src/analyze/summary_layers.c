/* The layer breakdown: per cat, union time, self time, counts, bytes, the
 * share of the parent layer and the time not overlapped by compute (the
 * lengths from summary_unions.c). */
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

void summary_layers(struct summary_acc *a, struct spoor_summary *out)
{
    size_t ncats = spoor_strpool_count(a->strings);
    out->compute_time = a->compute_time;
    out->compute_events = a->compute_rows;
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
            .time = a->cat_time[c],
            .self = l->self,
            .dur_sum = l->dur_sum,
            .counter_time = l->counter_time,
            .bytes = l->bytes,
            .not_compute = a->cat_rest[c],
            .parent = parent[c] == SUMMARY_NO_GROUP ? NULL
                                                    : summary_own(out, spoor_strpool_get(a->strings, parent[c], NULL)),
            .parent_share = share[c],
        };
    }
    qsort(out->layers, out->nlayers, sizeof *out->layers, by_time_desc);
    free(parent);
    free(share);
}
