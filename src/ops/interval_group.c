/* Splitting rows into groups by key ((pid, tid), pid or none): a hash of the
 * key pairs numbers groups by first sight, then a counting sort keeps each
 * group's rows in the order given. */
#include "ops/interval_internal.h"

#include <stdlib.h>
#include <string.h>

struct iv_keys {
    enum spoor_iv_key key;
    int64_t (*pairs)[2];    /* per group */
    size_t n, cap;
    uint32_t *slots;        /* group + 1; 0 = empty */
    size_t nslots;
};

struct iv_keys *iv_keys_new(enum spoor_iv_key key)
{
    struct iv_keys *k = spoor_xcalloc(1, sizeof *k);
    k->key = key;
    k->nslots = 64;
    k->slots = spoor_xcalloc(k->nslots, sizeof *k->slots);
    return k;
}

void iv_keys_free(struct iv_keys *k)
{
    if (!k)
        return;
    free(k->pairs);
    free(k->slots);
    free(k);
}

size_t iv_keys_count(const struct iv_keys *k) { return k->n; }

static size_t slot_of(const struct iv_keys *k, int64_t a, int64_t b)
{
    uint64_t h = (uint64_t)a * 0x9E3779B97F4A7C15u ^ ((uint64_t)b + 0x632BE59BD9B4E019u) * 0xC2B2AE3D27D4EB4Fu;
    h ^= h >> 29;
    size_t i = (size_t)h & (k->nslots - 1);
    while (k->slots[i] && (k->pairs[k->slots[i] - 1][0] != a || k->pairs[k->slots[i] - 1][1] != b))
        i = (i + 1) & (k->nslots - 1);
    return i;
}

static void grow(struct iv_keys *k)
{
    free(k->slots);
    k->nslots *= 2;
    k->slots = spoor_xcalloc(k->nslots, sizeof *k->slots);
    for (size_t g = 0; g < k->n; g++)
        k->slots[slot_of(k, k->pairs[g][0], k->pairs[g][1])] = (uint32_t)g + 1;
}

static uint32_t group_of(struct iv_keys *k, int64_t a, int64_t b)
{
    size_t i = slot_of(k, a, b);
    if (k->slots[i])
        return k->slots[i] - 1;
    if (k->n == k->cap) {
        k->cap = k->cap ? 2 * k->cap : 16;
        k->pairs = spoor_xrealloc(k->pairs, k->cap * sizeof *k->pairs);
    }
    k->pairs[k->n][0] = a;
    k->pairs[k->n][1] = b;
    k->slots[i] = (uint32_t)++k->n;
    if (2 * k->n > k->nslots)
        grow(k);
    return (uint32_t)k->n - 1;
}

/* Whether a row is a span: ts and dur present, dur >= 0, end representable. */
static bool takes_part(const struct spoor_table *t, size_t r)
{
    int64_t ts = t->ts[r], dur = t->dur[r];
    return ts != SPOOR_NULL && dur != SPOOR_NULL && dur >= 0 && ts <= INT64_MAX - dur;
}

/* Row r's key as the pair group_of numbers. */
static void key_pair(const struct iv_keys *k, const struct spoor_table *t, size_t r, int64_t *a, int64_t *b)
{
    *a = k->key == SPOOR_IV_NONE ? 0 : t->pid[r];
    *b = k->key == SPOOR_IV_THREAD ? t->tid[r] : 0;
}

uint32_t iv_keys_of_row(struct iv_keys *k, const struct spoor_table *t, size_t r)
{
    int64_t a, b;
    key_pair(k, t, r, &a, &b);
    return group_of(k, a, b);
}

uint32_t *iv_keys_assign(struct iv_keys *k, const struct spoor_table *t, const uint32_t *rows, size_t n)
{
    uint32_t *ids = spoor_xmalloc((n ? n : 1) * sizeof *ids);
    /* Rows of one thread come in runs (and with no key all rows share one):
     * the hash is asked only when the key changes. */
    int64_t last_a = 0, last_b = 0;
    uint32_t last = UINT32_MAX;
    for (size_t i = 0; i < n; i++) {
        size_t r = rows ? rows[i] : i;
        if (!takes_part(t, r)) {
            ids[i] = UINT32_MAX;
            continue;
        }
        int64_t a, b;
        key_pair(k, t, r, &a, &b);
        if (last == UINT32_MAX || a != last_a || b != last_b) {
            last = group_of(k, a, b);
            last_a = a;
            last_b = b;
        }
        ids[i] = last;
    }
    return ids;
}

void iv_groups_build(struct iv_groups *g, const struct spoor_table *t, const uint32_t *rows, size_t n,
                     const uint32_t *ids, size_t ngroups)
{
    g->n = ngroups;
    g->first = spoor_xcalloc(ngroups + 1, sizeof *g->first);
    for (size_t i = 0; i < n; i++)
        if (ids[i] != UINT32_MAX)
            g->first[ids[i] + 1]++;
    for (size_t i = 0; i < ngroups; i++)
        g->first[i + 1] += g->first[i];
    size_t *fill = spoor_xmalloc((ngroups + 1) * sizeof *fill);
    memcpy(fill, g->first, (ngroups + 1) * sizeof *fill);
    g->items = spoor_xmalloc((g->first[ngroups] ? g->first[ngroups] : 1) * sizeof *g->items);
    for (size_t i = 0; i < n; i++) {
        if (ids[i] == UINT32_MAX)
            continue;
        uint32_t r = rows ? rows[i] : (uint32_t)i;
        g->items[fill[ids[i]]++] = (struct iv_item){t->ts[r], t->ts[r] + t->dur[r], r, (uint32_t)i};
    }
    free(fill);
}

void iv_groups_free(struct iv_groups *g)
{
    free(g->first);
    free(g->items);
    memset(g, 0, sizeof *g);
}

void iv_items_push(struct iv_items *a, struct iv_item it)
{
    if (a->n == a->cap) {
        a->cap = a->cap ? 2 * a->cap : 64;
        a->v = spoor_xrealloc(a->v, a->cap * sizeof *a->v);
    }
    a->v[a->n++] = it;
}

int iv_check_rows(const struct spoor_table *t, const uint32_t *rows, size_t n, struct spoor_error *err)
{
    if (t->nrows > UINT32_MAX)
        return spoor_fail(err, SPOOR_EUSAGE, "interval engine: %zu rows, at most %u supported", t->nrows,
                          (unsigned)UINT32_MAX);
    if (!rows)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (rows[i] >= t->nrows)
            return spoor_fail(err, SPOOR_EUSAGE, "interval engine: row %u of %zu does not exist", rows[i],
                              t->nrows);
    return 0;
}
