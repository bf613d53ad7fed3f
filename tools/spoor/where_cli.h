/* --where for the streaming recipes (stats, summary): the expression
 * compiled, and the warning for the args columns it names that no input had. */
#ifndef SPOOR_WHERE_CLI_H
#define SPOOR_WHERE_CLI_H

#include <stdbool.h>

#include "spoor/expr.h"

/* Compiles text (NULL: no filter, *out NULL); false after a one-line error. */
bool where_compile(const char *cmd, const char *text, struct spoor_expr **out);
/* Warns of the args columns the filter names that no input had. */
void where_unknown_report(const char *cmd, const struct spoor_stream_load *l);

#endif
