/* The charts of `spoor report` beside the summary (see job_charts.h): per
 * worker, sums keyed by the worker's own cat, (cat, name) and pid ids, found
 * through per-batch caches; at the end, merged in sorted order. */
#include "analyze/job_charts.h"

#include "analyze/counter_samples.h"

#include "ops/event_bytes.h"
#include "spoor/error.h"
#include "util/grow.h"
#include "util/id_map.h"

#include <stdlib.h>
#include <string.h>

int job_bin(int64_t v)
{
    return v <= 0 ? 0 : 64 - __builtin_clzll((unsigned long long)v);
}

struct charts_worker {
    struct spoor_strpool *cats, *ops; /* ops: "cat\0name" */
    struct job_layer *layers;
    size_t layers_cap;
    struct job_latency *latency;
    size_t latency_cap;
    struct spoor_id_map pids;
    struct bucket_sums bandwidth, heatmap;
    /* per batch */
    uint32_t *cat_of, *op_of;       /* batch cat id, pair slot: worker id */
    uint8_t *class_of;              /* batch name id: class + 1, 0 = not yet */
    struct op_seen {                /* batch name id: its last cat and op id (a name rarely has two cats) */
        uint32_t cat, op;
    } *op_by_name;
    size_t cat_cap, class_cap, op_cap, op_by_name_cap;
    struct spoor_id_map pairs;      /* batch (cat << 32 | name): slot in op_of */
};

struct job_charts_run {
    struct charts_worker *workers;
    int threads;
    int64_t columns;
};

#define START_SHIFT 10

struct job_charts_run *job_charts_begin(size_t columns, int threads)
{
    struct job_charts_run *run = spoor_xcalloc(1, sizeof *run);
    run->threads = threads > 0 ? threads : 1;
    run->columns = (int64_t)(columns ? columns : 256);
    run->workers = spoor_xcalloc((size_t)run->threads, sizeof *run->workers);
    for (int i = 0; i < run->threads; i++) {
        struct charts_worker *w = &run->workers[i];
        w->cats = spoor_strpool_new();
        w->ops = spoor_strpool_new();
        bucket_sums_init(&w->bandwidth, START_SHIFT);
        bucket_sums_init(&w->heatmap, START_SHIFT);
    }
    return run;
}

static uint32_t cat_id(struct charts_worker *w, const struct spoor_table *b, uint32_t cat)
{
    if (w->cat_of[cat] == UINT32_MAX) {
        size_t len;
        const char *s = spoor_strpool_get(b->pool, cat, &len);
        w->cat_of[cat] = spoor_strpool_intern(w->cats, s, len);
        spoor_grow((void **)&w->layers, &w->layers_cap, w->cat_of[cat], sizeof *w->layers);
    }
    return w->cat_of[cat];
}

static uint32_t op_id(struct charts_worker *w, const struct spoor_table *b, uint32_t cat, uint32_t name)
{
    size_t n = w->pairs.n;
    uint32_t slot = spoor_id_map_id(&w->pairs, (uint64_t)cat << 32 | name);
    if (slot == n) {
        size_t clen, nlen;
        const char *c = spoor_strpool_get(b->pool, cat, &clen), *s = spoor_strpool_get(b->pool, name, &nlen);
        char *key = spoor_xmalloc(clen + nlen + 1);
        memcpy(key, c, clen + 1);
        memcpy(key + clen + 1, s, nlen);
        spoor_grow((void **)&w->op_of, &w->op_cap, slot, sizeof *w->op_of);
        w->op_of[slot] = spoor_strpool_intern(w->ops, key, clen + nlen + 1);
        free(key);
        spoor_grow((void **)&w->latency, &w->latency_cap, w->op_of[slot], sizeof *w->latency);
    }
    return w->op_of[slot];
}

/* The worker op id of row r, without a lookup while its name keeps its cat. */
static uint32_t row_op(struct charts_worker *w, const struct spoor_table *b, size_t r)
{
    struct op_seen *seen = &w->op_by_name[b->name[r]];
    if (seen->cat != b->cat[r])
        *seen = (struct op_seen){b->cat[r], op_id(w, b, b->cat[r], b->name[r])};
    return seen->op;
}

static enum event_op class_of(struct charts_worker *w, const struct spoor_table *b, uint32_t name)
{
    if (!w->class_of[name])
        w->class_of[name] = (uint8_t)(1 + event_op_class(spoor_strpool_get(b->pool, name, NULL)));
    return (enum event_op)(w->class_of[name] - 1);
}

static bool row_has_file(const struct spoor_column *const *file, size_t r)
{
    return (file[0] && spoor_column_valid(file[0], r)) || (file[1] && spoor_column_valid(file[1], r));
}

void job_charts_add(struct job_charts_run *run, int worker, const struct spoor_table *b)
{
    struct charts_worker *w = &run->workers[worker];
    size_t nstrings = spoor_strpool_count(b->pool);
    spoor_grow((void **)&w->cat_of, &w->cat_cap, nstrings, sizeof *w->cat_of);
    memset(w->cat_of, 0xff, nstrings * sizeof *w->cat_of);
    spoor_grow((void **)&w->class_of, &w->class_cap, nstrings, sizeof *w->class_of);
    memset(w->class_of, 0, nstrings * sizeof *w->class_of);
    spoor_grow((void **)&w->op_by_name, &w->op_by_name_cap, nstrings, sizeof *w->op_by_name);
    memset(w->op_by_name, 0xff, nstrings * sizeof *w->op_by_name);
    spoor_id_map_free(&w->pairs);
    struct event_bytes eb;
    event_bytes_bind(&eb, b);
    const struct spoor_column *file[2] = {spoor_table_find_column(b, "fhash"), spoor_table_find_column(b, "fname")};
    struct counter_cats samples = counter_cats_of(b);
    for (size_t r = 0; r < b->nrows; r++) {
        if (b->ph[r] == 'M' || counter_sample(&samples, b, r))
            continue;
        uint32_t cat = cat_id(w, b, b->cat[r]);
        struct job_layer *l = &w->layers[cat];
        enum event_op op = class_of(w, b, b->name[r]);
        int64_t dur = b->dur[r] != SPOOR_NULL && b->dur[r] > 0 ? b->dur[r] : 0, ts = b->ts[r];
        l->op_count[op]++;
        l->op_dur[op] += dur;
        if (b->dur[r] != SPOOR_NULL) {
            uint32_t id = row_op(w, b, r); /* may move w->latency */
            w->latency[id].count[job_bin(dur)]++;
        }
        int64_t bytes = event_bytes_of(&eb, b, r);
        if (bytes != SPOOR_NULL) {
            l->size_count[job_bin(bytes)]++;
            l->size_bytes[job_bin(bytes)] += bytes;
        }
        if (ts == SPOOR_NULL)
            continue;
        if (bytes != SPOOR_NULL) {
            bucket_sums_fit(&w->bandwidth, ts, ts, run->columns);
            bucket_sums_add(&w->bandwidth, cat, ts >> w->bandwidth.shift, 1, bytes);
        }
        if (bytes != SPOOR_NULL || row_has_file(file, r)) {
            uint32_t pid = spoor_id_map_id(&w->pids, (uint64_t)b->pid[r]);
            bucket_sums_fit(&w->heatmap, ts, ts + dur, run->columns);
            bucket_sums_span(&w->heatmap, pid, ts, ts + dur, 1);
        }
    }
}

static int text_order(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

static int key_order(const void *a, const void *b)
{
    const char *x = *(const char *const *)a, *y = *(const char *const *)b;
    int c = strcmp(x, y);
    return c ? c : strcmp(x + strlen(x) + 1, y + strlen(y) + 1);
}

static int pid_order(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

/* Every worker's strings of one kind (cats, or "cat\0name" keys), sorted and
 * unique, interned in pool; map[w][id] is the sorted index. */
static const char **merge_keys(struct job_charts_run *run, size_t offset, bool pairs, struct spoor_strpool *pool,
                               size_t *n, uint32_t **map)
{
    size_t total = 0;
    for (int i = 0; i < run->threads; i++)
        total += spoor_strpool_count(*(struct spoor_strpool **)((char *)&run->workers[i] + offset));
    const char **all = spoor_xmalloc((total ? total : 1) * sizeof *all);
    size_t k = 0;
    for (int i = 0; i < run->threads; i++) {
        struct spoor_strpool *p = *(struct spoor_strpool **)((char *)&run->workers[i] + offset);
        for (uint32_t id = pairs; id < spoor_strpool_count(p); id++) { /* a pair key is never "" (id 0) */
            size_t len;
            const char *s = spoor_strpool_get(p, id, &len);
            all[k++] = spoor_strpool_get(pool, spoor_strpool_intern(pool, s, len), NULL);
        }
    }
    qsort(all, k, sizeof *all, pairs ? key_order : text_order);
    size_t u = 0;
    for (size_t i = 0; i < k; i++)
        if (!u || all[u - 1] != all[i])
            all[u++] = all[i];
    for (int i = 0; i < run->threads; i++) {
        struct spoor_strpool *p = *(struct spoor_strpool **)((char *)&run->workers[i] + offset);
        map[i] = spoor_xmalloc((spoor_strpool_count(p) + 1) * sizeof **map);
        for (uint32_t id = pairs; id < spoor_strpool_count(p); id++) {
            size_t len;
            const char *s = spoor_strpool_get(p, id, &len);
            const char *key = spoor_strpool_get(pool, spoor_strpool_find(pool, s, len), NULL);
            map[i][id] = (uint32_t)((const char **)bsearch(&key, all, u, sizeof *all, pairs ? key_order : text_order) - all);
        }
    }
    *n = u;
    return all;
}

/* A time chart of every worker, rows renamed, at the narrowest width that fits. */
static void merge_time(struct job_charts_run *run, size_t offset, uint32_t **row_of, struct bucket_sums *out)
{
    int shift = START_SHIFT;
    for (int i = 0; i < run->threads; i++) {
        const struct bucket_sums *s = (const struct bucket_sums *)((char *)&run->workers[i] + offset);
        shift = s->shift > shift ? s->shift : shift;
    }
    bucket_sums_init(out, shift);
    for (int i = 0; i < run->threads; i++) {
        struct bucket_sums *s = (struct bucket_sums *)((char *)&run->workers[i] + offset);
        for (size_t c = 0; c < s->cells.n; c++)
            bucket_sums_add(out, row_of[i][bucket_sums_row(s, c)], bucket_sums_bucket(s, c) >> (shift - s->shift),
                            s->count[c], s->sum[c]);
        bucket_sums_free(s);
    }
    while (bucket_sums_range(out) > run->columns)
        bucket_sums_coarsen(out, out->shift + 1);
}

void job_charts_end(struct job_charts_run *run, struct job_charts *out)
{
    memset(out, 0, sizeof *out);
    out->pool = spoor_strpool_new();
    uint32_t **cat_of = spoor_xcalloc((size_t)run->threads, sizeof *cat_of);
    uint32_t **op_of = spoor_xcalloc((size_t)run->threads, sizeof *op_of);
    uint32_t **pid_of = spoor_xcalloc((size_t)run->threads, sizeof *pid_of);
    out->cats = merge_keys(run, offsetof(struct charts_worker, cats), false, out->pool, &out->ncats, cat_of);
    const char **ops = merge_keys(run, offsetof(struct charts_worker, ops), true, out->pool, &out->nops, op_of);
    out->layers = spoor_xcalloc(out->ncats ? out->ncats : 1, sizeof *out->layers);
    out->latency = spoor_xcalloc(out->nops ? out->nops : 1, sizeof *out->latency);
    out->op_cat = ops;
    out->op_name = spoor_xmalloc((out->nops ? out->nops : 1) * sizeof *out->op_name);
    for (size_t i = 0; i < out->nops; i++)
        out->op_name[i] = ops[i] + strlen(ops[i]) + 1;
    size_t npids = 0;
    for (int i = 0; i < run->threads; i++)
        npids += run->workers[i].pids.n;
    out->pids = spoor_xmalloc((npids ? npids : 1) * sizeof *out->pids);
    for (int i = 0; i < run->threads; i++)
        for (size_t p = 0; p < run->workers[i].pids.n; p++)
            out->pids[out->npids++] = (int64_t)run->workers[i].pids.keys[p];
    qsort(out->pids, out->npids, sizeof *out->pids, pid_order);
    npids = 0;
    for (size_t i = 0; i < out->npids; i++)
        if (!npids || out->pids[npids - 1] != out->pids[i])
            out->pids[npids++] = out->pids[i];
    out->npids = npids;
    for (int i = 0; i < run->threads; i++) {
        struct charts_worker *w = &run->workers[i];
        pid_of[i] = spoor_xmalloc((w->pids.n + 1) * sizeof **pid_of);
        for (size_t p = 0; p < w->pids.n; p++) {
            int64_t pid = (int64_t)w->pids.keys[p];
            pid_of[i][p] = (uint32_t)((int64_t *)bsearch(&pid, out->pids, npids, sizeof pid, pid_order) - out->pids);
        }
        for (uint32_t c = 0; c < spoor_strpool_count(w->cats) && c < w->layers_cap; c++) { /* "" may have none */
            struct job_layer *to = &out->layers[cat_of[i][c]], *from = &w->layers[c];
            for (int k = 0; k < EVENT_OPS; k++) {
                to->op_count[k] += from->op_count[k];
                to->op_dur[k] += from->op_dur[k];
            }
            for (int k = 0; k < JOB_BINS; k++) {
                to->size_count[k] += from->size_count[k];
                to->size_bytes[k] += from->size_bytes[k];
            }
        }
        for (uint32_t o = 1; o < spoor_strpool_count(w->ops) && o < w->latency_cap; o++)
            for (int k = 0; k < JOB_BINS; k++)
                out->latency[op_of[i][o]].count[k] += w->latency[o].count[k];
    }
    merge_time(run, offsetof(struct charts_worker, bandwidth), cat_of, &out->bandwidth);
    merge_time(run, offsetof(struct charts_worker, heatmap), pid_of, &out->heatmap);
    for (int i = 0; i < run->threads; i++) {
        struct charts_worker *w = &run->workers[i];
        spoor_strpool_free(w->cats);
        spoor_strpool_free(w->ops);
        free(w->layers);
        free(w->latency);
        spoor_id_map_free(&w->pids);
        spoor_id_map_free(&w->pairs);
        free(w->cat_of);
        free(w->op_of);
        free(w->op_by_name);
        free(w->class_of);
        free(cat_of[i]);
        free(op_of[i]);
        free(pid_of[i]);
    }
    free(cat_of);
    free(op_of);
    free(pid_of);
    free(run->workers);
    free(run);
}

void job_charts_free(struct job_charts *c)
{
    free(c->cats);
    free(c->layers);
    free((void *)c->op_cat);
    free((void *)c->op_name);
    free(c->latency);
    free(c->pids);
    bucket_sums_free(&c->bandwidth);
    bucket_sums_free(&c->heatmap);
    spoor_strpool_free(c->pool);
    memset(c, 0, sizeof *c);
}
