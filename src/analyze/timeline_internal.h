/* The timeline's state between its streaming part (timeline.c: a worker's
 * cells, long events and tiles), its tiles (timeline_tiles.c) and its end
 * (timeline_merge.c: the workers merged, the width chosen, the pyramid and
 * the kept events). */
#ifndef SPOOR_ANALYZE_TIMELINE_INTERNAL_H
#define SPOOR_ANALYZE_TIMELINE_INTERNAL_H

#include "analyze/bucket_log.h"
#include "util/bucket_sums.h"
#include "analyze/timeline.h"
#include "util/id_map.h"

/* An event spanning more than this many buckets waits in a list, spread over
 * its buckets at the end (once the width is known), not bucket by bucket. */
#define TIMELINE_SHORT 4

/* A cell row, as bucket_sums rows: (lane, key) pairs by id. */
struct timeline_long {
    uint32_t row;
    int64_t start, end;
};

/* The kept events of one tile: its K first (by timeline_event_before) among
 * up to 2K candidates. Offered events are appended, and once 2K are held the
 * K first are selected (in linear time) and the rest dropped: a few
 * comparisons an event, where a heap of K took a sift of log K levels for
 * every event that displaced its last. After a cut, `floor` is the K-th
 * first so far: an event not before it can never be kept. */
struct timeline_best {
    struct timeline_event *ev;
    size_t n, cap;
    bool cut;
    struct timeline_event floor;
};

/* Orders kept events: true when a goes before b (longer, then earlier, then
 * by cat and name through cmp, then by bytes); a total order, so that which
 * events a tile keeps never depends on the order they came in. Inline: the
 * tiles compare at every step, and dur or ts nearly always decide. */
typedef int timeline_str_cmp(const void *ctx, uint32_t a, uint32_t b);
static inline bool timeline_event_before(const struct timeline_event *a, const struct timeline_event *b,
                                         timeline_str_cmp *cmp, const void *ctx)
{
    if (a->dur != b->dur)
        return a->dur > b->dur;
    if (a->ts != b->ts)
        return a->ts < b->ts;
    int c = a->cat == b->cat ? 0 : cmp(ctx, a->cat, b->cat);
    if (!c && a->name != b->name)
        c = cmp(ctx, a->name, b->name);
    if (c)
        return c < 0;
    return a->bytes < b->bytes;
}
/* Whether the tile could keep e (computing its bytes is worth it). */
static inline bool timeline_best_wants(const struct timeline_best *b, const struct timeline_event *e,
                                       timeline_str_cmp *cmp, const void *ctx)
{
    return !b->cut || timeline_event_before(e, &b->floor, cmp, ctx);
}
/* Offers e to a tile keeping k. */
void timeline_best_offer(struct timeline_best *b, const struct timeline_event *e, size_t k, timeline_str_cmp *cmp,
                         const void *ctx);
/* Cuts the events to the k first and sorts them, first first. */
void timeline_best_sort(struct timeline_best *b, size_t k, timeline_str_cmp *cmp, const void *ctx);

/* Tiles: cells of a bucket_sums (row: lane; count: the events that started
 * in the tile), each with its best events at the same id; `kept` is the sum over
 * tiles of min(count, k). */
struct timeline_tiles {
    struct bucket_sums at;
    struct timeline_best *best;
    size_t cap;
    uint64_t kept;
};
/* The tile's id, made on first sight; UINT32_MAX when out of range. */
uint32_t timeline_tile(struct timeline_tiles *t, uint32_t lane, int64_t index);
/* Counts an event into tile id and offers it to the tile (keeping k). */
void timeline_tile_add(struct timeline_tiles *t, uint32_t id, const struct timeline_event *e, size_t k,
                       timeline_str_cmp *cmp, const void *ctx);
/* Moves every tile of src into dst (whose width is src's or wider; tiles of
 * k) with their lanes renamed by lane_of and strings by str_of (either NULL:
 * kept). */
void timeline_tiles_move(struct timeline_tiles *dst, struct timeline_tiles *src, const uint32_t *lane_of,
                         const uint32_t *str_of, size_t k, timeline_str_cmp *cmp, const void *ctx);
void timeline_tiles_free(struct timeline_tiles *t);

/* A row's cell being summed: consecutive events of a row mostly fall in the
 * same bucket, so they are summed here and stored once the bucket changes. */
struct timeline_pending {
    int64_t bucket;             /* INT64_MIN: none */
    uint64_t count;
    int64_t busy;
};

/* A lane's last tile, found without a lookup while the events stay in it. */
struct timeline_lane_tile {
    int64_t index;              /* INT64_MIN: none */
    uint32_t id;
};

struct timeline_worker {
    int shift;
    struct spoor_strpool *strings;  /* cats and names */
    struct spoor_id_map pids, tids;
    struct spoor_id_map lanes;      /* pid id << 33 | tid id << 1 | phases */
    struct spoor_id_map rows;       /* lane id << 32 | key string id */
    struct bucket_log cells;
    struct timeline_pending *pending; /* per row */
    size_t pending_cap;
    struct timeline_lane_tile *lane_tile; /* per lane */
    size_t lane_tile_cap;
    struct { int64_t pid, tid; bool phases; uint32_t lane; bool known; } last; /* the last row's lane */
    struct timeline_long *longs;
    size_t nlongs, longs_cap;
    struct timeline_tiles tiles;
    int64_t first_ts, last_end;
    uint64_t events, out_of_range;
    /* per batch: its string ids as the worker's, and which cats are phases */
    uint32_t *str_of;
    size_t str_cap;
};

struct timeline_run {
    struct timeline_opts opts;
    const char **phase_cats;
    size_t nphase_cats;
    char *phase_text;
    struct timeline_worker *workers;
    int threads;
};

/* A worker's strings compared by text (cmp for its tiles). */
int timeline_worker_cmp(const void *worker, uint32_t a, uint32_t b);
/* Stores every pending cell (before the cells are read or widened). */
void timeline_worker_flush(struct timeline_worker *w);
/* Widens a worker's buckets to 2^shift ns: cells merge, and long events that
 * now span few buckets join them. */
void timeline_worker_coarsen(struct timeline_worker *w, int shift);
/* Widens a worker's tiles to 2^shift ns (tiles keeping k). */
void timeline_worker_widen_tiles(struct timeline_worker *w, int shift, size_t k);

#endif
