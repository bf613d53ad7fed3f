/* The lifecycle pivot: records (entity, stage, time, attributes) into one row
 * per entity holding the first time and the count of each stage.
 *
 * Every worker pivots the batches it parses into its own entity table (keyed
 * by name in a string pool); a batch is first mapped from its own string ids
 * to the worker's through id-indexed caches, so the per-record cost is a few
 * array lookups. merge() folds the workers' tables into the first. "First"
 * means earliest in time, which does not depend on how the log was split. */
#include "spoor/lifecycle.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct entities {
    struct spoor_strpool *names;    /* entity id = pool id */
    struct spoor_strpool *values;   /* attribute values */
    int64_t *times;                 /* [id * nstages + s] */
    uint32_t *seen;                 /* [id * nstages + s] */
    uint32_t *attr;                 /* [id * nattrs + a]: value id, 0 = none */
    int64_t *attr_time;             /* [id * nattrs + a]: time of the record it came from */
    size_t cap;
    struct spoor_lc_counts counts;
};

struct batch_cache {
    uint32_t *entity;               /* batch string id -> entity id + 1 (0 = not yet) */
    uint8_t *stage;                 /* batch string id -> 0 unknown, 1 not a stage, 2 + s */
    uint32_t *value[SPOOR_LC_MAX_BY + 1]; /* batch string id -> value id + 1 */
    size_t cap;
};

struct spoor_lc_pivot {
    const char *const *stages;
    size_t nstages;
    const char *const *attrs;
    size_t nattrs;
    struct entities *workers;
    struct batch_cache *caches;
    int nworkers;
};

static void entities_init(struct entities *e)
{
    *e = (struct entities){.names = spoor_strpool_new(), .values = spoor_strpool_new()};
}

static void entities_free(struct entities *e)
{
    spoor_strpool_free(e->names);
    spoor_strpool_free(e->values);
    free(e->times);
    free(e->seen);
    free(e->attr);
    free(e->attr_time);
}

/* The entity's id, its rows created (all stages unseen) on first sight. */
static uint32_t entity_id(struct entities *e, const struct spoor_lc_pivot *p, const char *name, size_t len)
{
    uint32_t id = spoor_strpool_intern(e->names, name, len);
    if (id < e->cap)
        return id;
    size_t cap = e->cap ? e->cap * 2 : 4096;
    while (cap <= id)
        cap *= 2;
    size_t ns = p->nstages, na = p->nattrs;
    e->times = spoor_xrealloc(e->times, cap * ns * sizeof *e->times);
    e->seen = spoor_xrealloc(e->seen, cap * ns * sizeof *e->seen);
    e->attr = spoor_xrealloc(e->attr, (cap * na + 1) * sizeof *e->attr);
    e->attr_time = spoor_xrealloc(e->attr_time, (cap * na + 1) * sizeof *e->attr_time);
    for (size_t i = e->cap * ns; i < cap * ns; i++)
        e->times[i] = SPOOR_NULL;
    memset(e->seen + e->cap * ns, 0, (cap - e->cap) * ns * sizeof *e->seen);
    memset(e->attr + e->cap * na, 0, (cap - e->cap) * na * sizeof *e->attr);
    e->cap = cap;
    return id;
}

struct spoor_lc_pivot *spoor_lc_pivot_begin(int threads, const char *const *stages, size_t nstages,
                                            const char *const *attrs, size_t nattrs)
{
    struct spoor_lc_pivot *p = spoor_xcalloc(1, sizeof *p);
    *p = (struct spoor_lc_pivot){.stages = stages, .nstages = nstages, .attrs = attrs, .nattrs = nattrs,
                                 .nworkers = threads};
    p->workers = spoor_xcalloc((size_t)threads, sizeof *p->workers);
    p->caches = spoor_xcalloc((size_t)threads, sizeof *p->caches);
    for (int i = 0; i < threads; i++)
        entities_init(&p->workers[i]);
    return p;
}

static void cache_prepare(struct batch_cache *c, size_t nstrings, size_t nattrs)
{
    if (nstrings > c->cap) {
        c->cap = nstrings * 2;
        c->entity = spoor_xrealloc(c->entity, c->cap * sizeof *c->entity);
        c->stage = spoor_xrealloc(c->stage, c->cap);
        for (size_t a = 0; a < nattrs; a++)
            c->value[a] = spoor_xrealloc(c->value[a], c->cap * sizeof *c->value[a]);
    }
    memset(c->entity, 0, nstrings * sizeof *c->entity);
    memset(c->stage, 0, nstrings);
    for (size_t a = 0; a < nattrs; a++)
        memset(c->value[a], 0, nstrings * sizeof *c->value[a]);
}

static int stage_of(const struct spoor_lc_pivot *p, struct batch_cache *c, const struct spoor_table *b, uint32_t id)
{
    if (!c->stage[id]) {
        size_t len;
        const char *s = spoor_strpool_get(b->pool, id, &len);
        c->stage[id] = 1;
        for (size_t i = 0; i < p->nstages; i++)
            if (strlen(p->stages[i]) == len && memcmp(p->stages[i], s, len) == 0)
                c->stage[id] = (uint8_t)(2 + i);
    }
    return c->stage[id] - 2;
}

/* A row's attribute value as text in buf (numbers printed), or NULL when absent. */
static const char *attr_text(const struct spoor_table *b, const struct spoor_column *col, size_t r, char *buf,
                             size_t cap, size_t *len)
{
    if (!spoor_column_valid(col, r))
        return NULL;
    if (col->type == SPOOR_STR)
        return spoor_strpool_get(b->pool, col->str[r], len);
    int n = col->type == SPOOR_I64 ? snprintf(buf, cap, "%" PRId64, col->i64[r]) : snprintf(buf, cap, "%.17g", col->f64[r]);
    *len = (size_t)n;
    return buf;
}

static uint32_t value_id(struct entities *e, struct batch_cache *c, size_t a, const struct spoor_table *b,
                         const struct spoor_column *col, size_t r)
{
    if (col->type == SPOOR_STR && spoor_column_valid(col, r) && c->value[a][col->str[r]])
        return c->value[a][col->str[r]] - 1;
    char buf[64];
    size_t len;
    const char *s = attr_text(b, col, r, buf, sizeof buf, &len);
    if (!s || !len)
        return 0;
    uint32_t v = spoor_strpool_intern(e->values, s, len);
    if (col->type == SPOOR_STR)
        c->value[a][col->str[r]] = v + 1;
    return v;
}

static int pivot_map(void *ctx, int worker, const struct spoor_table *b)
{
    struct spoor_lc_pivot *p = ctx;
    struct entities *e = &p->workers[worker];
    struct batch_cache *c = &p->caches[worker];
    size_t nstrings = spoor_strpool_count(b->pool);
    cache_prepare(c, nstrings, p->nattrs);
    const struct spoor_column *cols[SPOOR_LC_MAX_BY + 1];
    for (size_t a = 0; a < p->nattrs; a++)
        cols[a] = spoor_table_find_column(b, p->attrs[a]);
    size_t ns = p->nstages, na = p->nattrs;
    e->counts.records += b->nrows;
    for (size_t r = 0; r < b->nrows; r++) {
        int s = stage_of(p, c, b, b->cat[r]);
        if (s < 0) {
            e->counts.other_stage++;
            continue;
        }
        uint32_t name = b->name[r];
        int64_t t = b->ts[r];
        if (!name) {
            e->counts.no_entity++;
            continue;
        }
        if (t == SPOOR_NULL) {
            e->counts.no_time++;
            continue;
        }
        if (!c->entity[name]) {
            size_t len;
            const char *n = spoor_strpool_get(b->pool, name, &len);
            c->entity[name] = entity_id(e, p, n, len) + 1;
        }
        size_t id = c->entity[name] - 1;
        int64_t *first = &e->times[id * ns + (size_t)s];
        if (*first == SPOOR_NULL || t < *first)
            *first = t;
        e->seen[id * ns + (size_t)s]++;
        for (size_t a = 0; a < na; a++) {
            if (!cols[a])
                continue;
            size_t k = id * na + a;
            if (e->attr[k] && e->attr_time[k] <= t)
                continue;
            uint32_t v = value_id(e, c, a, b, cols[a], r);
            if (v) {
                e->attr[k] = v;
                e->attr_time[k] = t;
            }
        }
    }
    return SPOOR_OK;
}

struct spoor_sink spoor_lc_pivot_sink(struct spoor_lc_pivot *p)
{
    return (struct spoor_sink){.ctx = p, .map = pivot_map};
}

/* Whether value `v` at time t should replace `have` at time t_have: earlier
 * wins; at equal times the smaller string, so the result is the same for any
 * split of the log. */
static bool attr_wins(const struct entities *dst, uint32_t have, int64_t t_have, const char *v, int64_t t)
{
    if (!have || t < t_have)
        return true;
    return t == t_have && strcmp(v, spoor_strpool_get(dst->values, have, NULL)) < 0;
}

static void merge_into(struct entities *dst, const struct entities *src, const struct spoor_lc_pivot *p)
{
    size_t ns = p->nstages, na = p->nattrs;
    for (size_t sid = 1; sid < spoor_strpool_count(src->names); sid++) {
        size_t len;
        const char *name = spoor_strpool_get(src->names, (uint32_t)sid, &len);
        size_t id = entity_id(dst, p, name, len);
        for (size_t s = 0; s < ns; s++) {
            int64_t t = src->times[sid * ns + s];
            int64_t *first = &dst->times[id * ns + s];
            if (t != SPOOR_NULL && (*first == SPOOR_NULL || t < *first))
                *first = t;
            dst->seen[id * ns + s] += src->seen[sid * ns + s];
        }
        for (size_t a = 0; a < na; a++) {
            uint32_t v = src->attr[sid * na + a];
            if (!v)
                continue;
            size_t vlen;
            const char *text = spoor_strpool_get(src->values, v, &vlen);
            size_t k = id * na + a;
            if (attr_wins(dst, dst->attr[k], dst->attr_time[k], text, src->attr_time[sid * na + a])) {
                dst->attr[k] = spoor_strpool_intern(dst->values, text, vlen);
                dst->attr_time[k] = src->attr_time[sid * na + a];
            }
        }
    }
    dst->counts.records += src->counts.records;
    dst->counts.other_stage += src->counts.other_stage;
    dst->counts.no_entity += src->counts.no_entity;
    dst->counts.no_time += src->counts.no_time;
}

void spoor_lc_pivot_merge(struct spoor_lc_pivot *p)
{
    for (int i = 1; i < p->nworkers; i++) {
        merge_into(&p->workers[0], &p->workers[i], p);
        entities_free(&p->workers[i]);
        entities_init(&p->workers[i]);
    }
}

void spoor_lc_pivot_free(struct spoor_lc_pivot *p)
{
    if (!p)
        return;
    for (int i = 0; i < p->nworkers; i++) {
        entities_free(&p->workers[i]);
        struct batch_cache *c = &p->caches[i];
        free(c->entity);
        free(c->stage);
        for (size_t a = 0; a < p->nattrs; a++)
            free(c->value[a]);
    }
    free(p->workers);
    free(p->caches);
    free(p);
}

size_t spoor_lc_pivot_entities(const struct spoor_lc_pivot *p)
{
    return spoor_strpool_count(p->workers[0].names) - 1;
}

const char *spoor_lc_pivot_name(const struct spoor_lc_pivot *p, size_t id)
{
    return spoor_strpool_get(p->workers[0].names, (uint32_t)id, NULL);
}

size_t spoor_lc_pivot_find(const struct spoor_lc_pivot *p, const char *name, size_t len)
{
    uint32_t id = spoor_strpool_find(p->workers[0].names, name, len);
    return id == UINT32_MAX ? 0 : id;
}

const int64_t *spoor_lc_pivot_times(const struct spoor_lc_pivot *p, size_t id)
{
    return &p->workers[0].times[id * p->nstages];
}

const uint32_t *spoor_lc_pivot_seen(const struct spoor_lc_pivot *p, size_t id)
{
    return &p->workers[0].seen[id * p->nstages];
}

const char *spoor_lc_pivot_attr(const struct spoor_lc_pivot *p, size_t id, size_t attr)
{
    return spoor_strpool_get(p->workers[0].values, p->workers[0].attr[id * p->nattrs + attr], NULL);
}

struct spoor_lc_counts spoor_lc_pivot_counts(const struct spoor_lc_pivot *p)
{
    return p->workers[0].counts;
}
