/* The lifecycle pivot: records (entity, stage, time, attributes) into one row
 * per entity holding the first time and the count of each stage.
 *
 * The cascade scheduler's log names its worker in two fields (spoor_lc_spec):
 * the worker's value is put together per record, and a transfer's entity is
 * (dataset, worker), so such entities are looked up per record by the name
 * "DATASET @ HOST:WORKER" rather than per string id of the batch.
 *
 * Every worker pivots the batches it parses into its own entity table
 * (lc_entities.h: one row per entity); a batch is first mapped from its own
 * string ids to the worker's through id-indexed caches, so the per-record cost
 * is a few array lookups and a new entity in a batch costs one table lookup.
 * merge() keeps each entity with the first worker that saw it and folds the
 * other workers' rows of it in. "First" in a row means earliest in time, which
 * does not depend on how the log was split. */
#include "spoor/lifecycle.h"

#include "lc_entities.h"
#include "ops/lifecycle_pivot.h"
#include "util/parallel.h"
#include "util/grow.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One entity's row in the worker's table (lc_entities.h). */
struct row_layout {
    size_t times, attr_time, seen, attr, stride; /* byte offsets */
};

struct entities {
    struct lc_entities table;
    struct spoor_strpool *values;   /* attribute values (after merging: the first worker's ids) */
    struct spoor_lc_counts counts;
    uint64_t *home;                 /* merging: [id] = worker << 32 | id of the entity in the
                                     * first worker that has it too (0 = none) */
    uint32_t *merged_id;            /* after merging: [id] = merged id, 0 = folded into another */
};

/* A batch's (entity, worker, host) string ids and the entity they name;
 * entity 0 = an empty slot. */
struct trip {
    uint32_t name, worker, host, entity;
};

struct batch_cache {
    uint32_t *entity;               /* batch string id -> entity id (0 = not yet) */
    uint32_t *pending, *pending_hash; /* the batch's entities to look up: string id, hash */
    uint8_t *stage;                 /* batch string id -> 0 unknown, 1 not a stage, 2 + s */
    uint32_t *value[SPOOR_LC_MAX_FIELDS]; /* batch string id -> value id + 1 */
    size_t cap;
    uint32_t *row_entity;           /* entity_worker: row -> entity id */
    size_t row_cap;
    struct trip *trips;             /* entity_worker: (entity, worker, host) ids -> entity id */
    size_t ntrips;
    char *worker, *key;             /* a record's worker and entity name */
    size_t worker_cap, key_cap;
};

struct spoor_lc_pivot {
    const char *const *stages;
    size_t nstages;
    const char *const *attrs;
    size_t nattrs;
    const struct spoor_lc_spec *spec;   /* how the log names the worker */
    int worker_attr, last_attr;         /* attribute indexes, -1 = none */
    struct row_layout row;
    struct entities *workers;
    struct batch_cache *caches;
    int nworkers;
    uint64_t *where;                /* after merging: [merged id] = worker << 32 | id */
    size_t nmerged;
};

/* An entity's fields: first time and count of each stage, attribute value
 * ids (0 = none) with the time of the record each came from. */
struct entity_row {
    int64_t *times, *attr_time;
    uint32_t *seen, *attr;
};

static struct entity_row row_at(const struct spoor_lc_pivot *p, const struct entities *e, uint32_t id)
{
    unsigned char *r = lc_entities_row(&e->table, id);
    return (struct entity_row){.times = (int64_t *)(void *)(r + p->row.times),
                               .attr_time = (int64_t *)(void *)(r + p->row.attr_time),
                               .seen = (uint32_t *)(void *)(r + p->row.seen),
                               .attr = (uint32_t *)(void *)(r + p->row.attr)};
}

static void init_row(void *row, const void *ctx)
{
    const struct spoor_lc_pivot *p = ctx;
    memset(row, 0, p->row.stride);
    int64_t *times = (int64_t *)(void *)((unsigned char *)row + p->row.times);
    for (size_t s = 0; s < p->nstages; s++)
        times[s] = SPOOR_NULL;
}

static void entities_init(struct entities *e, const struct spoor_lc_pivot *p)
{
    *e = (struct entities){.values = spoor_strpool_new()};
    lc_entities_init(&e->table, p->row.stride, init_row, p);
}

static void entities_free(struct entities *e)
{
    lc_entities_free(&e->table);
    spoor_strpool_free(e->values);
    free(e->home);
    free(e->merged_id);
}

static int attr_index(const char *const *attrs, size_t nattrs, const char *name)
{
    for (size_t a = 0; name && a < nattrs; a++)
        if (!strcmp(attrs[a], name))
            return (int)a;
    return -1;
}

struct spoor_lc_pivot *spoor_lc_pivot_begin(int threads, const struct spoor_lc_spec *s, const char *const *attrs,
                                            size_t nattrs)
{
    struct spoor_lc_pivot *p = spoor_xcalloc(1, sizeof *p);
    size_t nstages = s->nstages;
    *p = (struct spoor_lc_pivot){.stages = s->stages, .nstages = nstages, .attrs = attrs, .nattrs = nattrs,
                                 .spec = s, .worker_attr = attr_index(attrs, nattrs, s->worker_field),
                                 .last_attr = attr_index(attrs, nattrs, s->last_field), .nworkers = threads};
    size_t times = nstages * sizeof(int64_t), attr_times = nattrs * sizeof(int64_t);
    size_t seen = nstages * sizeof(uint32_t), attr = nattrs * sizeof(uint32_t);
    p->row = (struct row_layout){.times = 0, .attr_time = times, .seen = times + attr_times,
                                 .attr = times + attr_times + seen,
                                 .stride = (times + attr_times + seen + attr + 7) / 8 * 8};
    p->workers = spoor_xcalloc((size_t)threads, sizeof *p->workers);
    p->caches = spoor_xcalloc((size_t)threads, sizeof *p->caches);
    for (int i = 0; i < threads; i++)
        entities_init(&p->workers[i], p);
    return p;
}

static void cache_prepare(struct batch_cache *c, size_t nstrings, size_t nattrs)
{
    struct spoor_lane lanes[4 + SPOOR_LC_MAX_FIELDS] = {SPOOR_LANE(c->entity), SPOOR_LANE(c->pending),
                                                        SPOOR_LANE(c->pending_hash), SPOOR_LANE(c->stage)};
    for (size_t a = 0; a < nattrs; a++)
        lanes[4 + a] = SPOOR_LANE(c->value[a]);
    spoor_reserve_lanes(&c->cap, nstrings, lanes, 4 + nattrs);
    memset(c->entity, 0, nstrings * sizeof *c->entity);
    memset(c->stage, 0, nstrings);
    for (size_t a = 0; a < nattrs; a++)
        memset(c->value[a], 0, nstrings * sizeof *c->value[a]);
}

/* Which listed stage the batch's string `id` names (see stage_of), worked
 * out on its first sight in the batch. */
static int learn_stage(const struct spoor_lc_pivot *p, struct batch_cache *c, const struct spoor_table *b,
                       uint32_t id)
{
    size_t len;
    const char *s = spoor_strpool_get(b->pool, id, &len);
    c->stage[id] = 1;
    for (size_t i = 0; i < p->nstages; i++)
        if (strlen(p->stages[i]) == len && memcmp(p->stages[i], s, len) == 0)
            c->stage[id] = (uint8_t)(2 + i);
    return c->stage[id] - 2;
}

/* The stage index of the batch's string `id`, or -1 when it is no listed stage. */
static inline int stage_of(const struct spoor_lc_pivot *p, struct batch_cache *c, const struct spoor_table *b,
                           uint32_t id)
{
    return c->stage[id] ? c->stage[id] - 2 : learn_stage(p, c, b, id);
}

/* Whether value `v` at time t should replace `have` at time t_have: earlier
 * wins (later for the last_field); at equal times the smaller string, so the
 * result is the same for any split of the log. */
static bool attr_wins(const struct entities *dst, uint32_t have, int64_t t_have, uint32_t v, int64_t t, bool last)
{
    if (!have || (last ? t > t_have : t < t_have))
        return true;
    return t == t_have && v != have &&
           strcmp(spoor_strpool_get(dst->values, v, NULL), spoor_strpool_get(dst->values, have, NULL)) < 0;
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

/* Room for n bytes in a growable buffer. */
static char *fit(char **buf, size_t *cap, size_t n)
{
    spoor_reserve((void **)buf, cap, n, 1);
    return *buf;
}

/* Row r's worker as the spec names it, in c->worker: "HOST:WORKER", or the
 * worker field alone on the controller's records (which log the full name)
 * and on records without a host. NULL when the row names no worker. */
static const char *worker_of(const struct spoor_lc_pivot *p, struct batch_cache *c, const struct spoor_table *b,
                             const struct spoor_column *wcol, const struct spoor_column *hcol, size_t r, size_t *len)
{
    char wbuf[64], hbuf[64];
    size_t wlen = 0, hlen = 0;
    const char *w = wcol ? attr_text(b, wcol, r, wbuf, sizeof wbuf, &wlen) : NULL;
    if (!w || !wlen)
        return NULL;
    const char *h = hcol ? attr_text(b, hcol, r, hbuf, sizeof hbuf, &hlen) : NULL;
    const char *ctl = p->spec->controller;
    bool whole = !h || !hlen || (ctl && strlen(ctl) == hlen && !memcmp(h, ctl, hlen));
    *len = whole ? wlen : hlen + 1 + wlen;
    char *out = fit(&c->worker, &c->worker_cap, *len);
    if (!whole) {
        memcpy(out, h, hlen);
        out[hlen] = ':';
    }
    memcpy(out + *len - wlen, w, wlen);
    return out;
}

/* A string column's id at row r, UINT32_MAX when null. */
static uint32_t str_id(const struct spoor_column *col, size_t r)
{
    return col && spoor_column_valid(col, r) ? col->str[r] : UINT32_MAX;
}

/* The slot of (name, worker, host) among the batch's: its entity, or an
 * empty slot (entity 0) holding the ids, to be filled. */
static struct trip *trip_slot(struct batch_cache *c, uint32_t name, uint32_t worker, uint32_t host)
{
    uint32_t h = name * 0x9E3779B1u ^ worker * 0x85EBCA77u ^ host * 0xC2B2AE3Du;
    size_t mask = c->ntrips - 1;
    for (size_t i = (h ^ h >> 15) & mask;; i = (i + 1) & mask) {
        struct trip *t = &c->trips[i];
        if (!t->entity) {
            *t = (struct trip){.name = name, .worker = worker, .host = host};
            return t;
        }
        if (t->name == name && t->worker == worker && t->host == host)
            return t;
    }
}

/* entity_worker: each pivoted row's entity, named "ENTITY @ WORKER" (the
 * entity alone when the record names no worker). An entity's records mostly
 * share a batch, so each (entity, worker, host) of string ids is looked up
 * by name once per batch. */
static void resolve_rows(const struct spoor_lc_pivot *p, struct entities *e, struct batch_cache *c,
                         const struct spoor_table *b, const struct spoor_column *wcol, const struct spoor_column *hcol)
{
    if (b->nrows > c->row_cap) {
        c->row_cap = b->nrows;
        c->row_entity = spoor_xrealloc(c->row_entity, c->row_cap * sizeof *c->row_entity);
        free(c->trips);
        for (c->ntrips = 64; c->ntrips < 2 * b->nrows;)
            c->ntrips *= 2;
        c->trips = spoor_xmalloc(c->ntrips * sizeof *c->trips);
    }
    memset(c->trips, 0, c->ntrips * sizeof *c->trips);
    bool by_ids = (!wcol || wcol->type == SPOOR_STR) && (!hcol || hcol->type == SPOOR_STR);
    for (size_t r = 0; r < b->nrows; r++) {
        uint32_t name = b->name[r];
        if (!name || b->ts[r] == SPOOR_NULL || stage_of(p, c, b, b->cat[r]) < 0)
            continue; /* a row pivot_map() does not pivot */
        struct trip *t = by_ids ? trip_slot(c, name, str_id(wcol, r), str_id(hcol, r)) : NULL;
        if (t && t->entity) {
            c->row_entity[r] = t->entity;
            continue;
        }
        size_t len, wlen = 0;
        const char *text = spoor_strpool_get(b->pool, name, &len);
        const char *w = worker_of(p, c, b, wcol, hcol, r, &wlen);
        size_t n = w ? len + 3 + wlen : len;
        char *key = fit(&c->key, &c->key_cap, n + 1);
        memcpy(key, text, len);
        if (w) {
            memcpy(key + len, " @ ", 3);
            memcpy(key + len + 3, w, wlen);
        }
        c->row_entity[r] = lc_entities_get(&e->table, key, n, (uint32_t)spoor_hash_bytes(key, n));
        if (t)
            t->entity = c->row_entity[r];
    }
}

/* Maps the batch's entities to the worker's ids before the rows are pivoted.
 * The table is far larger than the caches and the lookups are independent, so
 * each one's slot is prefetched a few lookups ahead. */
enum { PREFETCH_AHEAD = 8 };
static void resolve_entities(const struct spoor_lc_pivot *p, struct entities *e, struct batch_cache *c,
                             const struct spoor_table *b)
{
    size_t n = 0;
    for (size_t r = 0; r < b->nrows; r++) {
        uint32_t name = b->name[r];
        if (c->entity[name] || !name || b->ts[r] == SPOOR_NULL || stage_of(p, c, b, b->cat[r]) < 0)
            continue; /* known, or a row pivot_map() does not pivot */
        c->entity[name] = UINT32_MAX; /* listed once */
        c->pending[n] = name;
        c->pending_hash[n++] = spoor_strpool_hash(b->pool, name);
    }
    lc_entities_reserve(&e->table, n);
    for (size_t i = 0; i < n; i++) {
        if (i + PREFETCH_AHEAD < n)
            lc_entities_prefetch(&e->table, c->pending_hash[i + PREFETCH_AHEAD]);
        size_t len;
        const char *text = spoor_strpool_get(b->pool, c->pending[i], &len);
        c->entity[c->pending[i]] = lc_entities_get(&e->table, text, len, c->pending_hash[i]);
    }
}

static int pivot_map(void *ctx, int worker, const struct spoor_table *b)
{
    struct spoor_lc_pivot *p = ctx;
    if (!b->nrows) /* nothing to pivot (a chunk of bad lines); its caches may not exist yet */
        return SPOOR_OK;
    struct entities *e = &p->workers[worker];
    struct batch_cache *c = &p->caches[worker];
    size_t nstrings = spoor_strpool_count(b->pool);
    cache_prepare(c, nstrings, p->nattrs);
    const struct spoor_lc_spec *spec = p->spec;
    const struct spoor_column *wcol = spec->worker_field ? spoor_table_find_column(b, spec->worker_field) : NULL;
    const struct spoor_column *hcol = spec->host_field ? spoor_table_find_column(b, spec->host_field) : NULL;
    if (spec->entity_worker)
        resolve_rows(p, e, c, b, wcol, hcol);
    else
        resolve_entities(p, e, c, b);
    const struct spoor_column *cols[SPOOR_LC_MAX_FIELDS];
    for (size_t a = 0; a < p->nattrs; a++)
        cols[a] = spoor_table_find_column(b, p->attrs[a]);
    size_t na = p->nattrs;
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
        struct entity_row row = row_at(p, e, spec->entity_worker ? c->row_entity[r] : c->entity[name]);
        if (row.times[s] == SPOOR_NULL || t < row.times[s])
            row.times[s] = t;
        row.seen[s]++;
        for (size_t a = 0; a < na; a++) {
            bool last = (int)a == p->last_attr;
            if (!cols[a] || (row.attr[a] && (last ? row.attr_time[a] > t : row.attr_time[a] < t)))
                continue;
            uint32_t v;
            if ((int)a == p->worker_attr && hcol) {
                size_t len;
                const char *w = worker_of(p, c, b, wcol, hcol, r, &len);
                v = w ? spoor_strpool_intern(e->values, w, len) : 0;
            } else {
                v = value_id(e, c, a, b, cols[a], r);
            }
            if (v && attr_wins(e, row.attr[a], row.attr_time[a], v, t, last)) {
                row.attr[a] = v;
                row.attr_time[a] = t;
            }
        }
    }
    return SPOOR_OK;
}

struct spoor_sink spoor_lc_pivot_sink(struct spoor_lc_pivot *p)
{
    return (struct spoor_sink){.ctx = p, .map = pivot_map};
}

/* src's attribute values interned in dst once each: value_map[src id] = dst id. */
static uint32_t *map_values(struct entities *dst, const struct entities *src)
{
    size_t n = spoor_strpool_count(src->values);
    uint32_t *value_map = spoor_xcalloc(n, sizeof *value_map);
    for (size_t v = 1; v < n; v++) {
        size_t len;
        const char *text = spoor_strpool_get(src->values, (uint32_t)v, &len);
        value_map[v] = spoor_strpool_intern(dst->values, text, len);
    }
    return value_map;
}

/* Worker w's attribute value ids renumbered as the first worker's. */
static void adopt_values(const struct spoor_lc_pivot *p, int w)
{
    struct entities *e = &p->workers[w];
    uint32_t *value_map = map_values(&p->workers[0], e);
    for (uint32_t id = 1; id <= e->table.count; id++) {
        uint32_t *attr = row_at(p, e, id).attr;
        for (size_t a = 0; a < p->nattrs; a++)
            attr[a] = value_map[attr[a]];
    }
    free(value_map);
}

/* Merging looks each entity of worker w up in the workers before it, in
 * shares of its ids on several threads (the lookups only read). */
struct home_search {
    const struct spoor_lc_pivot *p;
    int w;
    size_t shares;
};

static void find_homes(void *ctx, size_t share, int thread)
{
    (void)thread;
    const struct home_search *hs = ctx;
    const struct entities *e = &hs->p->workers[hs->w];
    size_t n = e->table.count;
    uint32_t from = (uint32_t)(1 + share * n / hs->shares), to = (uint32_t)(1 + (share + 1) * n / hs->shares);
    for (uint32_t id = from; id < to; id++) {
        if (id + PREFETCH_AHEAD < to)
            for (int v = 0; v < hs->w; v++)
                lc_entities_prefetch(&hs->p->workers[v].table, e->table.hash[id + PREFETCH_AHEAD]);
        size_t len;
        const char *name = lc_entities_name(&e->table, id, &len);
        e->home[id] = 0;
        for (int v = 0; v < hs->w && !e->home[id]; v++) {
            uint32_t at = lc_entities_find_hashed(&hs->p->workers[v].table, name, len, e->table.hash[id]);
            e->home[id] = at ? (uint64_t)v << 32 | at : 0;
        }
    }
}

/* Folds row `from` into row `to` (attribute values as the first worker's). */
static void fold_row(const struct spoor_lc_pivot *p, struct entity_row to, struct entity_row from)
{
    for (size_t s = 0; s < p->nstages; s++) {
        int64_t t = from.times[s];
        if (t != SPOOR_NULL && (to.times[s] == SPOOR_NULL || t < to.times[s]))
            to.times[s] = t;
        to.seen[s] += from.seen[s];
    }
    for (size_t a = 0; a < p->nattrs; a++) {
        uint32_t v = from.attr[a];
        if (v && attr_wins(&p->workers[0], to.attr[a], to.attr_time[a], v, from.attr_time[a], (int)a == p->last_attr)) {
            to.attr[a] = v;
            to.attr_time[a] = from.attr_time[a];
        }
    }
}

/* The workers' tables are not copied into one: an entity stays in the first
 * worker that has it, the others' rows of it are folded into that one, and
 * merged ids list the entities worker by worker. Most entities are seen by one
 * worker only (the log is cut into large chunks), so this costs a lookup per
 * entity instead of an insertion. */
void spoor_lc_pivot_merge(struct spoor_lc_pivot *p)
{
    for (int w = 1; w < p->nworkers; w++) {
        struct entities *e = &p->workers[w];
        adopt_values(p, w);
        e->home = spoor_xmalloc((e->table.count + 1) * sizeof *e->home);
        struct home_search hs = {.p = p, .w = w, .shares = (size_t)p->nworkers * 4};
        spoor_parallel_for(hs.shares, p->nworkers, find_homes, &hs);
        for (uint32_t id = 1; id <= e->table.count; id++)
            if (e->home[id])
                fold_row(p, row_at(p, &p->workers[e->home[id] >> 32], (uint32_t)e->home[id]), row_at(p, e, id));
        struct spoor_lc_counts *to = &p->workers[0].counts;
        to->records += e->counts.records;
        to->other_stage += e->counts.other_stage;
        to->no_entity += e->counts.no_entity;
        to->no_time += e->counts.no_time;
    }
    size_t total = 0;
    for (int w = 0; w < p->nworkers; w++)
        total += p->workers[w].table.count;
    p->where = spoor_xmalloc((total + 1) * sizeof *p->where);
    for (int w = 0; w < p->nworkers; w++) {
        struct entities *e = &p->workers[w];
        e->merged_id = spoor_xcalloc(e->table.count + 1, sizeof *e->merged_id);
        for (uint32_t id = 1; id <= e->table.count; id++)
            if (!e->home || !e->home[id]) {
                e->merged_id[id] = (uint32_t)++p->nmerged;
                p->where[p->nmerged] = (uint64_t)w << 32 | id;
            }
        free(e->home);
        e->home = NULL;
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
        free(c->pending);
        free(c->pending_hash);
        free(c->stage);
        free(c->row_entity);
        free(c->trips);
        free(c->worker);
        free(c->key);
        for (size_t a = 0; a < p->nattrs; a++)
            free(c->value[a]);
    }
    free(p->workers);
    free(p->caches);
    free(p->where);
    free(p);
}

int spoor_lc_pivot_threads(const struct spoor_lc_pivot *p)
{
    return p->nworkers;
}

size_t spoor_lc_pivot_entities(const struct spoor_lc_pivot *p)
{
    return p->nmerged;
}

/* A merged id's worker and its id there. */
static const struct entities *merged_at(const struct spoor_lc_pivot *p, size_t id, uint32_t *local)
{
    *local = (uint32_t)p->where[id];
    return &p->workers[p->where[id] >> 32];
}

static struct entity_row merged_row(const struct spoor_lc_pivot *p, size_t id)
{
    uint32_t local;
    const struct entities *e = merged_at(p, id, &local);
    return row_at(p, e, local);
}

const char *spoor_lc_pivot_name(const struct spoor_lc_pivot *p, size_t id)
{
    uint32_t local;
    const struct entities *e = merged_at(p, id, &local);
    return lc_entities_name(&e->table, local, NULL);
}

size_t spoor_lc_pivot_find(const struct spoor_lc_pivot *p, const char *name, size_t len)
{
    uint32_t hash = (uint32_t)spoor_hash_bytes(name, len);
    for (int w = 0; w < p->nworkers; w++) { /* the first worker that has it keeps it */
        uint32_t id = lc_entities_find_hashed(&p->workers[w].table, name, len, hash);
        if (id)
            return p->workers[w].merged_id[id];
    }
    return 0;
}

const int64_t *spoor_lc_pivot_times(const struct spoor_lc_pivot *p, size_t id)
{
    return merged_row(p, id).times;
}

const uint32_t *spoor_lc_pivot_seen(const struct spoor_lc_pivot *p, size_t id)
{
    return merged_row(p, id).seen;
}

uint32_t spoor_lc_pivot_attr_id(const struct spoor_lc_pivot *p, size_t id, size_t attr)
{
    return merged_row(p, id).attr[attr];
}

const char *spoor_lc_pivot_attr(const struct spoor_lc_pivot *p, size_t id, size_t attr)
{
    return spoor_strpool_get(p->workers[0].values, spoor_lc_pivot_attr_id(p, id, attr), NULL);
}

struct spoor_lc_counts spoor_lc_pivot_counts(const struct spoor_lc_pivot *p)
{
    return p->workers[0].counts;
}
