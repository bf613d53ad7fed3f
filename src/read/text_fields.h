/* Whitespace-aligned text tables (bpftrace printf output, ps aux): a line is
 * fields separated by runs of blanks, and the last field of some tables takes
 * the rest of the line, blanks and all. Also the few field forms these tables
 * print: decimal integers and a wall clock HH:MM:SS. */
#ifndef SPOOR_READ_TEXT_FIELDS_H
#define SPOOR_READ_TEXT_FIELDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

static inline bool spoor_text_blank(char c) { return c == ' ' || c == '\t'; }

/* Splits [p, end) into at most max fields (start and length); when rest_last,
 * the max-th field is everything after the blanks before it up to the last
 * non-blank (a '\r' before the line's end is cut by the caller). Returns the
 * number of fields found, or max + 1 when more than max fields are there and
 * rest_last is false. */
static inline size_t spoor_text_split(const char *p, const char *end, size_t max, bool rest_last,
                                      const char **start, size_t *len)
{
    size_t n = 0;
    for (;;) {
        while (p < end && spoor_text_blank(*p))
            p++;
        if (p == end)
            return n;
        if (n == max)
            return max + 1;
        start[n] = p;
        if (rest_last && n + 1 == max) {
            while (spoor_text_blank(end[-1]))
                end--;
            len[n++] = (size_t)(end - p);
            return n;
        }
        while (p < end && !spoor_text_blank(*p))
            p++;
        len[n] = (size_t)(p - start[n]);
        n++;
    }
}

/* "[-]digits" (at most 18 digits, so it cannot overflow) into *v. */
static inline bool spoor_text_int(const char *p, size_t n, int64_t *v)
{
    bool neg = n > 0 && *p == '-';
    p += neg;
    n -= neg;
    if (n == 0 || n > 18)
        return false;
    int64_t x = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned d = (unsigned)(p[i] - '0');
        if (d > 9)
            return false;
        x = x * 10 + d;
    }
    *v = neg ? -x : x;
    return true;
}

/* "H:MM:SS" or "HH:MM:SS" (24-hour wall clock) into seconds of the day. */
static inline bool spoor_text_clock(const char *p, size_t n, int64_t *seconds)
{
    if (n != 7 && n != 8)
        return false;
    int64_t h, m, s;
    size_t hn = n - 6;
    if (p[hn] != ':' || p[hn + 3] != ':' || !spoor_text_int(p, hn, &h) || !spoor_text_int(p + hn + 1, 2, &m) ||
        !spoor_text_int(p + hn + 4, 2, &s) || h < 0 || h > 23 || m < 0 || m > 59 || s < 0 || s > 60)
        return false;
    *seconds = h * 3600 + m * 60 + s;
    return true;
}

#endif
