/* SQL over an event table: an SQLite connection whose tables are virtual
 * tables reading the columns in place (no row is copied into SQLite).
 *
 *   events   every row: ts dur name cat pid tid ph line source file host, then
 *            the args columns (a key equal to a fixed name is "args.<key>")
 *   files, hosts, strings, procs, threads   the metadata lookups
 *   meta     (source, key, value): dialect, units, rows, skipped lines, ...
 *
 * Queries on events push constraints down (ts ranges, name/cat/pid/tid
 * equality) and hand rows grouped for GROUP BY name / cat / cat, name; see
 * docs/perf-notes.md, "SQL". */
#ifndef SPOOR_SQL_H
#define SPOOR_SQL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "spoor/error.h"
#include "spoor/load.h"
#include "spoor/table.h"

struct spoor_sql;

/* Opens a session over t, which must outlive it. loaded (may be NULL) fills
 * the meta table. */
SPOOR_API int spoor_sql_open(const struct spoor_table *t, const struct spoor_load_result *loaded,
                             struct spoor_sql **out, struct spoor_error *err);
SPOOR_API void spoor_sql_close(struct spoor_sql *s);

/* The tables, NULL-terminated, and the CREATE TABLE text of one (NULL when
 * there is no such table), for the shell's .tables and .schema. */
SPOOR_API const char *const *spoor_sql_table_names(void);
SPOOR_API const char *spoor_sql_schema(struct spoor_sql *s, const char *table);

enum spoor_sql_format { SPOOR_SQL_TABLE, SPOOR_SQL_CSV, SPOOR_SQL_JSON, SPOOR_SQL_JSONL };

/* --param name=value: name with or without its ':', '@' or '$'. Values that
 * read as integers are bound as integers, other numbers as reals, the rest
 * as text; values are bound, never pasted into the SQL. */
struct spoor_sql_param {
    const char *name, *value;
};

struct spoor_sql_run {
    const struct spoor_sql_param *params;
    size_t nparams;
    enum spoor_sql_format format;
    FILE *out;
    long error_offset;      /* out: byte offset of an SQL error in the query, or -1 */
    /* Aggregate queries over events in a subset of SQL run natively on the
     * columns, with SQLite's answer (docs/perf-notes.md, "SQL"); no_native
     * leaves every statement to SQLite. */
    bool no_native;
    /* Called (when set) after each statement with the path that ran it,
     * "native" or "sqlite", and for "sqlite" why (a static string). */
    void (*explain)(void *arg, const char *path, const char *why);
    void *explain_arg;
};

/* Runs every statement of query in turn, writing each one's result to
 * run->out. SPOOR_EUSAGE for an SQL error in the text (error_offset says
 * where, when SQLite knows) or a parameter without value; SPOOR_EFORMAT for an
 * error while running; SPOOR_EIO when writing fails. */
SPOOR_API int spoor_sql_exec(struct spoor_sql *s, const char *query, struct spoor_sql_run *run,
                             struct spoor_error *err);

/* The columns of t (a whole-table load, spoor_load_opts.columns_read) that
 * running `text` can read; text NULL (an interactive shell): all of them. */
struct spoor_snapshot_need;
SPOOR_API void spoor_sql_columns_read(const struct spoor_table *t, const char *text, struct spoor_snapshot_need *need);

/* Prints the query line holding byte `offset` and a caret under it. */
SPOOR_API void spoor_sql_print_caret(FILE *f, const char *query, long offset);

#endif
