/* Growable arrays: grown to hold an index (doubling, the new part zeroed),
 * or to hold n elements (doubling, from 16; the new part left as it is),
 * alone or as parallel arrays that share one capacity. */
#ifndef SPOOR_UTIL_GROW_H
#define SPOOR_UTIL_GROW_H

#include <stddef.h>

/* Grows *v (elements of `size` bytes, *cap of them) to hold index `need`,
 * zeroing the new part. */
void spoor_grow_to(void **v, size_t *cap, size_t need, size_t size);

/* The same, inline for the common case: called per row, it rarely grows. */
static inline void spoor_grow(void **v, size_t *cap, size_t need, size_t size)
{
    if (need >= *cap)
        spoor_grow_to(v, cap, need, size);
}

/* Grows *v (elements of `size` bytes, *cap of them) to hold `need`
 * elements, not zeroed. */
void spoor_reserve_to(void **v, size_t *cap, size_t need, size_t size);

static inline void spoor_reserve(void **v, size_t *cap, size_t need, size_t size)
{
    if (need > *cap)
        spoor_reserve_to(v, cap, need, size);
}

/* One of several arrays sharing a capacity: the array, and the bytes an
 * element of it takes (a row of a matrix: its width times the cell's). */
struct spoor_lane {
    void **v;
    size_t size;
};

#define SPOOR_LANE(array) ((struct spoor_lane){(void **)&(array), sizeof *(array)})

/* Grows every lane to hold `need` elements (their shared capacity *cap,
 * doubling, from 16), not zeroed. */
void spoor_reserve_lanes_to(size_t *cap, size_t need, const struct spoor_lane *lanes, size_t nlanes);

static inline void spoor_reserve_lanes(size_t *cap, size_t need, const struct spoor_lane *lanes, size_t nlanes)
{
    if (need > *cap)
        spoor_reserve_lanes_to(cap, need, lanes, nlanes);
}

#endif
