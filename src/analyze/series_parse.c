/* The option values of `spoor series` that are not plain numbers: durations
 * ("1h", "30s") and fixed UTC offsets ("+05:30"). */
#include "spoor/series.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

bool spoor_series_parse_duration(const char *s, int64_t *ns)
{
    static const struct {
        const char *unit;
        int64_t ns;
    } units[] = {{"ns", 1},           {"us", 1000},           {"ms", 1000000},     {"s", 1000000000},
                 {"min", 60000000000}, {"m", 60000000000},     {"h", 3600000000000}, {"d", 86400000000000}};
    if (!isdigit((unsigned char)*s))
        return false;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || v == 0)
        return false;
    for (size_t i = 0; i < sizeof units / sizeof *units; i++)
        if (!strcmp(end, units[i].unit)) {
            if (v > (unsigned long long)(INT64_MAX / units[i].ns))
                return false;
            *ns = (int64_t)v * units[i].ns;
            return true;
        }
    return false;
}

bool spoor_series_parse_offset(const char *s, int64_t *ns)
{
    if (!strcmp(s, "Z") || !strcmp(s, "0") || !strcmp(s, "UTC")) {
        *ns = 0;
        return true;
    }
    if (*s != '+' && *s != '-')
        return false;
    int sign = *s == '-' ? -1 : 1;
    const char *p = s + 1;
    size_t len = strlen(p);
    bool colon = len == 5 && p[2] == ':';
    if (len != 2 && len != 4 && !colon)
        return false;
    int digits[4], nd = 0;
    for (size_t i = 0; i < len; i++) {
        if (colon && i == 2)
            continue;
        if (!isdigit((unsigned char)p[i]))
            return false;
        digits[nd++] = p[i] - '0';
    }
    int hours = digits[0] * 10 + digits[1], minutes = nd == 4 ? digits[2] * 10 + digits[3] : 0;
    if (hours > 14 || minutes > 59)
        return false;
    *ns = sign * ((int64_t)hours * 3600 + minutes * 60) * 1000000000LL;
    return true;
}
