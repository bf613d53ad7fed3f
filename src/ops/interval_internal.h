/* Shared pieces of the interval engine (include/spoor/interval.h). */
#ifndef SPOOR_INTERVAL_INTERNAL_H
#define SPOOR_INTERVAL_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "spoor/interval.h"

/* One event span; row leads back to the table (name, cat, dur). */
struct iv_item {
    int64_t start, end;     /* closed: [start, end] */
    uint32_t row;
    uint32_t tag;           /* position in the row selection it came from */
};

/* Start order: start up, end down (outer first), row down (of two equal spans
 * the later row, written after its children, is the outer). */
static inline bool iv_before(const struct iv_item *a, const struct iv_item *b)
{
    if (a->start != b->start)
        return a->start < b->start;
    if (a->end != b->end)
        return a->end > b->end;
    return a->row > b->row;
}

/* A growable array of items. */
struct iv_items {
    struct iv_item *v;
    size_t n, cap;
};

void iv_items_push(struct iv_items *a, struct iv_item it);

/* Rows split by key: items of group g are items[first[g] .. first[g + 1]), in
 * the order the rows were given. Group numbers follow first sight in
 * iv_keys_assign calls, so one iv_keys shared by two row sets numbers the
 * same key alike. */
struct iv_keys;
struct iv_keys *iv_keys_new(enum spoor_iv_key key);
void iv_keys_free(struct iv_keys *k);
size_t iv_keys_count(const struct iv_keys *k);
/* Group number of the key of row r. */
uint32_t iv_keys_of_row(struct iv_keys *k, const struct spoor_table *t, size_t r);
/* Group number of each row (UINT32_MAX for rows taking no part). */
uint32_t *iv_keys_assign(struct iv_keys *k, const struct spoor_table *t, const uint32_t *rows, size_t n);

struct iv_groups {
    size_t n;
    size_t *first;          /* n + 1 */
    struct iv_item *items;
};

void iv_groups_build(struct iv_groups *g, const struct spoor_table *t, const uint32_t *rows, size_t n,
                     const uint32_t *ids, size_t ngroups);
void iv_groups_free(struct iv_groups *g);

/* Puts items in start order (iv_before): a sliding-heap reorder when the
 * disorder is bounded, else a full sort. */
void iv_order(struct iv_item *items, size_t n);

/* The call-stack sweep over one group in start order. Fills depth, parent and
 * self for the items' rows and, when segs is not NULL, appends the group's
 * self-time timeline: disjoint segments in time order, row = the event the
 * time belongs to. */
struct iv_nest_out {
    int32_t *depth;
    uint32_t *parent;
    int64_t *self;
    struct iv_items *segs;
};
void iv_nest(const struct iv_item *items, size_t n, const struct iv_nest_out *out);
/* Orders group g of groups and sweeps it. */
void iv_nest_group(struct iv_groups *groups, size_t g, const struct iv_nest_out *out);
/* depth, parent and self for every row of a table, as rows taking no part. */
void iv_nest_out_alloc(struct iv_nest_out *out, size_t nrows);
void iv_nest_out_free(struct iv_nest_out *out);

/* Attributes the calls of one group to its pieces (events, or for
 * SPOOR_ATTR_SELF self-time segments), both in start order; appends one hit
 * per (call, function) to hits, each call's hits together. */
struct iv_hit {
    uint32_t tag;           /* the call's position */
    uint32_t name, cat;
    int64_t ns;
    int64_t first_start;    /* the first matching piece's start inside the call */
    uint32_t first_row;
};
struct iv_hits {
    struct iv_hit *v;
    size_t n, cap;
};
void iv_join(const struct spoor_table *t, enum spoor_attr_mode mode, const struct iv_item *calls, size_t ncalls,
             const struct iv_item *pieces, size_t npieces, struct iv_hits *hits);

/* Rows of t selected by rows (NULL: all); checks they exist. */
int iv_check_rows(const struct spoor_table *t, const uint32_t *rows, size_t n, struct spoor_error *err);

#endif
