/* The lifecycle pivot's table of entities: names kept once in a byte arena and
 * found through open addressing over slots that pack a name's 32-bit hash with
 * its id, and each entity's fields in one row of `stride` bytes. A lookup costs
 * one slot read, one name compare and the row: a few cache lines, which matters
 * once millions of entities outgrow the caches. Ids are 1..n in insertion order. */
#ifndef SPOOR_LC_ENTITIES_H
#define SPOOR_LC_ENTITIES_H

#include <stddef.h>
#include <stdint.h>

struct lc_entities {
    uint64_t *slots;        /* hash32 << 32 | id; 0 = empty */
    size_t nslots;
    char *names;            /* NUL-terminated names, back to back */
    size_t names_len, names_cap;
    size_t *name_at;        /* [id]: offset of the name in `names` */
    uint32_t *hash;         /* [id]: the name's hash */
    unsigned char *rows;    /* [id * stride] */
    size_t stride, count, cap;
    void (*init_row)(void *row, const void *ctx); /* a new entity's row */
    const void *ctx;
};

void lc_entities_init(struct lc_entities *e, size_t stride, void (*init_row)(void *, const void *), const void *ctx);
void lc_entities_free(struct lc_entities *e);
/* The id of `name` (hash: its (uint32_t)spoor_hash_bytes(), as a string pool
 * keeps it), its row made on first sight. */
uint32_t lc_entities_get(struct lc_entities *e, const char *name, size_t len, uint32_t hash);
/* Room for `more` new entities without moving the slots, so that slots
 * prefetched before a run of lookups stay where they were. */
void lc_entities_reserve(struct lc_entities *e, size_t more);
/* Starts loading the slot where a lookup of `hash` begins. */
static inline void lc_entities_prefetch(const struct lc_entities *e, uint32_t hash)
{
    if (e->nslots)
        __builtin_prefetch(&e->slots[hash & (e->nslots - 1)]);
}
/* The id of `name` (hash as for lc_entities_get), or 0 when absent. */
uint32_t lc_entities_find_hashed(const struct lc_entities *e, const char *name, size_t len, uint32_t hash);

static inline void *lc_entities_row(const struct lc_entities *e, uint32_t id)
{
    return e->rows + (size_t)id * e->stride;
}

static inline const char *lc_entities_name(const struct lc_entities *e, uint32_t id, size_t *len)
{
    size_t at = e->name_at[id];
    if (len)
        *len = e->name_at[id + 1] - at - 1;
    return e->names + at;
}

#endif
