/* One UTF-8 character (utf8.h). */
#include "util/utf8.h"

size_t spoor_utf8_decode(const char *s, size_t len, unsigned *cp)
{
    const unsigned char *u = (const unsigned char *)s;
    unsigned c = u[0];
    size_t n;
    unsigned min;
    if (c < 0x80) {
        *cp = c;
        return 1;
    } else if ((c & 0xe0) == 0xc0) {
        n = 2, c &= 0x1f, min = 0x80;
    } else if ((c & 0xf0) == 0xe0) {
        n = 3, c &= 0x0f, min = 0x800;
    } else if ((c & 0xf8) == 0xf0) {
        n = 4, c &= 0x07, min = 0x10000;
    } else {
        *cp = u[0];
        return 1;
    }
    if (n > len)
        goto invalid;
    for (size_t i = 1; i < n; i++) {
        if ((u[i] & 0xc0) != 0x80)
            goto invalid;
        c = (c << 6) | (u[i] & 0x3f);
    }
    if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
        goto invalid;
    *cp = c;
    return n;
invalid:
    *cp = u[0];
    return 1;
}
