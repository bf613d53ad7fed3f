/* The rows of every thread to the unions in one global start order (see
 * summary_internal.h): a merge of the threads' reorders, by a heap of the
 * threads keyed by the start of their next row. */
#include "summary_internal.h"

static bool head_before(const struct reorder *rows, const struct merge_head *a, const struct merge_head *b)
{
    if (a->start != b->start)
        return a->start < b->start;
    const struct reorder *x = &rows[a->thread], *y = &rows[b->thread];
    return nest_before(&x->held[x->merged], &y->held[y->merged]);
}

static void sift_down(const struct reorder *rows, struct merge_head *h, size_t size, size_t at)
{
    for (;;) {
        size_t l = 2 * at + 1, m = at;
        if (l < size && head_before(rows, &h[l], &h[m]))
            m = l;
        if (l + 1 < size && head_before(rows, &h[l + 1], &h[m]))
            m = l + 1;
        if (m == at)
            return;
        struct merge_head x = h[at];
        h[at] = h[m];
        h[m] = x;
        at = m;
    }
}

/* The top thread gives rows for as long as they start before any other's. */
bool reorder_merge(struct reorder *rows, const uint64_t *keys, size_t nthreads, struct merge_head *h, size_t k,
                   struct summary_acc *acc)
{
    size_t size = 0;
    for (uint32_t id = 0; id < nthreads; id++)
        if (rows[id].n > rows[id].merged)
            h[size++] = (struct merge_head){rows[id].held[rows[id].merged].start, id};
    for (size_t i = size / 2; i-- > 0;)
        sift_down(rows, h, size, i);
    bool exact = true;
    while (k) {
        int64_t second = size < 2 ? INT64_MAX : size < 3 || h[1].start < h[2].start ? h[1].start : h[2].start;
        struct reorder *r = &rows[h[0].thread];
        uint32_t pid = (uint32_t)(keys[h[0].thread] >> 32);
        do {
            const struct nest_item *x = &r->held[r->merged++];
            if (x->event)
                exact &= ordered_add(acc, x, pid);
            k--;
        } while (k && r->merged < r->n && r->held[r->merged].start < second);
        if (r->merged == r->n)
            h[0] = h[--size];
        else
            h[0].start = r->held[r->merged].start;
        sift_down(rows, h, size, 0);
    }
    return exact;
}
