/* Grouping and aggregating the selected rows of events in one pass: each
 * row's keys become words (string ids, integers, phase letters, source
 * numbers; a null mask last), numbered by util's id map. */
#include "sql/native/internal.h"
#include "util/grow.h"
#include "util/parallel.h"

#include <stdlib.h>
#include <string.h>

/* Sources with the same name are one group, as their text is. */
static uint32_t *source_canon(const struct spoor_view *v)
{
    uint32_t *canon = spoor_xmalloc((v->nsources + 1) * sizeof *canon);
    for (size_t i = 0; i < v->nsources; i++) {
        canon[i] = (uint32_t)i;
        for (size_t j = 0; j < i; j++)
            if (!strcmp(v->sources[i], v->sources[j])) {
                canon[i] = (uint32_t)j;
                break;
            }
    }
    return canon;
}

struct key {
    const struct spoor_view *v;
    uint32_t *canon;        /* SOURCE */
};

static inline __attribute__((always_inline)) bool key_word(const struct key *k, size_t row, uint64_t *w)
{
    const struct spoor_view *v = k->v;
    if (spoor_view_is_null(v, row)) {
        *w = 0;
        return false;
    }
    switch (v->kind) {
    case SPOOR_VIEW_I64: *w = (uint64_t)v->i64[row]; break;
    case SPOOR_VIEW_STR: *w = v->str[row]; break;
    case SPOOR_VIEW_PH: *w = v->ph[row]; break;
    case SPOOR_VIEW_SOURCE: *w = v->src[row] < v->nsources ? k->canon[v->src[row]] : v->src[row]; break;
    default: *w = 0; break;
    }
    return true;
}

/* One word per key, then the null mask. */
static void row_words(const struct key *keys, size_t nkeys, size_t row, uint64_t *w)
{
    uint64_t nulls = 0;
    for (size_t k = 0; k < nkeys; k++)
        nulls |= (uint64_t)!key_word(&keys[k], row, &w[k]) << k;
    w[nkeys] = nulls;
}

static void grow_groups(struct native_groups *g, size_t naggs)
{
    struct spoor_lane lanes[] = {SPOOR_LANE(g->first_row), {(void **)&g->acc, (naggs ? naggs : 1) * sizeof *g->acc}};
    spoor_reserve_lanes_to(&g->cap, g->n + 1, lanes, sizeof lanes / sizeof *lanes);
}

/* Group `id` of the key map, given empty accumulators and `row` (a row of
 * it) when the map has just handed the id out. */
static inline size_t group_of(struct native_groups *g, uint32_t id, size_t row, size_t naggs)
{
    if (id < g->n)
        return id;
    if (g->n == g->cap)
        grow_groups(g, naggs);
    g->first_row[id] = row;
    memset(g->acc + id * naggs, 0, naggs * sizeof *g->acc);
    return g->n++;
}

static inline size_t find(struct native_groups *g, const uint64_t *w, size_t row, size_t naggs)
{
    return group_of(g, spoor_id_map_id_words(&g->keys, w), row, naggs);
}

void native_cell_at(const struct spoor_view *v, size_t row, struct sql_cell *c)
{
    if (spoor_view_is_null(v, row)) {
        c->type = SQLITE_NULL;
    } else if (v->kind == SPOOR_VIEW_I64) {
        c->type = SQLITE_INTEGER;
        c->i = v->i64[row];
    } else if (v->kind == SPOOR_VIEW_F64) {
        c->type = SQLITE_FLOAT;
        c->f = v->f64[row];
    } else if (v->kind == SPOOR_VIEW_PH) {
        c->type = SQLITE_TEXT;
        c->text = (const char *)&v->ph[row];
        c->len = 1;
    } else {
        char phbuf[2];
        c->type = SQLITE_TEXT;
        c->text = spoor_view_text(v, row, phbuf, &c->len);
    }
}

/* min and max: the general comparison, per row. */
static void accumulate_extreme(const struct native_agg *a, const struct spoor_view *v, size_t row,
                               struct native_acc *acc)
{
    if (spoor_view_is_null(v, row))
        return;
    acc->n++;
    struct sql_cell c;
    native_cell_at(v, row, &c);
    int cmp = acc->n == 1 ? 0 : native_cell_cmp(&c, &acc->ext);
    if (acc->n == 1 || (a->kind == AGG_MIN ? cmp < 0 : cmp > 0))
        acc->ext = c;
}

/* Rows are grouped and aggregated a block at a time, one aggregate over the
 * whole block before the next, so each inner loop does one thing: this is
 * most of a query's time. Without a WHERE the rows of a block are
 * consecutive, and the loops read the columns straight (vectorised) instead
 * of through row numbers. */
enum { BLOCK = 1024 };

struct block {
    size_t n;
    size_t start;           /* rows start, start + 1, ... unless `rows` */
    const uint32_t *rows;   /* the block's rows (from the selection), or NULL */
    uint32_t group[BLOCK];
    uint64_t word[BLOCK];   /* packed keys */
};

/* Row i of the block. The hot loops are inlined twice, with rows a constant
 * NULL and with b->rows, so the contiguous one reads columns straight. */
static inline __attribute__((always_inline)) size_t row_of(const struct block *b, const uint32_t *rows, size_t i)
{
    return rows ? rows[i] : b->start + i;
}

/* Up to two 32-bit keys (string ids, letters, sources) in one word, each as
 * value + 1 with 0 for null: one compare per probe. Key k's half of every
 * row of the block, with one loop per kind of column. */
static inline __attribute__((always_inline)) void pack_key_rows(const struct key *key, unsigned shift,
                                                                struct block *b, const uint32_t *rows)
{
    const struct spoor_view *v = key->v;
    if (v->kind == SPOOR_VIEW_STR && !v->valid) { /* null is id 0 */
        for (size_t i = 0; i < b->n; i++) {
            uint64_t id = v->str[row_of(b, rows, i)];
            b->word[i] |= (id + (id != 0)) << shift;
        }
        return;
    }
    for (size_t i = 0; i < b->n; i++) {
        uint64_t w;
        if (key_word(key, row_of(b, rows, i), &w))
            b->word[i] |= (w + 1) << shift;
    }
}

static void pack_key(const struct key *key, size_t k, struct block *b)
{
    if (b->rows)
        pack_key_rows(key, 32 * (unsigned)k, b, b->rows);
    else
        pack_key_rows(key, 32 * (unsigned)k, b, NULL);
}

/* The group of a packed word: the rows of a block seldom repeat their
 * neighbour's, so the map's last key is not asked. */
static inline size_t find_packed(struct native_groups *g, uint64_t word, size_t row, size_t naggs)
{
    return group_of(g, spoor_id_map_lookup(&g->keys, &word, 1), row, naggs);
}

/* sum, total, avg of an integer column: the kind of null is decided once
 * per block. The magnitudes saturate: all that is asked of them is whether
 * they stay under 2^53 or 2^63. */
static inline __attribute__((always_inline)) void sum_rows(const struct spoor_view *v, size_t slot,
                                                           const struct block *b, const uint32_t *rows,
                                                           struct native_acc *acc, size_t naggs)
{
    for (size_t i = 0; i < b->n; i++) {
        size_t row = row_of(b, rows, i);
        int64_t value = v->i64[row];
        if (v->valid ? !((v->valid[row / 64] >> (row % 64)) & 1) : value == SPOOR_NULL)
            continue;
        struct native_acc *x = &acc[b->group[i] * naggs + slot];
        uint64_t magnitude = value < 0 ? -(uint64_t)value : (uint64_t)value;
        x->n++;
        x->sum += value;
        x->abs = x->abs + magnitude < x->abs ? UINT64_MAX : x->abs + magnitude;
    }
}

static void accumulate_sum(const struct spoor_view *v, size_t slot, const struct block *b, struct native_acc *acc,
                           size_t naggs)
{
    if (b->rows)
        sum_rows(v, slot, b, b->rows, acc, naggs);
    else
        sum_rows(v, slot, b, NULL, acc, naggs);
}

/* Aggregate a (column v) of every row of the block into its group's slot. */
static void accumulate_block(const struct native_agg *a, size_t slot, const struct spoor_view *v,
                             const struct block *b, struct native_acc *acc, size_t naggs)
{
    switch (a->kind) {
    case AGG_COUNT_STAR:
        for (size_t i = 0; i < b->n; i++)
            acc[b->group[i] * naggs + slot].n++;
        return;
    case AGG_COUNT:
        for (size_t i = 0; i < b->n; i++)
            acc[b->group[i] * naggs + slot].n += !spoor_view_is_null(v, row_of(b, b->rows, i));
        return;
    case AGG_SUM:
    case AGG_TOTAL:
    case AGG_AVG: /* integer columns only (the parser sends the rest to SQLite) */
        if (v->kind == SPOOR_VIEW_I64)
            accumulate_sum(v, slot, b, acc, naggs);
        return;
    case AGG_MIN:
    case AGG_MAX:
        for (size_t i = 0; i < b->n; i++)
            accumulate_extreme(a, v, row_of(b, b->rows, i), &acc[b->group[i] * naggs + slot]);
        return;
    }
}

/* What every part of a grouping shares: the query, its columns, the rows. */
struct plan {
    const struct native_query *q;
    struct key keys[NATIVE_MAX_KEYS];
    const struct spoor_view *views[NATIVE_MAX_AGGS];
    bool packed;
    size_t nwords;
    const uint32_t *sel;
};

/* The groups of rows [from, to) of the selection. */
struct part {
    const struct plan *plan;
    size_t from, to;
    struct native_groups g;
};

static void group_part(struct part *p)
{
    const struct plan *pl = p->plan;
    const struct native_query *q = pl->q;
    size_t naggs = q->naggs;
    struct native_groups *g = &p->g;
    memset(g, 0, sizeof *g);
    spoor_id_map_init(&g->keys, pl->nwords);
    uint64_t w[NATIVE_MAX_KEYS + 1];
    if (!q->nkeys) { /* one group, even over no rows */
        w[0] = 0;
        find(g, w, 0, naggs);
    }
    struct block *b = spoor_xmalloc(sizeof *b);
    for (size_t start = p->from; start < p->to; start += BLOCK) {
        b->n = p->to - start < BLOCK ? p->to - start : BLOCK;
        b->start = start;
        b->rows = pl->sel ? pl->sel + start : NULL;
        if (pl->packed) {
            memset(b->word, 0, b->n * sizeof *b->word);
            for (size_t k = 0; k < q->nkeys; k++)
                pack_key(&pl->keys[k], k, b);
            for (size_t i = 0; i < b->n; i++)
                b->group[i] = (uint32_t)find_packed(g, b->word[i], row_of(b, b->rows, i), naggs);
        } else {
            for (size_t i = 0; i < b->n; i++) {
                size_t row = row_of(b, b->rows, i);
                row_words(pl->keys, q->nkeys, row, w);
                b->group[i] = (uint32_t)find(g, w, row, naggs);
            }
        }
        for (size_t a = 0; a < naggs; a++) /* after the finds: they may move g->acc */
            accumulate_block(&q->aggs[a], a, pl->views[a], b, g->acc, naggs);
    }
    free(b);
}

static void group_task(void *ctx, size_t task, int worker)
{
    (void)worker;
    group_part((struct part *)ctx + task);
}

static void merge_acc(const struct native_agg *a, struct native_acc *into, const struct native_acc *from)
{
    if ((a->kind == AGG_MIN || a->kind == AGG_MAX) && from->n) {
        int cmp = into->n ? native_cell_cmp(&from->ext, &into->ext) : 0;
        if (!into->n || (a->kind == AGG_MIN ? cmp < 0 : cmp > 0)) /* ties keep the earlier value */
            into->ext = from->ext;
    }
    into->n += from->n;
    into->sum += from->sum;
    into->abs = into->abs + from->abs < into->abs ? UINT64_MAX : into->abs + from->abs;
}

/* Folds the later part b into a: b's groups a already has take their
 * accumulators, the others follow a's in b's order, so the groups, their
 * order and their first rows are those of one pass over both. */
static void merge_parts(struct part *a, const struct part *b)
{
    size_t naggs = a->plan->q->naggs;
    for (size_t j = 0; j < b->g.n; j++) {
        size_t i = find(&a->g, spoor_id_map_key(&b->g.keys, (uint32_t)j), b->g.first_row[j], naggs);
        for (size_t k = 0; k < naggs; k++)
            merge_acc(&a->plan->q->aggs[k], &a->g.acc[i * naggs + k], &b->g.acc[j * naggs + k]);
    }
}

/* Two threads pay off only past this many rows. */
enum { PARALLEL_ROWS = 1 << 16 };

void native_group(struct spoor_sql *s, const struct native_query *q, const uint32_t *sel, size_t nsel,
                  struct native_groups *g)
{
    struct plan pl = {.q = q, .sel = sel};
    for (size_t k = 0; k < q->nkeys; k++) { /* views resolved here: sql_view is not thread-safe */
        pl.keys[k].v = sql_view(s, q->keys[k]);
        if (pl.keys[k].v->kind == SPOOR_VIEW_SOURCE)
            pl.keys[k].canon = source_canon(pl.keys[k].v);
    }
    for (size_t a = 0; a < q->naggs; a++)
        if (q->aggs[a].kind != AGG_COUNT_STAR)
            pl.views[a] = sql_view(s, q->aggs[a].col);
    pl.packed = q->nkeys <= 2;
    for (size_t k = 0; k < q->nkeys; k++)
        pl.packed &= pl.keys[k].v->kind != SPOOR_VIEW_I64;
    pl.nwords = pl.packed ? 1 : q->nkeys + 1;

    /* Past PARALLEL_ROWS the rows are grouped in two halves at once and the
     * later half folded into the earlier, on one thread if a second cannot
     * start: the same groups either way. */
    bool two = nsel >= PARALLEL_ROWS;
    struct part parts[2] = {{.plan = &pl, .from = 0, .to = two ? nsel / 2 : nsel},
                            {.plan = &pl, .from = two ? nsel / 2 : nsel, .to = nsel}};
    spoor_parallel_for(two ? 2 : 1, 2, group_task, parts);
    if (two) {
        merge_parts(&parts[0], &parts[1]);
        native_groups_free(&parts[1].g);
    }
    *g = parts[0].g;
    for (size_t k = 0; k < q->nkeys; k++)
        free(pl.keys[k].canon);
}

void native_groups_free(struct native_groups *g)
{
    spoor_id_map_free(&g->keys);
    free(g->first_row);
    free(g->acc);
    memset(g, 0, sizeof *g);
}
