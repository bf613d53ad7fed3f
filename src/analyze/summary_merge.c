/* The heap of a k-way merge, sources keyed by the start of their next item
 * (see summary_internal.h): the threads' rows into the unions in one global
 * start order (summary_ordered.c), the threads' unions of a group
 * (summary_spans.c). */
#include "summary_internal.h"

void merge_sift_down(struct merge_head *h, size_t n, size_t at)
{
    for (;;) {
        size_t l = 2 * at + 1, m = at;
        if (l < n && h[l].start < h[m].start)
            m = l;
        if (l + 1 < n && h[l + 1].start < h[m].start)
            m = l + 1;
        if (m == at)
            return;
        struct merge_head x = h[at];
        h[at] = h[m];
        h[m] = x;
        at = m;
    }
}

void merge_heapify(struct merge_head *h, size_t n)
{
    for (size_t i = n / 2; i-- > 0;)
        merge_sift_down(h, n, i);
}

int64_t merge_second(const struct merge_head *h, size_t n)
{
    return n < 2 ? INT64_MAX : n < 3 || h[1].start < h[2].start ? h[1].start : h[2].start;
}
