/* After a damaged gzip member, reading goes on at the next member: with a
 * checksum mismatch the member's end is known, after corrupt deflate data the
 * next member header is searched for. */
#include "io/gzip_damage.h"

#include <isa-l/igzip_lib.h>
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

uint64_t io_gzip_find_member(const uint8_t *map, uint64_t from, uint64_t size)
{
    enum { FLAG_RESERVED = 0xe0, METHOD_DEFLATE = 8 };
    while (from + 4 <= size) {
        const uint8_t *p = memchr(map + from, 0x1f, (size_t)(size - from - 3));
        if (!p)
            break;
        if (p[1] == 0x8b && p[2] == METHOD_DEFLATE && (p[3] & FLAG_RESERVED) == 0)
            return (uint64_t)(p - map);
        from = (uint64_t)(p - map) + 1;
    }
    return size;
}
