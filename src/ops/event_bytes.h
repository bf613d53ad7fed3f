/* What a call did: its class by name (read, write, metadata, other; below)
 * and the bytes an event moved: the one rule every consumer (summary, attribute)
 * applies, per dialect and call family (docs/formats.md, "Bytes"):
 *   - aggregated events (args.dft_cnt, DFTracer): element calls (fread,
 *     fwrite, ...) ret_sum x the element size when it did not vary
 *     (size_min = size_max); other calls size_sum, else ret_sum when they
 *     have count_sum (read/write: ret is the bytes moved);
 *   - element calls with size and ret (DFTracer STDIO): ret (elements
 *     transferred) x size (the element size);
 *   - size_sum (DataCrumbs, trace and profile: the call's or the interval's
 *     bytes);
 *   - size, except for element calls where it is the element size;
 *   - ret when the call also has count (DFTracer POSIX read/write: count asked,
 *     ret moved; without count, ret is a descriptor or an offset);
 *   - bytes (a block request's: bpftrace bio, blkparse, ftrace, LTTng), then
 *     returned (bpftrace vfs_rw: the bytes a read or write moved).
 * Negative or overflowing values are unknown (SPOOR_NULL), never clamped. */
#ifndef SPOOR_EVENT_BYTES_H
#define SPOOR_EVENT_BYTES_H

#include <stddef.h>
#include <stdint.h>

#include "spoor/table.h"

enum event_op { EVENT_OP_READ, EVENT_OP_WRITE, EVENT_OP_META, EVENT_OP_OTHER, EVENT_OPS };
extern const char *const event_op_name[EVENT_OPS];
/* A call's class by its name: metadata when it names a metadata call (open,
 * close, stat, seek, sync, dir, unlink, rename, ...), else read or write when
 * it says so, else other. */
enum event_op event_op_class(const char *name);

/* The args keys the rule reads, to load with a command's other args (a list
 * of string literals, for array initialisers). */
#define EVENT_BYTES_KEYS                                                                                    \
    "size_sum", "size", "ret", "count", "dft_cnt", "ret_sum", "count_sum", "size_min", "size_max", "bytes", "returned"

/* A table's columns and element-call name ids, bound once per table. */
struct event_bytes {
    const struct spoor_column *size_sum, *size, *ret, *count;
    const struct spoor_column *dft_cnt, *ret_sum, *count_sum, *size_min, *size_max, *bytes, *returned;
    uint32_t element[4];    /* name ids of the element calls present in the pool */
    size_t nelement;
};
void event_bytes_bind(struct event_bytes *b, const struct spoor_table *t);
/* Row r's bytes, or SPOOR_NULL. */
int64_t event_bytes_of(const struct event_bytes *b, const struct spoor_table *t, size_t r);

#endif
