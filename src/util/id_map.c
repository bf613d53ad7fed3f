/* Dense ids for 64-bit keys by first sight (see id_map.h). Slots hold ids
 * (UINT32_MAX: empty) and are kept at most half full. */
#include "util/id_map.h"

#include "spoor/error.h"

#include <stdlib.h>
#include <string.h>

static size_t slot_of(uint64_t key, size_t mask) { return (size_t)((key * 0x9e3779b97f4a7c15ULL) >> 32) & mask; }

static void grow(struct spoor_id_map *m)
{
    size_t nslots = m->nslots ? m->nslots * 2 : 16; /* a thread's groups are few */
    uint32_t *slots = spoor_xmalloc(nslots * sizeof *slots);
    memset(slots, 0xff, nslots * sizeof *slots);
    for (uint32_t id = 0; id < m->n; id++) {
        size_t i = slot_of(m->keys[id], nslots - 1);
        while (slots[i] != UINT32_MAX)
            i = (i + 1) & (nslots - 1);
        slots[i] = id;
    }
    free(m->slots);
    m->slots = slots;
    m->nslots = nslots;
    m->keys = spoor_xrealloc(m->keys, nslots / 2 * sizeof *m->keys);
}

uint32_t spoor_id_map_id(struct spoor_id_map *m, uint64_t key)
{
    if (m->n && m->keys[m->last] == key)
        return m->last;
    if (2 * (m->n + 1) > m->nslots)
        grow(m);
    size_t i = slot_of(key, m->nslots - 1);
    while (m->slots[i] != UINT32_MAX && m->keys[m->slots[i]] != key)
        i = (i + 1) & (m->nslots - 1);
    if (m->slots[i] == UINT32_MAX) {
        m->keys[m->n] = key;
        m->slots[i] = (uint32_t)m->n++;
    }
    return m->last = m->slots[i];
}

uint32_t spoor_id_map_find(const struct spoor_id_map *m, uint64_t key)
{
    if (!m->n)
        return SPOOR_ID_NONE;
    size_t i = slot_of(key, m->nslots - 1);
    while (m->slots[i] != UINT32_MAX && m->keys[m->slots[i]] != key)
        i = (i + 1) & (m->nslots - 1);
    return m->slots[i];
}

void spoor_id_map_free(struct spoor_id_map *m)
{
    free(m->keys);
    free(m->slots);
    memset(m, 0, sizeof *m);
}
