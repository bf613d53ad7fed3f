/* Local wall-clock times (mpstat, nvidia-smi, Python logging print them with
 * no zone) to UTC: one helper for every reader, set up from --utc-offset. */
#ifndef SPOOR_READ_LOCAL_TIME_H
#define SPOOR_READ_LOCAL_TIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "spoor/error.h"

/* A zone: none given (local taken as UTC, and said so), a fixed offset, or
 * the transitions of a tz database zone. */
struct spoor_zone {
    enum { SPOOR_ZONE_ASSUMED_UTC, SPOOR_ZONE_FIXED, SPOOR_ZONE_NAMED } kind;
    int64_t offset_s;           /* FIXED: seconds east of UTC */
    char name[64];              /* NAMED: e.g. "Europe/Berlin" */
    int64_t *at;                /* NAMED: transition instants (UTC s), ascending */
    int32_t *offset_after;      /* NAMED: the offset from at[i] on */
    size_t n;
    int32_t offset_before;      /* NAMED: the offset before at[0] */
};

/* Reads --utc-offset: NULL (assume UTC), "+02:00", "-0530", "+2", "-5h",
 * "UTC", or a zone name of the system tz database (/usr/share/zoneinfo, or
 * $TZDIR). err says what was expected. */
int spoor_zone_open(const char *text, struct spoor_zone *z, struct spoor_error *err);
void spoor_zone_close(struct spoor_zone *z);

/* One line for the dialect's `assumed` text: how local times were read. */
void spoor_zone_describe(const struct spoor_zone *z, char *buf, size_t cap);

/* Local wall time (ns since 1970 as if the wall clock were UTC) to UTC ns.
 * In a zone's fold (the hour repeated when daylight saving ends) the first
 * occurrence is taken unless it lies before `after` (the UTC time of the
 * record before, in order; INT64_MIN when not known) and the second does not.
 * False for a wall time the zone skips (the hour lost when it starts). */
bool spoor_zone_to_utc(const struct spoor_zone *z, int64_t local_ns, int64_t after_ns, int64_t *utc_ns);

/* Whether a zone's conversion depends on the date (named zones). */
static inline bool spoor_zone_varies(const struct spoor_zone *z) { return z->kind == SPOOR_ZONE_NAMED; }

#endif
