#include "util/grow.h"

#include "spoor/error.h"

#include <string.h>

void spoor_grow_to(void **v, size_t *cap, size_t need, size_t size)
{
    size_t n = *cap ? *cap * 2 : 8;
    while (n <= need)
        n *= 2;
    *v = spoor_xrealloc(*v, n * size);
    memset((char *)*v + *cap * size, 0, (n - *cap) * size);
    *cap = n;
}

/* The capacity `need` elements grow *cap to: doubled, from 16. */
static size_t doubled(size_t cap, size_t need)
{
    size_t n = cap ? cap * 2 : 16;
    while (n < need)
        n *= 2;
    return n;
}

void spoor_reserve_to(void **v, size_t *cap, size_t need, size_t size)
{
    size_t n = doubled(*cap, need);
    *v = spoor_xrealloc(*v, n * size);
    *cap = n;
}

void spoor_reserve_lanes_to(size_t *cap, size_t need, const struct spoor_lane *lanes, size_t nlanes)
{
    size_t n = doubled(*cap, need);
    for (size_t i = 0; i < nlanes; i++)
        *lanes[i].v = spoor_xrealloc(*lanes[i].v, n * lanes[i].size);
    *cap = n;
}
