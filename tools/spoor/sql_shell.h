/* The interactive side of spoor sql: a line-editing shell with history, and
 * the one place that prints an SQL error with its caret. */
#ifndef SPOOR_SQL_SHELL_H
#define SPOOR_SQL_SHELL_H

#include "spoor/sql.h"

/* Prints "spoor sql: MSG" and, when the error has a position, the query line
 * with a caret under it. */
void sql_print_error(const char *query, const struct spoor_sql_run *run, const struct spoor_error *err);

/* Reads statements from the terminal until .quit or end of input; results go
 * to stdout in run->format. Returns 0. */
int sql_shell_run(struct spoor_sql *s, struct spoor_sql_run *run);

#endif
