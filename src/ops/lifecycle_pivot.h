/* The pivot behind `spoor lifecycle` (spoor/lifecycle.h has the spec and the
 * recipe's result): per entity, the first time of each listed stage, how often
 * each was seen, and the attributes it keeps. Private to the library: the
 * recipe (analyze/lifecycle.c) and the run over logs (lifecycle_run.c) use it;
 * a client calls spoor_lc_run. */
#ifndef SPOOR_OPS_LIFECYCLE_PIVOT_H
#define SPOOR_OPS_LIFECYCLE_PIVOT_H

#include <stddef.h>
#include <stdint.h>

#include "spoor/lifecycle.h"

/* The fields the pivot reads beyond entity, stage and time, its attributes:
 * load them with SPOOR_ARGS_LISTED. Returns how many (at most
 * SPOOR_LC_MAX_FIELDS): the --by fields, then the fill field, the worker
 * and host fields when not among them. */
size_t spoor_lc_spec_fields(const struct spoor_lc_spec *s, const char **out);

struct spoor_lc_pivot;

/* One table of entities per worker; the spec's stages by name, `attrs`
 * fields kept per entity (their value from the entity's earliest record that
 * has one, or the latest for the spec's last_field; the worker as the spec
 * names it). The loaded table's name column is the entity (with the worker
 * for entity_worker), cat the stage, ts the time. The spec must outlive the
 * pivot. */
struct spoor_lc_pivot *spoor_lc_pivot_begin(int threads, const struct spoor_lc_spec *s, const char *const *attrs,
                                            size_t nattrs);
struct spoor_sink spoor_lc_pivot_sink(struct spoor_lc_pivot *p);
/* Merges the workers' entities into one set, merged ids 1..n (call once,
 * after loading). */
void spoor_lc_pivot_merge(struct spoor_lc_pivot *p);
void spoor_lc_pivot_free(struct spoor_lc_pivot *p);

/* How many threads loaded the log (the fold uses as many). */
int spoor_lc_pivot_threads(const struct spoor_lc_pivot *p);
/* After merging: entities are 1..n (id order is not meaningful). */
size_t spoor_lc_pivot_entities(const struct spoor_lc_pivot *p);
const char *spoor_lc_pivot_name(const struct spoor_lc_pivot *p, size_t id);
/* Entity id of a name, or 0. */
size_t spoor_lc_pivot_find(const struct spoor_lc_pivot *p, const char *name, size_t len);
/* First time of each stage (SPOOR_NULL when unseen) and how often it was seen. */
const int64_t *spoor_lc_pivot_times(const struct spoor_lc_pivot *p, size_t id);
const uint32_t *spoor_lc_pivot_seen(const struct spoor_lc_pivot *p, size_t id);
/* An attribute's value ("" when never seen), and its id among the pivot's
 * values (0 when never seen; equal ids, equal values). */
const char *spoor_lc_pivot_attr(const struct spoor_lc_pivot *p, size_t id, size_t attr);
uint32_t spoor_lc_pivot_attr_id(const struct spoor_lc_pivot *p, size_t id, size_t attr);
struct spoor_lc_counts spoor_lc_pivot_counts(const struct spoor_lc_pivot *p);

#endif
