/* Large arrays on transparent huge pages. Every fresh 4 KiB page costs a
 * page fault, a few µs on a virtual machine: touching 64 MB took 35-97 ms
 * here, against ~10 ms in 2 MiB pages. The kernel maps those (THP mode
 * "madvise", the usual default) only in 2 MiB-aligned ranges marked
 * MADV_HUGEPAGE, which malloc does not give: arrays of 2 MiB and more are
 * mapped here, aligned; smaller ones (and every one under AddressSanitizer,
 * which checks only malloc's) come from malloc. Out of memory aborts, as
 * spoor_xmalloc does. The caller passes the size back to free and grow. */
#ifndef SPOOR_UTIL_HUGE_ARRAY_H
#define SPOOR_UTIL_HUGE_ARRAY_H

#include <stddef.h>

void *spoor_huge_alloc(size_t bytes);
/* The array grown (or shrunk) from old_bytes to bytes, its content kept. */
void *spoor_huge_realloc(void *p, size_t old_bytes, size_t bytes);
void spoor_huge_free(void *p, size_t bytes);

#endif
