/* Counts and durations as people read them, for tables and messages. */
#ifndef SPOOR_FMT_HUMAN_H
#define SPOOR_FMT_HUMAN_H

#include <stddef.h>

/* Formats n with thousands separators. */
const char *spoor_fmt_count(char *buf, size_t cap, unsigned long long n);
/* Formats a duration in ns with a human unit (ns, us, ms, s). */
const char *spoor_fmt_duration(char *buf, size_t cap, double ns);

#endif
