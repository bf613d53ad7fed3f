/* What the readers of text tools' output share (mpstat, nvidia-smi pmon,
 * Python logging): blank-separated fields, wall-clock times, and putting the
 * rows' local times on UTC in input order (the loader's in_order hook). */
#ifndef SPOOR_READ_WALL_CLOCK_H
#define SPOOR_READ_WALL_CLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

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

/* Column names of a text table's header line (mpstat, pmon). */
enum { SPOOR_TEXT_COLUMNS = 32, SPOOR_TEXT_NAME = 16 };
struct spoor_text_header {
    char name[SPOOR_TEXT_COLUMNS][SPOOR_TEXT_NAME];
    size_t n;
};
static inline bool spoor_text_header_equal(const struct spoor_text_header *a, const struct spoor_text_header *b)
{
    if (a->n != b->n)
        return false;
    for (size_t i = 0; i < a->n; i++)
        if (strcmp(a->name[i], b->name[i]))
            return false;
    return true;
}

/* The index of the table's column `name`, made if need be. Pointers into
 * t->cols are taken once every column is made: making one may move them. */
static inline ptrdiff_t spoor_column_index(struct spoor_table *t, const char *name)
{
    return spoor_table_column(t, spoor_table_intern(t, name, strlen(name))) - t->cols;
}

/* Whether the options keep the column `name` (SPOOR_ARGS_ALL, or listed). */
static inline bool spoor_args_keep(const struct spoor_read_opts *o, const char *name)
{
    if (o->args == SPOOR_ARGS_NONE)
        return false;
    for (size_t i = 0; o->args == SPOOR_ARGS_LISTED && i < o->n_arg_keys; i++)
        if (!strcmp(o->arg_keys[i], name))
            return true;
    return o->args == SPOOR_ARGS_ALL;
}

/* "HH:MM:SS" into seconds of the day; false otherwise. */
bool spoor_clock_parse(const char *p, size_t n, int *seconds);
/* With a 12-hour "AM"/"PM" field after it: 12 AM is midnight, 12 PM noon. */
bool spoor_clock_12h(int *seconds, const char *ampm, size_t n);
/* Days since 1970-01-01 of a civil date of 1900-2200; false otherwise. */
bool spoor_civil_days(int year, int month, int day, int64_t *days);
/* A decimal "[-]digits[.digits]" as a double, correctly rounded for up to
 * 15 digits; false for anything else. */
bool spoor_plain_decimal(const char *p, size_t n, double *out);
/* The same in two steps, for a reader that splits fields as it goes: the
 * decimal at p, read up to the first byte that cannot go on it (returned);
 * ok when it had 1 to 15 digits. Then its value. */
struct spoor_decimal {
    uint64_t digits;
    int fraction;
    bool negative, ok;
};
static inline const char *spoor_scan_decimal(const char *p, const char *end, struct spoor_decimal *d)
{
    d->negative = p < end && *p == '-';
    p += d->negative;
    uint64_t v = 0;
    const char *start = p;
    for (; p < end && (unsigned)(*p - '0') < 10; p++)
        v = v * 10 + (uint64_t)(*p - '0');
    size_t whole = (size_t)(p - start), fraction = 0;
    if (p < end && *p == '.') {
        const char *f = ++p;
        for (; p < end && (unsigned)(*p - '0') < 10; p++)
            v = v * 10 + (uint64_t)(*p - '0');
        fraction = (size_t)(p - f);
    }
    d->digits = v;
    d->fraction = (int)fraction;
    d->ok = whole + fraction > 0 && whole + fraction <= 15;
    return p;
}
/* Past the blanks at p: eight at a time while they last (columns aligned
 * with runs of blanks are most of mpstat's bytes). */
static inline const char *spoor_skip_blanks(const char *p, const char *end)
{
    uint64_t w;
    while (end - p >= 8 && (memcpy(&w, p, 8), w == 0x2020202020202020ull))
        p += 8;
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    return p;
}
double spoor_decimal_value(const struct spoor_decimal *d);

/* Rows whose ts holds a local wall time, put on UTC in input order. */
struct spoor_local_rows {
    struct spoor_zone zone;
    bool roll_days;     /* times of day without a date: a step back of half a day or more is midnight */
    int64_t date_days;  /* roll_days: the start date (days since 1970) every chunk counts from */
    int64_t days;       /* days carried past midnight before this batch */
    int64_t last_local, last_utc;  /* last_utc: INT64_MIN before the first */
    bool started;
    uint64_t gaps, first_gap_line;  /* times the zone skips: ts left empty */
};

/* Sets up from opts->utc_offset and writes how local times are read into
 * d->assumed. */
int spoor_local_rows_open(struct spoor_local_rows *o, bool roll_days, const struct spoor_read_opts *opts,
                          struct spoor_dialect *d, struct spoor_error *err);
/* One batch in input order (the in_order hook's work; batch NULL: nothing).
 * A wall time the zone skips leaves its row's ts empty and is counted in
 * gaps (with strict, the error "PATH:LINE: ..."). */
int spoor_local_rows_batch(struct spoor_local_rows *o, struct spoor_table *b, const char *path, bool strict,
                           struct spoor_error *err);
/* A format's in_order and release, for a state that begins with its
 * struct spoor_local_rows (malloc'ed, as the first member). in_order puts the
 * count of skipped wall times in d->unit_warning (a warning on stderr). */
int spoor_local_rows_in_order(struct spoor_dialect *d, struct spoor_table *batch, struct spoor_skips *skips,
                              const char *path, bool strict, struct spoor_table **view,
                              struct spoor_error *err);
void spoor_local_rows_release(struct spoor_dialect *d);

/* The end of the line at p ('\n' or end), and a line's end without its '\r'. */
static inline const char *spoor_line_end(const char *p, const char *end)
{
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    return nl ? nl : end;
}
static inline const char *spoor_cut_cr(const char *p, const char *e) { return e > p && e[-1] == '\r' ? e - 1 : e; }

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
