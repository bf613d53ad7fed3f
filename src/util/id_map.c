/* Dense ids for fixed-width keys by first sight (see id_map.h, which holds
 * the lookups): growth, clearing. Slots hold ids (SPOOR_ID_NONE: empty) and
 * are kept at most half full. */
#include "util/id_map.h"

#include "spoor/error.h"

#include <stdlib.h>

static void grow(struct spoor_id_map *m, size_t words)
{
    size_t nslots = m->nslots ? m->nslots * 2 : 16; /* a thread's groups are few */
    uint32_t *slots = spoor_xmalloc(nslots * sizeof *slots);
    memset(slots, 0xff, nslots * sizeof *slots);
    for (uint32_t id = 0; id < m->n; id++) {
        size_t i = spoor_id_map_hash(m->keys + (size_t)id * words, words, nslots - 1);
        while (slots[i] != SPOOR_ID_NONE)
            i = (i + 1) & (nslots - 1);
        slots[i] = id;
    }
    free(m->slots);
    m->slots = slots;
    m->nslots = nslots;
    m->keys = spoor_xrealloc(m->keys, nslots / 2 * words * sizeof *m->keys);
}

uint32_t spoor_id_map_add(struct spoor_id_map *m, size_t i, const uint64_t *key)
{
    size_t words = spoor_id_map_width(m);
    if (2 * (m->n + 1) > m->nslots || !m->n) {
        if (2 * (m->n + 1) > m->nslots)
            grow(m, words);
        i = spoor_id_map_probe(m, key, words);
    }
    for (size_t w = 0; w < words; w++) /* a word or two: no call to memcpy */
        m->keys[m->n * words + w] = key[w];
    m->slots[i] = (uint32_t)m->n;
    return (uint32_t)m->n++;
}

void spoor_id_map_init(struct spoor_id_map *m, size_t words) { *m = (struct spoor_id_map){.words = words}; }

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
