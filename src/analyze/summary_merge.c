/* k-way merges by a heap of sources keyed by the start of their next item
 * (see summary_internal.h): the threads' rows into the unions in one global
 * start order, and (summary_spans.c) the threads' unions of a group. */
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

/* The top thread gives rows for as long as they start before any other's. */
bool reorder_merge(struct reorder *rows, const uint64_t *keys, size_t nthreads, struct merge_head *h, size_t k,
                   struct summary_acc *acc)
{
    size_t size = 0;
    for (uint32_t id = 0; id < nthreads; id++)
        if (rows[id].n > rows[id].merged)
            h[size++] = (struct merge_head){rows[id].held[rows[id].merged].start, id};
    merge_heapify(h, size);
    bool exact = true;
    while (k) {
        int64_t second = merge_second(h, size);
        struct reorder *r = &rows[h[0].source];
        uint32_t pid = (uint32_t)(keys[h[0].source] >> 32);
        do {
            const struct nest_item *x = &r->held[r->merged++];
            if (x->event)
                exact = ordered_add(acc, x, pid) && exact;
            k--;
        } while (k && r->merged < r->n && r->held[r->merged].start <= second);
        if (r->merged == r->n)
            h[0] = h[--size];
        else
            h[0].start = r->held[r->merged].start;
        merge_sift_down(h, size, 0);
    }
    return exact;
}
