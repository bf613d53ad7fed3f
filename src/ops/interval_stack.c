/* The call-stack sweep: events in start order against a stack of the open
 * ones. The top of the stack is the event the group's time belongs to (the
 * one that started last); `t` is how far that time has been handed out. */
#include "ops/interval_internal.h"

#include <stdlib.h>

struct sweep {
    const struct iv_item *items;
    const struct iv_nest_out *out;
    uint32_t *stack;        /* item indexes */
    size_t depth;
    int64_t t;
};

static void accrue(struct sweep *s, uint32_t i, int64_t to)
{
    if (to <= s->t)
        return;
    uint32_t row = s->items[i].row;
    s->out->self[row] += to - s->t;
    struct iv_items *segs = s->out->segs;
    if (segs && segs->n && segs->v[segs->n - 1].row == row && segs->v[segs->n - 1].end == s->t)
        segs->v[segs->n - 1].end = to;
    else if (segs)
        iv_items_push(segs, (struct iv_item){s->t, to, row, 0});
    s->t = to;
}

/* Hands out time up to `to`: events ending before it leave the stack. */
static void advance(struct sweep *s, int64_t to)
{
    while (s->depth) {
        uint32_t top = s->stack[s->depth - 1];
        if (s->items[top].end >= to) {
            accrue(s, top, to);
            break;
        }
        accrue(s, top, s->items[top].end);
        s->depth--;
    }
    if (s->t < to)
        s->t = to;
}

void iv_nest(const struct iv_item *items, size_t n, const struct iv_nest_out *out)
{
    struct sweep s = {items, out, spoor_xmalloc((n ? n : 1) * sizeof *s.stack), 0, INT64_MIN};
    for (size_t i = 0; i < n; i++) {
        const struct iv_item *x = &items[i];
        advance(&s, x->start);
        /* Open events ending before x cannot hold it, nor anything after it
         * (which starts no earlier and is innermost in x): x covers the rest
         * of their time. */
        while (s.depth && items[s.stack[s.depth - 1]].end < x->end)
            s.depth--;
        uint32_t parent = s.depth ? items[s.stack[s.depth - 1]].row : SPOOR_IV_NO_PARENT;
        out->parent[x->row] = parent;
        out->depth[x->row] = parent == SPOOR_IV_NO_PARENT ? 0 : out->depth[parent] + 1;
        out->self[x->row] = 0;
        s.stack[s.depth++] = (uint32_t)i;
    }
    while (s.depth) {
        uint32_t top = s.stack[--s.depth];
        accrue(&s, top, items[top].end);
    }
    free(s.stack);
}

void iv_nest_group(struct iv_groups *groups, size_t g, const struct iv_nest_out *out)
{
    struct iv_item *items = groups->items + groups->first[g];
    size_t n = groups->first[g + 1] - groups->first[g];
    iv_order(items, n);
    iv_nest(items, n, out);
}

void iv_nest_out_alloc(struct iv_nest_out *out, size_t nrows)
{
    size_t cap = nrows ? nrows : 1;
    out->depth = spoor_xmalloc(cap * sizeof *out->depth);
    out->parent = spoor_xmalloc(cap * sizeof *out->parent);
    out->self = spoor_xmalloc(cap * sizeof *out->self);
    for (size_t r = 0; r < nrows; r++) {
        out->depth[r] = -1;
        out->parent[r] = SPOOR_IV_NO_PARENT;
        out->self[r] = SPOOR_NULL;
    }
}

void iv_nest_out_free(struct iv_nest_out *out)
{
    free(out->depth);
    free(out->parent);
    free(out->self);
}
