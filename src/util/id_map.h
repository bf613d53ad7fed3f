/* Dense ids 0..n-1 for keys of a fixed number of 64-bit words (pids, pairs of
 * ids, a group's key columns), in order of first sight: an open-addressing
 * hash over the ids, with the last key remembered, since consecutive rows
 * mostly repeat it. The key of id i is keys[i * words]. Zero-initialised, a
 * map takes one-word keys; spoor_id_map_init picks another width.
 * spoor_id_map_free. */
#ifndef SPOOR_UTIL_ID_MAP_H
#define SPOOR_UTIL_ID_MAP_H

#include <stddef.h>
#include <stdint.h>

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

/* One-word keys: the key's id, a new one (n) on first sight. */
uint32_t spoor_id_map_id(struct spoor_id_map *m, uint64_t key);
/* One-word keys: the id of a key seen before, else SPOOR_ID_NONE. */
uint32_t spoor_id_map_find(const struct spoor_id_map *m, uint64_t key);

/* The same for keys of the map's width, given as its words. */
uint32_t spoor_id_map_id_words(struct spoor_id_map *m, const uint64_t *key);
uint32_t spoor_id_map_find_words(const struct spoor_id_map *m, const uint64_t *key);

/* The words of id's key. */
static inline const uint64_t *spoor_id_map_key(const struct spoor_id_map *m, uint32_t id)
{
    return m->keys + (size_t)id * (m->words ? m->words : 1);
}

/* No ids, the memory kept for the next keys. */
void spoor_id_map_clear(struct spoor_id_map *m);
void spoor_id_map_free(struct spoor_id_map *m);

#endif
