/* What the readers of text tools' output share (mpstat, nvidia-smi pmon,
 * Python logging): blank-separated fields, wall-clock times, and putting the
 * rows' local times on UTC in input order (the loader's in_order hook). */
#ifndef SPOOR_READ_WALL_CLOCK_H
#define SPOOR_READ_WALL_CLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "read/local_time.h"
#include "spoor/load.h"

enum { SPOOR_DAY_S = 86400 };
#define SPOOR_DAY_NS (86400LL * 1000000000LL)

/* The next field of [*p, end) separated by blanks or tabs; NULL at the end. */
static inline const char *spoor_next_field(const char **p, const char *end, size_t *n)
{
    const char *s = *p;
    while (s < end && (*s == ' ' || *s == '\t'))
        s++;
    if (s == end) {
        *p = s;
        return NULL;
    }
    const char *e = s;
    while (e < end && *e != ' ' && *e != '\t')
        e++;
    *p = e;
    *n = (size_t)(e - s);
    return s;
}

/* "HH:MM:SS" into seconds of the day; false otherwise. */
bool spoor_clock_parse(const char *p, size_t n, int *seconds);
/* With a 12-hour "AM"/"PM" field after it: 12 AM is midnight, 12 PM noon. */
bool spoor_clock_12h(int *seconds, const char *ampm, size_t n);
/* Days since 1970-01-01 of a civil date; false when it does not exist. */
bool spoor_civil_days(int year, int month, int day, int64_t *days);
/* A decimal "[-]digits[.digits]" as a double, correctly rounded for up to
 * 15 digits; false for anything else. */
bool spoor_plain_decimal(const char *p, size_t n, double *out);

/* Rows whose ts holds a local wall time, put on UTC in input order. */
struct spoor_local_rows {
    struct spoor_zone zone;
    bool roll_days;     /* times of day without a date: a step back of half a day or more is midnight */
    int64_t date_days;  /* roll_days: the start date (days since 1970) every chunk counts from */
    int64_t days;       /* days carried past midnight before this batch */
    int64_t last_local, last_utc;
    bool started;
};

/* Sets up from opts->utc_offset and writes how local times are read into
 * d->assumed. */
int spoor_local_rows_open(struct spoor_local_rows *o, bool roll_days, const struct spoor_read_opts *opts,
                          struct spoor_dialect *d, struct spoor_error *err);
/* One batch in input order (the in_order hook's work; batch NULL: nothing). */
int spoor_local_rows_batch(struct spoor_local_rows *o, struct spoor_table *b, struct spoor_skips *skips,
                           const char *path, bool strict, struct spoor_error *err);
/* A chunk's own midnight rolls, for roll_days readers: the local ns of a
 * time of day `tod` seen after *prev_tod (-1 at the chunk's start), counting
 * the rolls in *rolls; date_days is the start date. */
static inline int64_t spoor_local_of_day(int64_t date_days, int tod, int *prev_tod, int64_t *rolls)
{
    if (*prev_tod >= 0 && tod <= *prev_tod - SPOOR_DAY_S / 2)
        (*rolls)++;
    *prev_tod = tod;
    return ((date_days + *rolls) * SPOOR_DAY_S + tod) * 1000000000LL;
}

#endif
