/* The summary's two containers, below its flow (see summary_internal.h):
 * called by every stage, they call none. Dense ids for 64-bit keys (pids,
 * pairs of ids): an open-addressing hash with the last key remembered, since
 * consecutive rows mostly repeat it; and arrays grown zeroed to an index. */
#include "summary_internal.h"

#include <stdlib.h>
#include <string.h>

void summary_grow_to(void **v, size_t *cap, size_t need, size_t size)
{
    size_t n = *cap ? *cap * 2 : 8;
    while (n <= need)
        n *= 2;
    *v = spoor_xrealloc(*v, n * size);
    memset((char *)*v + *cap * size, 0, (n - *cap) * size);
    *cap = n;
}

static size_t slot_of(uint64_t key, size_t mask) { return (size_t)((key * 0x9e3779b97f4a7c15ULL) >> 32) & mask; }

static void grow(struct summary_keys *k)
{
    size_t nslots = k->nslots ? k->nslots * 2 : 16; /* a thread's groups are few */
    uint32_t *slots = spoor_xmalloc(nslots * sizeof *slots);
    memset(slots, 0xff, nslots * sizeof *slots);
    for (uint32_t id = 0; id < k->n; id++) {
        size_t i = slot_of(k->keys[id], nslots - 1);
        while (slots[i] != UINT32_MAX)
            i = (i + 1) & (nslots - 1);
        slots[i] = id;
    }
    free(k->slots);
    k->slots = slots;
    k->nslots = nslots;
    k->keys = spoor_xrealloc(k->keys, nslots / 2 * sizeof *k->keys);
}

uint32_t summary_keys_id(struct summary_keys *k, uint64_t key)
{
    if (k->n && k->keys[k->last] == key)
        return k->last;
    if (2 * (k->n + 1) > k->nslots)
        grow(k);
    size_t i = slot_of(key, k->nslots - 1);
    while (k->slots[i] != UINT32_MAX && k->keys[k->slots[i]] != key)
        i = (i + 1) & (k->nslots - 1);
    if (k->slots[i] == UINT32_MAX) {
        k->keys[k->n] = key;
        k->slots[i] = (uint32_t)k->n++;
    }
    return k->last = k->slots[i];
}

uint32_t summary_keys_find(const struct summary_keys *k, uint64_t key)
{
    if (!k->n)
        return SUMMARY_NO_GROUP;
    size_t i = slot_of(key, k->nslots - 1);
    while (k->slots[i] != UINT32_MAX && k->keys[k->slots[i]] != key)
        i = (i + 1) & (k->nslots - 1);
    return k->slots[i];
}

void summary_keys_free(struct summary_keys *k)
{
    free(k->keys);
    free(k->slots);
    memset(k, 0, sizeof *k);
}
