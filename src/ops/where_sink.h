/* --where for the streaming recipes (stats, summary): the recipe's sink
 * wrapped so it sees only the rows the expression selects (spoor/expr.h has
 * the filter sink), with the args the expression reads added to the load's. */
#ifndef SPOOR_OPS_WHERE_SINK_H
#define SPOOR_OPS_WHERE_SINK_H

#include "spoor/expr.h"

struct spoor_where_sink;

/* expr may be NULL (no filter: the inner sink as it is); it and inner must
 * outlive the wrapper. opts's listed args keys gain the expression's (opts
 * then points into the wrapper). */
struct spoor_where_sink *spoor_where_sink_new(const struct spoor_expr *expr, const struct spoor_sink *inner,
                                              struct spoor_load_opts *opts);
/* The sink to load with. */
const struct spoor_sink *spoor_where_sink(const struct spoor_where_sink *w);
/* After the load: sets out->unknown to the expression's args columns no input had. */
void spoor_where_sink_unknown(const struct spoor_where_sink *w, struct spoor_stream_load *out);
void spoor_where_sink_free(struct spoor_where_sink *w);

#endif
