/* Grouping and aggregating the selected rows of events in one pass: each
 * row's keys become words (string ids, integers, phase letters, source
 * numbers; a null mask last), found in an open-addressing hash table. */
#include "sql/native/internal.h"
#include "util/parallel.h"

#include <stdlib.h>
#include <string.h>

/* Open addressing; each slot holds its group's first key word, so packed
 * keys (one word) are found without leaving the table. */
struct slot {
    uint64_t word;
    uint32_t group;         /* + 1; 0 = empty */
};

struct table {
    struct slot *slots;
    size_t mask;
};

static uint64_t mix(uint64_t h)
{
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    return h;
}

/* One word (packed keys, the usual case) costs a multiply; its high half
 * is the well-mixed one. */
static uint64_t hash_words(const uint64_t *w, size_t n)
{
    if (n == 1)
        return (w[0] * 0x9E3779B97F4A7C15ULL) >> 32;
    uint64_t h = 0x9e3779b97f4a7c15ULL;
    for (size_t i = 0; i < n; i++)
        h = mix(h ^ w[i]) + i;
    return h;
}

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

static size_t new_group(struct native_groups *g, size_t *cap, const uint64_t *w, size_t row, size_t naggs)
{
    if (g->n == *cap) {
        *cap = *cap ? *cap * 2 : 64;
        g->words = spoor_xrealloc(g->words, *cap * g->nwords * sizeof *g->words);
        g->first_row = spoor_xrealloc(g->first_row, *cap * sizeof *g->first_row);
        g->acc = spoor_xrealloc(g->acc, *cap * (naggs ? naggs : 1) * sizeof *g->acc);
    }
    size_t i = g->n++;
    memcpy(g->words + i * g->nwords, w, g->nwords * sizeof *w);
    g->first_row[i] = row;
    memset(g->acc + i * naggs, 0, naggs * sizeof *g->acc);
    return i;
}

static void grow(struct table *h, const struct native_groups *g)
{
    size_t nslots = (h->mask + 1) * 2;
    free(h->slots);
    h->slots = spoor_xcalloc(nslots, sizeof *h->slots);
    h->mask = nslots - 1;
    for (size_t i = 0; i < g->n; i++) {
        const uint64_t *w = g->words + i * g->nwords;
        size_t at = hash_words(w, g->nwords) & h->mask;
        while (h->slots[at].group)
            at = (at + 1) & h->mask;
        h->slots[at] = (struct slot){w[0], (uint32_t)i + 1};
    }
}

static inline bool same_words(const uint64_t *a, const uint64_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i])
            return false;
    return true;
}

static inline size_t find(struct table *h, struct native_groups *g, size_t *cap, const uint64_t *w, size_t row,
                          size_t naggs)
{
    size_t at = hash_words(w, g->nwords) & h->mask;
    for (; h->slots[at].group; at = (at + 1) & h->mask) {
        size_t i = h->slots[at].group - 1;
        if (h->slots[at].word == w[0] && same_words(g->words + i * g->nwords + 1, w + 1, g->nwords - 1))
            return i;
    }
    size_t i = new_group(g, cap, w, row, naggs);
    h->slots[at] = (struct slot){w[0], (uint32_t)i + 1};
    if (g->n * 2 > h->mask)
        grow(h, g);
    return i;
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

/* The group of a packed word: one probe when it exists. */
static inline size_t find_packed(struct table *h, struct native_groups *g, size_t *cap, uint64_t word, size_t row,
                                 size_t naggs)
{
    for (size_t at = hash_words(&word, 1) & h->mask; h->slots[at].group; at = (at + 1) & h->mask)
        if (h->slots[at].word == word)
            return h->slots[at].group - 1;
    return find(h, g, cap, &word, row, naggs);
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

/* The groups of rows [from, to) of the selection, with their hash table. */
struct part {
    const struct plan *plan;
    size_t from, to;
    struct native_groups g;
    struct table h;
    size_t cap;
};

static void group_part(struct part *p)
{
    const struct plan *pl = p->plan;
    const struct native_query *q = pl->q;
    size_t naggs = q->naggs;
    struct native_groups *g = &p->g;
    memset(g, 0, sizeof *g);
    g->nwords = pl->nwords;
    p->cap = 0;
    p->h = (struct table){.slots = spoor_xcalloc(64, sizeof(struct slot)), .mask = 63};
    uint64_t w[NATIVE_MAX_KEYS + 1];
    if (!q->nkeys) { /* one group, even over no rows */
        w[0] = 0;
        find(&p->h, g, &p->cap, w, 0, naggs);
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
                b->group[i] = (uint32_t)find_packed(&p->h, g, &p->cap, b->word[i], row_of(b, b->rows, i), naggs);
        } else {
            for (size_t i = 0; i < b->n; i++) {
                size_t row = row_of(b, b->rows, i);
                row_words(pl->keys, q->nkeys, row, w);
                b->group[i] = (uint32_t)find(&p->h, g, &p->cap, w, row, naggs);
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
        const uint64_t *w = b->g.words + j * b->g.nwords;
        size_t i = find(&a->h, &a->g, &a->cap, w, b->g.first_row[j], naggs);
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
        free(parts[1].h.slots);
    }
    *g = parts[0].g;
    free(parts[0].h.slots);
    for (size_t k = 0; k < q->nkeys; k++)
        free(pl.keys[k].canon);
}

void native_groups_free(struct native_groups *g)
{
    free(g->words);
    free(g->first_row);
    free(g->acc);
    memset(g, 0, sizeof *g);
}
