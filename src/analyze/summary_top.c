/* Top files and top functions (cat.name) by union time. */
#include "summary_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int by_time_desc(const void *a, const void *b)
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
    qsort(e, n, sizeof *e, by_time_desc);
    return n < top ? n : top;
}

void summary_top(struct summary_acc *a, const struct spoor_strpool *files, size_t top, struct spoor_summary *out)
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
