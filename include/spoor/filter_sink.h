/* A sink that hands another only the rows where an expression (the --where
 * language, spoor/expr.h) is true, so a streaming recipe (stats, summary)
 * counts a filtered trace in the same one pass.
 *
 * Each batch is filtered on the worker that parsed it and the inner sink's
 * map sees the selected rows as a table of their own (spoor_table_select);
 * its reduce later gets that same table, in input order. An expression that
 * reads file, host or line is evaluated in input order instead (reduce, with
 * a resolver): the inner map then runs there too, as worker 0. */
#ifndef SPOOR_FILTER_SINK_H
#define SPOOR_FILTER_SINK_H

#include <stdbool.h>

#include "spoor/expr.h"
#include "spoor/load.h"

struct spoor_filter_sink;

/* expr and inner's context outlive the filter; threads as the load's. */
struct spoor_filter_sink *spoor_filter_sink_new(const struct spoor_expr *expr, const struct spoor_sink *inner,
                                                int threads);
struct spoor_sink spoor_filter_sink(struct spoor_filter_sink *f);
/* Whether args column ref i of the expression was in any batch so far. */
bool spoor_filter_sink_found(const struct spoor_filter_sink *f, size_t i);
void spoor_filter_sink_free(struct spoor_filter_sink *f);

#endif
