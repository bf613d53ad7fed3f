/* The snapshot sidecar (TRACE.spoor-snap): one input's whole event table,
 * written after it was loaded whole, so later loads map it instead of parsing.
 *
 * The table is stored as its final columns (after type promotion), one array
 * per section in the in-memory layout, so mapping the file is loading it:
 * spoor_snapshot_view() returns a read-only view of any rows whose columns
 * point into the mapping, and spoor_snapshot_table() the whole table. The
 * string pool is built over the stored strings and hashes, nothing copied. The
 * caller's report of the load is stored as an opaque section.
 *
 * A snapshot is trusted only when its header names this trace (fingerprint) and
 * these read options (a hash the caller computes), and every section's crc32,
 * bounds and string ids check out; otherwise the caller parses and rewrites.
 * Opening checks all but the column arrays; a reader verifies the columns it
 * will read before reading them, so a query touching three columns does not
 * pay for checking thirty. Format in snapshot_format.h. Private to the loader
 * (src/read) and the tests; load.h has what a client needs. */
#ifndef SPOOR_TABLE_SNAPSHOT_H
#define SPOOR_TABLE_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "spoor/error.h"
#include "spoor/load.h"
#include "spoor/table.h"
#include "io/input.h"

/* What a snapshot must match to be used. */
struct spoor_snapshot_key {
    struct spoor_fingerprint trace;
    uint64_t options;           /* hash of every read option that changes the table */
};

/* Writes t, the whole table of one input (one source, absolute line numbers),
 * and the report, through a temporary renamed into place. Fails with one line
 * in err (a read-only directory says so) and leaves nothing behind. */
int spoor_snapshot_write(const char *path, const struct spoor_snapshot_key *key, const struct spoor_table *t,
                         const void *report, size_t report_len, struct spoor_error *err);

struct spoor_snapshot;

/* Maps and checks the snapshot at path, all but its column arrays; NULL when
 * it is missing, stale or damaged. `source` names the rows' source file in
 * views. */
struct spoor_snapshot *spoor_snapshot_open(const char *path, const char *source,
                                           const struct spoor_snapshot_key *key);
void spoor_snapshot_close(struct spoor_snapshot *s);

/* The same over bytes in memory, which must outlive the snapshot
 * (the fuzzer's way in). */
struct spoor_snapshot *spoor_snapshot_parse(const uint8_t *bytes, size_t len, const char *source,
                                            const struct spoor_snapshot_key *key);

/* Checks the crc32 and string ids of the column arrays need names (NULL:
 * all) that are not checked yet; false when any of them is damaged, and
 * then no view of s may be read. */
bool spoor_snapshot_verify(struct spoor_snapshot *s, const struct spoor_snapshot_need *need);

size_t spoor_snapshot_rows(const struct spoor_snapshot *s);
const struct spoor_strpool *spoor_snapshot_pool(const struct spoor_snapshot *s);
/* The stored report bytes. */
const uint8_t *spoor_snapshot_report(const struct spoor_snapshot *s, size_t *len);

/* Which args columns views show: all, or those whose name (a pool id) is listed. */
struct spoor_snapshot_cols {
    bool all;
    const uint32_t *names;
    size_t n;
};

/* Rows [first, first + n) (clipped to the table) as a read-only view
 * (t->borrowed) valid until the snapshot is closed; first must be a multiple
 * of 64 so the validity words line up. The view from row 0 carries the lookups.
 * Free it with spoor_table_free. */
struct spoor_table *spoor_snapshot_view(const struct spoor_snapshot *s, size_t first, size_t n,
                                        const struct spoor_snapshot_cols *cols);
/* Drops the mapped pages that lie wholly inside rows [first, first + n) of
 * every column from this process (they stay in the page cache; touching them
 * again reads them back): a streaming load calls it once a batch is reduced,
 * so resident memory does not grow with the snapshot's size. */
void spoor_snapshot_release(const struct spoor_snapshot *s, size_t first, size_t n);
/* The whole table as a view that owns s: spoor_table_free closes it. */
struct spoor_table *spoor_snapshot_table(struct spoor_snapshot *s, const struct spoor_snapshot_cols *cols);

#endif
