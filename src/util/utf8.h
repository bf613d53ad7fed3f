/* UTF-8 decoding, shared by the LIKE/GLOB matcher (one character per code
 * point) and the writers that must emit valid UTF-8 (JSON lines, SQLite). */
#ifndef SPOOR_UTIL_UTF8_H
#define SPOOR_UTIL_UTF8_H

#include <stddef.h>

/* Bytes in the UTF-8 character at s (len > 0); *cp receives its code point.
 * An invalid byte (bad lead or continuation, overlong, surrogate, past
 * U+10FFFF, cut short by len) counts as one character, *cp the byte itself. */
size_t spoor_utf8_decode(const char *s, size_t len, unsigned *cp);

#endif
