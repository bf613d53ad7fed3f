/* After a damaged gzip member, reading goes on at the next member: with a
 * checksum mismatch the member's end is known, after corrupt deflate data the
 * next member header is searched for. */
#include "io/gzip_damage.h"

#include <isa-l/igzip_lib.h>
#include <stdbool.h>
#include <string.h>

enum { HEADER = 10 };

const char *io_gzip_why(int isal_error)
{
    switch (isal_error) {
    case ISAL_INCORRECT_CHECKSUM: return "checksum mismatch";
    case ISAL_INVALID_WRAPPER:
    case ISAL_UNSUPPORTED_METHOD: return "corrupt gzip header";
    default: return "corrupt deflate data";
    }
}

/* A gzip header: magic, deflate, no reserved flag bits, an extra-flags byte
 * deflate writes (0, 2 or 4) and a known OS (0-13, or 255 for unknown). In
 * compressed data a false match is then about one in 10^11 bytes. */
static bool header_at(const uint8_t *p)
{
    enum { FLAG_RESERVED = 0xe0, METHOD_DEFLATE = 8, OS_LAST = 13, OS_UNKNOWN = 255 };
    return p[0] == 0x1f && p[1] == 0x8b && p[2] == METHOD_DEFLATE && (p[3] & FLAG_RESERVED) == 0 &&
           (p[8] == 0 || p[8] == 2 || p[8] == 4) && (p[9] <= OS_LAST || p[9] == OS_UNKNOWN);
}

int io_gzip_member_at(struct spoor_input *in, struct io_window *w, uint64_t pos, struct spoor_error *err)
{
    long n = io_window_at(in, w, pos, HEADER, err);
    if (n < 0)
        return (int)n;
    return n == 0 || (n >= HEADER && header_at(w->buf + (pos - w->base)));
}

int io_gzip_find_member(struct spoor_input *in, struct io_window *w, uint64_t from, uint64_t *at,
                        struct spoor_error *err)
{
    if (in->stream && w->buf && from < w->base)
        from = w->base;
    for (;;) {
        long n = io_window_at(in, w, from, HEADER, err);
        if (n < 0)
            return (int)n;
        if (n < HEADER) {
            *at = from + (uint64_t)n;
            return 0;
        }
        const uint8_t *start = w->buf + (from - w->base);
        const uint8_t *p = memchr(start, 0x1f, (size_t)n - HEADER + 1);
        if (p && header_at(p)) {
            *at = from + (uint64_t)(p - start);
            return 1;
        }
        from += p ? (uint64_t)(p - start) + 1 : (uint64_t)n - HEADER + 1;
    }
}
