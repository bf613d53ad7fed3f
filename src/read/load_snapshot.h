/* The loader's side of snapshots: which read options a snapshot depends on,
 * the report it stores, finding, opening and writing an input's snapshot, and
 * serving an input from it. */
#ifndef SPOOR_READ_LOAD_SNAPSHOT_H
#define SPOOR_READ_LOAD_SNAPSHOT_H

#include "spoor/load.h"
#include "table/snapshot.h"

/* A hash of every read option that changes the table (not args, strict,
 * threads: a snapshot holds all args and is checked against strict). */
uint64_t load_options_hash(const struct spoor_read_opts *o);

/* The parts of rep a snapshot replays (not path, disk_bytes), as bytes. */
uint8_t *load_report_encode(const struct spoor_input_report *rep, size_t *len);
/* Fills those parts of rep; false when the bytes are malformed. */
bool load_report_decode(const uint8_t *p, size_t len, struct spoor_input_report *rep);

/* Where an input's snapshot lives and what it must match. */
struct load_cache {
    struct spoor_snapshot_key key;
    char path[4200];
};

/* Fills c; false when this load uses no snapshot (--no-cache, or the trace
 * cannot be fingerprinted). */
bool load_cache_find(const char *trace, const struct spoor_load_opts *opts, struct load_cache *c);
/* The snapshot, every column verified, when it can serve this load, with rep
 * filled from its report; NULL and rep untouched when it is missing, stale,
 * damaged, or --strict and its parse skipped lines or warned. */
struct spoor_snapshot *load_cache_open(const struct load_cache *c, const struct spoor_load_opts *opts,
                                       struct spoor_input_report *rep);
/* The same as the input's whole table (owning the snapshot), with only the
 * columns opts->columns_read names verified when it is set. */
struct spoor_table *load_cache_table(const struct load_cache *c, const struct spoor_load_opts *opts,
                                     struct spoor_input_report *rep);
/* Writes t, the input's whole table, as its snapshot; a failure becomes rep's
 * warning when it has none. */
void load_cache_write(const struct load_cache *c, const struct spoor_table *t, struct spoor_input_report *rep);

/* The args columns the read options ask for, as name ids of snap's pool
 * (ids: room for o->n_arg_keys). */
struct spoor_snapshot_cols load_wanted_columns(const struct spoor_snapshot *snap, const struct spoor_read_opts *o,
                                               uint32_t *ids);

/* Delivers snap's rows to the sink as views of consecutive rows (about a
 * parsed chunk's worth each, by rep's rows and bytes): map() on up to
 * `threads` workers, reduce() in order. Returns the first error of the sink,
 * with err set. */
int load_from_snapshot(const struct spoor_snapshot *snap, const struct spoor_load_opts *opts,
                       const struct spoor_sink *sink, size_t input, const struct spoor_input_report *rep,
                       struct spoor_error *err);

#endif
