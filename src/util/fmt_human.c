/* Counts and durations as people read them (spoor/report.h). */
#include "spoor/report.h"

#include <stdio.h>

const char *spoor_fmt_count(char *buf, size_t cap, unsigned long long n)
{
    char digits[32];
    int len = snprintf(digits, sizeof digits, "%llu", n);
    size_t o = 0;
    for (int i = 0; i < len && o + 2 < cap; i++) {
        if (i && (len - i) % 3 == 0)
            buf[o++] = ',';
        buf[o++] = digits[i];
    }
    buf[o] = '\0';
    return buf;
}

const char *spoor_fmt_duration(char *buf, size_t cap, double ns)
{
    double a = ns < 0 ? -ns : ns;
    if (a < 1e3)
        snprintf(buf, cap, "%.0f ns", ns);
    else if (a < 1e6)
        snprintf(buf, cap, "%.2f us", ns / 1e3);
    else if (a < 1e9)
        snprintf(buf, cap, "%.2f ms", ns / 1e6);
    else
        snprintf(buf, cap, "%.3f s", ns / 1e9);
    return buf;
}
