/* Sums per (row, time bucket) as bucket_sums.h defines them, kept as an
 * append-only log for a writer that adds a cell per event (the timeline's
 * workers): an add is a store at the end, and the log is compacted (sorted by
 * row and bucket, equal cells summed) once it fills, instead of a hash probe
 * per add. After bucket_log_compact the records are distinct and in (row,
 * bucket) order. */
#ifndef SPOOR_ANALYZE_BUCKET_LOG_H
#define SPOOR_ANALYZE_BUCKET_LOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/bucket_sums.h"

struct bucket_rec {
    uint64_t key;               /* row << BUCKET_REL_BITS | (bucket - base) */
    uint64_t count;
    int64_t sum;
};

struct bucket_log {
    int shift;
    bool based;
    int64_t base;
    struct bucket_rec *rec;
    size_t n, cap;
    size_t distinct;            /* records [0, distinct) are compacted */
    /* A compaction's scratch, kept for the next: fresh memory each time
     * cost a page fault per 4 KiB touched. */
    struct bucket_rec *merged;  /* swapped with rec */
    uint64_t *words;            /* keys and the sort's spare */
    uint32_t *order;
    size_t merged_cap, words_cap, order_cap;
};

void bucket_log_init(struct bucket_log *l, int shift);
void bucket_log_free(struct bucket_log *l);
/* Whether a cell of this bucket can be stored (the first call sets the range).
 * Inline: twice an event. */
static inline bool bucket_log_fits(struct bucket_log *l, int64_t bucket)
{
    return bucket_range_fits(&l->based, &l->base, bucket);
}
/* Room for more records (bucket_log_add's slow path). */
void bucket_log_grow(struct bucket_log *l);
/* Appends a cell (its bucket fits). */
static inline void bucket_log_add(struct bucket_log *l, uint32_t row, int64_t bucket, uint64_t count, int64_t sum)
{
    if (l->n == l->cap)
        bucket_log_grow(l);
    l->rec[l->n++] = (struct bucket_rec){(uint64_t)row << BUCKET_REL_BITS | (uint64_t)(bucket - l->base), count, sum};
}
/* The same for an event [start, end) spread over the buckets it overlaps
 * (bucket_sums_span); false (nothing added) when they do not fit. */
bool bucket_log_span(struct bucket_log *l, uint32_t row, int64_t start, int64_t end, uint64_t count);
/* Sorts and sums equal cells; returns how many distinct cells there are. */
size_t bucket_log_compact(struct bucket_log *l);
/* After a compaction: the narrowest shift at which the cells number at most cap
 * (the keys gathered in the compaction's scratch). */
int bucket_log_fit_shift(struct bucket_log *l, uint64_t cap);
/* Widens the buckets to 2^shift ns (compacts first). */
void bucket_log_coarsen(struct bucket_log *l, int shift);
static inline uint32_t bucket_log_row(const struct bucket_log *l, size_t i)
{
    return (uint32_t)(l->rec[i].key >> BUCKET_REL_BITS);
}
static inline int64_t bucket_log_bucket(const struct bucket_log *l, size_t i)
{
    return l->base + (int64_t)(l->rec[i].key & BUCKET_REL_MASK);
}

#endif
