/* Dense ids 0..n-1 for 64-bit keys (pids, pairs of ids), in order of first
 * sight: an open-addressing hash over the ids, with the last key
 * remembered, since consecutive rows mostly repeat it. keys[id] is the key.
 * Zero-initialise; spoor_id_map_free. */
#ifndef SPOOR_UTIL_ID_MAP_H
#define SPOOR_UTIL_ID_MAP_H

#include <stddef.h>
#include <stdint.h>

#define SPOOR_ID_NONE UINT32_MAX

struct spoor_id_map {
    uint64_t *keys;
    size_t n;
    uint32_t *slots, last;
    size_t nslots;
};

/* The key's id, a new one (n) on first sight. */
uint32_t spoor_id_map_id(struct spoor_id_map *m, uint64_t key);
/* The id of a key seen before, else SPOOR_ID_NONE. */
uint32_t spoor_id_map_find(const struct spoor_id_map *m, uint64_t key);
void spoor_id_map_free(struct spoor_id_map *m);

#endif
