/* The layer breakdown: per cat, union time, self time, counts, bytes and the
 * share of the parent layer. */
#include "summary_internal.h"

#include <stdlib.h>
#include <string.h>

struct layer_acc {
    uint64_t count, sized;
    int64_t self, dur_sum, bytes;
    int64_t outer_dur;      /* dur of events whose parent is of another cat (or none) */
};

static int by_time_desc(const void *a, const void *b)
{
    const struct spoor_summary_layer *x = a, *y = b;
    if (x->time != y->time)
        return x->time > y->time ? -1 : 1;
    return strcmp(x->cat, y->cat);
}

/* Dur of each (cat, parent cat) pair, for the outermost events of each layer. */
struct parent_pairs {
    struct summary_keys ids;
    int64_t *dur;
    size_t cap;
};

static void pairs_add(struct parent_pairs *p, uint32_t cat, uint32_t parent, int64_t dur)
{
    uint32_t id = summary_keys_id(&p->ids, (uint64_t)cat << 32 | parent);
    if (id >= p->cap) {
        size_t cap = p->cap ? p->cap * 2 : 64;
        p->dur = spoor_xrealloc(p->dur, cap * sizeof *p->dur);
        memset(p->dur + p->cap, 0, (cap - p->cap) * sizeof *p->dur);
        p->cap = cap;
    }
    p->dur[id] += dur;
}

/* Each layer's parent: the parent cat holding most of its time (ties: lower id). */
static void pick_parents(const struct parent_pairs *p, const struct layer_acc *acc, size_t ncats,
                         uint32_t *parent, double *share)
{
    int64_t *best = spoor_xcalloc(ncats ? ncats : 1, sizeof *best);
    for (size_t c = 0; c < ncats; c++)
        parent[c] = SUMMARY_NO_GROUP;
    size_t npairs = p->ids.n;
    for (uint32_t id = 0; id < npairs; id++) {
        uint64_t key = p->ids.keys[id];
        uint32_t cat = (uint32_t)(key >> 32), par = (uint32_t)key;
        if (p->dur[id] > best[cat] || (p->dur[id] == best[cat] && par < parent[cat])) {
            best[cat] = p->dur[id];
            parent[cat] = par;
        }
    }
    for (size_t c = 0; c < ncats; c++)
        share[c] = parent[c] != SUMMARY_NO_GROUP && acc[parent[c]].outer_dur > 0
                       ? (double)best[c] / (double)acc[parent[c]].outer_dur
                       : 0;
    free(best);
}

static void accumulate(const struct spoor_table *t, const struct spoor_nesting *nest, const struct summary_rows *rows,
                       struct layer_acc *acc, struct parent_pairs *pairs)
{
    for (size_t r = 0; r < t->nrows; r++) {
        if (!summary_is_event(t, r))
            continue;
        struct layer_acc *a = &acc[t->cat[r]];
        a->count++;
        if (rows->bytes[r] != SPOOR_NULL) {
            a->sized++;
            a->bytes += rows->bytes[r];
        }
        if (nest->depth[r] < 0)
            continue;
        a->self += nest->self[r];
        a->dur_sum += t->dur[r];
        uint32_t p = nest->parent[r];
        if (p != SPOOR_IV_NO_PARENT && t->cat[p] == t->cat[r])
            continue;
        a->outer_dur += t->dur[r];
        if (p != SPOOR_IV_NO_PARENT)
            pairs_add(pairs, t->cat[r], t->cat[p], t->dur[r]);
    }
}

void summary_layers(const struct spoor_table *t, const struct spoor_nesting *nest, const struct summary_rows *rows,
                    struct spoor_summary *out)
{
    size_t ncats = spoor_strpool_count(t->pool);
    uint32_t *group = spoor_xmalloc((t->nrows ? t->nrows : 1) * sizeof *group);
    for (size_t r = 0; r < t->nrows; r++)
        group[r] = summary_is_event(t, r) ? t->cat[r] : SUMMARY_NO_GROUP;
    struct grouped_spans by_cat;
    grouped_spans_build(t, rows, group, ncats, &by_cat);
    free(group);
    int64_t *not_compute = spoor_xcalloc(ncats, sizeof *not_compute);
    summary_not_compute(t, rows, not_compute, out);

    struct layer_acc *acc = spoor_xcalloc(ncats, sizeof *acc);
    struct parent_pairs pairs = {0};
    accumulate(t, nest, rows, acc, &pairs);
    uint32_t *parent = spoor_xmalloc(ncats * sizeof *parent);
    double *share = spoor_xmalloc(ncats * sizeof *share);
    pick_parents(&pairs, acc, ncats, parent, share);

    out->layers = spoor_xcalloc(ncats, sizeof *out->layers);
    for (size_t c = 0; c < ncats; c++) {
        if (!acc[c].count)
            continue;
        out->layers[out->nlayers++] = (struct spoor_summary_layer){
            .cat = summary_own(out, spoor_table_str(t, (uint32_t)c)),
            .count = acc[c].count,
            .sized = acc[c].sized,
            .time = grouped_spans_length(&by_cat, c),
            .self = acc[c].self,
            .dur_sum = acc[c].dur_sum,
            .bytes = acc[c].bytes,
            .not_compute = not_compute[c],
            .parent = parent[c] == SUMMARY_NO_GROUP ? NULL : summary_own(out, spoor_table_str(t, parent[c])),
            .parent_share = share[c],
        };
    }
    qsort(out->layers, out->nlayers, sizeof *out->layers, by_time_desc);
    free(parent);
    free(share);
    free(acc);
    free(not_compute);
    free(pairs.dur);
    summary_keys_free(&pairs.ids);
    grouped_spans_free(&by_cat);
}
