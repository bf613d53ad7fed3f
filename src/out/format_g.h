/* printf's "%.6g" for text tables, without printf's multiprecision digits for
 * the usual values (format_g.c), and its "%llu". */
#ifndef SPOOR_FORMAT_G_H
#define SPOOR_FORMAT_G_H

#include <stddef.h>

/* Writes v as snprintf(buf, cap, "%.6g", v) would, byte for byte; cap >= 32.
 * Returns the length written. */
size_t spoor_format_g6(char *buf, size_t cap, double v);
/* Writes n in decimal as "%llu" would (no NUL; at most 20 bytes); returns the
 * length. */
size_t spoor_format_u64(char *buf, unsigned long long n);

#endif
