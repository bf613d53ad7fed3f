/* Arrays grown to hold an index, doubling, their new part zeroed. */
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

#endif
