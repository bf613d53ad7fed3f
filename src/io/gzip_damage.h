/* Damage inside a gzip input: what to call it, and where decoding can go on
 * after it. */
#ifndef SPOOR_IO_GZIP_DAMAGE_H
#define SPOOR_IO_GZIP_DAMAGE_H

#include <stdint.h>

/* A short static text for an ISA-L error code (ISAL_INCORRECT_CHECKSUM:
 * "checksum mismatch", the member's CRC or length disagrees with its data). */
const char *io_gzip_why(int isal_error);

/* The first offset in [from, size) where a gzip member header starts, or size
 * when there is none. A false match (rare) fails to decode in turn. */
uint64_t io_gzip_find_member(const uint8_t *map, uint64_t from, uint64_t size);

#endif
