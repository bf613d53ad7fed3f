/* After a damaged gzip member, reading goes on at the next member: with a
 * checksum mismatch the member's end is known, after corrupt deflate data the
 * next member header is searched for. */
#include "io/gzip_damage.h"

#include <isa-l/igzip_lib.h>
#include <stdbool.h>
#include <string.h>

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

uint64_t io_gzip_find_member(const uint8_t *map, uint64_t from, uint64_t size)
{
    enum { HEADER = 10 };
    while (from + HEADER <= size) {
        const uint8_t *p = memchr(map + from, 0x1f, (size_t)(size - from - HEADER + 1));
        if (!p)
            break;
        if (header_at(p))
            return (uint64_t)(p - map);
        from = (uint64_t)(p - map) + 1;
    }
    return size;
}
