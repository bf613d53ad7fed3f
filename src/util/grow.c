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

void spoor_reserve_to(void **v, size_t *cap, size_t need, size_t size)
{
    size_t n = *cap ? *cap * 2 : 16;
    while (n < need)
        n *= 2;
    *v = spoor_xrealloc(*v, n * size);
    *cap = n;
}
