/* Rows put in start order (see summary_internal.h). */
#include "summary_internal.h"

#include <stdlib.h>
#include <string.h>

bool nest_before(const struct nest_item *a, const struct nest_item *b)
{
    if (a->start != b->start)
        return a->start < b->start;
    if (a->end != b->end)
        return a->end > b->end;
    return a->seq > b->seq;
}

static int by_start(const void *a, const void *b)
{
    return nest_before(a, b) ? -1 : nest_before(b, a) ? 1 : 0;
}

void reorder_hold(struct reorder *r, const struct nest_item *x)
{
    if (r->n == r->cap) {
        if (r->first && r->first >= r->n / 2) {
            /* room in front: the rows taken */
            memmove(r->held, r->held + r->first, (r->n - r->first) * sizeof *r->held);
            r->n -= r->first;
            r->first = 0;
        } else {
            r->cap = r->cap ? 2 * r->cap : 8; /* threads may be many and short */
            r->held = spoor_xrealloc(r->held, r->cap * sizeof *r->held);
        }
    }
    size_t i = r->n++;
    if (!r->unbounded)
        for (; i > r->first && nest_before(x, &r->held[i - 1]); i--)
            r->held[i] = r->held[i - 1];
    r->held[i] = *x;
}

void reorder_sort(struct reorder *r)
{
    if (r->n > r->first)
        qsort(r->held + r->first, r->n - r->first, sizeof *r->held, by_start);
}
