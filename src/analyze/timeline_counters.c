/* The timeline's counter tracks (see timeline_counters.h): per worker,
 * mpstat samples summed per (track, bucket) at a width that keeps the span
 * within 2^16 buckets, and pmon rows listed (a GPU's sample is the sum of
 * several rows, which two batches may share); at the end the GPU samples
 * summed, everything merged and the levels cut from one sorted list.
 *
 * The sheets, for the timeline view (web/timeline.js), JSON only:
 *   timeline_tracks    one row per track, its index the row's: name, group
 *                      ("cpu" for a per-CPU track, else ""), source (the
 *                      rows' cat), samples, first_ts and last_ts;
 *   timeline_counters  one row per (level, track), coarsest level first:
 *                      width_ns, first (the first bucket's index) and lists
 *                      of equal length, one per bucket with samples: gap
 *                      (buckets after the previous; 0 first), value (the
 *                      mean utilisation in %, two decimals) and samples. A
 *                      point is drawn at (first + gaps so far + 0.5) x
 *                      width_ns. */
#include "analyze/timeline_counters.h"

#include "analyze/counter_samples.h"

#include "spoor/error.h"
#include "spoor/report.h"
#include "util/bucket_sums.h"
#include "util/grow.h"
#include "util/id_map.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define START_SHIFT 20        /* 1 ms */
#define FINEST_BUCKETS 65536  /* over the span, at most */

enum track_kind { TRACK_CPU, TRACK_GPU };

/* A track's key: kind << 32 | (number + 1); the number of "cpu all" is -1. */
static uint64_t track_key(enum track_kind kind, int64_t number)
{
    return (uint64_t)kind << 32 | (uint32_t)(number + 1);
}

struct gpu_row {
    uint64_t key;
    int64_t ts, sum;
};

struct counters_worker {
    struct spoor_id_map tracks;     /* track keys */
    uint64_t *samples;              /* per track: mpstat samples */
    int64_t *first, *last;
    size_t track_cap;
    struct bucket_sums sums;        /* mpstat: row a worker track */
    struct gpu_row *gpu;
    size_t ngpu, gpu_cap;
    int64_t *cpu_of;                /* per batch: cpu column string id -> number + 2, 0 unknown, 1 none */
    size_t cpu_cap;
};

struct counters_run {
    struct counters_worker *workers;
    int threads;
    size_t columns, points;
};

struct counters_run *counters_begin(size_t columns, size_t points, int threads)
{
    struct counters_run *run = spoor_xcalloc(1, sizeof *run);
    run->threads = threads > 0 ? threads : 1;
    run->columns = columns ? columns : 2048;
    run->points = points ? points : 131072;
    run->workers = spoor_xcalloc((size_t)run->threads, sizeof *run->workers);
    for (int i = 0; i < run->threads; i++)
        bucket_sums_init(&run->workers[i].sums, START_SHIFT);
    return run;
}

/* A number cell of row r, false when there is none, or when it is beyond
 * any percentage or index (so sums of hundredths cannot overflow). */
static bool number_at(const struct spoor_column *c, size_t r, double *v)
{
    if (!c || !c->typed || c->type == SPOOR_STR || !spoor_column_valid(c, r))
        return false;
    *v = c->type == SPOOR_F64 ? c->f64[r] : (double)c->i64[r];
    return fabs(*v) < 1e9;
}

/* The CPU of an mpstat row: -1 for "all", false when it names none. */
static bool cpu_at(struct counters_worker *w, const struct spoor_table *b, const struct spoor_column *c, size_t r,
                   int64_t *cpu)
{
    double v;
    if (number_at(c, r, &v)) {
        *cpu = (int64_t)v;
        return v >= 0 && v < 1e6;
    }
    if (!c || c->type != SPOOR_STR || !spoor_column_valid(c, r))
        return false;
    uint32_t id = c->str[r];
    if (!w->cpu_of[id]) {
        const char *s = spoor_strpool_get(b->pool, id, NULL);
        char *end;
        long n = strtol(s, &end, 10);
        w->cpu_of[id] = !strcmp(s, "all") ? 1 : end != s && !*end && n >= 0 && n < 1000000 ? n + 2 : -1;
    }
    *cpu = w->cpu_of[id] - 2;
    return w->cpu_of[id] > 0;
}

static uint32_t worker_track(struct counters_worker *w, uint64_t key)
{
    size_t n = w->tracks.n;
    uint32_t id = spoor_id_map_id(&w->tracks, key);
    if (id == n) {
        struct spoor_lane lanes[] = {SPOOR_LANE(w->samples), SPOOR_LANE(w->first), SPOOR_LANE(w->last)};
        spoor_reserve_lanes(&w->track_cap, id + 1, lanes, 3);
        w->samples[id] = 0;
        w->first[id] = INT64_MAX;
        w->last[id] = INT64_MIN;
    }
    return id;
}

void counters_add(struct counters_run *run, int worker, const struct spoor_table *b)
{
    struct counters_worker *w = &run->workers[worker];
    struct counter_cats cats = counter_cats_of(b);
    if (cats.mpstat == UINT32_MAX && cats.pmon == UINT32_MAX)
        return;
    size_t nstrings = spoor_strpool_count(b->pool);
    spoor_grow((void **)&w->cpu_of, &w->cpu_cap, nstrings, sizeof *w->cpu_of);
    memset(w->cpu_of, 0, nstrings * sizeof *w->cpu_of);
    const struct spoor_column *cpu = spoor_table_find_column(b, "cpu"), *idle = spoor_table_find_column(b, "idle");
    const struct spoor_column *gpu = spoor_table_find_column(b, "gpu"), *sm = spoor_table_find_column(b, "sm");
    for (size_t r = 0; r < b->nrows; r++) {
        int64_t ts = b->ts[r], number;
        double v, id;
        if (ts == SPOOR_NULL || !counter_sample(&cats, b, r))
            continue;
        if (b->cat[r] == cats.mpstat && number_at(idle, r, &v) && cpu_at(w, b, cpu, r, &number)) {
            uint32_t t = worker_track(w, track_key(TRACK_CPU, number));
            bucket_sums_fit(&w->sums, ts, ts + 1, FINEST_BUCKETS);
            if (!bucket_sums_add(&w->sums, t, ts >> w->sums.shift, 1, llround((100.0 - v) * 100.0)))
                continue;
            w->samples[t]++;
            w->first[t] = ts < w->first[t] ? ts : w->first[t];
            w->last[t] = ts > w->last[t] ? ts : w->last[t];
        } else if (b->cat[r] == cats.pmon && number_at(gpu, r, &id) && id >= 0 && id < 1e6) {
            spoor_reserve((void **)&w->gpu, &w->gpu_cap, w->ngpu + 1, sizeof *w->gpu);
            /* a row without sm still says the GPU was sampled; sum INT64_MIN marks it */
            w->gpu[w->ngpu++] = (struct gpu_row){track_key(TRACK_GPU, (int64_t)id), ts,
                                                 number_at(sm, r, &v) ? llround(v * 100.0) : INT64_MIN};
        }
    }
}

/* ---- the end ---- */

/* The page's order: "cpu all", the GPUs, then each CPU, by number. */
static uint64_t track_rank(uint64_t key)
{
    bool per_cpu = key >> 32 == TRACK_CPU && (uint32_t)key != 0;
    return (uint64_t)per_cpu << 63 | key;
}

static int rank_order(const void *a, const void *b)
{
    uint64_t x = track_rank(*(const uint64_t *)a), y = track_rank(*(const uint64_t *)b);
    return x < y ? -1 : x > y;
}

static int gpu_order(const void *pa, const void *pb)
{
    const struct gpu_row *a = pa, *b = pb;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return a->ts < b->ts ? -1 : a->ts > b->ts;
}

static int cell_order(const void *pa, const void *pb)
{
    const struct counter_point *a = pa, *b = pb;
    if (a->track != b->track)
        return a->track < b->track ? -1 : 1;
    return a->bucket < b->bucket ? -1 : a->bucket > b->bucket;
}

static void name_track(struct counters *out, uint64_t key, struct counter_track *t)
{
    int64_t number = (int64_t)(uint32_t)key - 1;
    bool cpu = key >> 32 == TRACK_CPU;
    char buf[32];
    int n = number < 0 ? snprintf(buf, sizeof buf, "cpu all")
                       : snprintf(buf, sizeof buf, "%s %lld", cpu ? "cpu" : "gpu", (long long)number);
    t->name = spoor_strpool_get(out->pool, spoor_strpool_intern(out->pool, buf, (size_t)n), NULL);
    t->group = cpu && number >= 0 ? "cpu" : "";
    t->source = cpu ? "mpstat" : "pmon";
    t->first = INT64_MAX;
    t->last = INT64_MIN;
}

static uint32_t track_of(const uint64_t *keys, size_t n, uint64_t key)
{
    return (uint32_t)((const uint64_t *)bsearch(&key, keys, n, sizeof *keys, rank_order) - keys);
}

static void sample(struct counter_track *t, int64_t ts, uint64_t samples)
{
    t->samples += samples;
    t->first = ts < t->first ? ts : t->first;
    t->last = ts > t->last ? ts : t->last;
}

/* Every track's sorted keys, the tracks named. */
static uint64_t *merge_tracks(struct counters_run *run, struct counters *out)
{
    size_t total = 0;
    for (int i = 0; i < run->threads; i++) {
        struct counters_worker *w = &run->workers[i];
        total += w->tracks.n + w->ngpu;
    }
    uint64_t *keys = spoor_xmalloc((total ? total : 1) * sizeof *keys);
    size_t n = 0;
    for (int i = 0; i < run->threads; i++) {
        struct counters_worker *w = &run->workers[i];
        for (size_t t = 0; t < w->tracks.n; t++)
            keys[n++] = w->tracks.keys[t];
        for (size_t g = 0; g < w->ngpu; g++)
            keys[n++] = w->gpu[g].key;
    }
    qsort(keys, n, sizeof *keys, rank_order);
    size_t u = 0;
    for (size_t i = 0; i < n; i++)
        if (!u || keys[u - 1] != keys[i])
            keys[u++] = keys[i];
    out->ntracks = u;
    out->tracks = spoor_xcalloc(u ? u : 1, sizeof *out->tracks);
    for (size_t i = 0; i < u; i++)
        name_track(out, keys[i], &out->tracks[i]);
    return keys;
}

/* The GPU samples: rows of one (GPU, ts) summed; into sums and the tracks. */
static void gpu_samples(struct counters_run *run, struct counters *out, const uint64_t *keys,
                        struct bucket_sums *sums)
{
    size_t total = 0;
    for (int i = 0; i < run->threads; i++)
        total += run->workers[i].ngpu;
    struct gpu_row *rows = spoor_xmalloc((total ? total : 1) * sizeof *rows);
    size_t n = 0;
    for (int i = 0; i < run->threads; i++)
        for (size_t g = 0; g < run->workers[i].ngpu; g++)
            rows[n++] = run->workers[i].gpu[g];
    qsort(rows, n, sizeof *rows, gpu_order);
    for (size_t i = 0; i < n;) {
        size_t j = i;
        int64_t sum = INT64_MIN;
        for (; j < n && rows[j].key == rows[i].key && rows[j].ts == rows[i].ts; j++)
            if (rows[j].sum != INT64_MIN)
                sum = (sum == INT64_MIN ? 0 : sum) + rows[j].sum;
        uint32_t t = track_of(keys, out->ntracks, rows[i].key);
        if (sum != INT64_MIN) {
            bucket_sums_fit(sums, rows[i].ts, rows[i].ts + 1, FINEST_BUCKETS);
            if (bucket_sums_add(sums, t, rows[i].ts >> sums->shift, 1, sum))
                sample(&out->tracks[t], rows[i].ts, 1);
        }
        i = j;
    }
    free(rows);
}

/* The highest set bit of a nonzero v. */
static int high_bit(uint64_t v) { return 63 - __builtin_clzll(v); }

/* The shift above `shift` up to which no two cells of a track share a
 * bucket (cells by track, then bucket); `shift` itself when one holds two
 * samples already. */
static int finest_shift(const struct counter_point *cells, size_t n, int shift)
{
    int extra = 62 - shift;
    for (size_t i = 0; i < n; i++) {
        if (cells[i].samples > 1)
            return shift;
        if (i && cells[i].track == cells[i - 1].track) {
            int h = high_bit((uint64_t)(cells[i].bucket ^ cells[i - 1].bucket));
            extra = h < extra ? h : extra;
        }
    }
    return shift + extra;
}

/* Cells (by track, then bucket at `shift`) merged into buckets of 2^to ns;
 * points NULL: only counted. */
static size_t level_points(const struct counter_point *cells, size_t n, int shift, int to,
                           struct counter_point *points)
{
    size_t k = 0;
    int d = to - shift;
    for (size_t i = 0; i < n; i++) {
        int64_t bucket = cells[i].bucket >> d;
        if (!i || cells[i - 1].track != cells[i].track || cells[i - 1].bucket >> d != bucket) {
            if (points)
                points[k] = (struct counter_point){cells[i].track, bucket, 0, 0};
            k++;
        }
        if (points) {
            points[k - 1].samples += cells[i].samples;
            points[k - 1].sum += cells[i].sum;
        }
    }
    return k;
}

static void cut_levels(struct counters_run *run, struct counters *out, const struct bucket_sums *sums)
{
    size_t n = sums->cells.n;
    if (!n)
        return;
    struct counter_point *cells = spoor_xmalloc(n * sizeof *cells);
    for (size_t i = 0; i < n; i++)
        cells[i] = (struct counter_point){bucket_sums_row(sums, i), bucket_sums_bucket(sums, i), sums->count[i],
                                          sums->sum[i]};
    qsort(cells, n, sizeof *cells, cell_order);
    int shift = sums->shift, coarsest = shift;
    while ((sums->hi >> (coarsest - shift)) - (sums->lo >> (coarsest - shift)) + 1 > (int64_t)run->columns)
        coarsest++;
    int finest = finest_shift(cells, n, shift);
    finest = finest < coarsest ? finest : coarsest;
    out->levels = spoor_xcalloc((size_t)(coarsest - finest + 1), sizeof *out->levels);
    size_t total = 0;
    for (int s = coarsest; s >= finest; s--) {
        size_t k = level_points(cells, n, shift, s, NULL);
        if (out->nlevels && total + k > run->points) {
            out->nlevels_dropped = (size_t)(s - finest + 1);
            break;
        }
        total += k;
        struct counter_level *lv = &out->levels[out->nlevels++];
        lv->shift = s;
        lv->points = spoor_xmalloc(k * sizeof *lv->points);
        lv->n = level_points(cells, n, shift, s, lv->points);
    }
    free(cells);
}

void counters_end(struct counters_run *run, struct counters *out)
{
    memset(out, 0, sizeof *out);
    out->pool = spoor_strpool_new();
    uint64_t *keys = merge_tracks(run, out);
    struct bucket_sums sums;
    int shift = START_SHIFT;
    for (int i = 0; i < run->threads; i++)
        shift = run->workers[i].sums.shift > shift ? run->workers[i].sums.shift : shift;
    bucket_sums_init(&sums, shift);
    for (int i = 0; i < run->threads; i++) {
        struct counters_worker *w = &run->workers[i];
        for (size_t t = 0; t < w->tracks.n; t++) {
            struct counter_track *to = &out->tracks[track_of(keys, out->ntracks, w->tracks.keys[t])];
            if (w->samples[t]) {
                sample(to, w->first[t], w->samples[t]);
                sample(to, w->last[t], 0);
            }
        }
        for (size_t c = 0; c < w->sums.cells.n; c++)
            bucket_sums_add(&sums, track_of(keys, out->ntracks, w->tracks.keys[bucket_sums_row(&w->sums, c)]),
                            bucket_sums_bucket(&w->sums, c) >> (shift - w->sums.shift), w->sums.count[c],
                            w->sums.sum[c]);
    }
    gpu_samples(run, out, keys, &sums);
    while (bucket_sums_range(&sums) > FINEST_BUCKETS)
        bucket_sums_coarsen(&sums, sums.shift + 1);
    cut_levels(run, out, &sums);
    bucket_sums_free(&sums);
    free(keys);
    for (int i = 0; i < run->threads; i++) {
        struct counters_worker *w = &run->workers[i];
        spoor_id_map_free(&w->tracks);
        free(w->samples);
        free(w->first);
        free(w->last);
        bucket_sums_free(&w->sums);
        free(w->gpu);
        free(w->cpu_of);
    }
    free(run->workers);
    free(run);
}

void counters_free(struct counters *c)
{
    for (size_t i = 0; i < c->nlevels; i++)
        free(c->levels[i].points);
    free(c->levels);
    free(c->tracks);
    spoor_strpool_free(c->pool);
    memset(c, 0, sizeof *c);
}

#define JSON_ONLY SPOOR_FORMAT_BIT(SPOOR_FORMAT_JSON)

static struct spoor_sheet *list(int digits) { return spoor_sheet_list_new(SPOOR_CU_NONE, digits); }

void counters_sheets(struct spoor_report *r, const struct counters *c)
{
    static const struct spoor_sheet_col tcols[] = {
        {"name", SPOOR_CU_NONE, 0, SPOOR_HINT_TIMELINE},    {"group", SPOOR_CU_NONE, 0, SPOOR_HINT_TIMELINE},
        {"source", SPOOR_CU_NONE, 0, SPOOR_HINT_TIMELINE},  {"samples", SPOOR_CU_COUNT, 0, SPOOR_HINT_TIMELINE},
        {"first_ts", SPOOR_CU_NS, 0, SPOOR_HINT_TIMELINE},  {"last_ts", SPOOR_CU_NS, 0, SPOOR_HINT_TIMELINE}};
    struct spoor_sheet *s = spoor_report_table(r, "timeline_tracks", JSON_ONLY, tcols, 6);
    for (size_t i = 0; i < c->ntracks; i++) {
        const struct counter_track *t = &c->tracks[i];
        spoor_sheet_text(s, t->name);
        spoor_sheet_text(s, t->group);
        spoor_sheet_name(s, t->source);
        spoor_sheet_count(s, t->samples);
        spoor_sheet_int_or_null(s, t->samples ? t->first : SPOOR_NULL, SPOOR_NULL);
        spoor_sheet_int_or_null(s, t->samples ? t->last : SPOOR_NULL, SPOOR_NULL);
    }
    static const struct spoor_sheet_col cols[] = {
        {"level", SPOOR_CU_NONE, 0, SPOOR_HINT_TIMELINE}, {"track", SPOOR_CU_NONE, 0, SPOOR_HINT_TIMELINE},
        {"width_ns", SPOOR_CU_NS, 0, SPOOR_HINT_TIMELINE}, {"first", SPOOR_CU_NONE, 0, SPOOR_HINT_TIMELINE},
        {"gap", SPOOR_CU_NONE, 0, SPOOR_HINT_TIMELINE},   {"value", SPOOR_CU_NONE, 0, SPOOR_HINT_TIMELINE},
        {"samples", SPOOR_CU_COUNT, 0, SPOOR_HINT_TIMELINE}};
    s = spoor_report_table(r, "timeline_counters", JSON_ONLY, cols, 7);
    for (size_t j = 0; j < c->nlevels; j++) {
        const struct counter_level *lv = &c->levels[j];
        for (size_t p = 0; p < lv->n;) {
            uint32_t track = lv->points[p].track;
            spoor_sheet_int(s, (int64_t)j);
            spoor_sheet_int(s, track);
            spoor_sheet_int(s, (int64_t)1 << lv->shift);
            spoor_sheet_int(s, lv->points[p].bucket);
            struct spoor_sheet *gap = list(0), *value = list(2), *samples = list(0);
            for (int64_t prev = lv->points[p].bucket; p < lv->n && lv->points[p].track == track; p++) {
                const struct counter_point *pt = &lv->points[p];
                spoor_sheet_int(gap, pt->bucket - prev);
                prev = pt->bucket;
                spoor_sheet_float(value, (double)pt->sum / (double)pt->samples / 100.0);
                spoor_sheet_count(samples, pt->samples);
            }
            spoor_sheet_sheet(s, gap);
            spoor_sheet_sheet(s, value);
            spoor_sheet_sheet(s, samples);
        }
    }
}
