/* Brute-force reference for the interval engine, written from the definitions
 * in include/spoor/interval.h and sharing no code with it: every pair of
 * events for nesting, every elementary interval between event end points for
 * self time, every (call, event) pair for attribution — O(n·m). Included by
 * the interval tests only. */
#ifndef SPOOR_TEST_ATTRIBUTE_REFERENCE_H
#define SPOOR_TEST_ATTRIBUTE_REFERENCE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "spoor/interval.h"

struct ref_ev {
    int64_t s, e;
    uint32_t row;
    int64_t k1, k2; /* group key */
};

static inline bool ref_part(const struct spoor_table *t, uint32_t r)
{
    return t->ts[r] != SPOOR_NULL && t->dur[r] != SPOOR_NULL && t->dur[r] >= 0 && t->ts[r] <= INT64_MAX - t->dur[r];
}

static inline struct ref_ev ref_ev_of(const struct spoor_table *t, uint32_t r, enum spoor_iv_key key)
{
    struct ref_ev v = {t->ts[r], t->ts[r] + t->dur[r], r, 0, 0};
    if (key != SPOOR_IV_NONE)
        v.k1 = t->pid[r];
    if (key == SPOOR_IV_THREAD)
        v.k2 = t->tid[r];
    return v;
}

static inline bool ref_same_group(const struct ref_ev *a, const struct ref_ev *b)
{
    return a->k1 == b->k1 && a->k2 == b->k2;
}

/* a is outer than b in start order: earlier start, longer, or the later row. */
static inline bool ref_outer(const struct ref_ev *a, const struct ref_ev *b)
{
    if (a->s != b->s)
        return a->s < b->s;
    if (a->e != b->e)
        return a->e > b->e;
    return a->row > b->row;
}

static inline bool ref_contains(const struct ref_ev *a, const struct ref_ev *b)
{
    return a->s <= b->s && b->e <= a->e;
}

/* The selected rows that take part (rows NULL: all). */
static inline struct ref_ev *ref_events(const struct spoor_table *t, const uint32_t *rows, size_t n,
                                        enum spoor_iv_key key, size_t *count)
{
    if (!rows)
        n = t->nrows;
    struct ref_ev *v = malloc((n ? n : 1) * sizeof *v);
    *count = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t r = rows ? rows[i] : (uint32_t)i;
        if (ref_part(t, r))
            v[(*count)++] = ref_ev_of(t, r, key);
    }
    return v;
}

/* Self-time owner of each elementary interval of a group: the covering event
 * that is innermost in start order. Appends (s, e, owner row) pieces. */
struct ref_piece {
    int64_t s, e;
    uint32_t row;
    int64_t k1, k2;
};

static inline int ref_cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Elementary self-time pieces of all events v[0..n) (grouped as keyed). */
static inline struct ref_piece *ref_timeline(const struct ref_ev *v, size_t n, size_t *count)
{
    size_t cap = 2 * n + 1, k = 0;
    struct ref_piece *out = malloc(cap * sizeof *out);
    bool *done = calloc(n ? n : 1, 1);
    int64_t *pts = malloc((2 * n + 1) * sizeof *pts);
    size_t *group = malloc((n ? n : 1) * sizeof *group);
    for (size_t g = 0; g < n; g++) {
        if (done[g])
            continue;
        size_t np = 0, ng = 0;
        for (size_t i = 0; i < n; i++)
            if (ref_same_group(&v[i], &v[g])) {
                done[i] = true;
                group[ng++] = i;
                pts[np++] = v[i].s;
                pts[np++] = v[i].e;
            }
        qsort(pts, np, sizeof *pts, ref_cmp_i64);
        for (size_t p = 0; p + 1 < np; p++) {
            if (pts[p] == pts[p + 1])
                continue;
            const struct ref_ev *top = NULL;
            for (size_t i = 0; i < ng; i++) {
                const struct ref_ev *x = &v[group[i]];
                if (x->s <= pts[p] && x->e >= pts[p + 1] && (!top || ref_outer(top, x)))
                    top = x;
            }
            if (!top)
                continue;
            if (k == cap)
                out = realloc(out, (cap *= 2) * sizeof *out);
            out[k++] = (struct ref_piece){pts[p], pts[p + 1], top->row, top->k1, top->k2};
        }
    }
    free(group);
    free(pts);
    free(done);
    *count = k;
    return out;
}

/* Nesting of rows by the definitions; arrays of t->nrows. */
static inline void ref_nesting(const struct spoor_table *t, const uint32_t *rows, size_t nrows,
                               enum spoor_iv_key key, int32_t *depth, uint32_t *parent, int64_t *self)
{
    for (size_t r = 0; r < t->nrows; r++) {
        depth[r] = -1;
        parent[r] = SPOOR_IV_NO_PARENT;
        self[r] = SPOOR_NULL;
    }
    size_t n;
    struct ref_ev *v = ref_events(t, rows, nrows, key, &n);
    for (size_t i = 0; i < n; i++) {
        const struct ref_ev *best = NULL;
        for (size_t j = 0; j < n; j++)
            if (j != i && ref_same_group(&v[i], &v[j]) && ref_contains(&v[j], &v[i]) && ref_outer(&v[j], &v[i]) &&
                (!best || ref_outer(best, &v[j])))
                best = &v[j];
        parent[v[i].row] = best ? best->row : SPOOR_IV_NO_PARENT;
        self[v[i].row] = 0;
    }
    for (size_t i = 0; i < n; i++) {
        int32_t d = 0;
        for (uint32_t p = parent[v[i].row]; p != SPOOR_IV_NO_PARENT; p = parent[p])
            d++;
        depth[v[i].row] = d;
    }
    size_t np;
    struct ref_piece *pieces = ref_timeline(v, n, &np);
    for (size_t p = 0; p < np; p++)
        self[pieces[p].row] += pieces[p].e - pieces[p].s;
    free(pieces);
    free(v);
}

/* One call's expected answer. */
struct ref_fn {
    uint32_t name, cat;
    int64_t ns;
    int64_t first;
    uint32_t first_row;
};
struct ref_call {
    struct ref_fn *fns;
    size_t n;
    int64_t covered, unattributed;
};

static inline void ref_add(struct ref_call *c, const struct spoor_table *t, uint32_t row, int64_t ns,
                           int64_t first)
{
    struct ref_fn *f = NULL;
    for (size_t i = 0; i < c->n && !f; i++)
        if (c->fns[i].name == t->name[row] && c->fns[i].cat == t->cat[row])
            f = &c->fns[i];
    if (!f) {
        c->fns = realloc(c->fns, (c->n + 1) * sizeof *c->fns);
        f = &c->fns[c->n++];
        *f = (struct ref_fn){t->name[row], t->cat[row], 0, first, row};
    } else if (first < f->first || (first == f->first && row < f->first_row)) {
        f->first = first;
        f->first_row = row;
    }
    f->ns += ns;
}

static inline int ref_by_first(const void *a, const void *b)
{
    const struct ref_fn *x = a, *y = b;
    if (x->first != y->first)
        return x->first < y->first ? -1 : 1;
    return (x->first_row > y->first_row) - (x->first_row < y->first_row);
}

static inline int64_t ref_max(int64_t a, int64_t b) { return a > b ? a : b; }
static inline int64_t ref_min(int64_t a, int64_t b) { return a < b ? a : b; }

/* Length of the union of the group's events inside the call, point by point
 * over the elementary intervals of the call and event end points. */
static inline int64_t ref_covered(const struct ref_ev *c, const struct ref_ev *v, size_t n)
{
    int64_t *pts = malloc((2 * n + 2) * sizeof *pts);
    size_t np = 0;
    pts[np++] = c->s;
    pts[np++] = c->e;
    for (size_t i = 0; i < n; i++)
        if (ref_same_group(&v[i], c)) {
            pts[np++] = ref_min(ref_max(v[i].s, c->s), c->e);
            pts[np++] = ref_min(ref_max(v[i].e, c->s), c->e);
        }
    qsort(pts, np, sizeof *pts, ref_cmp_i64);
    int64_t len = 0;
    for (size_t p = 0; p + 1 < np; p++) {
        if (pts[p] == pts[p + 1])
            continue;
        for (size_t i = 0; i < n; i++)
            if (ref_same_group(&v[i], c) && v[i].s <= pts[p] && v[i].e >= pts[p + 1]) {
                len += pts[p + 1] - pts[p];
                break;
            }
    }
    free(pts);
    return len;
}

/* Attribution by the definitions: one entry per call, in the calls' order;
 * functions in the documented order. SELF uses the threads' timelines. */
static inline struct ref_call *ref_attribute(const struct spoor_table *t, const uint32_t *calls, size_t ncalls,
                                             const uint32_t *events, size_t nevents, enum spoor_iv_key key,
                                             enum spoor_attr_mode mode)
{
    if (!calls)
        ncalls = t->nrows;
    struct ref_call *out = calloc(ncalls ? ncalls : 1, sizeof *out);
    size_t nv, nthr;
    struct ref_ev *v = ref_events(t, events, nevents, key, &nv);
    struct ref_ev *thr = ref_events(t, events, nevents, SPOOR_IV_THREAD, &nthr);
    size_t np = 0;
    struct ref_piece *pieces = mode == SPOOR_ATTR_SELF ? ref_timeline(thr, nthr, &np) : NULL;
    for (size_t i = 0; i < ncalls; i++) {
        uint32_t r = calls ? calls[i] : (uint32_t)i;
        struct ref_call *rc = &out[i];
        if (!ref_part(t, r)) {
            rc->covered = rc->unattributed = SPOOR_NULL;
            continue;
        }
        struct ref_ev c = ref_ev_of(t, r, key);
        if (mode == SPOOR_ATTR_SELF) {
            for (size_t p = 0; p < np; p++) {
                struct ref_ev e = ref_ev_of(t, pieces[p].row, key);
                if (!ref_same_group(&e, &c) || !(pieces[p].s < c.e && c.s < pieces[p].e))
                    continue;
                int64_t from = ref_max(pieces[p].s, c.s);
                ref_add(rc, t, pieces[p].row, ref_min(pieces[p].e, c.e) - from, from);
            }
        } else {
            for (size_t k = 0; k < nv; k++) {
                const struct ref_ev *e = &v[k];
                if (!ref_same_group(e, &c))
                    continue;
                bool nested = ref_contains(&c, e), shares = e->s < c.e && c.s < e->e;
                bool match = mode == SPOOR_ATTR_INCLUSIVE ? nested : (nested || shares);
                if (!match)
                    continue;
                int64_t from = ref_max(e->s, c.s);
                int64_t ns = mode == SPOOR_ATTR_OVERLAP ? ref_max(0, ref_min(e->e, c.e) - from) : e->e - e->s;
                ref_add(rc, t, e->row, ns, from);
            }
        }
        if (rc->n)
            qsort(rc->fns, rc->n, sizeof *rc->fns, ref_by_first);
        rc->covered = ref_covered(&c, v, nv);
        rc->unattributed = c.e - c.s - rc->covered;
    }
    free(pieces);
    free(thr);
    free(v);
    return out;
}

static inline void ref_calls_free(struct ref_call *c, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(c[i].fns);
    free(c);
}

#endif
