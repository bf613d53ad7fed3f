/* Rows in start order, by an LSD radix sort on ts (11 bits a pass, only as
 * many passes as the time range needs): with the rows bucketed in this order,
 * every group's spans are already sorted and their unions need no qsort. */
#include "summary_internal.h"

#include <stdlib.h>
#include <string.h>

#define DIGIT_BITS 11
#define DIGITS (1u << DIGIT_BITS)

uint32_t *summary_start_order(const struct spoor_table *t)
{
    size_t n = t->nrows;
    uint64_t *key = spoor_xmalloc((n ? n : 1) * sizeof *key);
    int64_t lo = INT64_MAX;
    for (size_t r = 0; r < n; r++)
        if (t->ts[r] != SPOOR_NULL && t->ts[r] < lo)
            lo = t->ts[r];
    uint64_t hi = 0;
    for (size_t r = 0; r < n; r++) {
        /* Rows without ts take part in no union: their place does not matter. */
        key[r] = t->ts[r] == SPOOR_NULL ? 0 : (uint64_t)t->ts[r] - (uint64_t)lo;
        if (key[r] > hi)
            hi = key[r];
    }
    uint32_t *order = spoor_xmalloc((n ? n : 1) * sizeof *order), *tmp = spoor_xmalloc((n ? n : 1) * sizeof *tmp);
    for (size_t r = 0; r < n; r++)
        order[r] = (uint32_t)r;
    size_t *count = spoor_xmalloc(DIGITS * sizeof *count);
    for (unsigned shift = 0; shift < 64 && (hi >> shift); shift += DIGIT_BITS) {
        memset(count, 0, DIGITS * sizeof *count);
        for (size_t i = 0; i < n; i++)
            count[(key[order[i]] >> shift) & (DIGITS - 1)]++;
        size_t sum = 0;
        for (size_t d = 0; d < DIGITS; d++) {
            size_t c = count[d];
            count[d] = sum;
            sum += c;
        }
        for (size_t i = 0; i < n; i++)
            tmp[count[(key[order[i]] >> shift) & (DIGITS - 1)]++] = order[i];
        uint32_t *swap = order;
        order = tmp;
        tmp = swap;
    }
    free(count);
    free(tmp);
    free(key);
    return order;
}
