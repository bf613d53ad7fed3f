/* ASCII digits eight bytes at a step (SWAR: one 64-bit word does the work of
 * eight steps of a digit loop, whose chain of multiplies and unpredictable
 * exit cost more), on a word of text loaded with spoor_get64 (util/bytes.h):
 * the first byte of the text is the lowest byte of the word (little-endian
 * hosts, as spoor's are). */
#ifndef SPOOR_UTIL_DIGITS_H
#define SPOOR_UTIL_DIGITS_H

#include <stdbool.h>
#include <stdint.h>

#include "util/bytes.h"

/* How many of the 8 bytes of w, from the first, are ASCII digits. (A borrow
 * or carry only moves towards later bytes, past the first non-digit.) */
static inline int spoor_digits8(uint64_t w)
{
    uint64_t not_digit = ((w - 0x3030303030303030ULL) | (w + 0x4646464646464646ULL)) & 0x8080808080808080ULL;
    return not_digit ? __builtin_ctzll(not_digit) / 8 : 8;
}

/* Whether the 8 bytes of w are digits but those where sep_mask has its bytes,
 * which hold those of sep: a fixed shape such as "dd:dd:dd" in one test. */
static inline bool spoor_digits8_between(uint64_t w, uint64_t sep_mask, uint64_t sep)
{
    return (w & sep_mask) == sep && spoor_digits8((w & ~sep_mask) | (0x3030303030303030ULL & sep_mask)) == 8;
}

/* Eight digits, first digit in the lowest byte, already less '0': digit
 * pairs, then quads, then all eight combined in place. */
static inline uint64_t spoor_swar8(uint64_t a)
{
    a = (a * 10 + (a >> 8)) & 0x00FF00FF00FF00FFULL;
    a = (a * 100 + (a >> 16)) & 0x0000FFFF0000FFFFULL;
    return (a * 10000 + (a >> 32)) & 0xFFFFFFFFULL;
}

/* The value of the first n (1..8) bytes of w, all digits. */
static inline uint64_t spoor_digits8_value(uint64_t w, int n)
{
    return spoor_swar8((w - 0x3030303030303030ULL) << (8 * (8 - n)));
}

#endif
