/* Numbers in option values (cli_number.h). */
#include "cli_number.h"
#include "cli_getopt.h"
#include "spoor/report.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>

bool cli_count(const char *s, uint64_t max, uint64_t *out)
{
    if (!isdigit((unsigned char)*s)) /* strtoull would take blanks, + and - */
        return false;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end || v > max)
        return false;
    *out = v;
    return true;
}

bool cli_duration(const char *cmd, const char *opt, const char *s, int64_t *ns)
{
    const char *problem = spoor_parse_duration(s, ns);
    if (problem)
        cli_usage_error(cmd, "%s '%s': %s", opt, s, problem);
    return !problem;
}

bool cli_real(const char *s, double lo, double hi, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || !isfinite(v) || !(v >= lo && v <= hi))
        return false;
    *out = v;
    return true;
}
