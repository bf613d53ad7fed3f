/* Damage inside a gzip input: what to call it, and where decoding can go on
 * after it. */
#ifndef SPOOR_IO_GZIP_DAMAGE_H
#define SPOOR_IO_GZIP_DAMAGE_H

#include <stdint.h>

#include "io/internal.h"

/* A short static text for an ISA-L error code (ISAL_INCORRECT_CHECKSUM:
 * "checksum mismatch", the member's CRC or length disagrees with its data). */
const char *io_gzip_why(int isal_error);

/* 1 when a member can start at pos: a member header is there, or the input
 * ends there; 0 when not; negative with err set on a read error. */
int io_gzip_member_at(struct spoor_input *in, struct io_window *w, uint64_t pos, struct spoor_error *err);

/* Searches the input from `from` on, reading through w, for a gzip member
 * header: returns 1 with *at its offset, 0 with *at the input's end when
 * there is none, negative with err set on a read error. A stream cannot go
 * back: there the search starts no earlier than what w still holds. A false
 * match (rare) fails to decode in turn. */
int io_gzip_find_member(struct spoor_input *in, struct io_window *w, uint64_t from, uint64_t *at,
                        struct spoor_error *err);

#endif
