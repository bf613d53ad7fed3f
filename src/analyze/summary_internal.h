/* Pieces of spoor_summarize shared between its files (src/analyze/summary*.c). */
#ifndef SPOOR_SUMMARY_INTERNAL_H
#define SPOOR_SUMMARY_INTERNAL_H

#include <stdbool.h>

#include "spoor/interval.h"
#include "spoor/summary.h"

#define SUMMARY_NO_GROUP UINT32_MAX

/* What each row touched and moved. */
struct summary_rows {
    size_t n;
    const uint32_t *file;           /* ids in files (0 = none) */
    const struct spoor_strpool *files;
    int64_t *bytes;                 /* SPOOR_NULL when unsized */
    bool *compute;
    uint32_t *order;                /* rows in start order */
    struct spoor_resolver *resolver;
};

void summary_rows_build(const struct spoor_table *t, const char *compute, struct summary_rows *out);
void summary_rows_free(struct summary_rows *r);
static inline bool summary_is_io(const struct summary_rows *r, size_t row)
{
    return r->file[row] || r->bytes[row] != SPOOR_NULL;
}
static inline bool summary_is_event(const struct spoor_table *t, size_t row) { return t->ph[row] != 'M'; }

/* Rows sorted by ts (rows without ts anywhere). */
uint32_t *summary_start_order(const struct spoor_table *t);

/* The union of the spans of each group's rows: group g is
 * spans[first[g] .. first[g + 1]), disjoint and in order. */
struct grouped_spans {
    struct spoor_span *spans;
    size_t *first;
    size_t ngroups;
};

/* group[r] is row r's group or SUMMARY_NO_GROUP; rows are bucketed in
 * rows->order so that each group's spans arrive sorted. */
void grouped_spans_build(const struct spoor_table *t, const struct summary_rows *rows, const uint32_t *group,
                         size_t ngroups, struct grouped_spans *out);
int64_t grouped_spans_length(const struct grouped_spans *g, size_t group);
void grouped_spans_free(struct grouped_spans *g);
/* Length of the intersection of two unions. */
int64_t spans_intersection(const struct spoor_span *a, size_t na, const struct spoor_span *b, size_t nb);

/* A copy of s owned by out->strings. */
const char *summary_own(struct spoor_summary *out, const char *s);

/* Dense ids 0..n-1 for 64-bit keys (pids, pairs of ids), in order of first
 * sight; keys[id] is the key. Zero-initialise; summary_keys_free. */
struct summary_keys {
    uint64_t *keys;
    size_t n;
    uint32_t *slots, last;
    size_t nslots;
};
uint32_t summary_keys_id(struct summary_keys *k, uint64_t key);
void summary_keys_free(struct summary_keys *k);

/* Adds to not_compute[cat id] each layer's time not overlapped by compute;
 * sets out->compute_time. */
void summary_not_compute(const struct spoor_table *t, const struct summary_rows *rows, int64_t *not_compute,
                         struct spoor_summary *out);
void summary_layers(const struct spoor_table *t, const struct spoor_nesting *nest, const struct summary_rows *rows,
                    struct spoor_summary *out);
void summary_top(const struct spoor_table *t, const struct spoor_nesting *nest, const struct summary_rows *rows,
                 size_t top, struct spoor_summary *out);
void summary_io(const struct spoor_table *t, const struct summary_rows *rows, struct spoor_summary *out);

#endif
