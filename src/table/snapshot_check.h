/* The integrity pass over a mapped snapshot: every section's crc32 (ISA-L) and,
 * for sections of string ids, their largest id, in one read of the bytes. */
#ifndef SPOOR_TABLE_SNAPSHOT_CHECK_H
#define SPOOR_TABLE_SNAPSHOT_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct snap_check {
    const uint8_t *p;
    uint64_t len;
    uint32_t crc;               /* expected */
    bool ids;                   /* u32 string ids: compute max_id */
    bool release;               /* mapped: drop the pages once checked (spoor_snapshot_release) */
    uint32_t max_id;            /* out */
    bool ok;                    /* out: the crc matched */
};

/* Drops the whole pages of [p, p + len) of a mapping from this process (they
 * stay in the page cache; touching them again reads them back), so a snapshot
 * larger than memory is checked and served in bounded memory. */
void snap_release_pages(const uint8_t *p, uint64_t len);

/* Checks all n sections, on two threads when they are big enough to pay for
 * one; true when every crc matched. */
bool snap_check_sections(struct snap_check *c, size_t n);

/* The largest of n ids (0 when n is 0), written so the compiler vectorises it. */
uint32_t snap_max_id(const uint32_t *ids, size_t n);

#endif
