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

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

static inline bool spoor_text_blank(char c) { return c == ' ' || c == '\t'; }

/* The end of line [p, end) without a '\r' before it. */
static inline const char *spoor_text_cut_cr(const char *p, const char *end)
{
    return end > p && end[-1] == '\r' ? end - 1 : end;
}

/* Bit i set when byte p[i] of the next min(64, end - p) bytes is a blank;
 * the bits past end are set too (the line ends in blanks). */
static inline uint64_t spoor_text_blank_mask(const char *p, const char *end)
{
    size_t n = end - p < 64 ? (size_t)(end - p) : 64;
    uint64_t mask = n < 64 ? ~0ull << n : 0;
    size_t i = 0;
#if defined(__SSE2__)
    const __m128i space = _mm_set1_epi8(' '), tab = _mm_set1_epi8('\t');
    for (; i + 16 <= n; i += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
        __m128i blank = _mm_or_si128(_mm_cmpeq_epi8(v, space), _mm_cmpeq_epi8(v, tab));
        mask |= (uint64_t)(uint16_t)_mm_movemask_epi8(blank) << i;
    }
#endif
    for (; i < n; i++)
        mask |= (uint64_t)spoor_text_blank(p[i]) << i;
    return mask;
}

/* Splits [p, end) into at most max fields (start and length); when rest_last,
 * the max-th field is everything after the blanks before it up to the last
 * non-blank (a '\r' before the line's end is cut by the caller). Returns the
 * number of fields found, or max + 1 when more than max fields are there and
 * rest_last is false. The line is read 64 bytes at a time as a mask of its
 * blanks, whose edges are where fields start and end. */
static inline size_t spoor_text_split(const char *p, const char *end, size_t max, bool rest_last,
                                      const char **start, size_t *len)
{
    size_t n = 0;
    bool in_field = false; /* the byte before the block is a field's */
    for (const char *block = p; block < end; block += 64) {
        uint64_t blank = spoor_text_blank_mask(block, end);
        uint64_t before_blank = blank << 1 | !in_field, before_word = ~blank << 1 | in_field;
        uint64_t edges = (~blank & before_blank) | (blank & before_word); /* starts and ends, alternating */
        for (; edges; edges &= edges - 1) {
            const char *at = block + __builtin_ctzll(edges);
            if (in_field) {
                len[n - 1] = (size_t)(at - start[n - 1]);
                in_field = false;
                continue;
            }
            if (n == max)
                return max + 1;
            start[n++] = at;
            in_field = true;
            if (rest_last && n == max) {
                while (spoor_text_blank(end[-1]))
                    end--;
                len[n - 1] = (size_t)(end - at);
                return n;
            }
        }
        in_field = !(blank >> 63);
    }
    if (in_field)
        len[n - 1] = (size_t)(end - start[n - 1]);
    return n;
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
