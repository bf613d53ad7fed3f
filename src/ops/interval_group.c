/* Splitting rows into groups by key ((pid, tid), pid or none): the id map
 * numbers groups by first sight, then a counting sort keeps each
 * group's rows in the order given. */
#include "ops/interval_internal.h"
#include "util/grow.h"
#include "util/id_map.h"

#include <stdlib.h>
#include <string.h>

struct iv_keys {
    enum spoor_iv_key key;
    struct spoor_id_map groups; /* (pid, tid) by thread, else pid or 0 */
};

struct iv_keys *iv_keys_new(enum spoor_iv_key key)
{
    struct iv_keys *k = spoor_xcalloc(1, sizeof *k);
    k->key = key;
    spoor_id_map_init(&k->groups, key == SPOOR_IV_THREAD ? 2 : 1);
    return k;
}

void iv_keys_free(struct iv_keys *k)
{
    if (!k)
        return;
    spoor_id_map_free(&k->groups);
    free(k);
}

size_t iv_keys_count(const struct iv_keys *k) { return k->groups.n; }

/* Whether a row is a span: ts and dur present, dur >= 0, end representable. */
static bool takes_part(const struct spoor_table *t, size_t r)
{
    int64_t ts = t->ts[r], dur = t->dur[r];
    return ts != SPOOR_NULL && dur != SPOOR_NULL && dur >= 0 && ts <= INT64_MAX - dur;
}

/* Row r's group. Rows of one thread come in runs (and with no key all rows
 * share one), which the map's memory of the last key answers. */
uint32_t iv_keys_of_row(struct iv_keys *k, const struct spoor_table *t, size_t r)
{
    if (k->key == SPOOR_IV_THREAD)
        return spoor_id_map_id_words(&k->groups, (const uint64_t[2]){(uint64_t)t->pid[r], (uint64_t)t->tid[r]});
    return spoor_id_map_id(&k->groups, k->key == SPOOR_IV_NONE ? 0 : (uint64_t)t->pid[r]);
}

uint32_t *iv_keys_assign(struct iv_keys *k, const struct spoor_table *t, const uint32_t *rows, size_t n)
{
    uint32_t *ids = spoor_xmalloc((n ? n : 1) * sizeof *ids);
    for (size_t i = 0; i < n; i++) {
        size_t r = rows ? rows[i] : i;
        ids[i] = takes_part(t, r) ? iv_keys_of_row(k, t, r) : UINT32_MAX;
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
    spoor_reserve((void **)&a->v, &a->cap, a->n + 1, sizeof *a->v);
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
