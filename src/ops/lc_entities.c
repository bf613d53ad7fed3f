/* The lifecycle pivot's entity table (lc_entities.h). Not util's id map: its
 * keys are names of any length from many batches' string pools, not words; as
 * words (ids of one pool holding every name) each lookup would be a pool
 * lookup plus a map lookup, where this is one probe with a prefetch ahead. */
#include "lc_entities.h"

#include <string.h>

#include "util/huge_array.h"

void lc_entities_init(struct lc_entities *e, size_t stride, void (*init_row)(void *, const void *), const void *ctx)
{
    *e = (struct lc_entities){.stride = stride, .init_row = init_row, .ctx = ctx};
}

void lc_entities_free(struct lc_entities *e)
{
    spoor_huge_free(e->slots, e->nslots * sizeof *e->slots);
    spoor_huge_free(e->names, e->names_cap);
    spoor_huge_free(e->name_at, (e->cap + 1) * sizeof *e->name_at);
    spoor_huge_free(e->hash, e->cap * sizeof *e->hash);
    spoor_huge_free(e->rows, e->cap * e->stride);
}

/* Arrays of millions of entities are touched at random (a slot and a row per
 * lookup), so they live on huge pages (util/huge_array.h): far fewer page
 * faults and TLB misses than 4 KB pages. */

/* The slot holding `name`, or the empty slot where it belongs. */
static size_t slot_of(const struct lc_entities *e, const char *name, size_t len, uint32_t hash)
{
    size_t mask = e->nslots - 1;
    for (size_t i = hash & mask;; i = (i + 1) & mask) {
        uint64_t s = e->slots[i];
        if (!s)
            return i;
        if ((uint32_t)(s >> 32) != hash)
            continue;
        size_t n;
        const char *have = lc_entities_name(e, (uint32_t)s, &n);
        if (n == len && memcmp(have, name, len) == 0)
            return i;
    }
}

/* Slots for `n` entities at most half full. */
static void reserve_slots(struct lc_entities *e, size_t n)
{
    if (n * 2 <= e->nslots)
        return;
    size_t nslots = e->nslots ? e->nslots : 8192;
    while (n * 2 > nslots)
        nslots *= 2;
    spoor_huge_free(e->slots, e->nslots * sizeof *e->slots);
    e->nslots = nslots;
    e->slots = spoor_huge_alloc(nslots * sizeof *e->slots);
    memset(e->slots, 0, nslots * sizeof *e->slots);
    size_t mask = e->nslots - 1;
    for (uint32_t id = 1; id <= e->count; id++) {
        size_t i = e->hash[id] & mask;
        while (e->slots[i])
            i = (i + 1) & mask;
        e->slots[i] = (uint64_t)e->hash[id] << 32 | id;
    }
}

/* Room for entity `count + 1` (row, name offset of the one after it). */
static void grow_rows(struct lc_entities *e)
{
    size_t cap = e->cap ? e->cap * 2 : 4096;
    e->rows = spoor_huge_realloc(e->rows, e->cap * e->stride, cap * e->stride);
    e->name_at = spoor_huge_realloc(e->name_at, (e->cap + 1) * sizeof *e->name_at, (cap + 1) * sizeof *e->name_at);
    e->hash = spoor_huge_realloc(e->hash, e->cap * sizeof *e->hash, cap * sizeof *e->hash);
    e->cap = cap;
}

uint32_t lc_entities_get(struct lc_entities *e, const char *name, size_t len, uint32_t hash)
{
    reserve_slots(e, e->count + 1);
    size_t i = slot_of(e, name, len, hash);
    if (e->slots[i])
        return (uint32_t)e->slots[i];
    if (e->count + 2 > e->cap)
        grow_rows(e);
    if (e->names_len + len + 1 > e->names_cap) {
        size_t cap = (e->names_len + len + 1) * 2;
        e->names = spoor_huge_realloc(e->names, e->names_cap, cap);
        e->names_cap = cap;
    }
    uint32_t id = (uint32_t)++e->count;
    e->name_at[id] = e->names_len;
    memcpy(e->names + e->names_len, name, len);
    e->names_len += len;
    e->names[e->names_len++] = '\0';
    e->name_at[id + 1] = e->names_len;
    e->hash[id] = hash;
    e->init_row(lc_entities_row(e, id), e->ctx);
    e->slots[i] = (uint64_t)hash << 32 | id;
    return id;
}

void lc_entities_reserve(struct lc_entities *e, size_t more)
{
    reserve_slots(e, e->count + more);
}

uint32_t lc_entities_find_hashed(const struct lc_entities *e, const char *name, size_t len, uint32_t hash)
{
    if (!e->nslots)
        return 0;
    return (uint32_t)e->slots[slot_of(e, name, len, hash)];
}
