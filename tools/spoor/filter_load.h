/* The option side of the commands that write rows (events, export): the
 * --where and --columns, and the warnings after a run. The
 * load/filter loop itself is the library's (spoor/expr.h). */
#ifndef SPOOR_FILTER_LOAD_H
#define SPOOR_FILTER_LOAD_H

#include <stdbool.h>
#include <stddef.h>

#include "spoor/expr.h"
#include "spoor/load.h"
#include "spoor/write.h"

/* Events and export after their options: --where compiled and --columns
 * split (a usage error is exit 2), the traces filtered into the writer o
 * names, then the warnings (columns no input had) or the error. Returns the
 * exit code. */
int filter_load_export(const char *cmd, const char *const *paths, size_t npaths, struct spoor_load_opts *opts,
                       const char *where, const char *columns, struct spoor_trace_export_opts o);

#endif
