/* The timeline's streaming part (see timeline.h): each worker places the
 * events of its batches into its own cells (per thread lane, key and bucket)
 * and tiles, at its own width, doubled when its cells pass 2 x opts.cells. */
#include "analyze/timeline_internal.h"

#include "analyze/event_bytes.h"
#include "spoor/error.h"
#include "util/grow.h"

#include <stdlib.h>
#include <string.h>

static void worker_init(struct timeline_worker *w, int shift)
{
    memset(w, 0, sizeof *w);
    w->shift = shift;
    w->strings = spoor_strpool_new();
    bucket_sums_init(&w->cells, shift);
    bucket_sums_init(&w->tiles.at, shift + TIMELINE_TILE_BITS);
    w->first_ts = INT64_MAX;
    w->last_end = INT64_MIN;
}

struct timeline_run *timeline_begin(const struct timeline_opts *opts, int threads)
{
    struct timeline_run *run = spoor_xcalloc(1, sizeof *run);
    run->opts = *opts;
    struct timeline_opts *o = &run->opts;
    o->cells = o->cells ? o->cells : 524288;
    o->columns = o->columns ? o->columns : 2048;
    o->tile_events = o->tile_events ? o->tile_events : 256;
    o->events = o->events ? o->events : 150000;
    o->thread_lanes = o->thread_lanes ? o->thread_lanes : 256;
    o->min_shift = o->min_shift ? o->min_shift : 10;
    run->phase_text = spoor_xstrdup(o->phase_cats ? o->phase_cats : "app");
    for (char *s = run->phase_text, *tok; (tok = strsep(&s, ","));)
        if (*tok) {
            run->phase_cats = spoor_xrealloc(run->phase_cats, (run->nphase_cats + 1) * sizeof *run->phase_cats);
            run->phase_cats[run->nphase_cats++] = tok;
        }
    run->threads = threads > 0 ? threads : 1;
    run->workers = spoor_xcalloc((size_t)run->threads, sizeof *run->workers);
    for (int i = 0; i < run->threads; i++)
        worker_init(&run->workers[i], o->min_shift);
    return run;
}

int timeline_worker_cmp(const void *worker, uint32_t a, uint32_t b)
{
    const struct timeline_worker *w = worker;
    return strcmp(spoor_strpool_get(w->strings, a, NULL), spoor_strpool_get(w->strings, b, NULL));
}

/* The worker's id of a batch string. */
static uint32_t worker_string(struct timeline_worker *w, const struct spoor_table *b, uint32_t id)
{
    if (w->str_of[id] == UINT32_MAX) {
        size_t len;
        const char *s = spoor_strpool_get(b->pool, id, &len);
        w->str_of[id] = spoor_strpool_intern(w->strings, s, len);
    }
    return w->str_of[id];
}

static void long_push(struct timeline_worker *w, uint32_t row, int64_t start, int64_t end)
{
    spoor_reserve((void **)&w->longs, &w->longs_cap, w->nlongs + 1, sizeof *w->longs);
    w->longs[w->nlongs++] = (struct timeline_long){row, start, end};
}

/* An event's cells: bucket by bucket when it spans few, else listed. */
static bool place(struct timeline_worker *w, uint32_t row, int64_t start, int64_t end)
{
    if (bucket_span(w->shift, start, end) > TIMELINE_SHORT) {
        long_push(w, row, start, end);
        return true;
    }
    return bucket_sums_span(&w->cells, row, start, end, 1);
}

void timeline_worker_coarsen(struct timeline_worker *w, int shift, size_t k)
{
    bucket_sums_coarsen(&w->cells, shift);
    struct timeline_tiles wide = {0};
    bucket_sums_init(&wide.at, shift + TIMELINE_TILE_BITS);
    timeline_tiles_move(&wide, &w->tiles, NULL, NULL, k, timeline_worker_cmp, w);
    w->tiles = wide;
    w->shift = shift;
    size_t kept = 0;
    for (size_t i = 0; i < w->nlongs; i++) {
        struct timeline_long *l = &w->longs[i];
        if (bucket_span(shift, l->start, l->end) > TIMELINE_SHORT)
            w->longs[kept++] = *l;
        else
            bucket_sums_span(&w->cells, l->row, l->start, l->end, 1);
    }
    w->nlongs = kept;
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
    uint64_t p = spoor_id_map_id(&w->pids, (uint64_t)pid), t = spoor_id_map_id(&w->tids, (uint64_t)tid);
    return spoor_id_map_id(&w->lanes, p << 33 | t << 1 | phases);
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
    for (size_t r = 0; r < b->nrows; r++) {
        int64_t ts = b->ts[r];
        if (b->ph[r] == 'M' || ts == SPOOR_NULL)
            continue;
        int64_t dur = b->dur[r] != SPOOR_NULL && b->dur[r] > 0 ? b->dur[r] : 0, end = ts + dur;
        bool phases = false;
        for (size_t i = 0; i < nphase; i++)
            phases |= b->cat[r] == phase[i];
        uint32_t lane = lane_of(w, b->pid[r], b->tid[r], phases);
        uint32_t cat = worker_string(w, b, b->cat[r]), name = worker_string(w, b, b->name[r]);
        uint32_t row = spoor_id_map_id(&w->rows, (uint64_t)lane << 32 | (phases ? name : cat));
        if (row >= BUCKET_ROWS_MAX || !place(w, row, ts, end)) {
            w->out_of_range++;
            continue;
        }
        w->events++;
        if (ts < w->first_ts)
            w->first_ts = ts;
        if (end > w->last_end)
            w->last_end = end;
        struct timeline_heap *h = timeline_tile(&w->tiles, lane, ts >> w->tiles.at.shift);
        if (!h) /* a tile of the same range as the cells: cannot be out of it */
            continue;
        h->events++;
        struct timeline_event e = {ts, dur, SPOOR_NULL, cat, name};
        if (h->n < k || timeline_event_before(&e, &h->ev[0], timeline_worker_cmp, w)) {
            e.bytes = event_bytes_of(&bytes, b, r);
            timeline_heap_offer(h, &e, k, timeline_worker_cmp, w);
        }
        if (w->cells.cells.n > cap)
            timeline_worker_coarsen(w, w->shift + 1, k);
    }
}
