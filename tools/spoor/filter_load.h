/* The option side of the commands that write rows (events, export): the
 * --where and --columns, and the warnings after a run. The
 * load/filter loop itself is the library's (spoor/expr.h). */
#ifndef SPOOR_FILTER_LOAD_H
#define SPOOR_FILTER_LOAD_H

#include <stdbool.h>
#include <stddef.h>

#include "spoor/expr.h"
#include "spoor/load.h"

/* Compiles --where and splits --columns (either may be NULL); on bad usage
 * prints one line and returns false. */
bool filter_load_parse_args(const char *cmd, const char *where, const char *columns, struct spoor_expr **expr,
                            char ***cols, size_t *ncols);

/* Warnings on stderr after a successful run: --where args columns and
 * `missing` --columns names that no input had (with the closest known name).
 * At most this many names of each kind. */
enum { FILTER_LOAD_REPORT_MAX = 64 };

void filter_load_report(const char *cmd, const struct spoor_filter *f, const char *const *missing,
                        size_t nmissing);

#endif
