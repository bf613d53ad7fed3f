/* Time units of trace fields: names, parsing, nanoseconds per unit. */
#include "spoor/load.h"

#include <string.h>

const char *spoor_unit_name(enum spoor_unit u)
{
    switch (u) {
    case SPOOR_UNIT_NS: return "ns";
    case SPOOR_UNIT_US: return "us";
    case SPOOR_UNIT_MS: return "ms";
    case SPOOR_UNIT_S: return "s";
    default: return "auto";
    }
}

enum spoor_unit spoor_unit_parse(const char *s)
{
    if (!strcmp(s, "ns")) return SPOOR_UNIT_NS;
    if (!strcmp(s, "us") || !strcmp(s, "µs")) return SPOOR_UNIT_US;
    if (!strcmp(s, "ms")) return SPOOR_UNIT_MS;
    if (!strcmp(s, "s")) return SPOOR_UNIT_S;
    return SPOOR_UNIT_AUTO;
}

int64_t spoor_unit_ns(enum spoor_unit u)
{
    switch (u) {
    case SPOOR_UNIT_US: return 1000;
    case SPOOR_UNIT_MS: return 1000000;
    case SPOOR_UNIT_S: return 1000000000;
    default: return 1;
    }
}
