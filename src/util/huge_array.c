/* Large arrays in 2 MiB-aligned mappings marked MADV_HUGEPAGE (see
 * huge_array.h). */
#include "util/huge_array.h"
#include "spoor/error.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#if defined(__SANITIZE_ADDRESS__)
#define ON_MALLOC_ONLY 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ON_MALLOC_ONLY 1
#endif
#endif
#ifndef ON_MALLOC_ONLY
#define ON_MALLOC_ONLY 0
#endif

enum { HUGE_PAGE = 2 << 20 };

static bool mapped(size_t bytes)
{
    return !ON_MALLOC_ONLY && bytes >= HUGE_PAGE;
}

static size_t mapping_len(size_t bytes)
{
    return (bytes + HUGE_PAGE - 1) & ~(size_t)(HUGE_PAGE - 1);
}

void *spoor_huge_alloc(size_t bytes)
{
    if (!mapped(bytes))
        return spoor_xmalloc(bytes);
    size_t len = mapping_len(bytes);
    /* A huge page more than needed, to cut an aligned range out of. */
    uint8_t *m = mmap(NULL, len + HUGE_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) {
        fprintf(stderr, "spoor: out of memory mapping %zu bytes\n", bytes);
        abort();
    }
    uint8_t *a = (uint8_t *)(((uintptr_t)m + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
    if (a > m)
        munmap(m, (size_t)(a - m));
    if (m + HUGE_PAGE > a)
        munmap(a + len, (size_t)(m + HUGE_PAGE - a));
#ifdef MADV_HUGEPAGE
    madvise(a, len, MADV_HUGEPAGE);
#endif
    return a;
}

void spoor_huge_free(void *p, size_t bytes)
{
    if (!p)
        return;
    if (mapped(bytes))
        munmap(p, mapping_len(bytes));
    else
        free(p);
}

void *spoor_huge_realloc(void *p, size_t old_bytes, size_t bytes)
{
    if (!p)
        return spoor_huge_alloc(bytes);
    if (!mapped(old_bytes) && !mapped(bytes))
        return spoor_xrealloc(p, bytes);
    /* In place when the addresses after it are free: no copy. */
    if (mapped(old_bytes) && mapped(bytes) &&
        mremap(p, mapping_len(old_bytes), mapping_len(bytes), 0) != MAP_FAILED)
        return p;
    void *q = spoor_huge_alloc(bytes);
    memcpy(q, p, old_bytes < bytes ? old_bytes : bytes);
    spoor_huge_free(p, old_bytes);
    return q;
}
