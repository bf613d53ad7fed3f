/* The timeline's tiles (see timeline.h): per tile its best events (see
 * timeline_internal.h: up to 2K candidates, cut to the K first by a
 * selection), so that an event costs an append and a few comparisons; tiles
 * merged when the width doubles or workers meet. */
#include "analyze/timeline_internal.h"

#include "spoor/error.h"
#include "util/grow.h"

#include <stdlib.h>
#include <string.h>

static void swap_events(struct timeline_event *a, struct timeline_event *b)
{
    struct timeline_event t = *a;
    *a = *b;
    *b = t;
}

/* Partitions ev[lo, hi) (two or more) around the median of its first,
 * middle and last: returns where the pivot went, with the events left of it
 * all before it and none right of it before it. */
static size_t partition(struct timeline_event *ev, size_t lo, size_t hi, timeline_str_cmp *cmp, const void *ctx)
{
    size_t mid = lo + (hi - lo) / 2, last = hi - 1;
    if (timeline_event_before(&ev[mid], &ev[lo], cmp, ctx))
        swap_events(&ev[mid], &ev[lo]);
    if (timeline_event_before(&ev[last], &ev[lo], cmp, ctx))
        swap_events(&ev[last], &ev[lo]);
    if (timeline_event_before(&ev[mid], &ev[last], cmp, ctx))
        swap_events(&ev[mid], &ev[last]);
    size_t p = lo;
    for (size_t i = lo; i < last; i++)
        if (timeline_event_before(&ev[i], &ev[last], cmp, ctx))
            swap_events(&ev[i], &ev[p++]);
    swap_events(&ev[p], &ev[last]);
    return p;
}

/* Keeps the k first of b's events (fewer than held), the k-th the floor. */
static void cut(struct timeline_best *b, size_t k, timeline_str_cmp *cmp, const void *ctx)
{
    size_t lo = 0, hi = b->n;
    while (hi - lo > 1) {
        size_t p = partition(b->ev, lo, hi, cmp, ctx);
        if (p == k - 1)
            break;
        if (p < k - 1)
            lo = p + 1;
        else
            hi = p;
    }
    b->n = k;
    b->floor = b->ev[k - 1];
    b->cut = true;
}

void timeline_best_offer(struct timeline_best *b, const struct timeline_event *e, size_t k, timeline_str_cmp *cmp,
                         const void *ctx)
{
    if (!k || !timeline_best_wants(b, e, cmp, ctx))
        return;
    if (b->n == b->cap) { /* most tiles hold few events: grown from 2 */
        b->cap = b->cap ? 2 * b->cap : 2;
        b->cap = b->cap < 2 * k ? b->cap : 2 * k;
        b->ev = spoor_xrealloc(b->ev, b->cap * sizeof *b->ev);
    }
    b->ev[b->n++] = *e;
    if (b->n == 2 * k)
        cut(b, k, cmp, ctx);
}

/* Sorts ev[lo, hi) first first: quicksort, short ranges by insertion. */
static void sort_events(struct timeline_event *ev, size_t lo, size_t hi, timeline_str_cmp *cmp, const void *ctx)
{
    while (hi - lo > 12) {
        size_t p = partition(ev, lo, hi, cmp, ctx);
        if (p - lo < hi - p) { /* the shorter side by recursion: depth log n */
            sort_events(ev, lo, p, cmp, ctx);
            lo = p + 1;
        } else {
            sort_events(ev, p + 1, hi, cmp, ctx);
            hi = p;
        }
    }
    for (size_t i = lo + 1; i < hi; i++)
        for (size_t j = i; j > lo && timeline_event_before(&ev[j], &ev[j - 1], cmp, ctx); j--)
            swap_events(&ev[j], &ev[j - 1]);
}

void timeline_best_sort(struct timeline_best *b, size_t k, timeline_str_cmp *cmp, const void *ctx)
{
    if (!k)
        b->n = 0;
    else if (b->n > k)
        cut(b, k, cmp, ctx);
    sort_events(b->ev, 0, b->n, cmp, ctx);
}

uint32_t timeline_tile(struct timeline_tiles *t, uint32_t lane, int64_t index)
{
    uint32_t id = bucket_sums_cell(&t->at, lane, index);
    if (id != UINT32_MAX)
        spoor_grow((void **)&t->best, &t->cap, id, sizeof *t->best);
    return id;
}

void timeline_tile_add(struct timeline_tiles *t, uint32_t id, const struct timeline_event *e, size_t k,
                       timeline_str_cmp *cmp, const void *ctx)
{
    if (++t->at.count[id] <= k)
        t->kept++;
    timeline_best_offer(&t->best[id], e, k, cmp, ctx);
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
        struct timeline_best *from = &src->best[i], *to = &dst->best[id];
        for (size_t e = 0; str_of && e < from->n + from->cut; e++) { /* the floor last */
            struct timeline_event *ev = e < from->n ? &from->ev[e] : &from->floor;
            ev->cat = str_of[ev->cat];
            ev->name = str_of[ev->name];
        }
        if (!to->n) { /* the tile's first source: taken whole (renaming keeps the order) */
            free(to->ev);
            *to = *from;
            *from = (struct timeline_best){0};
            continue;
        }
        for (size_t e = 0; e < from->n; e++)
            timeline_best_offer(to, &from->ev[e], k, cmp, ctx);
    }
    timeline_tiles_free(src);
}

void timeline_tiles_free(struct timeline_tiles *t)
{
    for (size_t i = 0; i < t->at.cells.n; i++)
        free(t->best[i].ev);
    free(t->best);
    bucket_sums_free(&t->at);
    memset(t, 0, sizeof *t);
}
