/* What `spoor summary` reuses of the stats recipe (spoor/stats.h): the
 * period figures alone, counted on the workers, with files and hosts added in
 * input order through the summary's own resolver. */
#ifndef SPOOR_ANALYZE_STATS_PERIOD_H
#define SPOOR_ANALYZE_STATS_PERIOD_H

#include "spoor/stats.h"
#include "spoor/table.h"

/* spoor_stats_begin without the per cat and per (cat, name) groups (by_cat and by_name
 * come out empty): the period figures alone, for recipes that sum their own
 * (spoor summary), at a hash lookup a row less. */
struct spoor_stats_run *spoor_stats_begin_period(int threads);
/* The map() part alone, for a recipe with its own resolver that hands the
 * batches to spoor_stats_add_names in input order. */
struct spoor_sink spoor_stats_map_sink(struct spoor_stats_run *run);
struct spoor_resolver;
/* Counts the files and hosts of a batch; r has learned it (spoor/table.h). */
void spoor_stats_add_names(struct spoor_stats_run *run, const struct spoor_table *batch, struct spoor_resolver *r);

#endif
