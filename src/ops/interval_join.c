/* The sweep-line overlap join of one group: calls and pieces merged by start;
 * each side keeps a min-heap (by end) of its open intervals. When an interval
 * starts, the other side's heap holds exactly the intervals that started no
 * later and have not ended before it, so every pair that shares a point is
 * met once, by the later starter. Work is O((n + m) log(n + m) + pairs met);
 * memory is the open intervals and the open calls' function totals. */
#include "ops/interval_internal.h"
#include "util/grow.h"

#include <stdlib.h>

/* A call's running totals per function, while the call is open. */
struct acc {
    struct iv_hit *v;
    size_t n, cap;
};

struct open {
    struct iv_item it;
    uint32_t acc;           /* calls: slot in accs */
};

struct heap {
    struct open *v;
    size_t n, cap;
};

struct join {
    const struct spoor_table *t;
    enum spoor_attr_mode mode;
    struct heap calls, pieces;
    struct acc *accs;
    uint32_t *free_accs;
    size_t naccs, nfree, accs_cap; /* free_accs shares the capacity */
    struct iv_hits *hits;
};

static void heap_push(struct heap *h, struct open o)
{
    spoor_reserve((void **)&h->v, &h->cap, h->n + 1, sizeof *h->v);
    size_t i = h->n++;
    while (i && o.it.end < h->v[(i - 1) / 2].it.end) {
        h->v[i] = h->v[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h->v[i] = o;
}

static struct open heap_pop(struct heap *h)
{
    struct open top = h->v[0], last = h->v[--h->n];
    size_t i = 0;
    for (;;) {
        size_t l = 2 * i + 1, m = l;
        if (l >= h->n)
            break;
        if (l + 1 < h->n && h->v[l + 1].it.end < h->v[l].it.end)
            m = l + 1;
        if (last.it.end <= h->v[m].it.end)
            break;
        h->v[i] = h->v[m];
        i = m;
    }
    if (h->n)
        h->v[i] = last;
    return top;
}

static int by_first(const void *a, const void *b)
{
    const struct iv_hit *x = a, *y = b;
    if (x->first_start != y->first_start)
        return x->first_start < y->first_start ? -1 : 1;
    return (x->first_row > y->first_row) - (x->first_row < y->first_row);
}

/* A closed call hands its totals over, functions in order of first event. */
static void flush(struct join *j, uint32_t slot)
{
    struct acc *a = &j->accs[slot];
    if (a->n > 1)
        qsort(a->v, a->n, sizeof *a->v, by_first);
    for (size_t i = 0; i < a->n; i++) {
        spoor_reserve((void **)&j->hits->v, &j->hits->cap, j->hits->n + 1, sizeof *j->hits->v);
        j->hits->v[j->hits->n++] = a->v[i];
    }
    a->n = 0;
    j->free_accs[j->nfree++] = slot;
}

static uint32_t take_acc(struct join *j)
{
    if (j->nfree)
        return j->free_accs[--j->nfree];
    struct spoor_lane lanes[] = {SPOOR_LANE(j->accs), SPOOR_LANE(j->free_accs)};
    spoor_reserve_lanes(&j->accs_cap, j->naccs + 1, lanes, 2);
    j->accs[j->naccs] = (struct acc){0};
    return (uint32_t)j->naccs++;
}

static int64_t clip(const struct iv_item *c, const struct iv_item *e)
{
    int64_t from = c->start > e->start ? c->start : e->start;
    int64_t to = c->end < e->end ? c->end : e->end;
    return to > from ? to - from : 0;
}

/* Whether piece e counts for call c under the mode, and for how much. */
static bool counts(enum spoor_attr_mode mode, const struct iv_item *c, const struct iv_item *e, int64_t *ns)
{
    bool nested = c->start <= e->start && e->end <= c->end;
    bool shares = e->start < c->end && c->start < e->end;
    switch (mode) {
    case SPOOR_ATTR_SELF:
        *ns = clip(c, e);
        return shares;
    case SPOOR_ATTR_OVERLAP:
        *ns = clip(c, e);
        return shares || nested;
    case SPOOR_ATTR_INCLUSIVE:
        *ns = e->end - e->start;
        return nested;
    case SPOOR_ATTR_NOTEBOOK:
        *ns = e->end - e->start;
        return shares || nested;
    }
    return false;
}

static void meet(struct join *j, const struct open *call, const struct iv_item *e)
{
    int64_t ns;
    if (!counts(j->mode, &call->it, e, &ns))
        return;
    struct acc *a = &j->accs[call->acc];
    int64_t from = e->start > call->it.start ? e->start : call->it.start;
    uint32_t name = j->t->name[e->row], cat = j->t->cat[e->row];
    struct iv_hit *h = NULL;
    for (size_t i = 0; i < a->n && !h; i++)
        if (a->v[i].name == name && a->v[i].cat == cat)
            h = &a->v[i];
    if (!h) {
        spoor_reserve((void **)&a->v, &a->cap, a->n + 1, sizeof *a->v);
        h = &a->v[a->n++];
        *h = (struct iv_hit){call->it.tag, name, cat, 0, from, e->row};
    } else if (from < h->first_start || (from == h->first_start && e->row < h->first_row)) {
        h->first_start = from;
        h->first_row = e->row;
    }
    h->ns += ns;
}

/* Closes everything that ended before `at`. */
static void close_before(struct join *j, int64_t at)
{
    while (j->calls.n && j->calls.v[0].it.end < at)
        flush(j, heap_pop(&j->calls).acc);
    while (j->pieces.n && j->pieces.v[0].it.end < at)
        heap_pop(&j->pieces);
}

void iv_join(const struct spoor_table *t, enum spoor_attr_mode mode, const struct iv_item *calls, size_t ncalls,
             const struct iv_item *pieces, size_t npieces, struct iv_hits *hits)
{
    struct join j = {.t = t, .mode = mode, .hits = hits};
    size_t ci = 0, pi = 0;
    while (ci < ncalls) {
        if (pi < npieces && pieces[pi].start < calls[ci].start) {
            const struct iv_item *e = &pieces[pi++];
            close_before(&j, e->start);
            for (size_t k = 0; k < j.calls.n; k++)
                meet(&j, &j.calls.v[k], e);
            heap_push(&j.pieces, (struct open){*e, 0});
        } else {
            struct open c = {calls[ci++], take_acc(&j)};
            close_before(&j, c.it.start);
            for (size_t k = 0; k < j.pieces.n; k++)
                meet(&j, &c, &j.pieces.v[k].it);
            heap_push(&j.calls, c);
        }
    }
    /* Pieces after the last call start can still fall inside open calls. */
    for (; pi < npieces && j.calls.n; pi++) {
        close_before(&j, pieces[pi].start);
        for (size_t k = 0; k < j.calls.n; k++)
            meet(&j, &j.calls.v[k], &pieces[pi]);
    }
    while (j.calls.n)
        flush(&j, heap_pop(&j.calls).acc);
    for (size_t i = 0; i < j.naccs; i++)
        free(j.accs[i].v);
    free(j.accs);
    free(j.free_accs);
    free(j.calls.v);
    free(j.pieces.v);
}
