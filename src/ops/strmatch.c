/* LIKE and GLOB by one left-to-right pass that backtracks only to the most
 * recent % or *: O(pattern x string) at worst, never exponential. */
#include "ops/strmatch.h"

#include "util/utf8.h"

static size_t char_len(const char *s, size_t len)
{
    unsigned cp;
    return spoor_utf8_decode(s, len, &cp);
}

static char fold(char c) { return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c; }

bool strmatch_like(const char *p, size_t pn, const char *s, size_t sn, char escape)
{
    size_t pi = 0, si = 0, star_p = 0, star_s = 0;
    bool star = false;
    while (si < sn) {
        if (pi < pn) {
            char c = p[pi];
            if (c == '%') {
                star = true;
                star_p = ++pi;
                star_s = si;
                continue;
            }
            if (c == '_') {
                pi++;
                si += char_len(s + si, sn - si);
                continue;
            }
            size_t step = 1;
            if (escape && c == escape && pi + 1 < pn) {
                c = p[pi + 1];
                step = 2;
            }
            if (fold(c) == fold(s[si])) {
                pi += step;
                si++;
                continue;
            }
        }
        if (!star)
            return false;
        star_s += char_len(s + star_s, sn - star_s);
        pi = star_p;
        si = star_s;
    }
    while (pi < pn && p[pi] == '%')
        pi++;
    return pi == pn;
}

/* Matches code point cp against the class starting after '[' at p[*pi];
 * advances *pi past ']'. Returns -1 for an unterminated class. */
static int glob_class(const char *p, size_t pn, size_t *pi, unsigned cp)
{
    size_t i = *pi;
    bool negate = false, hit = false;
    if (i < pn && p[i] == '^') {
        negate = true;
        i++;
    }
    bool first = true;
    while (i < pn && (p[i] != ']' || first)) {
        unsigned lo, hi;
        i += spoor_utf8_decode(p + i, pn - i, &lo);
        hi = lo;
        if (i + 1 < pn && p[i] == '-' && p[i + 1] != ']') {
            i++;
            i += spoor_utf8_decode(p + i, pn - i, &hi);
        }
        if (cp >= lo && cp <= hi)
            hit = true;
        first = false;
    }
    if (i >= pn)
        return -1;
    *pi = i + 1;
    return hit != negate;
}

bool strmatch_glob(const char *p, size_t pn, const char *s, size_t sn)
{
    size_t pi = 0, si = 0, star_p = 0, star_s = 0;
    bool star = false;
    while (si < sn) {
        if (pi < pn) {
            char c = p[pi];
            if (c == '*') {
                star = true;
                star_p = ++pi;
                star_s = si;
                continue;
            }
            if (c == '?') {
                pi++;
                si += char_len(s + si, sn - si);
                continue;
            }
            if (c == '[') {
                unsigned cp;
                size_t n = spoor_utf8_decode(s + si, sn - si, &cp);
                size_t after = pi + 1;
                int hit = glob_class(p, pn, &after, cp);
                if (hit < 0)
                    return false;
                if (hit) {
                    pi = after;
                    si += n;
                    continue;
                }
            } else if (c == s[si]) {
                pi++;
                si++;
                continue;
            }
        }
        if (!star)
            return false;
        star_s += char_len(s + star_s, sn - star_s);
        pi = star_p;
        si = star_s;
    }
    while (pi < pn && p[pi] == '*')
        pi++;
    return pi == pn;
}
