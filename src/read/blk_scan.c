/* The small pieces of block-trace text the three block readers share:
 * numbers, "major,minor" devices and "SECTOR + COUNT" extents. */
#include "read/blk.h"
#include "util/digits.h"

#include <string.h>

const char *blk_line_end(const char *p, const char *end)
{
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    nl = nl ? nl : end;
    return nl > p && nl[-1] == '\r' ? nl - 1 : nl;
}

const char *blk_cut_cr(const char *p, const char *end) { return end > p && end[-1] == '\r' ? end - 1 : end; }

bool blk_seconds(const char *p, size_t n, int64_t *ns)
{
    const char *end = p + n, *s = p;
    uint64_t whole, frac = 0;
    if (!blk_uint(&s, end, &whole) || whole > INT64_MAX / 1000000000 - 1)
        return false;
    if (s < end && *s == '.') {
        const char *digits = ++s;
        /* 9 decimals (blkparse, ftrace's ns clock): the first 8 in one step */
        uint64_t w;
        if (end - s >= 9 && spoor_digits8(w = spoor_get64((const uint8_t *)s)) == 8) {
            frac = spoor_digits8_value(w, 8);
            s += 8;
            if ((unsigned)(*s - '0') <= 9)
                frac = frac * 10 + (unsigned)(*s++ - '0');
            if (s < end && (unsigned)(*s - '0') <= 9)
                return false;
        } else if (!blk_uint(&s, end, &frac) || s - digits > 9) {
            return false;
        }
        for (ptrdiff_t k = s - digits; k < 9; k++)
            frac *= 10;
    }
    if (s != end)
        return false;
    *ns = (int64_t)(whole * 1000000000 + frac);
    return true;
}

bool blk_dev(const char **p, const char *end, uint32_t *major, uint32_t *minor)
{
    const char *s = *p;
    uint64_t ma, mi;
    if (!blk_uint(&s, end, &ma) || s >= end || *s != ',')
        return false;
    s++;
    if (!blk_uint(&s, end, &mi) || ma > UINT32_MAX || mi > UINT32_MAX)
        return false;
    *major = (uint32_t)ma;
    *minor = (uint32_t)mi;
    *p = s;
    return true;
}

bool blk_sector_count(const char **p, const char *end, struct blk_event *e)
{
    const char *s = blk_skip_blanks(*p, end);
    uint64_t sector, count;
    if (!blk_uint(&s, end, &sector))
        return false;
    s = blk_skip_blanks(s, end);
    if (s >= end || *s != '+')
        return false;
    s = blk_skip_blanks(s + 1, end);
    if (!blk_uint(&s, end, &count) || count > INT64_MAX / 512)
        return false;
    blk_extent(e, sector, count);
    *p = s;
    return true;
}

void blk_extent(struct blk_event *e, uint64_t sector, uint64_t count)
{
    e->sector = count == 0 ? BLK_NO_SECTOR : sector;
    if (e->bytes < 0)
        e->bytes = (int64_t)count * 512;
}
