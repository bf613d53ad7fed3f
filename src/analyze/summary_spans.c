/* Exact unions per group (see summary_internal.h). */
#include "summary_internal.h"

#include <stdlib.h>
#include <string.h>

void summary_grow_to(void **v, size_t *cap, size_t need, size_t size)
{
    size_t n = *cap ? *cap * 2 : 8;
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
        g->cap = g->cap ? g->cap + g->cap / 2 : 4;
        g->v = spoor_xrealloc(g->v, g->cap * sizeof *g->v);
    }
    g->v[g->n++] = (struct spoor_span){start, end};
}

size_t span_groups_get(const struct span_groups *s, uint32_t group, const struct spoor_span **spans)
{
    *spans = group < s->cap ? s->g[group].v : NULL;
    return group < s->cap ? s->g[group].n : 0;
}

void span_groups_free(struct span_groups *s)
{
    for (size_t i = 0; i < s->cap; i++)
        free(s->g[i].v);
    free(s->g);
    memset(s, 0, sizeof *s);
}

static void add_part(struct span_parts *p, uint32_t target, const struct span_group *g)
{
    if (p->n == p->cap) {
        p->cap = p->cap ? 2 * p->cap : 64;
        p->v = spoor_xrealloc(p->v, p->cap * sizeof *p->v);
    }
    p->v[p->n++] = (struct span_part){target, *g};
}

void span_parts_take(struct span_parts *p, uint32_t target, struct span_group *g)
{
    if (g->n)
        add_part(p, target, g);
    else
        free(g->v);
    *g = (struct span_group){0};
}

void span_parts_borrow(struct span_parts *p, uint32_t target, const struct span_group *g)
{
    if (g->n)
        add_part(p, target, g);
}

/* Puts the parts in runs of one target, in target order (a counting sort:
 * targets are dense ids); returns how many. */
static size_t sort_parts(struct span_parts *p)
{
    uint32_t max = 0;
    for (size_t i = 0; i < p->n; i++)
        if (p->v[i].target > max)
            max = p->v[i].target;
    size_t *first = spoor_xcalloc((size_t)max + 2, sizeof *first);
    for (size_t i = 0; i < p->n; i++)
        first[p->v[i].target + 1]++;
    for (size_t t = 0; t <= max; t++)
        first[t + 1] += first[t];
    struct span_part *sorted = spoor_xmalloc((p->n ? p->n : 1) * sizeof *sorted);
    for (size_t i = 0; i < p->n; i++)
        sorted[first[p->v[i].target]++] = p->v[i];
    free(first);
    free(p->v);
    p->v = sorted;
    p->cap = p->n ? p->n : 1;
    return p->n;
}

static void close_span(struct span_group *out, int64_t lo, int64_t hi)
{
    if (!out || hi <= lo)
        return;
    if (out->n == out->cap) {
        out->cap = out->cap ? out->cap + out->cap / 2 : 16;
        out->v = spoor_xrealloc(out->v, out->cap * sizeof *out->v);
    }
    out->v[out->n++] = (struct spoor_span){lo, hi};
}

static int by_start(const void *a, const void *b)
{
    const struct spoor_span *x = a, *y = b;
    return (x->start > y->start) - (x->start < y->start);
}

/* The union of many short unions (threads that touched a group a few times):
 * all their spans sorted at once, cheaper than a heap of them. */
static int64_t union_of_many(const struct span_part *parts, size_t k, size_t total, struct span_group *out)
{
    struct spoor_span *all = spoor_xmalloc(total * sizeof *all);
    size_t n = 0;
    for (size_t i = 0; i < k; i++)
        for (size_t j = 0; j < parts[i].spans.n; j++)
            all[n++] = parts[i].spans.v[j];
    qsort(all, n, sizeof *all, by_start);
    n = spoor_spans_union(all, n);
    int64_t length = spoor_spans_length(all, n);
    if (out)
        *out = (struct span_group){all, n, total};
    else
        free(all);
    return length;
}

/* The union of k unions by a k-way merge of their spans: its length, and the
 * union itself into out unless NULL. The top union gives spans for as long as
 * they come first: threads take turns in runs. */
static int64_t union_of(const struct span_part *parts, size_t k, struct span_group *out)
{
    if (k == 1 && !out)
        return spoor_spans_length(parts[0].spans.v, parts[0].spans.n);
    size_t spans = 0;
    for (size_t i = 0; i < k; i++)
        spans += parts[i].spans.n;
    if (k > 64 && spans < 8 * k)
        return union_of_many(parts, k, spans, out);
    struct tournament t;
    tournament_init(&t, k);
    const struct spoor_span **next = spoor_xmalloc(k * sizeof *next);
    for (uint32_t i = 0; i < k; i++) {
        t.start[i] = parts[i].spans.v[0].start; /* a span's start is below its end */
        next[i] = parts[i].spans.v;
    }
    int64_t total = 0, lo = 0, hi = 0;
    for (uint32_t top = tournament_build(&t); t.start[top] != TOURNAMENT_DONE; top = tournament_replay(&t, top)) {
        int64_t second = tournament_second(&t, top);
        const struct spoor_span *end = parts[top].spans.v + parts[top].spans.n;
        do {
            const struct spoor_span *s = next[top]++;
            if (s->start <= hi && hi > lo) {
                if (s->end > hi)
                    hi = s->end;
            } else {
                total += hi - lo;
                close_span(out, lo, hi);
                lo = s->start;
                hi = s->end;
            }
        } while (next[top] < end && next[top]->start <= second);
        t.start[top] = next[top] < end ? next[top]->start : TOURNAMENT_DONE;
    }
    free(next);
    tournament_free(&t);
    close_span(out, lo, hi);
    return total + (hi - lo);
}

void span_parts_lengths(struct span_parts *p, int64_t *length)
{
    for (size_t i = 0, j, n = sort_parts(p); i < n; i = j) {
        for (j = i; j < n && p->v[j].target == p->v[i].target; j++)
            ;
        length[p->v[i].target] = union_of(p->v + i, j - i, NULL);
    }
}

void span_parts_merge(struct span_parts *p, struct span_groups *dst)
{
    for (size_t i = 0, j, n = sort_parts(p); i < n; i = j) {
        for (j = i; j < n && p->v[j].target == p->v[i].target; j++)
            ;
        uint32_t target = p->v[i].target;
        summary_grow((void **)&dst->g, &dst->cap, target, sizeof *dst->g);
        free(dst->g[target].v);
        if (j - i == 1 && !p->borrowed) {
            dst->g[target] = p->v[i].spans;
        } else {
            dst->g[target] = (struct span_group){0};
            union_of(p->v + i, j - i, &dst->g[target]);
            for (size_t k = i; k < j && !p->borrowed; k++)
                free(p->v[k].spans.v);
        }
    }
    p->n = 0;
}

void span_parts_free(struct span_parts *p)
{
    for (size_t i = 0; i < p->n && !p->borrowed; i++)
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
