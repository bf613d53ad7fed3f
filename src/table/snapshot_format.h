/* The snapshot file format, shared by its writer and reader. Host byte order
 * (little-endian machines; a byte-order tag makes others ignore the file), every
 * section starting on a 64-byte boundary so mapped columns are aligned.
 *
 *   header (128 bytes)
 *     0  "SPOORSNP"          magic
 *     8  u32 version         SNAP_VERSION
 *    12  u32 byte order tag  SNAP_BYTE_ORDER
 *    16  u64 trace size      \
 *    24  i64 mtime seconds    |  fingerprint of the trace
 *    32  u32 mtime nanosec    |
 *    36  u32 head crc32       |
 *    40  u32 tail crc32      /
 *    44  u32 sections        n
 *    48  u64 options hash
 *    56  u64 offset of the section directory
 *    64  u32 crc32 of bytes [0, 64) and of the directory
 *    68  zero
 *    72  i64 ctime seconds   \  more of the fingerprint (outside the crc:
 *    80  u32 ctime nanosec    |  a damaged byte there is a mismatch too)
 *    84  zero                 |
 *    88  u64 inode           /
 *    96  zero up to 128
 *   sections, in this order (SNAP_ARRAYS(ncols) arrays, n = that + 4):
 *     SHAPE     u64 rows, u32 ncols, u32 zero, ncols column entries (u32 name
 *               id, u32 type | typed << 8)
 *     ARRAY...  the whole table's columns, one section each: ts, dur, pid, tid
 *               (i64), line (u64), name, cat (u32 ids), ph (u8), then per args
 *               column its values (8 bytes, or 4 for string ids; 0 where
 *               invalid) and its validity words (bits past the last row clear)
 *     STRINGS   u64 n, u64 bytes, u32 off[n + 1], u32 hash[n], the bytes (each
 *               string NUL-terminated; string 0 is "")
 *     LOOKUPS   per kind: u64 n, u32 keys[n], u32 values[n], u64 lines[n] (the
 *               input's definitions in put order)
 *     REPORT    the caller's bytes
 *   directory: n entries of 24 bytes: u32 kind, u32 crc32 of the section,
 *              u64 offset, u64 length */
#ifndef SPOOR_TABLE_SNAPSHOT_FORMAT_H
#define SPOOR_TABLE_SNAPSHOT_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#include "spoor/table.h"

enum {
    SNAP_HEADER = 128,
    SNAP_ALIGN = 64,
    SNAP_DIR_ENTRY = 24,
    SNAP_SHAPE_HEAD = 16,
    SNAP_COL_ENTRY = 8,
    SNAP_FIXED_ARRAYS = 8,      /* ts, dur, pid, tid, line, name, cat, ph */
    SNAP_VERSION = 4,           /* 3: ctime and inode in the fingerprint; 4: lines of lookups */
    SNAP_BYTE_ORDER = 0x01020304,
};
enum snap_kind { SNAP_SHAPE = 1, SNAP_ARRAY, SNAP_STRINGS, SNAP_LOOKUPS, SNAP_REPORT };
#define SNAP_MAGIC "SPOORSNP"

static inline uint64_t snap_align(uint64_t n) { return (n + SNAP_ALIGN - 1) / SNAP_ALIGN * SNAP_ALIGN; }
static inline size_t snap_words(size_t rows) { return (rows + 63) / 64; }
static inline size_t snap_type_size(enum spoor_type t) { return t == SPOOR_STR ? 4 : 8; }
static inline uint64_t snap_arrays(uint64_t ncols) { return SNAP_FIXED_ARRAYS + 2 * ncols; }

/* Bytes per row of fixed array i (ts, dur, pid, tid, line, name, cat, ph). */
static inline uint64_t snap_fixed_width(size_t i) { return i < 5 ? 8 : i < 7 ? 4 : 1; }

#endif
