/* The lifecycle recipe: a merged pivot's entities folded into delay totals,
 * per-group totals, per-kind missing/repeated stage counts, the slowest
 * entities and, with a second log, entity-by-entity differences and that
 * log's own groups; the boxes (lifecycle_boxes.c) from the columns the fold
 * leaves. */
#include "spoor/lifecycle.h"
#include "analyze/lifecycle.h"

#include "util/parallel.h"
#include "util/grow.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

size_t spoor_lc_kind_len(const char *name, size_t len)
{
    size_t n = strcspn(name, "(:");
    return n < len ? n : len;
}

double spoor_lc_relative(int64_t a, int64_t b)
{
    return a ? (double)(b - a) / (double)a : NAN;
}

static void stat_add(struct spoor_lc_stat *s, int64_t v)
{
    if (!s->count || v < s->min)
        s->min = v;
    if (!s->count || v > s->max)
        s->max = v;
    s->count++;
    s->sum += v;
}

/* Rows keyed by a string, in a pool; each row `size` bytes, zeroed when new. */
struct keyed {
    struct spoor_strpool *keys;
    void *rows;
    size_t size, cap;
};

/* The row id of a key. Keys are interned with their terminating NUL, so that
 * "" is not the pool's reserved id 0. */
static uint32_t keyed_id(struct keyed *k, const char *key, size_t len)
{
    char stack[256];
    char *buf = len < sizeof stack ? stack : spoor_xmalloc(len + 1);
    memcpy(buf, key, len);
    buf[len] = '\0';
    uint32_t id = spoor_strpool_intern(k->keys, buf, len + 1);
    if (buf != stack)
        free(buf);
    spoor_grow((void **)&k->rows, &k->cap, id, k->size);
    return id;
}

static void *keyed_row(const struct keyed *k, uint32_t id)
{
    return (char *)k->rows + id * k->size;
}

/* A --by group's row id by the value's id v in the pivot, looked up by text
 * once per distinct value rather than once per entity. */
struct group_ids {
    uint32_t *of_value;     /* pivot value id -> row id + 1 (0 = not yet) */
    size_t cap;
};

static uint32_t group_id(struct group_ids *ids, struct keyed *k, const struct spoor_lc_pivot *p, size_t entity,
                         size_t attr, uint32_t v)
{
    spoor_grow((void **)&ids->of_value, &ids->cap, v, sizeof *ids->of_value);
    if (!ids->of_value[v]) {
        const char *text = spoor_lc_pivot_attr(p, entity, attr);
        ids->of_value[v] = keyed_id(k, text, strlen(text)) + 1;
    }
    return ids->of_value[v] - 1;
}

static void keyed_free(struct keyed *k)
{
    spoor_strpool_free(k->keys);
    free(k->rows);
}

/* text (len bytes) as kept in the result's strings. */
static const char *kept(struct spoor_strpool *strings, const char *text, size_t len)
{
    return spoor_strpool_get(strings, spoor_strpool_intern(strings, text, len), NULL);
}

/* The rows (ids 1..n) copied out in key order; `name_at` is where each row
 * keeps its key pointer, which is set to the key interned in `strings`. */
static void *keyed_sorted(struct keyed *k, size_t name_at, struct spoor_strpool *strings, size_t *n,
                          int (*cmp)(const void *, const void *))
{
    *n = spoor_strpool_count(k->keys) - 1;
    char *out = spoor_xcalloc(*n ? *n : 1, k->size);
    for (size_t id = 1; id <= *n; id++) {
        size_t len;
        const char *key = spoor_strpool_get(k->keys, (uint32_t)id, &len);
        char *row = out + (id - 1) * k->size;
        memcpy(row, (char *)k->rows + id * k->size, k->size);
        const char *name = kept(strings, key, len - 1);
        memcpy(row + name_at, &name, sizeof name);
    }
    qsort(out, *n, k->size, cmp);
    keyed_free(k);
    return out;
}

/* Kinds are few and entities many: each kind's row id remembered in a small
 * direct-mapped memo keyed by the kind's length and first bytes, confirmed by
 * comparing the text. */
enum { KIND_WAYS = 64 };
struct kind_memo {
    struct {
        const char *text;
        size_t len;
        uint32_t id;
    } way[KIND_WAYS];
};

static uint32_t kind_id(struct kind_memo *m, struct keyed *kinds, const char *kind, size_t len)
{
    uint64_t head = 0;
    memcpy(&head, kind, len < 8 ? len : 8);
    size_t w = (size_t)(((head ^ len) * 0x9e3779b97f4a7c15ull) >> 58);
    if (m->way[w].text && m->way[w].len == len && memcmp(m->way[w].text, kind, len) == 0)
        return m->way[w].id;
    m->way[w].text = kind;
    m->way[w].len = len;
    return m->way[w].id = keyed_id(kinds, kind, len);
}

static int group_cmp(const void *a, const void *b)
{
    return strcmp(((const struct spoor_lc_group *)a)->value, ((const struct spoor_lc_group *)b)->value);
}

static int kind_cmp(const void *a, const void *b)
{
    return strcmp(((const struct spoor_lc_kind *)a)->kind, ((const struct spoor_lc_kind *)b)->kind);
}

/* Index of the fill field among the pivot's attributes (as spoor_lc_spec_fields lists them). */
static int fill_attr(const struct spoor_lc_spec *s)
{
    if (!s->fill_field)
        return -1;
    const char *fields[SPOOR_LC_MAX_FIELDS];
    size_t n = spoor_lc_spec_fields(s, fields);
    for (size_t i = 0; i < n; i++)
        if (!strcmp(fields[i], s->fill_field))
            return (int)i;
    return -1;
}

/* An entity's stage times with the fill rule applied and its delays; returns
 * whether a stage was filled. */
static bool entity_delays(const struct spoor_lc_spec *s, const struct spoor_lc_pivot *p, size_t id, int fill_at,
                          int64_t *t, int64_t *d)
{
    memcpy(t, spoor_lc_pivot_times(p, id), s->nstages * sizeof *t);
    bool filled = false;
    if (fill_at >= 0 && !strcmp(spoor_lc_pivot_attr(p, id, (size_t)fill_at), s->fill_value))
        for (size_t f = 0; f < s->nfills; f++) {
            int64_t *m = &t[s->fill[f].missing];
            if (*m == SPOOR_NULL && t[s->fill[f].source] != SPOOR_NULL) {
                *m = t[s->fill[f].source];
                filled = true;
            }
        }
    for (size_t k = 0; k < s->ndelays; k++) {
        int64_t a = t[s->delay[k].from], b = t[s->delay[k].to];
        d[k] = a == SPOOR_NULL || b == SPOOR_NULL ? SPOOR_NULL : b - a;
    }
    return filled;
}

/* Whether x ranks before y: larger key first, then the name. */
static bool ranks_before(int64_t kx, const char *x, int64_t ky, const char *y)
{
    return kx != ky ? kx > ky : strcmp(x, y) < 0;
}

/* Keeps the `cap` best entities by key, best first (key SPOOR_NULL never enters). */
struct ranking {
    struct spoor_lc_entity *e;
    int64_t *key;
    size_t n, cap;
};

static void rank_offer(struct ranking *r, int64_t key, const struct spoor_lc_entity *e)
{
    if (!r->cap || key == SPOOR_NULL)
        return;
    if (r->n == r->cap && !ranks_before(key, e->name, r->key[r->n - 1], r->e[r->n - 1].name))
        return;
    size_t i = r->n < r->cap ? r->n++ : r->n - 1;
    for (; i > 0 && ranks_before(key, e->name, r->key[i - 1], r->e[i - 1].name); i--) {
        r->e[i] = r->e[i - 1];
        r->key[i] = r->key[i - 1];
    }
    r->e[i] = *e;
    r->key[i] = key;
}

static void rank_init(struct ranking *r, size_t cap)
{
    *r = (struct ranking){.cap = cap};
    r->e = spoor_xcalloc(cap ? cap : 1, sizeof *r->e);
    r->key = spoor_xcalloc(cap ? cap : 1, sizeof *r->key);
}

/* Entity names in rankings point into the pivot until they are kept in `strings`. */
static struct spoor_lc_entity *rank_finish(struct ranking *r, struct spoor_strpool *strings, size_t *n)
{
    for (size_t i = 0; i < r->n; i++)
        r->e[i].name = kept(strings, r->e[i].name, strlen(r->e[i].name));
    free(r->key);
    *n = r->n;
    return r->e;
}

static void compare_entity(const struct spoor_lc_spec *s, const struct spoor_lc_pivot *other, int fill_at,
                           struct spoor_lc_entity *e, struct spoor_lc_result *out, struct ranking *diffs)
{
    size_t oid = spoor_lc_pivot_find(other, e->name, strlen(e->name));
    if (!oid) {
        out->only_here++;
        return;
    }
    out->matched++;
    int64_t t[SPOOR_LC_MAX_STAGES];
    entity_delays(s, other, oid, fill_at, t, e->other);
    for (size_t k = 0; k < s->ndelays; k++)
        if (e->delay[k] != SPOOR_NULL && e->other[k] != SPOOR_NULL) {
            out->diff[k].count++;
            out->diff[k].sum_a += e->delay[k];
            out->diff[k].sum_b += e->other[k];
        }
    int64_t a = e->delay[s->top_delay], b = e->other[s->top_delay];
    if (a != SPOOR_NULL && b != SPOOR_NULL)
        rank_offer(diffs, b > a ? b - a : a - b, e);
}

/* One share of the entities folded on its own: the counts in `sums`, its own
 * groups, kinds and rankings. Shares are added up at the end (fold_add), and
 * since groups and kinds are sorted by text and rankings ordered by key and
 * name, the result does not depend on how the entities were shared out. */
struct fold {
    struct spoor_lc_result sums;    /* total, filled, matched, only_here, diff */
    struct keyed groups[SPOOR_LC_MAX_BY], kinds;
    struct group_ids group_ids[SPOOR_LC_MAX_BY];
    struct kind_memo kind_memo;
    struct ranking top, diffs;
    const struct spoor_lc_columns *cols; /* shared: each fold writes its own entities' places */
};

static void fold_init(struct fold *f, const struct spoor_lc_spec *s, bool compared,
                      const struct spoor_lc_columns *cols)
{
    memset(f, 0, sizeof *f);
    f->cols = cols;
    f->kinds = (struct keyed){.keys = spoor_strpool_new(), .size = sizeof(struct spoor_lc_kind)};
    for (size_t g = 0; g < s->nby; g++)
        f->groups[g] = (struct keyed){.keys = spoor_strpool_new(), .size = sizeof(struct spoor_lc_group)};
    rank_init(&f->top, s->top);
    rank_init(&f->diffs, compared ? s->top : 0);
}

static void fold_entity(struct fold *f, const struct spoor_lc_spec *s, const struct spoor_lc_pivot *p,
                        const struct spoor_lc_pivot *other, int fill_at, size_t id)
{
    /* Not zeroed: only the name, delay[0..ndelays) and (when compared and
     * matched) other[] are read, and clearing all 264 bytes took a fifth of
     * the fold. */
    struct spoor_lc_entity e;
    e.name = spoor_lc_pivot_name(p, id);
    int64_t t[SPOOR_LC_MAX_STAGES];
    f->sums.filled += entity_delays(s, p, id, fill_at, t, e.delay);
    const uint32_t *seen = spoor_lc_pivot_seen(p, id);
    size_t klen = spoor_lc_kind_len(e.name, strlen(e.name));
    struct spoor_lc_kind *kind = keyed_row(&f->kinds, kind_id(&f->kind_memo, &f->kinds, e.name, klen));
    kind->entities++;
    bool complete = true;
    for (size_t st = 0; st < s->nstages; st++) {
        kind->missing[st] += t[st] == SPOOR_NULL;
        kind->repeated[st] += seen[st] > 1;
        complete &= t[st] != SPOOR_NULL;
    }
    kind->complete += complete;
    struct spoor_lc_group *g[SPOOR_LC_MAX_BY];
    for (size_t b = 0; b < s->nby; b++) {
        uint32_t v = spoor_lc_pivot_attr_id(p, id, b);
        f->cols->group[b][id - 1] = v;
        g[b] = keyed_row(&f->groups[b], group_id(&f->group_ids[b], &f->groups[b], p, id, b, v));
        g[b]->entities++;
    }
    for (size_t k = 0; k < s->ndelays; k++) {
        f->cols->delay[k][id - 1] = e.delay[k];
        if (e.delay[k] == SPOOR_NULL)
            continue;
        stat_add(&f->sums.total[k], e.delay[k]);
        for (size_t b = 0; b < s->nby; b++)
            stat_add(&g[b]->delay[k], e.delay[k]);
    }
    rank_offer(&f->top, e.delay[s->top_delay], &e);
    if (other)
        compare_entity(s, other, fill_at, &e, &f->sums, &f->diffs);
}

static void stat_merge(struct spoor_lc_stat *into, const struct spoor_lc_stat *from)
{
    if (!from->count)
        return;
    if (!into->count || from->min < into->min)
        into->min = from->min;
    if (!into->count || from->max > into->max)
        into->max = from->max;
    into->count += from->count;
    into->sum += from->sum;
}

/* The row of `from`'s key `id` in `into` (keys are kept with their NUL). */
static void *keyed_row_in(struct keyed *into, const struct keyed *from, uint32_t id)
{
    size_t len;
    const char *key = spoor_strpool_get(from->keys, id, &len);
    return keyed_row(into, keyed_id(into, key, len - 1));
}

/* Adds share `from` into `into` and frees it. */
static void fold_add(struct fold *into, struct fold *from, const struct spoor_lc_spec *s)
{
    struct spoor_lc_result *a = &into->sums, *b = &from->sums;
    a->filled += b->filled;
    a->matched += b->matched;
    a->only_here += b->only_here;
    for (size_t k = 0; k < s->ndelays; k++) {
        stat_merge(&a->total[k], &b->total[k]);
        a->diff[k].count += b->diff[k].count;
        a->diff[k].sum_a += b->diff[k].sum_a;
        a->diff[k].sum_b += b->diff[k].sum_b;
    }
    for (size_t by = 0; by < s->nby; by++) {
        for (uint32_t id = 1; id < spoor_strpool_count(from->groups[by].keys); id++) {
            const struct spoor_lc_group *src = keyed_row(&from->groups[by], id);
            struct spoor_lc_group *dst = keyed_row_in(&into->groups[by], &from->groups[by], id);
            dst->entities += src->entities;
            for (size_t k = 0; k < s->ndelays; k++)
                stat_merge(&dst->delay[k], &src->delay[k]);
        }
        keyed_free(&from->groups[by]);
        free(from->group_ids[by].of_value);
    }
    for (uint32_t id = 1; id < spoor_strpool_count(from->kinds.keys); id++) {
        const struct spoor_lc_kind *src = keyed_row(&from->kinds, id);
        struct spoor_lc_kind *dst = keyed_row_in(&into->kinds, &from->kinds, id);
        dst->entities += src->entities;
        dst->complete += src->complete;
        for (size_t st = 0; st < s->nstages; st++) {
            dst->missing[st] += src->missing[st];
            dst->repeated[st] += src->repeated[st];
        }
    }
    keyed_free(&from->kinds);
    for (size_t i = 0; i < from->top.n; i++)
        rank_offer(&into->top, from->top.key[i], &from->top.e[i]);
    for (size_t i = 0; i < from->diffs.n; i++)
        rank_offer(&into->diffs, from->diffs.key[i], &from->diffs.e[i]);
    free(from->top.e);
    free(from->top.key);
    free(from->diffs.e);
    free(from->diffs.key);
}

/* The entities are shared out in equal ranges of ids, one fold each, on as
 * many threads as loaded the log. */
struct shares {
    const struct spoor_lc_spec *s;
    const struct spoor_lc_pivot *p, *other;
    int fill_at;
    struct fold *folds;
    size_t nfolds, entities;
};

static void fold_share(void *ctx, size_t share, int worker)
{
    (void)worker;
    struct shares *sh = ctx;
    size_t from = 1 + share * sh->entities / sh->nfolds, to = 1 + (share + 1) * sh->entities / sh->nfolds;
    for (size_t id = from; id < to; id++)
        fold_entity(&sh->folds[share], sh->s, sh->p, sh->other, sh->fill_at, id);
}

/* The columns of n entities for the fold to fill. */
static void columns_init(struct spoor_lc_columns *c, const struct spoor_lc_spec *s, size_t n)
{
    *c = (struct spoor_lc_columns){.n = n};
    for (size_t k = 0; k < s->ndelays; k++)
        c->delay[k] = spoor_xmalloc((n ? n : 1) * sizeof *c->delay[k]);
    for (size_t b = 0; b < s->nby; b++)
        c->group[b] = spoor_xmalloc((n ? n : 1) * sizeof *c->group[b]);
}

static void columns_free(struct spoor_lc_columns *c)
{
    for (size_t k = 0; k < SPOOR_LC_MAX_DELAYS; k++)
        free(c->delay[k]);
    for (size_t b = 0; b < SPOOR_LC_MAX_BY; b++)
        free(c->group[b]);
}

/* The fold leaves each entity's value id of --by field b; the boxes want its
 * group's index among the sorted groups: found by text once per value. */
static void group_indexes(const struct spoor_lc_pivot *p, size_t b, const struct spoor_lc_result *r, uint32_t *group,
                          size_t n)
{
    uint32_t *index = NULL; /* value id -> index + 1 (0 = not yet) */
    size_t cap = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t v = group[i];
        spoor_grow((void **)&index, &cap, v, sizeof *index);
        if (!index[v]) {
            struct spoor_lc_group key = {.value = spoor_lc_pivot_attr(p, i + 1, b)};
            const struct spoor_lc_group *g = bsearch(&key, r->group[b], r->ngroups[b], sizeof key, group_cmp);
            index[v] = (uint32_t)(g - r->group[b]) + 1;
        }
        group[i] = index[v] - 1;
    }
    free(index);
}

/* --compare: the other log's groups, its entities folded on their own. */
static void other_groups(const struct spoor_lc_spec *s, const struct spoor_lc_pivot *other,
                         struct spoor_lc_result *out)
{
    struct spoor_lc_result o;
    spoor_lc_analyze(s, other, NULL, &o);
    for (size_t b = 0; b < s->nby; b++) {
        out->other_group[b] = o.group[b];
        out->nother_groups[b] = o.ngroups[b];
        o.group[b] = NULL;
        for (size_t i = 0; i < out->nother_groups[b]; i++) {
            struct spoor_lc_group *g = &out->other_group[b][i];
            g->value = kept(out->strings, g->value, strlen(g->value));
        }
    }
    spoor_lc_result_free(&o);
}

void spoor_lc_analyze(const struct spoor_lc_spec *s, const struct spoor_lc_pivot *p,
                      const struct spoor_lc_pivot *other, struct spoor_lc_result *out)
{
    int threads = spoor_lc_pivot_threads(p);
    struct shares sh = {.s = s, .p = p, .other = other, .fill_at = fill_attr(s),
                        .nfolds = (size_t)threads, .entities = spoor_lc_pivot_entities(p)};
    struct spoor_lc_columns cols;
    columns_init(&cols, s, sh.entities);
    sh.folds = spoor_xcalloc(sh.nfolds, sizeof *sh.folds);
    for (size_t i = 0; i < sh.nfolds; i++)
        fold_init(&sh.folds[i], s, other != NULL, &cols);
    spoor_parallel_for(sh.nfolds, threads, fold_share, &sh);
    struct fold *f = &sh.folds[0];
    for (size_t i = 1; i < sh.nfolds; i++)
        fold_add(f, &sh.folds[i], s);

    *out = f->sums;
    out->strings = spoor_strpool_new();
    out->counts = spoor_lc_pivot_counts(p);
    out->entities = sh.entities;
    for (size_t b = 0; b < s->nby; b++) {
        free(f->group_ids[b].of_value);
        out->group[b] = keyed_sorted(&f->groups[b], offsetof(struct spoor_lc_group, value), out->strings,
                                     &out->ngroups[b], group_cmp);
    }
    out->kind = keyed_sorted(&f->kinds, offsetof(struct spoor_lc_kind, kind), out->strings, &out->nkinds, kind_cmp);
    out->top = rank_finish(&f->top, out->strings, &out->ntop);
    out->top_diff = rank_finish(&f->diffs, out->strings, &out->ntop_diff);
    free(sh.folds);
    for (size_t b = 0; b < s->nby; b++)
        group_indexes(p, b, out, cols.group[b], cols.n);
    spoor_lc_boxes(s, &cols, threads, out);
    columns_free(&cols);
    if (other) {
        out->compared = true;
        out->other_counts = spoor_lc_pivot_counts(other);
        out->only_other = spoor_lc_pivot_entities(other) - out->matched;
        other_groups(s, other, out);
    }
}

void spoor_lc_result_free(struct spoor_lc_result *r)
{
    for (size_t b = 0; b < SPOOR_LC_MAX_BY; b++) {
        free(r->group[b]);
        free(r->other_group[b]);
    }
    free(r->kind);
    free(r->top);
    free(r->top_diff);
    spoor_strpool_free(r->strings);
    memset(r, 0, sizeof *r);
}
