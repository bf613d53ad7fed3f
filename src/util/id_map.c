/* Dense ids for fixed-width keys by first sight (see id_map.h). Slots hold
 * ids (UINT32_MAX: empty) and are kept at most half full. One lookup serves
 * every width; the one-word entry points inline it with the width a
 * constant, so the common keys cost one multiply and one compare. */
#include "util/id_map.h"

#include "spoor/error.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static inline size_t width(const struct spoor_id_map *m) { return m->words ? m->words : 1; }

/* One word: a multiply, whose high half is the well-mixed one. Longer keys
 * fold each word in, then the high half into the low before the same. */
static inline __attribute__((always_inline)) size_t slot_of(const uint64_t *key, size_t words, size_t mask)
{
    uint64_t h = key[0];
    for (size_t i = 1; i < words; i++)
        h = (h ^ (h >> 32)) * 0xc2b2ae3d27d4eb4fULL ^ key[i];
    if (words > 1)
        h ^= h >> 32;
    return (size_t)((h * 0x9e3779b97f4a7c15ULL) >> 32) & mask;
}

static inline __attribute__((always_inline)) bool same_key(const uint64_t *a, const uint64_t *b, size_t words)
{
    for (size_t i = 0; i < words; i++)
        if (a[i] != b[i])
            return false;
    return true;
}

static void grow(struct spoor_id_map *m)
{
    size_t words = width(m), nslots = m->nslots ? m->nslots * 2 : 16; /* a thread's groups are few */
    uint32_t *slots = spoor_xmalloc(nslots * sizeof *slots);
    memset(slots, 0xff, nslots * sizeof *slots);
    for (uint32_t id = 0; id < m->n; id++) {
        size_t i = slot_of(m->keys + (size_t)id * words, words, nslots - 1);
        while (slots[i] != UINT32_MAX)
            i = (i + 1) & (nslots - 1);
        slots[i] = id;
    }
    free(m->slots);
    m->slots = slots;
    m->nslots = nslots;
    m->keys = spoor_xrealloc(m->keys, nslots / 2 * words * sizeof *m->keys);
}

/* The slot holding key, or the empty one where it belongs. */
static inline __attribute__((always_inline)) size_t probe(const struct spoor_id_map *m, const uint64_t *key,
                                                          size_t words)
{
    size_t mask = m->nslots - 1, i = slot_of(key, words, mask);
    while (m->slots[i] != UINT32_MAX && !same_key(m->keys + (size_t)m->slots[i] * words, key, words))
        i = (i + 1) & mask;
    return i;
}

static inline __attribute__((always_inline)) uint32_t id_of(struct spoor_id_map *m, const uint64_t *key,
                                                            size_t words)
{
    if (m->n && same_key(m->keys + (size_t)m->last * words, key, words))
        return m->last;
    if (2 * (m->n + 1) > m->nslots)
        grow(m);
    size_t i = probe(m, key, words);
    if (m->slots[i] == UINT32_MAX) {
        memcpy(m->keys + m->n * words, key, words * sizeof *key);
        m->slots[i] = (uint32_t)m->n++;
    }
    return m->last = m->slots[i];
}

static inline __attribute__((always_inline)) uint32_t find_of(const struct spoor_id_map *m, const uint64_t *key,
                                                              size_t words)
{
    return m->n ? m->slots[probe(m, key, words)] : SPOOR_ID_NONE;
}

void spoor_id_map_init(struct spoor_id_map *m, size_t words) { *m = (struct spoor_id_map){.words = words}; }

uint32_t spoor_id_map_id(struct spoor_id_map *m, uint64_t key) { return id_of(m, &key, 1); }

uint32_t spoor_id_map_find(const struct spoor_id_map *m, uint64_t key) { return find_of(m, &key, 1); }

/* Pairs, the usual longer key, get the width as a constant too. */
uint32_t spoor_id_map_id_words(struct spoor_id_map *m, const uint64_t *key)
{
    return width(m) == 2 ? id_of(m, key, 2) : id_of(m, key, width(m));
}

uint32_t spoor_id_map_find_words(const struct spoor_id_map *m, const uint64_t *key)
{
    return width(m) == 2 ? find_of(m, key, 2) : find_of(m, key, width(m));
}

void spoor_id_map_clear(struct spoor_id_map *m)
{
    m->n = 0;
    if (m->slots)
        memset(m->slots, 0xff, m->nslots * sizeof *m->slots);
}

void spoor_id_map_free(struct spoor_id_map *m)
{
    size_t words = m->words;
    free(m->keys);
    free(m->slots);
    *m = (struct spoor_id_map){.words = words};
}
