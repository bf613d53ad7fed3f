/* Lookup maps from metadata events: (input, key) -> value, per line.
 *
 * Each (src, key) has a chain of definitions, latest line first; the hash
 * index points at the head. A chain is almost always one definition long, so
 * a get is one probe and a short walk. */
#include "spoor/error.h"
#include "spoor/table.h"
#include "table/internal.h"
#include "util/grow.h"

#include <stdlib.h>
#include <string.h>

static size_t slot_of(uint32_t src, uint32_t key, size_t nslots)
{
    return ((key * 0x9e3779b1u) ^ (src * 0x85ebca6bu)) & (nslots - 1);
}

/* The slot of (src, key): its head's, or the empty one where it would go. */
static size_t find_slot(const struct spoor_lookup *l, uint32_t src, uint32_t key)
{
    size_t s = slot_of(src, key, l->nslots);
    for (; l->slots[s]; s = (s + 1) & (l->nslots - 1)) {
        uint32_t e = l->slots[s] - 1;
        if (l->keys[e] == key && l->srcs[e] == src)
            break;
    }
    return s;
}

/* Rebuilds the index at a new size: the old one points at every chain's
 * head (its newest definition), so its entries move over as they are. */
static void rehash(struct spoor_lookup *l, size_t nslots)
{
    uint32_t *old = l->slots;
    size_t nold = l->nslots;
    l->slots = spoor_xcalloc(nslots, sizeof *l->slots);
    l->nslots = nslots;
    for (size_t s = 0; s < nold; s++) {
        uint32_t e = old[s];
        if (e)
            l->slots[find_slot(l, l->srcs[e - 1], l->keys[e - 1])] = e;
    }
    free(old);
}

uint32_t spoor_lookup_get(const struct spoor_lookup *l, uint32_t src, uint32_t key, uint64_t line, uint64_t *from,
                          uint64_t *to)
{
    uint64_t f = 0, t = UINT64_MAX;
    uint32_t value = 0;
    if (l->nslots) {
        uint32_t e = l->slots[find_slot(l, src, key)];
        for (; e && l->lines[e - 1] > line; e = l->older[e - 1])
            t = l->lines[e - 1];
        if (e) {
            f = l->lines[e - 1];
            value = l->values[e - 1];
        }
    }
    if (from)
        *from = f;
    if (to)
        *to = t;
    return value;
}

static void grow(struct spoor_lookup *l)
{
    struct spoor_lane lanes[] = {SPOOR_LANE(l->keys), SPOOR_LANE(l->values), SPOOR_LANE(l->srcs),
                                 SPOOR_LANE(l->lines), SPOOR_LANE(l->older)};
    spoor_reserve_lanes_to(&l->cap, l->cap + 1, lanes, sizeof lanes / sizeof *lanes);
}

void spoor_lookup_put(struct spoor_lookup *l, uint32_t src, uint32_t key, uint32_t value, uint64_t line)
{
    if ((l->nkeys + 1) * 2 > l->nslots)
        rehash(l, l->nslots ? l->nslots * 2 : 64);
    size_t s = find_slot(l, src, key);
    /* Walk to the definition in force at line; newer ones stay in front. */
    uint32_t newer = 0, e = l->slots[s];
    for (; e && l->lines[e - 1] > line; e = l->older[e - 1])
        newer = e;
    if (e && l->values[e - 1] == value)
        return;
    if (!l->slots[s])
        l->nkeys++;
    if (l->n == l->cap)
        grow(l);
    size_t i = l->n++;
    l->keys[i] = key;
    l->values[i] = value;
    l->srcs[i] = src;
    l->lines[i] = line;
    l->older[i] = e;
    if (newer)
        l->older[newer - 1] = (uint32_t)i + 1;
    else
        l->slots[s] = (uint32_t)i + 1;
}

size_t spoor_lookup_redefinitions(const struct spoor_lookup *l)
{
    size_t n = 0;
    for (size_t i = 0; i < l->n; i++)
        n += l->older[i] && l->values[l->older[i] - 1] != l->values[i];
    return n;
}

void spoor_lookup_shift_lines(struct spoor_lookup *l, uint64_t base)
{
    for (size_t i = 0; i < l->n; i++)
        l->lines[i] += base;
}

void spoor_lookup_reset(struct spoor_lookup *l)
{
    l->n = l->nkeys = 0;
    if (l->slots)
        memset(l->slots, 0, l->nslots * sizeof *l->slots);
}

void spoor_lookup_release(struct spoor_lookup *l)
{
    free(l->keys);
    free(l->values);
    free(l->srcs);
    free(l->lines);
    free(l->older);
    free(l->slots);
    memset(l, 0, sizeof *l);
}
