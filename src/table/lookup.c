/* Lookup maps from metadata events: key id -> value id, first definition wins. */
#include "spoor/error.h"
#include "spoor/table.h"
#include "table/internal.h"

#include <stdlib.h>
#include <string.h>

static size_t slot_of(uint32_t key, size_t nslots)
{
    return (key * 0x9e3779b1u) & (nslots - 1);
}

static void rehash(struct spoor_lookup *l, size_t nslots)
{
    free(l->slots);
    l->slots = spoor_xcalloc(nslots, sizeof *l->slots);
    l->nslots = nslots;
    for (size_t i = 0; i < l->n; i++) {
        size_t s = slot_of(l->keys[i], nslots);
        while (l->slots[s])
            s = (s + 1) & (nslots - 1);
        l->slots[s] = (uint32_t)i + 1;
    }
}

uint32_t spoor_lookup_get(const struct spoor_lookup *l, uint32_t key)
{
    if (!l->nslots)
        return 0;
    for (size_t s = slot_of(key, l->nslots); l->slots[s]; s = (s + 1) & (l->nslots - 1))
        if (l->keys[l->slots[s] - 1] == key)
            return l->values[l->slots[s] - 1];
    return 0;
}

void spoor_lookup_put(struct spoor_lookup *l, uint32_t key, uint32_t value)
{
    if ((l->n + 1) * 2 > l->nslots)
        rehash(l, l->nslots ? l->nslots * 2 : 64);
    size_t s = slot_of(key, l->nslots);
    for (; l->slots[s]; s = (s + 1) & (l->nslots - 1))
        if (l->keys[l->slots[s] - 1] == key)
            return;
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 64;
        l->keys = spoor_xrealloc(l->keys, l->cap * sizeof *l->keys);
        l->values = spoor_xrealloc(l->values, l->cap * sizeof *l->values);
    }
    l->keys[l->n] = key;
    l->values[l->n] = value;
    l->slots[s] = (uint32_t)++l->n;
}

void spoor_lookup_reset(struct spoor_lookup *l)
{
    l->n = 0;
    if (l->slots)
        memset(l->slots, 0, l->nslots * sizeof *l->slots);
}

void spoor_lookup_release(struct spoor_lookup *l)
{
    free(l->keys);
    free(l->values);
    free(l->slots);
    memset(l, 0, sizeof *l);
}
