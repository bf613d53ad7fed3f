/* Sums per (row, time bucket): for charts over a run whose start and length
 * are not known while it streams (the timeline's cells, bandwidth over time,
 * the process x time heatmap). A bucket is 2^shift ns wide and its index is
 * floor(ts / 2^shift), so buckets of any two sums of one shift line up, and
 * coarsening to shift + 1 merges pairs exactly. Each cell holds a count and a
 * sum (an event's start and its ns in the bucket, or its bytes), both
 * additive, so sums of workers, pairs and rows add up exactly. Only touched
 * cells are stored: memory follows them, not the run's length.
 *
 * Rows are small dense ids (< 2^24); a bucket must lie within 2^39 buckets of
 * the first one added (12 days at 1 us): one further away is refused. */
#ifndef SPOOR_UTIL_BUCKET_SUMS_H
#define SPOOR_UTIL_BUCKET_SUMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/id_map.h"

#define BUCKET_ROWS_MAX (1u << 24)
/* A cell's key: row << BUCKET_REL_BITS | (bucket - base). */
#define BUCKET_REL_BITS 40
#define BUCKET_REL_MASK ((1ULL << BUCKET_REL_BITS) - 1)

struct bucket_sums {
    int shift;
    bool based;
    int64_t base;                   /* the bucket at relative index 0 */
    struct spoor_id_map cells;      /* key: row << 40 | (bucket - base) */
    uint64_t *count;                /* per cell id */
    int64_t *sum;
    size_t count_cap, sum_cap;
    int64_t lo, hi;                 /* the first and last bucket touched */
};

void bucket_sums_init(struct bucket_sums *b, int shift);
void bucket_sums_free(struct bucket_sums *b);
/* The id (0..cells.n-1) of the cell (row, bucket), made empty on first sight;
 * UINT32_MAX when the bucket is out of range. */
uint32_t bucket_sums_cell(struct bucket_sums *b, uint32_t row, int64_t bucket);
/* Whether a cell of this bucket can be stored (the first call sets the range). */
bool bucket_sums_fits(struct bucket_sums *b, int64_t bucket);
/* The range both forms of sums (these and bucket_log.h) keep: the first
 * bucket sets the base, with room either side since rows come in any time
 * order. */
static inline bool bucket_range_fits(bool *based, int64_t *base, int64_t bucket)
{
    if (!*based) {
        *base = bucket - (1LL << (BUCKET_REL_BITS - 1));
        *based = true;
    }
    int64_t rel = bucket - *base;
    return rel >= 0 && rel < (1LL << BUCKET_REL_BITS);
}
/* Adds to the cell (row, bucket); false (nothing added) when the bucket is
 * out of range. */
bool bucket_sums_add(struct bucket_sums *b, uint32_t row, int64_t bucket, uint64_t count, int64_t sum);
/* Adds an event [start, end): count to the bucket of start, and to every
 * bucket it overlaps the ns of the overlap. */
bool bucket_sums_span(struct bucket_sums *b, uint32_t row, int64_t start, int64_t end, uint64_t count);
/* Buckets an event [start, end) overlaps at this shift. */
static inline int64_t bucket_span(int shift, int64_t start, int64_t end)
{
    return (end > start ? (end - 1) >> shift : start >> shift) - (start >> shift) + 1;
}
/* Widens the buckets to 2^shift ns (shift >= b->shift), merging cells. */
void bucket_sums_coarsen(struct bucket_sums *b, int shift);
/* Widens the buckets (doubling) until they hold [start, end) and every cell
 * within `columns` buckets from first to last. */
void bucket_sums_fit(struct bucket_sums *b, int64_t start, int64_t end, int64_t columns);
/* The narrowest shift >= b->shift at which b's cells, merged, would weigh at
 * most cap (or 62, when even a bucket per row weighs more): a cell weighs 1
 * (k = 0: the cells are counted), or its count but at most k. One sort of
 * the cells, however many doublings it takes. */
int bucket_sums_fit_shift(const struct bucket_sums *b, uint64_t cap, uint64_t k);
/* The same for cells given as keys in order (count[order[i]] the count of
 * sorted[i]; order NULL: count[i]) of a sums at shift and base. */
int bucket_keys_fit_shift(int shift, int64_t base, const uint64_t *sorted, const uint32_t *order,
                          const uint64_t *count, size_t n, uint64_t cap, uint64_t k);
/* A cell's weight as bucket_sums_fit_shift counts it. */
static inline uint64_t bucket_weight(uint64_t count, uint64_t k) { return !k ? 1 : count < k ? count : k; }
/* Adds every cell of src (any shift <= b's) to b. */
void bucket_sums_merge(struct bucket_sums *b, const struct bucket_sums *src);
/* Buckets from the first touched to the last (0 when none). */
static inline int64_t bucket_sums_range(const struct bucket_sums *b) { return b->cells.n ? b->hi - b->lo + 1 : 0; }

/* Cell i (0..cells.n-1): its row and bucket. */
static inline uint32_t bucket_sums_row(const struct bucket_sums *b, size_t i)
{
    return (uint32_t)(b->cells.keys[i] >> 40);
}
static inline int64_t bucket_sums_bucket(const struct bucket_sums *b, size_t i)
{
    return b->base + (int64_t)(b->cells.keys[i] & ((1ULL << 40) - 1));
}

#endif
