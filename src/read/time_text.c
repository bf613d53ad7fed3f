/* Text times to int64 ns. Decimal numbers are converted digit by digit so that
 * epoch seconds with nine fraction digits keep every nanosecond (a double holds
 * only ~16 significant digits, i.e. ~256 ns at 1.7e18). */
#include "read/time_text.h"
#include "util/digits.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

/* Numbers with an exponent are rare in time fields; a double is precise enough. */
static bool parse_with_exponent(const char *p, size_t n, int64_t unit_ns, int64_t *ns)
{
    char buf[64];
    if (n >= sizeof buf)
        return false;
    memcpy(buf, p, n);
    buf[n] = '\0';
    char *end;
    double v = strtod(buf, &end);
    if (end != buf + n)
        return false;
    double scaled = v * (double)unit_ns;
    if (!(scaled > -9.2e18 && scaled < 9.2e18))
        return false;
    *ns = llround(scaled);
    return true;
}

/* The value of the 8 digits at p, or false when one is no digit (one word
 * does the work of eight steps of a digit loop: util/digits.h). */
static bool eight_digits(const char *p, int64_t *out)
{
    uint64_t w = spoor_get64((const uint8_t *)p);
    if (spoor_digits8(w) < 8)
        return false;
    *out = (int64_t)spoor_digits8_value(w, 8);
    return true;
}

/* Plain digits, as most times are: 18 of them always fit in int64, so no step
 * needs an overflow check. False for anything else (the general parse decides). */
static bool parse_plain_integer(const char *p, size_t n, int64_t unit_ns, int64_t *ns)
{
    if (n == 0 || n > 18)
        return false;
    int64_t v = 0;
    size_t i = 0;
    for (; i < n % 8; i++) {
        if (!is_digit(p[i]))
            return false;
        v = v * 10 + (p[i] - '0');
    }
    for (int64_t group; i < n; i += 8) {
        if (!eight_digits(p + i, &group))
            return false;
        v = v * 100000000 + group;
    }
    return !__builtin_mul_overflow(v, unit_ns, ns);
}

bool spoor_time_parse_decimal(const char *p, size_t n, int64_t unit_ns, int64_t *ns)
{
    if (parse_plain_integer(p, n, unit_ns, ns))
        return true;
    size_t i = 0;
    bool negative = false;
    if (i < n && (p[i] == '-' || p[i] == '+'))
        negative = p[i++] == '-';
    int64_t whole = 0;
    size_t digits = 0;
    for (; i < n && is_digit(p[i]); i++, digits++)
        if (__builtin_mul_overflow(whole, 10, &whole) || __builtin_add_overflow(whole, p[i] - '0', &whole))
            return false;
    /* How many fraction digits count: the exponent of the unit (a power of ten). */
    int scale = unit_ns == 1000000000 ? 9 : unit_ns == 1000000 ? 6 : unit_ns == 1000 ? 3 : 0;
    int64_t frac = 0;
    int taken = 0;
    bool round_up = false;
    if (i < n && p[i] == '.') {
        for (i++; i < n && is_digit(p[i]); i++, digits++) {
            if (taken < scale) {
                frac = frac * 10 + (p[i] - '0');
                taken++;
            } else if (taken == scale) {
                round_up = p[i] >= '5';
                taken++;
            }
        }
    }
    if (digits == 0)
        return false;
    if (i < n && (p[i] == 'e' || p[i] == 'E'))
        return parse_with_exponent(p, n, unit_ns, ns);
    if (i != n)
        return false;
    for (; taken < scale; taken++)
        frac *= 10;
    int64_t total;
    if (__builtin_mul_overflow(whole, unit_ns, &total) || __builtin_add_overflow(total, frac + round_up, &total))
        return false;
    *ns = negative ? -total : total;
    return true;
}

/* Reads exactly `width` digits at p[*i]. */
static bool digits_at(const char *p, size_t n, size_t *i, int width, int *out)
{
    if (*i + (size_t)width > n)
        return false;
    int v = 0;
    for (int k = 0; k < width; k++) {
        char c = p[*i + (size_t)k];
        if (!is_digit(c))
            return false;
        v = v * 10 + (c - '0');
    }
    *i += (size_t)width;
    *out = v;
    return true;
}

static bool is_leap(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

static int days_in_month(int y, int m)
{
    static const int days[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return m == 2 && is_leap(y) ? 29 : days[m - 1];
}

/* Leap days in years 1 .. y-1 of the proleptic Gregorian calendar. */
static int64_t leap_days_before(int64_t y) { return (y - 1) / 4 - (y - 1) / 100 + (y - 1) / 400; }

static int64_t days_since_epoch(int y, int m, int d)
{
    static const int before_month[12] = {0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334};
    int64_t days = 365 * (int64_t)(y - 1970) + leap_days_before(y) - leap_days_before(1970);
    days += before_month[m - 1] + (m > 2 && is_leap(y)) + d - 1;
    return days;
}

/* Parses "Z", "+HH", "+HHMM" or "+HH:MM" at p[*i] into seconds east of UTC. */
static bool parse_offset(const char *p, size_t n, size_t *i, int64_t *seconds)
{
    *seconds = 0;
    if (*i == n)
        return true;
    if (p[*i] == 'Z' || p[*i] == 'z') {
        (*i)++;
        return true;
    }
    if (p[*i] != '+' && p[*i] != '-')
        return false;
    int sign = p[(*i)++] == '-' ? -1 : 1;
    int hh, mm = 0;
    if (!digits_at(p, n, i, 2, &hh) || hh > 23)
        return false;
    if (*i < n && p[*i] == ':')
        (*i)++;
    if (*i < n && (!digits_at(p, n, i, 2, &mm) || mm > 59))
        return false;
    *seconds = sign * (hh * 3600 + mm * 60);
    return true;
}

/* "YYYY-MM-DD" at p[*i] into days since 1970. */
static bool parse_date(const char *p, size_t n, size_t *i, int64_t *days)
{
    int year = 0, month = 0, day = 0; /* gcc -O3 cannot see digits_at sets them */
    if (!digits_at(p, n, i, 4, &year) || *i == n || p[(*i)++] != '-' || !digits_at(p, n, i, 2, &month) ||
        *i == n || p[(*i)++] != '-' || !digits_at(p, n, i, 2, &day))
        return false;
    if (year < 1 || month < 1 || month > 12 || day < 1 || day > days_in_month(year, month))
        return false;
    *days = days_since_epoch(year, month, day);
    return true;
}

/* "HH:MM:SS" in the 8 bytes at p, in one word (the usual time of day). */
static bool clock_word(const char *p, int *hour, int *minute, int *second)
{
    uint64_t w = spoor_get64((const uint8_t *)p);
    if (!spoor_digits8_between(w, 0x0000FF0000FF0000ULL, 0x00003A00003A0000ULL))
        return false;
    uint64_t d = w - 0x3030303030303030ULL; /* the digits' values, the first lowest */
    *hour = (int)((d & 0xFF) * 10 + (d >> 8 & 0xFF));
    *minute = (int)((d >> 24 & 0xFF) * 10 + (d >> 32 & 0xFF));
    *second = (int)((d >> 48 & 0xFF) * 10 + (d >> 56 & 0xFF));
    return true;
}

/* The rest of an ISO time after its date (`days`), from p[i]. */
static bool parse_after_date(const char *p, size_t n, size_t i, int64_t days, int64_t *ns)
{
    int hour = 0, minute = 0, second = 0;
    int64_t fraction_ns = 0;
    if (i < n && (p[i] == 'T' || p[i] == 't' || p[i] == ' ')) {
        i++;
        bool with_seconds = n - i >= 8 && clock_word(p + i, &hour, &minute, &second);
        if (with_seconds) {
            i += 8;
        } else {
            if (!digits_at(p, n, &i, 2, &hour) || i == n || p[i++] != ':' || !digits_at(p, n, &i, 2, &minute))
                return false;
            if (i < n && p[i] == ':') {
                i++;
                if (!digits_at(p, n, &i, 2, &second))
                    return false;
                with_seconds = true;
            }
        }
        if (with_seconds && i < n && (p[i] == '.' || p[i] == ',')) {
            i++;
            int taken = 0;
            for (; i < n && is_digit(p[i]); i++)
                if (taken < 9) {
                    fraction_ns = fraction_ns * 10 + (p[i] - '0');
                    taken++;
                }
            static const int64_t to_ns[10] = {0, 100000000, 10000000, 1000000, 100000, 10000, 1000, 100, 10, 1};
            if (taken == 0)
                return false;
            fraction_ns *= to_ns[taken];
        }
        /* 24:00:00 is the end of the day; 60 s is a leap second. */
        if (hour > 24 || minute > 59 || second > 60 || (hour == 24 && (minute || second || fraction_ns)))
            return false;
    }
    int64_t offset;
    if (!parse_offset(p, n, &i, &offset) || i != n)
        return false;
    int64_t seconds = days * 86400 + hour * 3600 + minute * 60 + second - offset;
    int64_t total;
    if (__builtin_mul_overflow(seconds, (int64_t)1000000000, &total) ||
        __builtin_add_overflow(total, fraction_ns, &total))
        return false;
    *ns = total;
    return true;
}

bool spoor_time_parse_iso(const char *p, size_t n, int64_t *ns)
{
    size_t i = 0;
    int64_t days;
    return parse_date(p, n, &i, &days) && parse_after_date(p, n, i, days, ns);
}

bool spoor_time_parse_iso_day(struct spoor_iso_day *last, const char *p, size_t n, int64_t *ns)
{
    size_t i = 0;
    int64_t days;
    if (last->set && n >= sizeof last->text && !memcmp(p, last->text, sizeof last->text)) {
        i = sizeof last->text;
        days = last->days;
    } else {
        if (!parse_date(p, n, &i, &days))
            return false;
        memcpy(last->text, p, sizeof last->text); /* a date read is always its 10 bytes */
        last->days = days;
        last->set = true;
    }
    return parse_after_date(p, n, i, days, ns);
}
