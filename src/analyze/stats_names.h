/* The distinct files (or hosts) of `spoor stats`: names, not hashes. */
#ifndef SPOOR_STATS_NAMES_H
#define SPOOR_STATS_NAMES_H

#include <stdint.h>

#include "spoor/table.h"

struct stats_names;

struct stats_names *stats_names_new(enum spoor_field field);
void stats_names_free(struct stats_names *n);
/* The lowest and highest line of the batch's rows. */
void stats_names_lines(const struct spoor_table *batch, uint64_t *lo, uint64_t *hi);
/* Adds the names the rows of batch get (r has learned the batch, and every
 * batch before it in input order; lo and hi from stats_names_lines). */
void stats_names_add(struct stats_names *n, const struct spoor_table *batch, uint64_t lo, uint64_t hi,
                     struct spoor_resolver *r);
uint64_t stats_names_count(const struct stats_names *n);

#endif
