/* Exact unions per group (see summary_internal.h). */
#include "summary_internal.h"

#include <stdlib.h>
#include <string.h>

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

void span_groups_add(struct span_groups *s, uint32_t group, int64_t start, int64_t end)
{
    if (end <= start)
        return; /* an empty span adds nothing to a union */
    summary_grow((void **)&s->g, &s->cap, group, sizeof *s->g);
    struct span_group *g = &s->g[group];
    if (g->n && start <= g->v[g->n - 1].end) {
        if (end > g->v[g->n - 1].end)
            g->v[g->n - 1].end = end;
        return;
    }
    if (g->n == g->cap) {
        g->cap = g->cap ? g->cap + g->cap / 2 : 16;
        g->v = spoor_xrealloc(g->v, g->cap * sizeof *g->v);
    }
    g->v[g->n++] = (struct spoor_span){start, end};
}

size_t span_groups_get(const struct span_groups *s, uint32_t group, const struct spoor_span **spans)
{
    *spans = group < s->cap ? s->g[group].v : NULL;
    return group < s->cap ? s->g[group].n : 0;
}

int64_t span_groups_length(const struct span_groups *s, uint32_t group)
{
    const struct spoor_span *v;
    size_t n = span_groups_get(s, group, &v);
    return spoor_spans_length(v, n);
}

void span_groups_free(struct span_groups *s)
{
    for (size_t i = 0; i < s->cap; i++)
        free(s->g[i].v);
    free(s->g);
    memset(s, 0, sizeof *s);
}

/* The union of two unions, into out (na + nb spans at most). */
static size_t merge_two(const struct span_group *a, const struct span_group *b, struct spoor_span *out)
{
    size_t i = 0, j = 0, n = 0;
    while (i < a->n || j < b->n) {
        struct spoor_span s = j == b->n || (i < a->n && a->v[i].start <= b->v[j].start) ? a->v[i++] : b->v[j++];
        if (n && s.start <= out[n - 1].end) {
            if (s.end > out[n - 1].end)
                out[n - 1].end = s.end;
        } else {
            out[n++] = s;
        }
    }
    return n;
}

void span_groups_merge(struct span_groups *s, uint32_t group, struct span_group *parts, size_t k)
{
    /* Pairs merged round by round: each span is copied log2(k) times. */
    for (size_t width = 1; width < k; width *= 2)
        for (size_t i = 0; i + width < k; i += 2 * width) {
            struct span_group *a = &parts[i], *b = &parts[i + width];
            struct spoor_span *out = spoor_xmalloc((a->n + b->n ? a->n + b->n : 1) * sizeof *out);
            size_t n = merge_two(a, b, out);
            free(a->v);
            free(b->v);
            *a = (struct span_group){out, n, a->n + b->n};
        }
    summary_grow((void **)&s->g, &s->cap, group, sizeof *s->g);
    free(s->g[group].v);
    s->g[group] = k ? parts[0] : (struct span_group){0};
}

void span_parts_take(struct span_parts *p, uint32_t target, struct span_group *g)
{
    if (g->n) {
        if (p->n == p->cap) {
            p->cap = p->cap ? 2 * p->cap : 64;
            p->v = spoor_xrealloc(p->v, p->cap * sizeof *p->v);
        }
        p->v[p->n++] = (struct span_part){target, *g};
    } else {
        free(g->v);
    }
    *g = (struct span_group){0};
}

static int by_target(const void *a, const void *b)
{
    const struct span_part *x = a, *y = b;
    return (x->target > y->target) - (x->target < y->target);
}

void span_parts_merge(struct span_parts *p, struct span_groups *dst)
{
    qsort(p->v, p->n, sizeof *p->v, by_target);
    struct span_group *run = spoor_xmalloc((p->n ? p->n : 1) * sizeof *run);
    for (size_t i = 0, j; i < p->n; i = j) {
        for (j = i; j < p->n && p->v[j].target == p->v[i].target; j++)
            run[j - i] = p->v[j].spans;
        span_groups_merge(dst, p->v[i].target, run, j - i);
    }
    free(run);
    p->n = 0;
}

void span_parts_free(struct span_parts *p)
{
    for (size_t i = 0; i < p->n; i++)
        free(p->v[i].spans.v);
    free(p->v);
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
