/* The counter tracks of a Perfetto export, per process and layer (cat), on
 * time buckets:
 *   "<cat> bytes/s" read, write, other: the bytes of the calls that carry a
 *       size (ops/event_bytes.h), by the call's name (event_op_class: reads, writes,
 *       the rest), spread over the call's [ts, ts + dur) in proportion to its
 *       overlap with each bucket, in whole bytes that add up to the call's
 *       bytes exactly; a call without a duration puts them in the bucket of
 *       its ts. Shown as bytes per second of the bucket.
 *   "<cat> busy" threads: the ns of the layer's timed calls inside the bucket
 *       over the bucket's ns: how many of the process's threads were in a
 *       call of that layer on average (1: one thread all the time; nested
 *       calls of one layer add up).
 * Buckets are `every` ns wide from time 0, or, with every 0, the narrowest
 * power of two of ns that holds the run in at most PERFETTO_COUNTER_BUCKETS
 * buckets, widened (pairs merged, exactly) while the run streams. Memory
 * follows the (series, bucket) cells touched, never the events: with every 0
 * the buckets widen when the cells pass PERFETTO_COUNTER_CELLS; with a fixed
 * width, more buckets or cells than that are an error.
 *
 * A counter sample goes out as a Chrome "C" event of cat
 * SPOOR_PERFETTO_COUNTER_CAT (spoor/write.h) at the bucket's start, and a 0
 * where a series falls silent, since a counter track holds its value until
 * the next sample. Values are decimals with just enough digits that value x
 * width (/ 1e9 for bytes/s) rounds back to the bucket's whole bytes or ns. */
#ifndef SPOOR_OUT_PERFETTO_COUNTERS_H
#define SPOOR_OUT_PERFETTO_COUNTERS_H

#include <stdint.h>

#include "out/write_internal.h"

#define PERFETTO_COUNTER_BUCKETS 2048
#define PERFETTO_COUNTER_CELLS (1 << 21)

struct perfetto_counters;
struct perfetto_counters *perfetto_counters_new(int64_t every);
void perfetto_counters_free(struct perfetto_counters *c);
/* Adds the rows of t (sel: n of them; NULL: all); SPOOR_EUSAGE when a fixed
 * width makes too many buckets or cells. */
int perfetto_counters_add(struct perfetto_counters *c, const struct spoor_table *t, const uint32_t *sel, size_t n,
                          struct spoor_error *err);
/* The bucket width now, in ns. */
int64_t perfetto_counters_width(const struct perfetto_counters *c);
/* Writes the samples, each event begun by begin(ctx) and written to out. */
void perfetto_counters_write(struct perfetto_counters *c, struct wbuf *out, void (*begin)(void *ctx), void *ctx);

#endif
