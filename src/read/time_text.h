/* Times written as text, converted to int64 nanoseconds: decimal numbers in a
 * known unit (exactly, without going through a double) and ISO-8601 date-times.
 * Shared by the generic readers (jsonl, csv). */
#ifndef SPOOR_READ_TIME_TEXT_H
#define SPOOR_READ_TIME_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* "[-+]digits[.digits][e[-+]digits]" times unit_ns (1, 1e3, 1e6 or 1e9) nanoseconds, rounded
 * to the nearest ns. False when the text is not such a number or the result does
 * not fit in int64. */
bool spoor_time_parse_decimal(const char *p, size_t n, int64_t unit_ns, int64_t *ns);

/* "YYYY-MM-DD", "YYYY-MM-DDTHH:MM[:SS[.fff]]" ('T', 't' or ' ' between date and
 * time; '.' or ',' before up to 9 fraction digits, more are cut), then optional
 * "Z" or an offset "+HH:MM", "+HHMM", "+HH". Without an offset the time is taken
 * as UTC. Result: ns since 1970-01-01T00:00:00Z. False when the text is not such
 * a time (or names an impossible date). */
bool spoor_time_parse_iso(const char *p, size_t n, int64_t *ns);

/* The last date such a parse read and its days since 1970 (zeroed to start):
 * a log's records share their date, so it is read once per day, not per record. */
struct spoor_iso_day {
    char text[10];
    int64_t days;
    bool set;
};
/* spoor_time_parse_iso, with the date taken from *last when p begins with it
 * (and kept there when it is a new one). */
bool spoor_time_parse_iso_day(struct spoor_iso_day *last, const char *p, size_t n, int64_t *ns);

#endif
