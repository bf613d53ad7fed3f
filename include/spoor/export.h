/* Exporters beyond the CSV/JSONL row writers (write.h): an SQLite database
 * and a Perfetto-ready Chrome trace. Both stream: rows of event tables come
 * batch after batch in input order, exactly as spoor_writer_write() takes
 * them, so memory stays bounded whatever the trace size. Every batch must be
 * given, even when no row of it is selected: its metadata fills the lookups.
 *
 * Columns are named as in resolve.h; `columns` NULL means the default: the
 * fixed columns, file, host, then every args column (an args key equal to a
 * fixed name is called "args.<key>"). */
#ifndef SPOOR_EXPORT_H
#define SPOOR_EXPORT_H

#include <stdio.h>

#include "spoor/error.h"
#include "spoor/load.h"
#include "spoor/resolve.h"
#include "spoor/table.h"

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
 * when complete (atomic_file.h). */
struct spoor_sqlite_writer;

/* Creates the database at path (an empty or absent file; name is the file the
 * user asked for, which errors name, when path is its temporary). only_source, when
 * every row comes from that one input, makes `source` a generated column
 * holding it (no bytes per row); NULL stores each row's. */
int spoor_sqlite_writer_open(struct spoor_sqlite_writer **out, const char *path, const char *name,
                             const char *const *columns, size_t ncolumns, const char *only_source,
                             struct spoor_error *err);
/* Right after open: writes the same database through SQLite's own API
 * instead (rows inserted, indexes made by CREATE INDEX; far slower), to
 * check the file writer against (spoor export --via-sqlite). */
int spoor_sqlite_writer_via_sqlite(struct spoor_sqlite_writer *w, struct spoor_error *err);
/* Inserts rows sel[0..n) of t (all rows when sel is NULL) and t's lookups.
 * res gives file and host (NULL: they are null). */
int spoor_sqlite_writer_write(struct spoor_sqlite_writer *w, const struct spoor_table *t,
                              const struct spoor_resolved *res, const uint32_t *sel, size_t n,
                              struct spoor_error *err);
/* Optional, from any thread (one call at a time per worker number): encodes
 * rows sel[0..n) of t ahead of spoor_sqlite_writer_write(), which must then
 * get the same rows of the same t. Batches are written in input order, but
 * prepared in any order, in parallel. Worth it only with cores to spare:
 * spoor export prepares with more than two (docs/perf-notes.md, "SQLite export"). */
int spoor_sqlite_writer_prepare(struct spoor_sqlite_writer *w, int worker, const struct spoor_table *t,
                                const uint32_t *sel, size_t n);
/* Writes the indexes, the schema, the lookups and meta, and closes. */
int spoor_sqlite_writer_finish(struct spoor_sqlite_writer *w, const struct spoor_load_result *loaded,
                               struct spoor_error *err);
/* Closes (leaving an unfinished file if finish was not reached) and frees. */
void spoor_sqlite_writer_free(struct spoor_sqlite_writer *w);
/* Explicit args columns that no batch had. */
size_t spoor_sqlite_writer_missing(const struct spoor_sqlite_writer *w, const char **names, size_t max);

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
struct spoor_perfetto_writer *spoor_perfetto_writer_new(FILE *out, const char *name, const char *const *columns,
                                                        size_t ncolumns);
int spoor_perfetto_writer_write(struct spoor_perfetto_writer *w, const struct spoor_table *t,
                                const struct spoor_resolved *res, const uint32_t *sel, size_t n,
                                struct spoor_error *err);
/* Closes the array and flushes. */
int spoor_perfetto_writer_finish(struct spoor_perfetto_writer *w, struct spoor_error *err);
void spoor_perfetto_writer_free(struct spoor_perfetto_writer *w);
size_t spoor_perfetto_writer_missing(const struct spoor_perfetto_writer *w, const char **names, size_t max);

#endif
