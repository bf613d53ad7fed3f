/* Exact unions per group, built span by span (see summary_internal.h). */
#include "summary_internal.h"

#include <stdlib.h>
#include <string.h>

enum { WALK = 32, FIRST_STRAYS = 1024 };

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

static void push(struct spoor_span **v, size_t *n, size_t *cap, struct spoor_span s)
{
    if (*n == *cap) {
        *cap = *cap ? *cap + *cap / 2 : 16;
        *v = spoor_xrealloc(*v, *cap * sizeof **v);
    }
    (*v)[(*n)++] = s;
}

static int by_start(const void *a, const void *b)
{
    const struct spoor_span *x = a, *y = b;
    return (x->start > y->start) - (x->start < y->start);
}

/* Merges the strays into the union. Only the end of the union they reach is
 * rewritten: time mostly moves forward. */
static void take_strays(struct span_group *g)
{
    if (!g->nstray)
        return;
    qsort(g->stray, g->nstray, sizeof *g->stray, by_start);
    size_t lo = 0, hi = g->n; /* union spans ending before the first stray stay */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (g->v[mid].end < g->stray[0].start)
            lo = mid + 1;
        else
            hi = mid;
    }
    size_t nold = g->n - lo, n = nold + g->nstray;
    struct spoor_span *merged = spoor_xmalloc(n * sizeof *merged);
    for (size_t i = lo, j = 0, k = 0; k < n; k++)
        merged[k] = j == g->nstray || (i < g->n && g->v[i].start <= g->stray[j].start) ? g->v[i++] : g->stray[j++];
    n = spoor_spans_union(merged, n);
    g->n = lo;
    for (size_t k = 0; k < n; k++)
        push(&g->v, &g->n, &g->cap, merged[k]);
    free(merged);
    g->nstray = 0;
}

/* A span starting before the union's last: merged in place when its place is
 * near the end, else kept aside as a stray. */
static void insert(struct span_group *g, int64_t start, int64_t end)
{
    size_t i = g->n; /* the first union span starting after `start` */
    while (i && g->v[i - 1].start > start && g->n - i < WALK)
        i--;
    if (i && g->v[i - 1].start > start) {
        push(&g->stray, &g->nstray, &g->stray_cap, (struct spoor_span){start, end});
        if (g->nstray >= g->n / 2 + FIRST_STRAYS)
            take_strays(g);
        return;
    }
    if (i && g->v[i - 1].end >= start) { /* joins the span before */
        i--;
        start = g->v[i].start;
        if (g->v[i].end > end)
            end = g->v[i].end;
    }
    size_t j = i; /* spans it reaches are merged into it */
    while (j < g->n && g->v[j].start <= end) {
        if (g->v[j].end > end)
            end = g->v[j].end;
        j++;
    }
    if (j == i) {
        push(&g->v, &g->n, &g->cap, (struct spoor_span){0, 0});
        memmove(g->v + i + 1, g->v + i, (g->n - 1 - i) * sizeof *g->v);
        j = i + 1;
    }
    g->v[i] = (struct spoor_span){start, end};
    memmove(g->v + i + 1, g->v + j, (g->n - j) * sizeof *g->v);
    g->n -= j - i - 1;
}

void span_groups_add(struct span_groups *s, uint32_t group, int64_t start, int64_t end)
{
    if (end <= start)
        return; /* an empty span adds nothing to a union */
    summary_grow((void **)&s->g, &s->cap, group, sizeof *s->g);
    struct span_group *g = &s->g[group];
    struct spoor_span *last = g->n ? &g->v[g->n - 1] : NULL;
    if (!last || start > last->end)
        push(&g->v, &g->n, &g->cap, (struct spoor_span){start, end});
    else if (start >= last->start) {
        if (end > last->end)
            last->end = end;
    } else
        insert(g, start, end);
}

size_t span_groups_union(struct span_groups *s, uint32_t group, const struct spoor_span **spans)
{
    *spans = NULL;
    if (group >= s->cap)
        return 0;
    take_strays(&s->g[group]);
    *spans = s->g[group].v;
    return s->g[group].n;
}

int64_t span_groups_length(struct span_groups *s, uint32_t group)
{
    const struct spoor_span *v;
    size_t n = span_groups_union(s, group, &v);
    return spoor_spans_length(v, n);
}

void span_groups_free(struct span_groups *s)
{
    for (size_t i = 0; i < s->cap; i++) {
        free(s->g[i].v);
        free(s->g[i].stray);
    }
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
