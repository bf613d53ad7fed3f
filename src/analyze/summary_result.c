/* Stage 4 of the streaming summary (see summary_internal.h): from the sums
 * (summary.c, summary_stacks.c) and the unions' lengths (summary_unions.c) to
 * the answer: the profile counters' time added to the lengths, the layer
 * breakdown, the top files and functions, the I/O figures and, when no event
 * was compute, what looks like it. */
#include "summary_internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* s in the answer's own strings. */
static const char *summary_own(struct spoor_summary *out, const char *s)
{
    return spoor_strpool_get(out->strings, spoor_strpool_intern(out->strings, s, strlen(s)), NULL);
}

/* The profile counters' time (summed beside the unions, summary.c) added to
 * the unions' lengths. */
static void counters_fold(struct summary_acc *a)
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

/* The layer breakdown: per cat, union time, self time, counts, bytes, the
 * share of the parent layer and the time not overlapped by compute (the
 * lengths from summary_unions.c). */
static int layers_by_time(const void *a, const void *b)
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

static void layers(struct summary_acc *a, struct spoor_summary *out)
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
    qsort(out->layers, out->nlayers, sizeof *out->layers, layers_by_time);
    free(parent);
    free(share);
}

/* Top files and top functions (cat.name) by union time. */
static int top_by_time(const void *a, const void *b)
{
    const struct spoor_summary_top *x = a, *y = b;
    if (x->time != y->time)
        return x->time > y->time ? -1 : 1;
    return strcmp(x->label, y->label);
}

/* Entries for n keys with their sums and union time; labels by the caller. */
static struct spoor_summary_top *rank(const struct top_acc *acc, size_t n)
{
    struct spoor_summary_top *e = spoor_xcalloc(n ? n : 1, sizeof *e);
    for (uint32_t g = 0; g < n; g++)
        e[g] = (struct spoor_summary_top){
            .count = acc[g].count,
            .time = acc[g].time,
            .self = acc[g].self,
            .bytes = acc[g].bytes,
            .counter_time = acc[g].counter_time,
        };
    return e;
}

/* Keeps the `top` longest entries, sorted. */
static size_t keep_top(struct spoor_summary_top *e, size_t n, size_t top)
{
    qsort(e, n, sizeof *e, top_by_time);
    return n < top ? n : top;
}

static void top_lists(struct summary_acc *a, const struct spoor_strpool *files, size_t top, struct spoor_summary *out)
{
    out->files = rank(a->file, a->files.n);
    for (uint32_t f = 0; f < a->files.n; f++)
        out->files[f].label = summary_own(out, spoor_strpool_get(files, (uint32_t)a->files.keys[f], NULL));
    out->nfiles = keep_top(out->files, a->files.n, top);

    out->functions = rank(a->fn, a->fns.n);
    for (uint32_t f = 0; f < a->fns.n; f++) {
        uint64_t key = a->fns.keys[f];
        const char *cat = spoor_strpool_get(a->strings, (uint32_t)(key >> 32), NULL);
        const char *name = spoor_strpool_get(a->strings, (uint32_t)key, NULL);
        size_t len = strlen(cat) + strlen(name) + 2;
        char *label = spoor_xmalloc(len);
        snprintf(label, len, "%s.%s", cat, name);
        out->functions[f].label = summary_own(out, label);
        free(label);
    }
    out->nfunctions = keep_top(out->functions, a->fns.n, top);
}

/* The access-size bins and the per-process imbalance of I/O time (union of
 * each process's I/O events). */
static void io_figures(struct summary_acc *a, struct spoor_summary *out)
{
    for (int b = 0; b < SPOOR_SUMMARY_BINS; b++) {
        out->bin_count[b] = a->bin_count[b];
        out->bin_bytes[b] = a->bin_bytes[b];
    }
    size_t n = a->io_pids.n;
    out->slowest_pid = SPOOR_NULL;
    int64_t sum = 0;
    for (uint32_t p = 0; p < n; p++) {
        int64_t time = a->io_time[p];
        int64_t pid = (int64_t)a->io_pids.keys[p];
        sum += time;
        if (out->slowest_pid == SPOOR_NULL || time > out->io_time_max ||
            (time == out->io_time_max && pid < out->slowest_pid)) {
            out->io_time_max = time;
            out->slowest_pid = pid;
        }
    }
    out->io_processes = n;
    out->io_time_mean = n ? (double)sum / (double)n : 0;
    out->imbalance = out->io_time_mean > 0 ? (double)out->io_time_max / out->io_time_mean : 0;
}

/* When no event is of the compute list, the summary names what looks like
 * compute in the trace, so that a writer's own name for it (DLIO's
 * "train-compute", "computation", an app phase "app.compute_step") is found
 * and given with --compute-cats instead of reading "compute 0 ns". */

#define LIKE_MAX 8

/* Whether s holds (ASCII case aside) a word that names compute. */
static bool looks_like_compute(const char *s)
{
    static const char *const words[] = {"comput", "cpu", "gpu", "train", "forward", "backward"};
    size_t n = strlen(s);
    char *lower = spoor_xmalloc(n + 1);
    for (size_t i = 0; i <= n; i++)
        lower[i] = (char)tolower((unsigned char)s[i]);
    bool like = false;
    for (size_t w = 0; w < sizeof words / sizeof *words && !like; w++)
        like = strstr(lower, words[w]) != NULL;
    free(lower);
    return like;
}

static void append(char *list, size_t cap, const char *a, const char *b)
{
    size_t len = strlen(list);
    snprintf(list + len, cap - len, "%s%s%s%s", len ? "," : "", a, b ? "." : "", b ? b : "");
}

static void compute_like(const struct summary_acc *acc, struct spoor_summary *out)
{
    if (acc->compute_rows)
        return;
    size_t n = 0, cap = 1;
    for (size_t c = 0; c < acc->cats_cap; c++)
        if (acc->cats[c].count)
            cap += strlen(spoor_strpool_get(acc->strings, (uint32_t)c, NULL)) + 1;
    for (uint32_t f = 0; f < acc->fns.n; f++)
        cap += strlen(spoor_strpool_get(acc->strings, (uint32_t)(acc->fns.keys[f] >> 32), NULL)) +
               strlen(spoor_strpool_get(acc->strings, (uint32_t)acc->fns.keys[f], NULL)) + 2;
    char *list = spoor_xcalloc(cap, 1);
    /* Cats first, in order of first sight; then functions of other cats. */
    bool *like_cat = spoor_xcalloc(acc->cats_cap + 1, sizeof *like_cat);
    for (size_t c = 0; c < acc->cats_cap && n < LIKE_MAX; c++) {
        if (!acc->cats[c].count) /* cats_cap may pass the strings interned */
            continue;
        const char *cat = spoor_strpool_get(acc->strings, (uint32_t)c, NULL);
        if (looks_like_compute(cat)) {
            like_cat[c] = true;
            append(list, cap, cat, NULL);
            n++;
        }
    }
    for (uint32_t f = 0; f < acc->fns.n && n < LIKE_MAX; f++) {
        uint32_t cat = (uint32_t)(acc->fns.keys[f] >> 32);
        const char *name = spoor_strpool_get(acc->strings, (uint32_t)acc->fns.keys[f], NULL);
        if (!like_cat[cat] && looks_like_compute(name)) {
            append(list, cap, spoor_strpool_get(acc->strings, cat, NULL), name);
            n++;
        }
    }
    if (n)
        out->compute_like = summary_own(out, list);
    free(like_cat);
    free(list);
}

void summary_result(struct summary_acc *acc, const struct spoor_strpool *files, size_t top,
                    struct spoor_summary *out)
{
    counters_fold(acc);
    layers(acc, out);
    top_lists(acc, files, top, out);
    io_figures(acc, out);
    compute_like(acc, out);
}
