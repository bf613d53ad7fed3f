/* The timeline's streaming part (see timeline.h): each worker places the
 * events of its batches into its own cells (per thread lane, key and bucket)
 * and tiles, each at its own width, widened when they pass 2 x their budget. */
#include "analyze/timeline_internal.h"

#include "analyze/counter_samples.h"

#include "ops/event_bytes.h"
#include "spoor/error.h"
#include "util/grow.h"

#include <stdlib.h>
#include <string.h>

static void worker_init(struct timeline_worker *w, int shift, int tile_shift)
{
    memset(w, 0, sizeof *w);
    w->shift = shift;
    w->strings = spoor_strpool_new();
    bucket_log_init(&w->cells, shift);
    bucket_sums_init(&w->tiles.at, tile_shift);
    w->first_ts = INT64_MAX;
    w->last_end = INT64_MIN;
}

struct timeline_run *timeline_begin(const struct timeline_opts *opts, int threads)
{
    struct timeline_run *run = spoor_xcalloc(1, sizeof *run);
    run->opts = *opts;
    struct timeline_opts *o = &run->opts;
    o->cells = o->cells ? o->cells : 131072;
    o->columns = o->columns ? o->columns : 2048;
    o->tile_events = o->tile_events ? o->tile_events : 64;
    o->events = o->events ? o->events : 150000;
    o->thread_lanes = o->thread_lanes ? o->thread_lanes : 256;
    o->min_shift = o->min_shift ? o->min_shift : 14;
    o->tile_min_shift = o->tile_min_shift ? o->tile_min_shift : 20;
    run->phase_text = spoor_xstrdup(o->phase_cats ? o->phase_cats : TIMELINE_PHASE_CATS);
    for (char *s = run->phase_text, *tok; (tok = strsep(&s, ","));)
        if (*tok) {
            run->phase_cats = spoor_xrealloc(run->phase_cats, (run->nphase_cats + 1) * sizeof *run->phase_cats);
            run->phase_cats[run->nphase_cats++] = tok;
        }
    run->threads = threads > 0 ? threads : 1;
    run->workers = spoor_xcalloc((size_t)run->threads, sizeof *run->workers);
    for (int i = 0; i < run->threads; i++)
        worker_init(&run->workers[i], o->min_shift, o->tile_min_shift);
    return run;
}

int timeline_worker_cmp(const void *worker, uint32_t a, uint32_t b)
{
    const struct timeline_worker *w = worker;
    return strcmp(spoor_strpool_get(w->strings, a, NULL), spoor_strpool_get(w->strings, b, NULL));
}

/* The worker's id of a batch string. */
static uint32_t intern_string(struct timeline_worker *w, const struct spoor_table *b, uint32_t id)
{
    size_t len;
    const char *s = spoor_strpool_get(b->pool, id, &len);
    return w->str_of[id] = spoor_strpool_intern(w->strings, s, len);
}

/* Inline: twice an event, and nearly always known. */
static inline uint32_t worker_string(struct timeline_worker *w, const struct spoor_table *b, uint32_t id)
{
    return w->str_of[id] != UINT32_MAX ? w->str_of[id] : intern_string(w, b, id);
}

static void long_push(struct timeline_worker *w, uint32_t row, int64_t start, int64_t end)
{
    spoor_reserve((void **)&w->longs, &w->longs_cap, w->nlongs + 1, sizeof *w->longs);
    w->longs[w->nlongs++] = (struct timeline_long){row, start, end};
}

static void flush_row(struct timeline_worker *w, uint32_t row)
{
    struct timeline_pending *p = &w->pending[row];
    if (p->bucket != INT64_MIN)
        bucket_log_add(&w->cells, row, p->bucket, p->count, p->busy);
    p->bucket = INT64_MIN;
}

void timeline_worker_flush(struct timeline_worker *w)
{
    for (uint32_t row = 0; row < w->rows.n; row++)
        flush_row(w, row);
}

static void pend(struct timeline_worker *w, uint32_t row, int64_t bucket, uint64_t count, int64_t busy)
{
    struct timeline_pending *p = &w->pending[row];
    if (p->bucket != bucket) {
        flush_row(w, row);
        *p = (struct timeline_pending){bucket, 0, 0};
    }
    p->count += count;
    p->busy += busy;
}

/* An event's cells: bucket by bucket when it spans few, else listed. False
 * when it lies too far from the first event to be stored. */
static bool place(struct timeline_worker *w, uint32_t row, int64_t start, int64_t end)
{
    int shift = w->shift;
    int64_t first = start >> shift, last = end > start ? (end - 1) >> shift : first;
    if (!bucket_log_fits(&w->cells, first) || !bucket_log_fits(&w->cells, last))
        return false;
    if (last - first + 1 > TIMELINE_SHORT) {
        long_push(w, row, start, end);
        return true;
    }
    for (int64_t k = first; k <= last; k++) {
        int64_t from = k << shift, to = from + ((int64_t)1 << shift);
        pend(w, row, k, k == first, (end < to ? end : to) - (start > from ? start : from));
    }
    return true;
}

void timeline_worker_coarsen(struct timeline_worker *w, int shift)
{
    timeline_worker_flush(w);
    bucket_log_coarsen(&w->cells, shift);
    w->shift = shift;
    size_t kept = 0;
    for (size_t i = 0; i < w->nlongs; i++) {
        struct timeline_long *l = &w->longs[i];
        if (bucket_span(shift, l->start, l->end) > TIMELINE_SHORT)
            w->longs[kept++] = *l;
        else
            bucket_log_span(&w->cells, l->row, l->start, l->end, 1);
    }
    w->nlongs = kept;
}

void timeline_worker_widen_tiles(struct timeline_worker *w, int shift, size_t k)
{
    struct timeline_tiles wide = {0};
    bucket_sums_init(&wide.at, shift);
    timeline_tiles_move(&wide, &w->tiles, NULL, NULL, k, timeline_worker_cmp, w);
    w->tiles = wide;
    for (size_t l = 0; l < w->lanes.n; l++)
        w->lane_tile[l].index = INT64_MIN;
}

/* Which cats of the batch are phase cats. */
static size_t phase_ids(const struct timeline_run *run, const struct spoor_table *b, uint32_t *ids)
{
    size_t n = 0;
    for (size_t i = 0; i < run->nphase_cats && n < 8; i++) {
        uint32_t id = spoor_strpool_find(b->pool, run->phase_cats[i], strlen(run->phase_cats[i]));
        if (id != UINT32_MAX)
            ids[n++] = id;
    }
    return n;
}

static uint32_t lane_of(struct timeline_worker *w, int64_t pid, int64_t tid, bool phases)
{
    if (w->last.known && w->last.pid == pid && w->last.tid == tid && w->last.phases == phases)
        return w->last.lane;
    uint64_t p = spoor_id_map_id(&w->pids, (uint64_t)pid), t = spoor_id_map_id(&w->tids, (uint64_t)tid);
    size_t n = w->lanes.n;
    uint32_t lane = spoor_id_map_id(&w->lanes, p << 33 | t << 1 | phases);
    if (lane == n) {
        spoor_grow((void **)&w->lane_tile, &w->lane_tile_cap, lane, sizeof *w->lane_tile);
        w->lane_tile[lane].index = INT64_MIN;
    }
    w->last.pid = pid;
    w->last.tid = tid;
    w->last.phases = phases;
    w->last.lane = lane;
    w->last.known = true;
    return lane;
}

static uint32_t row_of(struct timeline_worker *w, uint32_t lane, uint32_t key)
{
    size_t n = w->rows.n;
    uint32_t row = spoor_id_map_id(&w->rows, (uint64_t)lane << 32 | key);
    if (row == n) {
        spoor_grow((void **)&w->pending, &w->pending_cap, row, sizeof *w->pending);
        w->pending[row].bucket = INT64_MIN;
    }
    return row;
}

/* The id of the lane's tile at `index`. */
static uint32_t tile_of(struct timeline_worker *w, uint32_t lane, int64_t index)
{
    struct timeline_lane_tile *t = &w->lane_tile[lane];
    if (t->index != index) {
        uint32_t id = timeline_tile(&w->tiles, lane, index);
        if (id == UINT32_MAX)
            return id;
        t->index = index;
        t->id = id;
    }
    return t->id;
}

void timeline_add(struct timeline_run *run, int worker, const struct spoor_table *b)
{
    struct timeline_worker *w = &run->workers[worker];
    size_t nstrings = spoor_strpool_count(b->pool);
    spoor_grow((void **)&w->str_of, &w->str_cap, nstrings, sizeof *w->str_of);
    memset(w->str_of, 0xff, nstrings * sizeof *w->str_of);
    uint32_t phase[8];
    size_t nphase = phase_ids(run, b, phase);
    struct event_bytes bytes;
    event_bytes_bind(&bytes, b);
    size_t k = run->opts.tile_events, cap = 2 * run->opts.cells;
    struct counter_cats samples = counter_cats_of(b);
    for (size_t r = 0; r < b->nrows; r++) {
        int64_t ts = b->ts[r];
        if (b->ph[r] == 'M' || ts == SPOOR_NULL || counter_sample(&samples, b, r))
            continue;
        int64_t dur = b->dur[r] != SPOOR_NULL && b->dur[r] > 0 ? b->dur[r] : 0, end = ts + dur;
        bool phases = false;
        for (size_t i = 0; i < nphase; i++)
            phases |= b->cat[r] == phase[i];
        uint32_t lane = lane_of(w, b->pid[r], b->tid[r], phases);
        uint32_t cat = worker_string(w, b, b->cat[r]), name = worker_string(w, b, b->name[r]);
        uint32_t row = row_of(w, lane, phases ? name : cat);
        if (row >= BUCKET_ROWS_MAX || !place(w, row, ts, end)) {
            w->out_of_range++;
            continue;
        }
        w->events++;
        if (ts < w->first_ts)
            w->first_ts = ts;
        if (end > w->last_end)
            w->last_end = end;
        uint32_t id = tile_of(w, lane, ts >> w->tiles.at.shift);
        if (id == UINT32_MAX) /* 2^39 tiles away from the first: not embedded */
            continue;
        struct timeline_event e = {ts, dur, SPOOR_NULL, cat, name};
        if (timeline_best_wants(&w->tiles.best[id], &e, timeline_worker_cmp, w))
            e.bytes = event_bytes_of(&bytes, b, r); /* only for events the tile may keep */
        timeline_tile_add(&w->tiles, id, &e, k, timeline_worker_cmp, w);
        if (w->cells.n >= cap && bucket_log_compact(&w->cells) > run->opts.cells) {
            timeline_worker_flush(w);
            bucket_log_compact(&w->cells);
            timeline_worker_coarsen(w, bucket_log_fit_shift(&w->cells, run->opts.cells));
        }
        if (w->tiles.kept > run->opts.events)
            timeline_worker_widen_tiles(w, bucket_sums_fit_shift(&w->tiles.at, run->opts.events, k), k);
    }
}
