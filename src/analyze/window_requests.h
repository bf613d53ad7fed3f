/* The block requests that windows are made of: the read and write rows the
 * block readers' join gives (src/read/blk.h), as `spoor windows` and `spoor
 * tune` both take them from the loader's batches. */
#ifndef SPOOR_ANALYZE_WINDOW_REQUESTS_H
#define SPOOR_ANALYZE_WINDOW_REQUESTS_H

#include <stdbool.h>
#include <stdint.h>

#include "spoor/load.h"
#include "spoor/table.h"

/* One read or write request as the windows need it. */
struct window_request {
    int64_t ts, dur;            /* issue time; completion - issue */
    uint64_t sector;
    uint32_t bytes, queue_depth, dev;
    uint8_t op;                 /* SPOOR_WF_READ or SPOOR_WF_WRITE */
};

/* Appends the reads and writes of batch b, in input order, to *reqs (n of
 * them, room for cap), their devices named in devs (ids in order met);
 * counts the other requests in *other. A batch without the block columns
 * adds nothing. */
void window_requests_of_batch(const struct spoor_table *b, struct spoor_strpool *devs, struct window_request **reqs,
                              size_t *n, size_t *cap, uint64_t *other);

#endif
