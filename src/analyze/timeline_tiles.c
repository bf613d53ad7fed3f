/* The timeline's tiles (see timeline.h): per tile a heap of its longest
 * events, shortest on top, so that a longer event replaces the shortest kept
 * one in O(log K); tiles merged when the width doubles or workers meet. */
#include "analyze/timeline_internal.h"

#include "spoor/error.h"
#include "util/grow.h"

#include <stdlib.h>
#include <string.h>

/* Heap order: the parent goes after its children (the last kept on top). */
static void sift_down(struct timeline_heap *h, size_t i, timeline_str_cmp *cmp, const void *ctx)
{
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, top = i;
        if (l < h->n && timeline_event_before(&h->ev[top], &h->ev[l], cmp, ctx))
            top = l;
        if (r < h->n && timeline_event_before(&h->ev[top], &h->ev[r], cmp, ctx))
            top = r;
        if (top == i)
            return;
        struct timeline_event t = h->ev[i];
        h->ev[i] = h->ev[top];
        h->ev[top] = t;
        i = top;
    }
}

void timeline_heap_offer(struct timeline_heap *h, const struct timeline_event *e, size_t k, timeline_str_cmp *cmp,
                         const void *ctx)
{
    if (h->n < k) {
        if (h->n == h->cap) { /* most tiles hold few events: grown from 2, not 16 */
            h->cap = h->cap ? 2 * h->cap : 2;
            h->ev = spoor_xrealloc(h->ev, h->cap * sizeof *h->ev);
        }
        size_t i = h->n++;
        h->ev[i] = *e;
        while (i) { /* sift up */
            size_t p = (i - 1) / 2;
            if (!timeline_event_before(&h->ev[p], &h->ev[i], cmp, ctx))
                break;
            struct timeline_event t = h->ev[i];
            h->ev[i] = h->ev[p];
            h->ev[p] = t;
            i = p;
        }
    } else if (k && timeline_event_before(e, &h->ev[0], cmp, ctx)) {
        h->ev[0] = *e;
        sift_down(h, 0, cmp, ctx);
    }
}

void timeline_heap_sort(struct timeline_heap *h, timeline_str_cmp *cmp, const void *ctx)
{
    /* Pop the last-kept one to the end, repeatedly: first first. */
    size_t n = h->n;
    while (h->n > 1) {
        struct timeline_event t = h->ev[0];
        h->ev[0] = h->ev[--h->n];
        h->ev[h->n] = t;
        sift_down(h, 0, cmp, ctx);
    }
    h->n = n;
}

uint32_t timeline_tile(struct timeline_tiles *t, uint32_t lane, int64_t index)
{
    uint32_t id = bucket_sums_cell(&t->at, lane, index);
    if (id != UINT32_MAX)
        spoor_grow((void **)&t->heap, &t->cap, id, sizeof *t->heap);
    return id;
}

void timeline_tile_add(struct timeline_tiles *t, uint32_t id, const struct timeline_event *e, size_t k,
                       timeline_str_cmp *cmp, const void *ctx)
{
    if (++t->at.count[id] <= k)
        t->kept++;
    timeline_heap_offer(&t->heap[id], e, k, cmp, ctx);
}

void timeline_tiles_move(struct timeline_tiles *dst, struct timeline_tiles *src, const uint32_t *lane_of,
                         const uint32_t *str_of, size_t k, timeline_str_cmp *cmp, const void *ctx)
{
    int up = dst->at.shift - src->at.shift;
    for (size_t i = 0; i < src->at.cells.n; i++) {
        uint32_t lane = bucket_sums_row(&src->at, i);
        uint32_t id = timeline_tile(dst, lane_of ? lane_of[lane] : lane, bucket_sums_bucket(&src->at, i) >> up);
        if (id == UINT32_MAX) /* wider than the source's tiles: always in range */
            continue;
        uint64_t before = dst->at.count[id];
        dst->at.count[id] += src->at.count[i];
        dst->kept += bucket_weight(dst->at.count[id], k) - bucket_weight(before, k);
        struct timeline_heap *from = &src->heap[i], *to = &dst->heap[id];
        for (size_t e = 0; str_of && e < from->n; e++) {
            from->ev[e].cat = str_of[from->ev[e].cat];
            from->ev[e].name = str_of[from->ev[e].name];
        }
        if (!to->n) { /* the tile's first source: its heap taken whole (renaming keeps the order) */
            free(to->ev);
            *to = *from;
            *from = (struct timeline_heap){0};
            continue;
        }
        for (size_t e = 0; e < from->n; e++)
            timeline_heap_offer(to, &from->ev[e], k, cmp, ctx);
    }
    timeline_tiles_free(src);
}

void timeline_tiles_free(struct timeline_tiles *t)
{
    for (size_t i = 0; i < t->at.cells.n; i++)
        free(t->heap[i].ev);
    free(t->heap);
    bucket_sums_free(&t->at);
    memset(t, 0, sizeof *t);
}
