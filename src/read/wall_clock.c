/* Wall-clock fields and putting local times on UTC in input order. A chunk
 * parsed on its own knows neither how many midnights passed before it nor
 * which side of a daylight-saving fold the record before it was on, so the
 * readers keep the local time in ts and this runs over each batch in order:
 * a batch whose first time of day steps back half a day or more from the
 * last one before it starts a new day; every row gets the days carried so
 * far; then the zone turns local into UTC, the fold decided by the time
 * before it. */
#include "read/wall_clock.h"
#include "read/field_map.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool two_digits(const char *p, int *v)
{
    if (p[0] < '0' || p[0] > '9' || p[1] < '0' || p[1] > '9')
        return false;
    *v = (p[0] - '0') * 10 + (p[1] - '0');
    return true;
}

bool spoor_clock_parse(const char *p, size_t n, int *seconds)
{
    int h, m, s;
    if (n != 8 || p[2] != ':' || p[5] != ':' || !two_digits(p, &h) || !two_digits(p + 3, &m) ||
        !two_digits(p + 6, &s) || h > 23 || m > 59 || s > 60)
        return false;
    *seconds = h * 3600 + m * 60 + s;
    return true;
}

bool spoor_clock_12h(int *seconds, const char *ampm, size_t n)
{
    if (n != 2 || (ampm[1] != 'M' && ampm[1] != 'm'))
        return false;
    bool pm = ampm[0] == 'P' || ampm[0] == 'p';
    if (!pm && ampm[0] != 'A' && ampm[0] != 'a')
        return false;
    int hour = *seconds / 3600;
    if (hour < 1 || hour > 12)
        return false;
    *seconds += ((hour % 12) + (pm ? 12 : 0) - hour) * 3600;
    return true;
}

bool spoor_civil_days(int y, int m, int d, int64_t *days)
{
    static const int month_days[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    /* ns since 1970 in int64 reach 1677-2262; rolls and zones need some room */
    if (y < 1900 || y > 2200 || m < 1 || m > 12 || d < 1 || d > month_days[m - 1] + (m == 2 && leap))
        return false;
    /* days from civil (Howard Hinnant's algorithm) */
    int64_t yy = y - (m <= 2);
    int64_t era = yy / 400, yoe = yy - era * 400;
    int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    *days = era * 146097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719468;
    return true;
}

double spoor_decimal_value(const struct spoor_decimal *d)
{
    static const double tens[] = {1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
    /* both exact below 10^15, so the one division rounds correctly */
    double x = d->fraction ? (double)d->digits / tens[d->fraction] : (double)d->digits;
    return d->negative ? -x : x;
}

bool spoor_plain_decimal(const char *p, size_t n, double *out)
{
    struct spoor_decimal d;
    if (spoor_scan_decimal(p, p + n, &d) != p + n || !d.ok)
        return false;
    *out = spoor_decimal_value(&d);
    return true;
}

int spoor_local_rows_open(struct spoor_local_rows *o, bool roll_days, const struct spoor_read_opts *opts,
                          struct spoor_dialect *d, struct spoor_error *err)
{
    memset(o, 0, sizeof *o);
    o->roll_days = roll_days;
    o->last_utc = INT64_MIN;
    int st = spoor_zone_open(opts->utc_offset, &o->zone, err);
    if (st == SPOOR_OK)
        spoor_zone_describe(&o->zone, d->assumed, sizeof d->assumed);
    return st;
}

int spoor_local_rows_batch(struct spoor_local_rows *o, struct spoor_table *b, const char *path, bool strict,
                           struct spoor_error *err)
{
    if (!b || b->nrows == 0)
        return SPOOR_OK;
    int64_t shift = 0;
    if (o->roll_days) {
        int64_t first = b->ts[0] + o->days * SPOOR_DAY_NS;
        if (o->started && b->ts[0] != SPOOR_NULL && first <= o->last_local - SPOOR_DAY_NS / 2)
            o->days++;
        shift = o->days * SPOOR_DAY_NS;
    }
    for (size_t r = 0; r < b->nrows; r++) {
        if (b->ts[r] == SPOOR_NULL)
            continue;
        int64_t local = b->ts[r] + shift, utc;
        bool known = spoor_zone_to_utc(&o->zone, local, o->last_utc, &utc);
        o->last_local = local;
        o->started = true;
        if (known) {
            b->ts[r] = o->last_utc = utc;
            continue;
        }
        /* the row stays (its values are real), its ts empty, and the loader
         * warns; a skip would count a line that gave a row */
        b->ts[r] = SPOOR_NULL;
        if (strict)
            return spoor_skip_or_fail(NULL, path, SPOOR_RECORDS_LINES, true, b->line[r],
                                      "local time the zone skips (daylight saving starts)", err);
        if (!o->gaps++)
            o->first_gap_line = b->line[r];
    }
    /* the next batch's rows count their days from the start date again */
    if (o->roll_days && o->started)
        o->days = o->last_local / SPOOR_DAY_NS - (o->last_local % SPOOR_DAY_NS < 0) - o->date_days;
    return SPOOR_OK;
}

int spoor_local_rows_in_order(struct spoor_dialect *d, struct spoor_table *batch, struct spoor_skips *skips,
                              const char *path, bool strict, struct spoor_table **view, struct spoor_error *err)
{
    (void)view; /* rows are rewritten and added in place */
    (void)skips;
    struct spoor_local_rows *o = d->state;
    int st = spoor_local_rows_batch(o, batch, path, strict, err);
    if (o->gaps)
        snprintf(d->unit_warning, sizeof d->unit_warning,
                 "%llu local times fall in the hour %s skips when daylight saving starts (first at line %llu): "
                 "their ts is left empty",
                 (unsigned long long)o->gaps, o->zone.name, (unsigned long long)o->first_gap_line);
    return st;
}

void spoor_local_rows_release(struct spoor_dialect *d)
{
    struct spoor_local_rows *o = d->state;
    if (o)
        spoor_zone_close(&o->zone);
    free(o);
    d->state = NULL;
}
