/* The timeline's end (see timeline.h): the workers' strings and lanes put in
 * one sorted order, their cells and long events merged at the widest width
 * any worker reached, the finest width chosen, the pyramid built level by
 * level, and meanwhile, on a second thread, the tiles merged and cut to the
 * event budget. */
#include "analyze/timeline_internal.h"

#include "spoor/error.h"
#include "util/grow.h"
#include "util/parallel.h"
#include "util/radix_sort.h"

#include <stdlib.h>
#include <string.h>

struct thread_lane {
    int64_t pid, tid;
    bool phases;
};

static int lane_order(const void *a, const void *b)
{
    const struct thread_lane *x = a, *y = b;
    if (x->pid != y->pid)
        return x->pid < y->pid ? -1 : 1;
    if (x->tid != y->tid)
        return x->tid < y->tid ? -1 : 1;
    return (int)x->phases - (int)y->phases;
}

static struct thread_lane worker_lane(const struct timeline_worker *w, uint32_t lane)
{
    uint64_t key = w->lanes.keys[lane];
    return (struct thread_lane){(int64_t)w->pids.keys[key >> 33], (int64_t)w->tids.keys[(key >> 1) & 0xffffffffu],
                                key & 1};
}

static int text_order(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

/* Every worker's strings, sorted, as the ids of out; str_of[w][id] maps. */
static uint32_t **merge_strings(struct timeline_run *run, struct timeline *out)
{
    struct spoor_strpool *all = spoor_strpool_new(); /* holds "" as id 0, which sorts first */
    for (int i = 0; i < run->threads; i++) {
        struct spoor_strpool *p = run->workers[i].strings;
        for (uint32_t id = 0; id < spoor_strpool_count(p); id++) {
            size_t len;
            const char *s = spoor_strpool_get(p, id, &len);
            spoor_strpool_intern(all, s, len);
        }
    }
    size_t n = spoor_strpool_count(all);
    const char **sorted = spoor_xmalloc(n * sizeof *sorted);
    for (uint32_t id = 0; id < n; id++)
        sorted[id] = spoor_strpool_get(all, id, NULL);
    qsort(sorted, n, sizeof *sorted, text_order);
    out->pool = spoor_strpool_new();
    out->strings = spoor_xmalloc(n * sizeof *out->strings);
    out->nstrings = n;
    /* "" sorts first, as id 0 of the new pool */
    for (size_t i = 0; i < n; i++)
        out->strings[i] = spoor_strpool_get(out->pool, spoor_strpool_intern(out->pool, sorted[i], strlen(sorted[i])), NULL);
    free(sorted);
    spoor_strpool_free(all);
    uint32_t **str_of = spoor_xcalloc((size_t)run->threads, sizeof *str_of);
    for (int i = 0; i < run->threads; i++) {
        struct spoor_strpool *p = run->workers[i].strings;
        str_of[i] = spoor_xmalloc((spoor_strpool_count(p) + 1) * sizeof **str_of);
        for (uint32_t id = 0; id < spoor_strpool_count(p); id++) {
            size_t len;
            const char *s = spoor_strpool_get(p, id, &len);
            str_of[i][id] = spoor_strpool_find(out->pool, s, len);
        }
    }
    return str_of;
}

/* Every worker's thread lanes, sorted and unique; lane_of[w][id] maps. */
static uint32_t **merge_lanes(struct timeline_run *run, struct thread_lane **lanes, size_t *nlanes)
{
    size_t n = 0;
    for (int i = 0; i < run->threads; i++)
        n += run->workers[i].lanes.n;
    struct thread_lane *all = spoor_xmalloc((n ? n : 1) * sizeof *all);
    n = 0;
    for (int i = 0; i < run->threads; i++)
        for (uint32_t l = 0; l < run->workers[i].lanes.n; l++)
            all[n++] = worker_lane(&run->workers[i], l);
    qsort(all, n, sizeof *all, lane_order);
    size_t u = 0;
    for (size_t i = 0; i < n; i++)
        if (!u || lane_order(&all[u - 1], &all[i]))
            all[u++] = all[i];
    uint32_t **lane_of = spoor_xcalloc((size_t)run->threads, sizeof *lane_of);
    for (int i = 0; i < run->threads; i++) {
        const struct timeline_worker *w = &run->workers[i];
        lane_of[i] = spoor_xmalloc((w->lanes.n + 1) * sizeof **lane_of);
        for (uint32_t l = 0; l < w->lanes.n; l++) {
            struct thread_lane key = worker_lane(w, l);
            lane_of[i][l] = (uint32_t)((struct thread_lane *)bsearch(&key, all, u, sizeof *all, lane_order) - all);
        }
    }
    *lanes = all;
    *nlanes = u;
    return lane_of;
}

/* The run's cells at the widest worker width, rows as (thread lane << 32 |
 * string) in `rows`; long events listed apart. */
struct merged {
    struct bucket_log cells;
    struct spoor_id_map rows;
    struct timeline_long *longs;
    size_t nlongs;
};

static uint32_t merged_row(struct merged *m, const struct timeline_worker *w, uint32_t row, const uint32_t *lane_of,
                           const uint32_t *str_of)
{
    uint64_t key = w->rows.keys[row];
    return spoor_id_map_id(&m->rows, (uint64_t)lane_of[key >> 32] << 32 | str_of[key & 0xffffffffu]);
}

static void merge_cells(struct timeline_run *run, uint32_t **lane_of, uint32_t **str_of, struct merged *m)
{
    int shift = run->opts.min_shift;
    size_t nlongs = 0;
    for (int i = 0; i < run->threads; i++) {
        if (run->workers[i].shift > shift)
            shift = run->workers[i].shift;
        nlongs += run->workers[i].nlongs;
    }
    bucket_log_init(&m->cells, shift);
    m->longs = spoor_xmalloc((nlongs ? nlongs : 1) * sizeof *m->longs);
    for (int i = 0; i < run->threads; i++) {
        struct timeline_worker *w = &run->workers[i];
        /* Compacted at the run's width, a worker's cells come in (row, bucket)
         * order and meet its rows in order, so the merged cells stay in order
         * but for the later workers' rows: the compaction after each worker
         * sorts only what it added. */
        bucket_log_coarsen(&w->cells, shift);
        for (size_t c = 0; c < w->cells.n; c++) {
            int64_t bucket = bucket_log_bucket(&w->cells, c);
            if (bucket_log_fits(&m->cells, bucket)) /* within 2^39 buckets of the first: always */
                bucket_log_add(&m->cells, merged_row(m, w, bucket_log_row(&w->cells, c), lane_of[i], str_of[i]), bucket,
                               w->cells.rec[c].count, w->cells.rec[c].sum);
        }
        bucket_log_compact(&m->cells);
        for (size_t l = 0; l < w->nlongs; l++) {
            struct timeline_long e = w->longs[l];
            e.row = merged_row(m, w, e.row, lane_of[i], str_of[i]);
            m->longs[m->nlongs++] = e;
        }
        bucket_log_free(&w->cells);
    }
}

/* The finest width: the narrowest from the workers' widest on at which the
 * long events spread over few enough buckets and all cells number at most
 * `cap` (both only fall as the width grows, so this is the narrowest of all). */
static void choose_width(struct merged *m, size_t cap)
{
    for (;;) {
        size_t kept = 0;
        uint64_t spread = 0;
        int shift = m->cells.shift;
        for (size_t i = 0; i < m->nlongs; i++) {
            struct timeline_long *l = &m->longs[i];
            int64_t span = bucket_span(shift, l->start, l->end);
            if (span > TIMELINE_SHORT) {
                spread += (uint64_t)span;
                m->longs[kept++] = *l;
            } else {
                bucket_log_span(&m->cells, l->row, l->start, l->end, 1);
            }
        }
        m->nlongs = kept;
        if (spread <= (uint64_t)cap && bucket_log_compact(&m->cells) <= cap)
            break;
        bucket_log_coarsen(&m->cells, shift + 1);
    }
    for (size_t i = 0; i < m->nlongs; i++)
        bucket_log_span(&m->cells, m->longs[i].row, m->longs[i].start, m->longs[i].end, 1);
    m->nlongs = 0;
    bucket_log_compact(&m->cells);
    bucket_log_coarsen(&m->cells, bucket_log_fit_shift(&m->cells, cap));
}

/* A cell of an output lane and key, before the keys of a bucket are
 * summed and the dominant one picked. */
struct keyed {
    uint32_t lane, key;
    int64_t bucket;
    uint64_t count;
    int64_t busy;
};

static int keyed_order(const void *a, const void *b)
{
    const struct keyed *x = a, *y = b;
    if (x->lane != y->lane)
        return x->lane < y->lane ? -1 : 1;
    if (x->bucket != y->bucket)
        return x->bucket < y->bucket ? -1 : 1;
    return x->key < y->key ? -1 : x->key > y->key;
}

/* The keyed cells in keyed_order, by three stable radix sorts, least
 * significant field first (the three together may not fit one 64-bit key):
 * qsort of the finest level's cells took a fifth of the report's
 * instructions on a 20 MB trace. */
static void keyed_sort(struct keyed *k, size_t n)
{
    if (n < 2)
        return;
    uint64_t *key = spoor_xmalloc(n * sizeof *key);
    uint32_t *order = spoor_xmalloc(n * sizeof *order);
    struct spoor_key_span span = spoor_key_span_start();
    for (size_t i = 0; i < n; i++) {
        key[i] = k[i].key;
        spoor_key_span_add(&span, key[i]);
    }
    spoor_radix_sort_rows(order, NULL, n, key, NULL, &span);
    for (size_t i = 0; i < n; i++)
        key[i] = spoor_radix_signed_key(k[i].bucket);
    spoor_radix_sort_rows_again(order, n, key);
    for (size_t i = 0; i < n; i++)
        key[i] = k[i].lane;
    spoor_radix_sort_rows_again(order, n, key);
    /* k[i] = k[order[i]] in place, a cycle at a time (no copy of the
     * cells: they take megabytes, each fresh page a fault); a place done
     * has its order set to itself. */
    for (size_t i = 0; i < n; i++) {
        if (order[i] == i)
            continue;
        struct keyed first = k[i];
        size_t at = i;
        while (order[at] != i) {
            size_t from = order[at];
            k[at] = k[from];
            order[at] = (uint32_t)at;
            at = from;
        }
        k[at] = first;
        order[at] = (uint32_t)at;
    }
    free(order);
    free(key);
}

/* Sorts the keyed cells and sums those of the same (lane, bucket, key).
 * Cells already in (lane, bucket) order (a finer level's, halved) only need
 * each bucket's few keys put in order. */
static size_t keyed_merge(struct keyed *k, size_t n, bool by_bucket)
{
    if (!by_bucket)
        keyed_sort(k, n);
    for (size_t i = 1; by_bucket && i < n; i++)
        for (size_t j = i; j > 0 && keyed_order(&k[j - 1], &k[j]) > 0; j--) {
            struct keyed t = k[j];
            k[j] = k[j - 1];
            k[j - 1] = t;
        }
    size_t u = 0;
    for (size_t i = 0; i < n; i++) {
        if (u && !keyed_order(&k[u - 1], &k[i])) {
            k[u - 1].count += k[i].count;
            k[u - 1].busy += k[i].busy;
        } else {
            k[u++] = k[i];
        }
    }
    return u;
}

/* One level from its keyed cells (sorted): per (lane, bucket) the sums and
 * the dominant key (most busy, then most starts, then the first by text). */
static void build_level(const struct keyed *k, size_t n, int shift, struct timeline_level *level)
{
    level->shift = shift;
    level->cells = spoor_xmalloc((n ? n : 1) * sizeof *level->cells);
    level->ncells = 0;
    for (size_t i = 0; i < n;) {
        struct timeline_cell c = {k[i].lane, k[i].bucket, 0, 0, k[i].key};
        const struct keyed *best = &k[i];
        for (; i < n && k[i].lane == c.lane && k[i].bucket == c.bucket; i++) {
            c.count += k[i].count;
            c.busy += k[i].busy;
            if (k[i].busy > best->busy || (k[i].busy == best->busy && k[i].count > best->count))
                best = &k[i]; /* ties keep the earlier, smaller key */
        }
        c.key = best->key;
        level->cells[level->ncells++] = c;
    }
}

/* The pyramid from the finest cells up; the finest levels dropped while all
 * of them pass the budget. Output lanes: a thread lane's process lane, and
 * the thread lane itself when they are in. */
static void build_levels(const struct merged *m, const uint32_t *process_of, size_t nprocess, bool threads,
                         size_t budget, struct timeline *out)
{
    size_t n = 1;
    int64_t first = out->first_ts, last = out->last_end > first ? out->last_end - 1 : first;
    while (n < 48 && (last >> (m->cells.shift + (int)n - 1)) - (first >> (m->cells.shift + (int)n - 1)) + 1 >
                         (int64_t)out->columns)
        n++;
    struct keyed *k = spoor_xmalloc((2 * m->cells.n + 1) * sizeof *k);
    size_t nk = 0;
    for (size_t c = 0; c < m->cells.n; c++) {
        uint64_t row = m->rows.keys[bucket_log_row(&m->cells, c)];
        uint32_t lane = (uint32_t)(row >> 32), key = (uint32_t)row;
        struct keyed cell = {process_of[lane], key, bucket_log_bucket(&m->cells, c), m->cells.rec[c].count,
                             m->cells.rec[c].sum};
        k[nk++] = cell;
        if (threads) {
            cell.lane = (uint32_t)nprocess + lane;
            k[nk++] = cell;
        }
    }
    struct timeline_level *levels = spoor_xcalloc(n, sizeof *levels);
    for (size_t j = 0; j < n; j++) {
        if (j)
            for (size_t i = 0; i < nk; i++)
                k[i].bucket >>= 1;
        nk = keyed_merge(k, nk, j > 0);
        build_level(k, nk, m->cells.shift + (int)j, &levels[j]);
    }
    free(k);
    size_t drop = n, total = 0;
    while (drop > 0 && total + levels[drop - 1].ncells <= budget)
        total += levels[--drop].ncells;
    if (drop == n) /* the coarsest alone is within 2 x the finest cells */
        drop--;
    for (size_t j = 0; j < drop; j++)
        free(levels[j].cells);
    memmove(levels, levels + drop, (n - drop) * sizeof *levels);
    out->levels = levels;
    out->nlevels = n - drop;
    out->nlevels_dropped = drop;
}

static int gid_cmp(const void *ctx, uint32_t a, uint32_t b)
{
    (void)ctx;
    return a < b ? -1 : a > b;
}

struct tile_ref {
    uint32_t lane;
    int64_t index;
    size_t id;
};

static int tile_order(const void *a, const void *b)
{
    const struct tile_ref *x = a, *y = b;
    if (x->lane != y->lane)
        return x->lane < y->lane ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

/* The largest K <= k for which tiles keeping at most K keep at most budget. */
static size_t fit_k(const struct timeline_tiles *t, size_t k, size_t budget)
{
    size_t lo = 0, hi = k;
    while (lo < hi) {
        size_t mid = lo + (hi - lo + 1) / 2, sum = 0;
        for (size_t i = 0; i < t->at.cells.n && sum <= budget; i++)
            sum += t->best[i].n < mid ? t->best[i].n : mid; /* more than k held: k kept, and mid <= k */
        if (sum <= budget)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

/* The workers' tiles at the narrowest width (from their widest on) at which
 * all keep at most the budget; should even a tile per lane keep more, every
 * tile keeps fewer (the largest K that fits). */
static void merge_tiles(struct timeline_run *run, uint32_t **lane_of, uint32_t **str_of, size_t nprocess,
                        struct timeline *out)
{
    size_t k = run->opts.tile_events;
    int shift = run->opts.tile_min_shift;
    for (int i = 0; i < run->threads; i++)
        shift = run->workers[i].tiles.at.shift > shift ? run->workers[i].tiles.at.shift : shift;
    struct timeline_tiles all = {0};
    bucket_sums_init(&all.at, shift);
    for (int i = 0; i < run->threads; i++)
        timeline_tiles_move(&all, &run->workers[i].tiles, lane_of[i], str_of[i], k, gid_cmp, NULL);
    int fit = bucket_sums_fit_shift(&all.at, run->opts.events, k);
    if (fit > shift) {
        struct timeline_tiles wide = {0};
        bucket_sums_init(&wide.at, fit);
        timeline_tiles_move(&wide, &all, NULL, NULL, k, gid_cmp, NULL);
        all = wide;
    }
    if (all.kept > run->opts.events)
        k = fit_k(&all, k, run->opts.events);
    struct tile_ref *refs = spoor_xmalloc((all.at.cells.n ? all.at.cells.n : 1) * sizeof *refs);
    for (size_t i = 0; i < all.at.cells.n; i++)
        refs[i] = (struct tile_ref){bucket_sums_row(&all.at, i), bucket_sums_bucket(&all.at, i), i};
    qsort(refs, all.at.cells.n, sizeof *refs, tile_order);
    out->tile_shift = all.at.shift;
    out->tile_events = k;
    out->ntiles = all.at.cells.n;
    out->tiles = spoor_xmalloc((out->ntiles ? out->ntiles : 1) * sizeof *out->tiles);
    for (size_t i = 0; i < out->ntiles; i++) {
        struct timeline_best *best = &all.best[refs[i].id];
        uint64_t events = all.at.count[refs[i].id];
        timeline_best_sort(best, k, gid_cmp, NULL);
        size_t kept = best->n;
        struct timeline_tile *t = &out->tiles[i];
        *t = (struct timeline_tile){(uint32_t)nprocess + refs[i].lane, refs[i].index, events, NULL, kept};
        t->kept = spoor_xmalloc((kept ? kept : 1) * sizeof *t->kept);
        memcpy(t->kept, best->ev, kept * sizeof *t->kept);
        out->kept += kept;
        out->omitted += events - kept;
        struct timeline_lane *lane = &out->lanes[t->lane];
        if (kept && t->kept[0].dur > lane->longest)
            lane->longest = t->kept[0].dur;
    }
    free(refs);
    timeline_tiles_free(&all);
}

/* Process lanes (pid, kind) first, then every thread lane; process_of maps a
 * thread lane to its process lane. */
static uint32_t *make_lanes(const struct thread_lane *threads, size_t n, struct timeline *out)
{
    uint32_t *process_of = spoor_xmalloc((n ? n : 1) * sizeof *process_of);
    struct thread_lane *procs = spoor_xmalloc((n ? n : 1) * sizeof *procs);
    for (size_t i = 0; i < n; i++)
        procs[i] = (struct thread_lane){threads[i].pid, SPOOR_NULL, threads[i].phases};
    qsort(procs, n, sizeof *procs, lane_order);
    size_t np = 0;
    for (size_t i = 0; i < n; i++)
        if (!np || lane_order(&procs[np - 1], &procs[i]))
            procs[np++] = procs[i];
    out->nprocess_lanes = np;
    out->nlanes = np + n;
    out->lanes = spoor_xcalloc(out->nlanes ? out->nlanes : 1, sizeof *out->lanes);
    for (size_t i = 0; i < np; i++)
        out->lanes[i] = (struct timeline_lane){procs[i].pid, SPOOR_NULL, procs[i].phases, 0};
    for (size_t i = 0; i < n; i++) {
        out->lanes[np + i] = (struct timeline_lane){threads[i].pid, threads[i].tid, threads[i].phases, 0};
        struct thread_lane key = {threads[i].pid, SPOOR_NULL, threads[i].phases};
        process_of[i] = (uint32_t)((struct thread_lane *)bsearch(&key, procs, np, sizeof *procs, lane_order) - procs);
    }
    free(procs);
    return process_of;
}

/* Threads (pid, tid) among the thread lanes (two lanes of a thread are adjacent). */
static size_t count_threads(const struct thread_lane *l, size_t n)
{
    size_t threads = 0;
    for (size_t i = 0; i < n; i++)
        threads += !i || l[i].pid != l[i - 1].pid || l[i].tid != l[i - 1].tid;
    return threads;
}

/* The cells (to the pyramid) and the tiles: two halves, run at once, that
 * read the workers' and the merged lanes and strings and fill apart fields
 * of out (the tiles only the lanes' longest). */
struct end_job {
    struct timeline_run *run;
    uint32_t **lane_of, **str_of;
    const uint32_t *process_of;
    struct timeline *out;
};

static void end_half(void *ctx, size_t task, int worker)
{
    (void)worker;
    struct end_job *j = ctx;
    struct timeline *out = j->out;
    if (task == 1) {
        merge_tiles(j->run, j->lane_of, j->str_of, out->nprocess_lanes, out);
        return;
    }
    struct merged m = {0};
    merge_cells(j->run, j->lane_of, j->str_of, &m);
    choose_width(&m, j->run->opts.cells);
    out->shift = m.cells.shift;
    if (out->events)
        build_levels(&m, j->process_of, out->nprocess_lanes, out->thread_lanes, 3 * j->run->opts.cells, out);
    bucket_log_free(&m.cells);
    spoor_id_map_free(&m.rows);
    free(m.longs);
}

void timeline_end(struct timeline_run *run, struct timeline *out)
{
    memset(out, 0, sizeof *out);
    for (int i = 0; i < run->threads; i++)
        timeline_worker_flush(&run->workers[i]);
    out->first_ts = INT64_MAX;
    out->last_end = INT64_MIN;
    out->columns = run->opts.columns;
    for (int i = 0; i < run->threads; i++) {
        const struct timeline_worker *w = &run->workers[i];
        out->events += w->events;
        out->out_of_range += w->out_of_range;
        out->first_ts = w->first_ts < out->first_ts ? w->first_ts : out->first_ts;
        out->last_end = w->last_end > out->last_end ? w->last_end : out->last_end;
    }
    if (!out->events)
        out->first_ts = out->last_end = SPOOR_NULL;
    uint32_t **str_of = merge_strings(run, out);
    struct thread_lane *threads;
    size_t nthreads;
    uint32_t **lane_of = merge_lanes(run, &threads, &nthreads);
    uint32_t *process_of = make_lanes(threads, nthreads, out);
    out->thread_lanes = count_threads(threads, nthreads) <= run->opts.thread_lanes;
    struct end_job job = {run, lane_of, str_of, process_of, out};
    spoor_parallel_for(2, run->threads, end_half, &job);
    free(process_of);
    free(threads);
    for (int i = 0; i < run->threads; i++) {
        struct timeline_worker *w = &run->workers[i];
        free(lane_of[i]);
        free(str_of[i]);
        spoor_strpool_free(w->strings);
        struct spoor_id_map *maps[] = {&w->pids, &w->tids, &w->lanes, &w->rows};
        for (size_t k = 0; k < 4; k++)
            spoor_id_map_free(maps[k]);
        free(w->longs);
        free(w->str_of);
        free(w->pending);
        free(w->lane_tile);
        timeline_tiles_free(&w->tiles);
    }
    free(lane_of);
    free(str_of);
    free(run->workers);
    free(run->phase_cats);
    free(run->phase_text);
    free(run);
}

void timeline_free(struct timeline *t)
{
    for (size_t j = 0; j < t->nlevels; j++)
        free(t->levels[j].cells);
    for (size_t i = 0; i < t->ntiles; i++)
        free(t->tiles[i].kept);
    free(t->levels);
    free(t->tiles);
    free(t->lanes);
    free(t->strings);
    spoor_strpool_free(t->pool);
    memset(t, 0, sizeof *t);
}
