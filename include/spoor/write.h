/* Streaming row writers: rows of event tables, batch after batch, as CSV
 * (RFC 4180, one header) or JSON lines (one object per row).
 *
 * Columns are named as in resolve.h. With an explicit list every row has
 * exactly those columns (null when a batch lacks one). The default is the
 * fixed columns (ts dur name cat pid tid ph line source), file and host, then
 * the args columns in order of first appearance (ties by name):
 *   - JSONL: each object carries the args that have a value in that row;
 *   - CSV: every args column with a value in some row is a column. The
 *     first 1000 rows are held back for the header; an args column first
 *     seen later is appended to it at the end, and the rows written before
 *     get an empty cell for it: they are read back from the output when it
 *     is rewritable, else (a pipe, stdout) every row after the first 1000
 *     waits in a nameless file in $TMPDIR (or /tmp) until the end.
 * Either way the output depends only on the rows, never on how they were
 * split into batches. An args key equal to a fixed name is labelled
 * "args.<key>". Values: times and numbers as integers (ns), floats in the
 * shortest form that reads back exactly, ph as its letter, source as the
 * input's path; null is an empty CSV field (an empty string is "") and JSON
 * null. JSON strings are escaped, and invalid UTF-8 becomes U+FFFD. */
#ifndef SPOOR_WRITE_H
#define SPOOR_WRITE_H

#include <stdint.h>
#include <stdio.h>

#include "spoor/error.h"
#include "spoor/resolve.h"
#include "spoor/table.h"

enum spoor_write_format { SPOOR_WRITE_CSV, SPOOR_WRITE_JSONL };

/* The format an output file's name implies: JSON lines for .jsonl, .json and
 * .ndjson, else (and for NULL) CSV. */
enum spoor_write_format spoor_write_format_of_path(const char *path);

/* Rows the default CSV header is chosen from. */
enum { SPOOR_WRITE_CSV_HOLD = 1000 };

struct spoor_writer_opts {
    enum spoor_write_format format;
    const char *const *columns;     /* NULL: the default columns */
    size_t ncolumns;
    const char *name;               /* the file written, which errors name (kept, not copied); NULL: stdout */
    bool rewritable;                /* out is our own temporary `name` (open read-write, at offset 0),
                                     * which a default CSV may read back and write again from its start */
};

struct spoor_writer;

struct spoor_writer *spoor_writer_new(FILE *out, const struct spoor_writer_opts *opts);
/* Writes rows sel[0..n) of t, or all its rows when sel is NULL. res gives
 * file and host (NULL: they are null). Returns SPOOR_EIO when writing fails. */
int spoor_writer_write(struct spoor_writer *w, const struct spoor_table *t, const struct spoor_resolved *res,
                       const uint32_t *sel, size_t n, struct spoor_error *err);
/* Writes what is held back and flushes. */
int spoor_writer_finish(struct spoor_writer *w, struct spoor_error *err);
void spoor_writer_free(struct spoor_writer *w);

/* Explicit args columns that no batch had. */
size_t spoor_writer_missing(const struct spoor_writer *w, const char **names, size_t max);

/* Splits a --columns list ("ts,name, args.size") into names; trims spaces.
 * Fails on an empty name. Free the result with spoor_columns_free. */
int spoor_columns_parse(const char *list, char ***names, size_t *n, struct spoor_error *err);
void spoor_columns_free(char **names, size_t n);

#endif
