/* String interning with an open-addressing hash table (linear probing) over ids,
 * and the bytes themselves in append-only blocks so pointers stay stable. */
#include "spoor/table.h"
#include "spoor/error.h"
#include "util/grow.h"

#include <stdlib.h>
#include <string.h>

enum { BLOCK_SIZE = 1 << 20 };

struct entry {
    const char *str;
    uint32_t len;
    uint32_t hash32;
};

struct block {
    struct block *next;
    size_t used, cap;
    char data[];
};

struct spoor_strpool {
    struct entry *entries; /* by id */
    size_t count, entries_cap;
    uint32_t *slots;       /* id + 1, 0 = empty */
    size_t nslots;         /* power of two */
    struct block *blocks;
};

static char *store(struct spoor_strpool *pool, const char *s, size_t len)
{
    struct block *b = pool->blocks;
    if (!b || b->used + len + 1 > b->cap) {
        size_t cap = len + 1 > BLOCK_SIZE ? len + 1 : BLOCK_SIZE;
        b = spoor_xmalloc(sizeof *b + cap);
        b->used = 0;
        b->cap = cap;
        b->next = pool->blocks;
        pool->blocks = b;
    }
    char *dst = b->data + b->used;
    memcpy(dst, s, len);
    dst[len] = '\0';
    b->used += len + 1;
    return dst;
}

/* Doubles the hash index until it is at most half full, and rebuilds it. */
static void grow_slots(struct spoor_strpool *pool)
{
    size_t n = pool->nslots ? pool->nslots * 2 : 1024;
    while (n < (pool->count + 1) * 2)
        n *= 2;
    uint32_t *slots = spoor_xcalloc(n, sizeof *slots);
    for (size_t id = 0; id < pool->count; id++) {
        size_t i = pool->entries[id].hash32 & (n - 1);
        while (slots[i])
            i = (i + 1) & (n - 1);
        slots[i] = (uint32_t)id + 1;
    }
    free(pool->slots);
    pool->slots = slots;
    pool->nslots = n;
}

struct spoor_strpool *spoor_strpool_new(void)
{
    struct spoor_strpool *pool = spoor_xcalloc(1, sizeof *pool);
    spoor_strpool_intern(pool, "", 0);
    return pool;
}

struct spoor_strpool *spoor_strpool_over(const char *bytes, const uint32_t *off, const uint32_t *hash,
                                         size_t n)
{
    struct spoor_strpool *pool = spoor_xcalloc(1, sizeof *pool);
    pool->entries_cap = n ? n : 1;
    pool->entries = spoor_xmalloc(pool->entries_cap * sizeof *pool->entries);
    for (size_t id = 0; id < n; id++)
        pool->entries[id] = (struct entry){bytes + off[id], off[id + 1] - off[id] - 1, hash[id]};
    pool->count = n;
    grow_slots(pool);
    return pool;
}

void spoor_strpool_free(struct spoor_strpool *pool)
{
    if (!pool)
        return;
    struct block *b = pool->blocks;
    while (b) {
        struct block *next = b->next;
        free(b);
        b = next;
    }
    free(pool->entries);
    free(pool->slots);
    free(pool);
}

void spoor_strpool_clear(struct spoor_strpool *pool)
{
    /* Keep only the first block; later ones are freed to bound memory. */
    struct block *b = pool->blocks;
    while (b && b->next) {
        struct block *next = b->next;
        b->next = next->next;
        free(next);
    }
    if (b)
        b->used = 0;
    pool->count = 0;
    memset(pool->slots, 0, pool->nslots * sizeof *pool->slots);
    spoor_strpool_intern(pool, "", 0);
}

static size_t probe(const struct spoor_strpool *pool, const char *s, size_t len, uint32_t h)
{
    size_t mask = pool->nslots - 1;
    size_t i = h & mask;
    for (;;) {
        uint32_t slot = pool->slots[i];
        if (!slot)
            return i;
        const struct entry *e = &pool->entries[slot - 1];
        if (e->hash32 == h && e->len == len && memcmp(e->str, s, len) == 0)
            return i;
        i = (i + 1) & mask;
    }
}

uint32_t spoor_strpool_find(const struct spoor_strpool *pool, const char *s, size_t len)
{
    if (!pool->nslots)
        return UINT32_MAX;
    uint32_t h = (uint32_t)spoor_hash_bytes(s, len);
    uint32_t slot = pool->slots[probe(pool, s, len, h)];
    return slot ? slot - 1 : UINT32_MAX;
}

uint32_t spoor_strpool_intern(struct spoor_strpool *pool, const char *s, size_t len)
{
    if ((pool->count + 1) * 2 > pool->nslots)
        grow_slots(pool);
    uint32_t h = (uint32_t)spoor_hash_bytes(s, len);
    size_t i = probe(pool, s, len, h);
    if (pool->slots[i])
        return pool->slots[i] - 1;
    spoor_reserve((void **)&pool->entries, &pool->entries_cap, pool->count + 1, sizeof *pool->entries);
    uint32_t id = (uint32_t)pool->count++;
    pool->entries[id] = (struct entry){store(pool, s, len), (uint32_t)len, h};
    pool->slots[i] = id + 1;
    return id;
}

const char *spoor_strpool_get(const struct spoor_strpool *pool, uint32_t id, size_t *len)
{
    const struct entry *e = &pool->entries[id];
    if (len)
        *len = e->len;
    return e->str;
}

uint32_t spoor_strpool_hash(const struct spoor_strpool *pool, uint32_t id) { return pool->entries[id].hash32; }

size_t spoor_strpool_count(const struct spoor_strpool *pool) { return pool->count; }
