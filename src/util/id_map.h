/* Dense ids 0..n-1 for keys of a fixed number of 64-bit words (pids, pairs of
 * ids, a group's key columns), in order of first sight: an open-addressing
 * hash over the ids, with the last key remembered, since consecutive rows
 * mostly repeat it. The key of id i is keys[i * words]. Zero-initialised, a
 * map takes one-word keys; spoor_id_map_init picks another width.
 * spoor_id_map_free. */
#ifndef SPOOR_UTIL_ID_MAP_H
#define SPOOR_UTIL_ID_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define SPOOR_ID_NONE UINT32_MAX

struct spoor_id_map {
    uint64_t *keys;         /* n * words */
    size_t n;
    uint32_t *slots, last;
    size_t nslots;
    size_t words;           /* words per key; 0 is 1 */
};

/* An empty map of keys of `words` words. */
void spoor_id_map_init(struct spoor_id_map *m, size_t words);

/* Gives key a new id, at slot i where a probe ended (any slot when the map is
 * empty): slots doubled first (from 16) when it would be over half full.
 * Called by the lookups below. */
uint32_t spoor_id_map_add(struct spoor_id_map *m, size_t i, const uint64_t *key);

/* The lookups are inline, so that each caller gets them with its key width a
 * constant: a one-word key then costs one multiply and one compare. */

static inline size_t spoor_id_map_width(const struct spoor_id_map *m) { return m->words ? m->words : 1; }

/* One word: a multiply, whose high half is the well-mixed one. Longer keys
 * fold each word in, then the high half into the low before the same. */
static inline __attribute__((always_inline)) size_t spoor_id_map_hash(const uint64_t *key, size_t words,
                                                                      size_t mask)
{
    uint64_t h = key[0];
    for (size_t i = 1; i < words; i++)
        h = (h ^ (h >> 32)) * 0xc2b2ae3d27d4eb4fULL ^ key[i];
    if (words > 1)
        h ^= h >> 32;
    return (size_t)((h * 0x9e3779b97f4a7c15ULL) >> 32) & mask;
}

static inline __attribute__((always_inline)) bool spoor_id_map_same(const uint64_t *a, const uint64_t *b,
                                                                    size_t words)
{
    for (size_t i = 0; i < words; i++)
        if (a[i] != b[i])
            return false;
    return true;
}

/* The slot holding key, or the empty one where it belongs. */
static inline __attribute__((always_inline)) size_t spoor_id_map_probe(const struct spoor_id_map *m,
                                                                       const uint64_t *key, size_t words)
{
    size_t mask = m->nslots - 1, i = spoor_id_map_hash(key, words, mask);
    while (m->slots[i] != SPOOR_ID_NONE && !spoor_id_map_same(m->keys + (size_t)m->slots[i] * words, key, words))
        i = (i + 1) & mask;
    return i;
}

/* The key's id, a new one on first sight, without asking the last key first:
 * for keys that seldom repeat row after row (a query's groups). */
static inline __attribute__((always_inline)) uint32_t spoor_id_map_lookup(struct spoor_id_map *m,
                                                                          const uint64_t *key, size_t words)
{
    if (__builtin_expect(!m->n, 0))
        return spoor_id_map_add(m, 0, key);
    size_t i = spoor_id_map_probe(m, key, words);
    uint32_t id = m->slots[i];
    return id != SPOOR_ID_NONE ? id : spoor_id_map_add(m, i, key);
}

static inline __attribute__((always_inline)) uint32_t spoor_id_map_id_of(struct spoor_id_map *m,
                                                                         const uint64_t *key, size_t words)
{
    if (m->n && spoor_id_map_same(m->keys + (size_t)m->last * words, key, words))
        return m->last;
    return m->last = spoor_id_map_lookup(m, key, words);
}

static inline __attribute__((always_inline)) uint32_t spoor_id_map_find_of(const struct spoor_id_map *m,
                                                                           const uint64_t *key, size_t words)
{
    return m->n ? m->slots[spoor_id_map_probe(m, key, words)] : SPOOR_ID_NONE;
}

/* One-word keys: the key's id, a new one (n) on first sight. */
static inline uint32_t spoor_id_map_id(struct spoor_id_map *m, uint64_t key)
{
    return spoor_id_map_id_of(m, &key, 1);
}

/* One-word keys: the id of a key seen before, else SPOOR_ID_NONE. */
static inline uint32_t spoor_id_map_find(const struct spoor_id_map *m, uint64_t key)
{
    return spoor_id_map_find_of(m, &key, 1);
}

/* The same for keys of the map's width, given as its words; pairs, the
 * usual longer key, get the width as a constant too. */
static inline uint32_t spoor_id_map_id_words(struct spoor_id_map *m, const uint64_t *key)
{
    size_t words = spoor_id_map_width(m);
    return words == 2 ? spoor_id_map_id_of(m, key, 2) : spoor_id_map_id_of(m, key, words);
}

static inline uint32_t spoor_id_map_find_words(const struct spoor_id_map *m, const uint64_t *key)
{
    size_t words = spoor_id_map_width(m);
    return words == 2 ? spoor_id_map_find_of(m, key, 2) : spoor_id_map_find_of(m, key, words);
}

/* The words of id's key. */
static inline const uint64_t *spoor_id_map_key(const struct spoor_id_map *m, uint32_t id)
{
    return m->keys + (size_t)id * spoor_id_map_width(m);
}

/* No ids, the memory kept for the next keys. */
void spoor_id_map_clear(struct spoor_id_map *m);
void spoor_id_map_free(struct spoor_id_map *m);

#endif
