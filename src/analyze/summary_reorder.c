/* Rows put in start order (see summary_internal.h). */
#include "summary_internal.h"

#include <stdlib.h>
#include <string.h>

/* A stable merge sort by span_before: rows of the same span keep their order. */
static void sort_stable(struct nest_item *v, size_t n)
{
    struct nest_item *tmp = spoor_xmalloc(n * sizeof *tmp);
    for (size_t width = 1; width < n; width *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * width) {
            size_t mid = lo + width < n ? lo + width : n, hi = lo + 2 * width < n ? lo + 2 * width : n;
            size_t a = lo, b = mid, o = lo;
            while (a < mid && b < hi)
                tmp[o++] = span_before(&v[b], &v[a]) ? v[b++] : v[a++];
            while (a < mid)
                tmp[o++] = v[a++];
            while (b < hi)
                tmp[o++] = v[b++];
        }
        memcpy(v, tmp, n * sizeof *v);
    }
    free(tmp);
}

/* The first row a cursor still needs. */
static size_t first_needed(const struct reorder *r)
{
    return r->merging && r->merged < r->swept ? r->merged : r->swept;
}

void reorder_make_room(struct reorder *r)
{
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

/* Held as they came: reversed, then sorted stably, the later row of a span
 * comes first. */
void reorder_sort(struct reorder *r)
{
    struct nest_item *v = r->held + r->swept;
    size_t n = r->n - r->swept;
    for (size_t i = 0; i < n / 2; i++) {
        struct nest_item x = v[i];
        v[i] = v[n - 1 - i];
        v[n - 1 - i] = x;
    }
    sort_stable(v, n);
}
