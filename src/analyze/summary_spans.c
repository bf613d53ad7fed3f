/* Exact unions per group, built span by span (see summary_internal.h). */
#include "summary_internal.h"

#include <stdlib.h>
#include <string.h>

enum { FIRST_REUNION = 1024 };

void summary_grow(void **v, size_t *cap, size_t need, size_t size)
{
    if (need < *cap)
        return;
    size_t n = *cap ? *cap * 2 : 64;
    while (n <= need)
        n *= 2;
    *v = spoor_xrealloc(*v, n * size);
    memset((char *)*v + *cap * size, 0, (n - *cap) * size);
    *cap = n;
}

static void keep(struct span_group *g, struct spoor_span s)
{
    if (g->n == g->cap) {
        g->cap = g->cap ? 2 * g->cap : 16;
        g->v = spoor_xrealloc(g->v, g->cap * sizeof *g->v);
    }
    g->v[g->n++] = s;
    if (g->n >= 2 * g->merged + FIRST_REUNION)
        g->merged = g->n = spoor_spans_union(g->v, g->n);
}

void span_groups_add(struct span_groups *s, uint32_t group, int64_t start, int64_t end)
{
    if (end <= start)
        return; /* an empty span adds nothing to a union */
    summary_grow((void **)&s->g, &s->cap, group, sizeof *s->g);
    struct span_group *g = &s->g[group];
    if (start <= g->open.end && end >= g->open.start && g->open.end > g->open.start) {
        if (start < g->open.start)
            g->open.start = start;
        if (end > g->open.end)
            g->open.end = end;
        return;
    }
    if (g->open.end > g->open.start)
        keep(g, g->open);
    g->open = (struct spoor_span){start, end};
}

size_t span_groups_union(struct span_groups *s, uint32_t group, const struct spoor_span **spans)
{
    *spans = NULL;
    if (group >= s->cap)
        return 0;
    struct span_group *g = &s->g[group];
    if (g->open.end > g->open.start) {
        keep(g, g->open);
        g->open = (struct spoor_span){0, 0};
    }
    g->merged = g->n = spoor_spans_union(g->v, g->n);
    *spans = g->v;
    return g->n;
}

int64_t span_groups_length(struct span_groups *s, uint32_t group)
{
    const struct spoor_span *v;
    size_t n = span_groups_union(s, group, &v);
    return spoor_spans_length(v, n);
}

void span_groups_free(struct span_groups *s)
{
    for (size_t i = 0; i < s->cap; i++)
        free(s->g[i].v);
    free(s->g);
    memset(s, 0, sizeof *s);
}

int64_t spans_intersection(const struct spoor_span *a, size_t na, const struct spoor_span *b, size_t nb)
{
    int64_t total = 0;
    size_t i = 0, j = 0;
    while (i < na && j < nb) {
        int64_t lo = a[i].start > b[j].start ? a[i].start : b[j].start;
        int64_t hi = a[i].end < b[j].end ? a[i].end : b[j].end;
        if (hi > lo)
            total += hi - lo;
        if (a[i].end < b[j].end)
            i++;
        else
            j++;
    }
    return total;
}
