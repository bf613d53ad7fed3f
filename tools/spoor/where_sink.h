/* --where for the streaming recipes (stats, summary): the filter compiled,
 * the args it reads added to the load's, and the recipe's sink wrapped so it
 * sees only the matching rows (spoor/expr.h, the sink form). Without --where
 * nothing changes: the recipe's own sink is used as it is. */
#ifndef SPOOR_WHERE_SINK_H
#define SPOOR_WHERE_SINK_H

#include <stdbool.h>

#include "spoor/expr.h"

struct where_sink {
    const char *text;               /* NULL: no filter */
    struct spoor_expr *expr;
    struct spoor_filter *filter;
};

/* Compiles text (NULL: no filter); false after a one-line error. */
bool where_sink_compile(const char *cmd, const char *text, struct where_sink *w);
/* Makes the filter and adds the args it reads to opts's listed ones (opts
 * is final but for them). */
void where_sink_keys(struct where_sink *w, struct spoor_load_opts *opts);
/* The sink to load with: inner behind the filter. */
struct spoor_sink where_sink_wrap(struct where_sink *w, const struct spoor_sink *inner);
/* Warns of args columns the filter names that no input had. */
void where_sink_report(const char *cmd, const struct where_sink *w);
void where_sink_free(struct where_sink *w);

#endif
