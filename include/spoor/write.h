/* Writing outputs: atomic output files (first), the streaming row writers
 * (described here), and the database and trace exports (last, with their own
 * comments).
 *
 * Streaming row writers: rows of event tables, batch after batch, as CSV
 * (RFC 4180, one header) or JSON lines (one object per row).
 *
 * Columns are named as in spoor/table.h (the resolver). With an explicit list every row has
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

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "spoor/error.h"
#include "spoor/load.h"
#include "spoor/table.h"

/* Output files that appear whole or not at all: rows go to a temporary file
 * in the target's directory, renamed over the target on success and removed
 * on failure, so an error never leaves a truncated file behind (nor destroys
 * an existing one). A temporary a killed writer left behind is removed by the
 * next writer of the same target. A path of "-" or NULL means stdout. A path that names
 * something other than a regular file (/dev/null, a FIFO, /dev/stdout) is
 * written in place: renaming over it would replace the device. */
struct spoor_atomic_file {
    FILE *fp;               /* write here (a temporary's descriptor reads too) */
    char *path;             /* the target, NULL for stdout */
    char *tmp;              /* the temporary file, NULL when the target is written in place */
    int slot;               /* tmp's place in the list a signal handler removes */
};

/* Whether path exists and is neither a regular file nor a directory: a
 * device, FIFO or socket, which output goes to directly. */
SPOOR_API bool spoor_path_is_special(const char *path);

/* The directory holding path, malloc'ed: "." for a bare name, "/" for /x. */
SPOOR_API char *spoor_path_dir(const char *path);

SPOOR_API int spoor_atomic_file_open(struct spoor_atomic_file *f, const char *path, struct spoor_error *err);
/* Flushes, closes and renames into place. On failure the temporary is removed. */
SPOOR_API int spoor_atomic_file_commit(struct spoor_atomic_file *f, struct spoor_error *err);
/* Closes and removes the temporary; the target is left as it was. */
SPOOR_API void spoor_atomic_file_abort(struct spoor_atomic_file *f);

/* Makes SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGXFSZ and SIGXCPU remove every open temporary, then end the
 * process by the same signal. Signals that are ignored (nohup) stay ignored.
 * A program calls it once, before it starts threads. */
SPOOR_API void spoor_atomic_file_cleanup_on_signals(void);

enum spoor_write_format { SPOOR_WRITE_CSV, SPOOR_WRITE_JSONL };

/* The format an output file's name implies: JSON lines for .jsonl, .json and
 * .ndjson, else (and for NULL) CSV. */
SPOOR_API enum spoor_write_format spoor_write_format_of_path(const char *path);

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

SPOOR_API struct spoor_writer *spoor_writer_new(FILE *out, const struct spoor_writer_opts *opts);
/* Writes rows sel[0..n) of t, or all its rows when sel is NULL. res gives
 * file and host (NULL: they are null). Returns SPOOR_EIO when writing fails. */
SPOOR_API int spoor_writer_write(struct spoor_writer *w, const struct spoor_table *t, const struct spoor_resolved *res,
                                 const uint32_t *sel, size_t n, struct spoor_error *err);
/* Writes what is held back and flushes. */
SPOOR_API int spoor_writer_finish(struct spoor_writer *w, struct spoor_error *err);
SPOOR_API void spoor_writer_free(struct spoor_writer *w);

/* Explicit args columns that no batch had. */
SPOOR_API size_t spoor_writer_missing(const struct spoor_writer *w, const char **names, size_t max);

/* Splits a --columns list ("ts,name, args.size") into names; trims spaces.
 * Fails on an empty name. Free the result with spoor_columns_free. */
SPOOR_API int spoor_columns_parse(const char *list, char ***names, size_t *n, struct spoor_error *err);
SPOOR_API void spoor_columns_free(char **names, size_t n);

/* Exporters beyond the CSV/JSONL row writers (write.h): an SQLite database
 * and a Perfetto-ready Chrome trace. Both stream: rows of event tables come
 * batch after batch in input order, exactly as spoor_writer_write() takes
 * them, so memory stays bounded whatever the trace size. Every batch must be
 * given, even when no row of it is selected: its metadata fills the lookups.
 *
 * Columns are named as in spoor/table.h (the resolver); `columns` NULL means the default: the
 * fixed columns, file, host, then every args column (an args key equal to a
 * fixed name is called "args.<key>"). */
/* SQLite: a database file with
 *   events(ts, dur, name, cat, pid, tid, ph, line, source, file, host, <args>...)
 *     times in integer ns, NULL where absent; an args column is added when its
 *     key first appears, declared INTEGER, REAL or TEXT by its type in that
 *     batch (later values of another type converted by SQLite's affinity
 *     rules); a name equal to an earlier one but for ASCII case gets ".1",
 *     ".2", ... (SQLite names ignore case);
 *   files(hash, path, source, line), hosts(hash, name, ...), strings(hash,
 *   value, ...), procs(pid, name, ...), threads(tid, name, ...): the lookups,
 *   one row per definition: the input that made it and the line it holds
 *   from (until that input's next definition of the key);
 *   meta: one row per input (path, dialect, units, lines, skipped, ...);
 * and indexes on events(ts), events(name), events(pid, tid). Text is valid
 * UTF-8 (invalid bytes become U+FFFD). The file format is written directly
 * (rows stream into it; the indexes, the schema and the lookups are added
 * at the end): it is meant to be written to a temporary path and renamed
 * when complete (the atomic files, above). */
struct spoor_sqlite_writer;

/* Creates the database at path (an empty or absent file; name is the file the
 * user asked for, which errors name, when path is its temporary). only_source, when
 * every row comes from that one input, makes `source` a generated column
 * holding it (no bytes per row); NULL stores each row's. */
SPOOR_API int spoor_sqlite_writer_open(struct spoor_sqlite_writer **out, const char *path, const char *name,
                                       const char *const *columns, size_t ncolumns, const char *only_source,
                                       struct spoor_error *err);
/* Right after open: writes the same database through SQLite's own API
 * instead (rows inserted, indexes made by CREATE INDEX; far slower), to
 * check the file writer against (spoor export --via-sqlite). */
SPOOR_API int spoor_sqlite_writer_via_sqlite(struct spoor_sqlite_writer *w, struct spoor_error *err);
/* Inserts rows sel[0..n) of t (all rows when sel is NULL) and t's lookups.
 * res gives file and host (NULL: they are null). */
SPOOR_API int spoor_sqlite_writer_write(struct spoor_sqlite_writer *w, const struct spoor_table *t,
                                        const struct spoor_resolved *res, const uint32_t *sel, size_t n,
                                        struct spoor_error *err);
/* Optional, from any thread (one call at a time per worker number): encodes
 * rows sel[0..n) of t ahead of spoor_sqlite_writer_write(), which must then
 * get the same rows of the same t. Batches are written in input order, but
 * prepared in any order, in parallel. Worth it only with cores to spare:
 * spoor export prepares with more than two (docs/perf-notes.md, "SQLite export"). */
SPOOR_API int spoor_sqlite_writer_prepare(struct spoor_sqlite_writer *w, int worker, const struct spoor_table *t,
                                          const uint32_t *sel, size_t n);
/* Writes the indexes, the schema, the lookups and meta, and closes. */
SPOOR_API int spoor_sqlite_writer_finish(struct spoor_sqlite_writer *w, const struct spoor_load_result *loaded,
                                         struct spoor_error *err);
/* Closes (leaving an unfinished file if finish was not reached) and frees. */
SPOOR_API void spoor_sqlite_writer_free(struct spoor_sqlite_writer *w);
/* Explicit args columns that no batch had. */
SPOOR_API size_t spoor_sqlite_writer_missing(const struct spoor_sqlite_writer *w, const char **names, size_t max);

/* Perfetto: Chrome trace JSON in the array form, one event per line, that
 * ui.perfetto.dev and spoor itself open. ts and dur are in µs with the ns as
 * decimals (exact); ph, pid, tid, name and cat as in the trace; args are the
 * row's args (with explicit columns: the args columns listed) plus the
 * resolved "file" and "host" when the row has them (an args key of the same
 * name wins). Each process and thread name learned from the metadata (PR,
 * process_name, thread_name) also becomes a process_name / thread_name
 * metadata event after the batch that defined it. A row without ph gets "X"
 * when it has a dur, else "i". */
struct spoor_perfetto_writer;

/* name: the file out writes, which errors name (kept, not copied); NULL: stdout. */
SPOOR_API struct spoor_perfetto_writer *spoor_perfetto_writer_new(FILE *out, const char *name,
                                                                  const char *const *columns, size_t ncolumns);
SPOOR_API int spoor_perfetto_writer_write(struct spoor_perfetto_writer *w, const struct spoor_table *t,
                                          const struct spoor_resolved *res, const uint32_t *sel, size_t n,
                                          struct spoor_error *err);
/* Closes the array and flushes. */
SPOOR_API int spoor_perfetto_writer_finish(struct spoor_perfetto_writer *w, struct spoor_error *err);
SPOOR_API void spoor_perfetto_writer_free(struct spoor_perfetto_writer *w);
/* Adds counter tracks, written at the end: per process and layer (cat),
 * "<cat> bytes/s" (read, write, other) and "<cat> busy" (threads), on buckets
 * of `every` ns, or with every 0 a power of two of ns that holds the run in
 * at most 2048 (docs/cli.md, "Perfetto"). Call before the first write. */
SPOOR_API void spoor_perfetto_writer_counters(struct spoor_perfetto_writer *w, int64_t every);
/* The cat of the counter samples: spoor reads them back as metadata rows (ph
 * M), never as calls. */
#define SPOOR_PERFETTO_COUNTER_CAT "spoor.counter"
SPOOR_API size_t spoor_perfetto_writer_missing(const struct spoor_perfetto_writer *w, const char **names, size_t max);

/* `spoor export`: the rows a load/filter loop (spoor/expr.h) selects,
 * streamed in input order into one of the writers above. The output is a
 * temporary beside it, renamed when complete (removed on failure). */
enum spoor_trace_export_format { SPOOR_EXPORT_CSV, SPOOR_EXPORT_JSONL, SPOOR_EXPORT_SQLITE, SPOOR_EXPORT_PERFETTO };

struct spoor_trace_export_opts {
    enum spoor_trace_export_format format;
    const char *output;                 /* "-": stdout (not for SQLite) */
    char *const *columns;               /* NULL: the default columns */
    size_t ncolumns;
    bool via_sqlite;                    /* SQLite: through SQLite's API (spoor_sqlite_writer_via_sqlite) */
    int64_t counter_every;              /* Perfetto: counter buckets in ns, 0: auto, -1: no counters */
};

struct spoor_trace_export;
struct spoor_filter;

/* Runs f over paths into the writer; *out (always set; free it) then tells
 * which explicit columns no input had. */
SPOOR_API int spoor_trace_export_run(struct spoor_filter *f, const char *const *paths, size_t npaths,
                                     const struct spoor_load_opts *opts, const struct spoor_trace_export_opts *o,
                                     struct spoor_trace_export **out, struct spoor_load_result *res, struct spoor_error *err);
SPOOR_API size_t spoor_trace_export_missing(const struct spoor_trace_export *t, const char **names, size_t max);
SPOOR_API void spoor_trace_export_free(struct spoor_trace_export *t);

#endif
