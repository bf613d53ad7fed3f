/* The loader's side of snapshots: which read options a snapshot depends on,
 * the report it stores, and serving an input from it. */
#ifndef SPOOR_READ_LOAD_SNAPSHOT_H
#define SPOOR_READ_LOAD_SNAPSHOT_H

#include "spoor/load.h"
#include "spoor/snapshot.h"

/* A hash of every read option that changes the table (not args, strict,
 * threads: a snapshot holds all args and is checked against strict). */
uint64_t load_options_hash(const struct spoor_read_opts *o);

/* The parts of rep a snapshot replays (not path, disk_bytes), as bytes. */
uint8_t *load_report_encode(const struct spoor_input_report *rep, size_t *len);
/* Fills those parts of rep; false when the bytes are malformed. */
bool load_report_decode(const uint8_t *p, size_t len, struct spoor_input_report *rep);

/* Delivers every batch of snap to the sink: map() on up to `threads` workers,
 * reduce() in order. Returns the first error of the sink, with err set. */
int load_from_snapshot(const struct spoor_snapshot *snap, const struct spoor_load_opts *opts,
                       const struct spoor_sink *sink, size_t input, const char *path, struct spoor_error *err);

#endif
