/* Durations as people write them ("2.5s", "250ms", "1.5h"): the one parser of
 * every option that takes one (spoor/report.h). Exact: the digits are read as
 * integers and scaled in 128-bit arithmetic, so 2.5s is 2,500,000,000 ns and
 * not a double's neighbour of it. */
#include "spoor/report.h"

#include <string.h>

static const struct {
    const char *name;
    int64_t ns;
} units[] = {{"ns", 1},
             {"us", 1000},
             {"\xc2\xb5s", 1000}, /* µs */
             {"ms", 1000000},
             {"s", 1000000000},
             {"min", 60000000000},
             {"m", 60000000000},
             {"h", 3600000000000},
             {"d", 86400000000000}};

/* More decimals are refused: no unit needs them (a day is under 10^14 ns, so
 * the 15th decimal is below 1 ns already), and the scaling stays in 128 bits. */
enum { MAX_DECIMALS = 18 };

const char *spoor_parse_duration(const char *s, int64_t *ns)
{
    const char *p = s;
    unsigned __int128 whole = 0, frac = 0, scale = 1;
    for (; *p >= '0' && *p <= '9'; p++)
        if ((whole = whole * 10 + (unsigned)(*p - '0')) > INT64_MAX)
            return "too long: at most 2^63 - 1 ns (about 292 years)";
    size_t digits = (size_t)(p - s);
    if (*p == '.') {
        const char *first = ++p;
        for (; *p >= '0' && *p <= '9'; p++) {
            if (p - first == MAX_DECIMALS)
                return "more than 18 decimals";
            frac = frac * 10 + (unsigned)(*p - '0');
            scale *= 10;
        }
        digits += (size_t)(p - first);
    }
    if (!digits)
        return "not a duration: a positive number and a unit, such as 2.5s, 250ms or 1.5h";
    if (!*p)
        return "a number needs a unit: ns, us, ms, s, min, h or d";
    for (size_t i = 0; i < sizeof units / sizeof *units; i++) {
        if (strcmp(p, units[i].name) != 0)
            continue;
        /* the fraction rounded to the nearest ns, halves up */
        unsigned __int128 v = whole * (uint64_t)units[i].ns + (frac * (uint64_t)units[i].ns + scale / 2) / scale;
        if (v > INT64_MAX)
            return "too long: at most 2^63 - 1 ns (about 292 years)";
        if (v == 0)
            return "rounds to 0 ns";
        *ns = (int64_t)v;
        return NULL;
    }
    return "unknown unit: ns, us, ms, s, min, h or d";
}
