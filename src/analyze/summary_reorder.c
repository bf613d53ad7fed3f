/* Rows put in start order (see summary_internal.h). */
#include "summary_internal.h"

#include <stdlib.h>
#include <string.h>

static int by_start(const void *a, const void *b)
{
    return nest_before(a, b) ? -1 : nest_before(b, a) ? 1 : 0;
}

/* The first row a cursor still needs. */
static size_t first_needed(const struct reorder *r)
{
    return r->merging && r->merged < r->swept ? r->merged : r->swept;
}

size_t reorder_hold(struct reorder *r, const struct nest_item *x)
{
    if (r->n == r->cap) {
        size_t first = first_needed(r);
        if (first && first >= r->n / 2) {
            /* room in front: the rows both cursors passed */
            memmove(r->held, r->held + first, (r->n - first) * sizeof *r->held);
            r->n -= first;
            r->swept -= first;
            r->merged -= r->merging ? first : 0;
        } else {
            r->cap = r->cap ? 2 * r->cap : 8; /* threads may be many and short */
            r->held = spoor_xrealloc(r->held, r->cap * sizeof *r->held);
        }
    }
    size_t i = r->n++;
    if (!r->unbounded)
        for (; i > r->swept && nest_before(x, &r->held[i - 1]); i--)
            r->held[i] = r->held[i - 1];
    r->held[i] = *x;
    return i;
}

void reorder_sort(struct reorder *r)
{
    if (r->n > r->swept)
        qsort(r->held + r->swept, r->n - r->swept, sizeof *r->held, by_start);
}
