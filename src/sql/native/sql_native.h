/* The native path of spoor sql: aggregate queries over events answered
 * straight from the columns, byte for byte what SQLite would print.
 *
 *   SELECT <keys and aggregates> FROM events [WHERE <expr>] [GROUP BY <keys>]
 *     [ORDER BY <terms>] [LIMIT n [OFFSET m]]
 *
 * Anything else is declined and runs in SQLite. This is the folder's one
 * header for the rest of spoor sql; its insides are in internal.h. Every
 * query the tests use is run both ways and compared (test_sql_native.c,
 * tests/cli/sql_both_ways.sh); --no-native forces SQLite. */
#ifndef SPOOR_SQL_NATIVE_H
#define SPOOR_SQL_NATIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <sqlite3.h>

#include "spoor/error.h"
#include "spoor/sql.h"

/* Runs a prepared statement natively when its text is in the subset.
 * Returns false (and *why) to leave it to SQLite; otherwise writes the result
 * and sets *status. */
bool sql_native_exec(struct spoor_sql *s, sqlite3_stmt *st, const char *text, size_t len,
                     const struct spoor_sql_run *run, size_t nth, int *status, const char **why,
                     struct spoor_error *err);

#endif
