/* Whitespace-aligned text tables (bpftrace printf output, ps aux): a line is
 * fields separated by runs of blanks, and the last field of some tables takes
 * the rest of the line, blanks and all. Also the few field forms these tables
 * print: decimal integers and a wall clock HH:MM:SS. */
#ifndef SPOOR_READ_TEXT_FIELDS_H
#define SPOOR_READ_TEXT_FIELDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline bool spoor_text_blank(char c) { return c == ' ' || c == '\t'; }

/* High bit of each byte of x that is neither a space nor a tab (exact: no
 * borrow runs from one byte into the next). */
static inline uint64_t spoor_text_nonblank_bits(uint64_t x)
{
    const uint64_t low7 = 0x7F7F7F7F7F7F7F7Full, high = 0x8080808080808080ull;
    uint64_t sp = x ^ 0x2020202020202020ull, tab = x ^ 0x0909090909090909ull;
    uint64_t not_sp = ((sp & low7) + low7) | sp, not_tab = ((tab & low7) + low7) | tab;
    return not_sp & not_tab & high;
}

/* The first byte of [p, end) that is (blank true) or is not (blank false) a
 * blank, or end; eight bytes at a time (aligned tables have long runs of
 * padding, and words are longer than a byte or two). */
static inline const char *spoor_text_find(const char *p, const char *end, bool blank)
{
    while (end - p >= 8) {
        uint64_t x;
        memcpy(&x, p, 8);
        uint64_t hits = spoor_text_nonblank_bits(x);
        if (blank)
            hits ^= 0x8080808080808080ull;
        if (hits) /* the lowest hit is the first byte in memory (little-endian) */
            return p + (__builtin_ctzll(hits) >> 3);
        p += 8;
    }
    while (p < end && spoor_text_blank(*p) != blank)
        p++;
    return p;
}

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
        p = spoor_text_find(p, end, false);
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
        p = spoor_text_find(p, end, true);
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
