/* The snapshot sidecar (TRACE.spoor-snap): one input's whole event table,
 * written after its first full parse, so later loads map it instead of parsing.
 *
 * The table is stored as row groups, one per parsed batch, each holding its
 * fixed columns and args columns back to back in the in-memory layout, so a
 * mapped group is a batch: spoor_snapshot_batch() returns a read-only view
 * whose columns point into the mapping. All groups share the snapshot's string
 * pool and the input's lookups (given to the first batch). The caller's report
 * of the load is stored as an opaque section.
 *
 * A snapshot is trusted only when its header names this trace (fingerprint) and
 * these read options (a hash the caller computes), and every section's crc32,
 * bounds and string ids check out; otherwise opening it returns NULL and the
 * caller parses and rewrites. Format in src/table/snapshot_format.h. */
#ifndef SPOOR_SNAPSHOT_H
#define SPOOR_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "spoor/error.h"
#include "spoor/io.h"
#include "spoor/table.h"

/* What a snapshot must match to be used. */
struct spoor_snapshot_key {
    struct spoor_fingerprint trace;
    uint64_t options;           /* hash of every read option that changes the table */
};

/* The sidecar path of a trace: TRACE.spoor-snap, or with cache_dir a name in
 * it made from a hash of the trace's absolute path. */
void spoor_snapshot_path(const char *trace, const char *cache_dir, char *out, size_t cap);

struct spoor_snapshot;

/* Maps and checks the snapshot at path; NULL when it is missing, stale or
 * damaged in any way. `source` names the rows' source file in batches. */
struct spoor_snapshot *spoor_snapshot_open(const char *path, const char *source,
                                           const struct spoor_snapshot_key *key);
/* The same over bytes in memory, which must outlive the snapshot (fuzzing). */
struct spoor_snapshot *spoor_snapshot_parse(const uint8_t *bytes, size_t len, const char *source,
                                            const struct spoor_snapshot_key *key);
void spoor_snapshot_close(struct spoor_snapshot *s);

size_t spoor_snapshot_nbatches(const struct spoor_snapshot *s);
const struct spoor_strpool *spoor_snapshot_pool(const struct spoor_snapshot *s);
/* The stored report bytes. */
const uint8_t *spoor_snapshot_report(const struct spoor_snapshot *s, size_t *len);

/* Which args columns batches show: all, or those whose name (a pool id) is listed. */
struct spoor_snapshot_cols {
    bool all;
    const uint32_t *names;
    size_t n;
};

/* Batch i as a read-only view (t->borrowed) valid until the snapshot is
 * closed; free it with spoor_table_free. Line numbers are absolute. */
struct spoor_table *spoor_snapshot_batch(const struct spoor_snapshot *s, size_t i,
                                         const struct spoor_snapshot_cols *cols);

/* Writing: batches in input order (one source each, absolute line numbers),
 * streamed to a temporary file beside path; commit renames it into place. */
struct spoor_snapshot_writer;

/* NULL with err set when the temporary cannot be created (EACCES for a
 * read-only directory). */
struct spoor_snapshot_writer *spoor_snapshot_writer_new(const char *path, const struct spoor_snapshot_key *key,
                                                        struct spoor_error *err);
void spoor_snapshot_writer_add(struct spoor_snapshot_writer *w, const struct spoor_table *batch);
/* Writes the report and the directory, renames into place and frees w. */
int spoor_snapshot_writer_commit(struct spoor_snapshot_writer *w, const void *report, size_t report_len,
                                 struct spoor_error *err);
/* Removes the temporary and frees w. */
void spoor_snapshot_writer_abort(struct spoor_snapshot_writer *w);

#endif
