/* SQL pattern matching as SQLite does it. LIKE: % any run, _ one character,
 * ASCII letters match either case, an optional escape character makes the
 * next pattern character literal. GLOB: * any run, ? one character, [abc],
 * [a-z], [^a-z] classes, case-sensitive. Characters are UTF-8 code points;
 * an invalid byte counts as one character. */
#ifndef SPOOR_OPS_STRMATCH_H
#define SPOOR_OPS_STRMATCH_H

#include <stdbool.h>
#include <stddef.h>

bool strmatch_like(const char *pat, size_t plen, const char *s, size_t slen, char escape);
bool strmatch_glob(const char *pat, size_t plen, const char *s, size_t slen);

#endif
