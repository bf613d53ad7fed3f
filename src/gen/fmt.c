#include "gen/fmt.h"

#include <string.h>

static const char digit_pairs[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

static size_t count_digits(uint64_t v)
{
    size_t n = 1;
    while (v >= 10000) {
        v /= 10000;
        n += 4;
    }
    if (v >= 10)
        n++;
    if (v >= 100)
        n++;
    if (v >= 1000)
        n++;
    return n;
}

size_t gen_fmt_u64(char *dst, uint64_t v)
{
    size_t n = count_digits(v);
    char *p = dst + n;
    while (v >= 100) {
        unsigned pair = (unsigned)(v % 100);
        v /= 100;
        p -= 2;
        memcpy(p, digit_pairs + 2 * pair, 2);
    }
    if (v >= 10) {
        p -= 2;
        memcpy(p, digit_pairs + 2 * v, 2);
    } else {
        *--p = (char)('0' + v);
    }
    return n;
}

size_t gen_fmt_i64(char *dst, int64_t v)
{
    if (v >= 0)
        return gen_fmt_u64(dst, (uint64_t)v);
    *dst = '-';
    return 1 + gen_fmt_u64(dst + 1, (uint64_t)0 - (uint64_t)v);
}

/* Writes exactly `width` digits of v, zero-padded on the left. */
static void fmt_fixed(char *dst, uint64_t v, size_t width)
{
    for (size_t i = width; i > 0; i--) {
        dst[i - 1] = (char)('0' + v % 10);
        v /= 10;
    }
}

size_t gen_fmt_u128(char *dst, uint64_t hi, uint64_t lo)
{
    /* Two 128-bit divisions split v into base-10^19 limbs that print as u64. */
    const uint64_t ten19 = 10000000000000000000ull;
    if (hi == 0)
        return gen_fmt_u64(dst, lo);
    __extension__ typedef unsigned __int128 u128;
    u128 v = ((u128)hi << 64) | lo;
    uint64_t low = (uint64_t)(v % ten19);
    v /= ten19;
    uint64_t mid = (uint64_t)(v % ten19);
    uint64_t top = (uint64_t)(v / ten19);
    size_t n;
    if (top) {
        n = gen_fmt_u64(dst, top);
        fmt_fixed(dst + n, mid, 19);
        n += 19;
    } else {
        n = gen_fmt_u64(dst, mid);
    }
    fmt_fixed(dst + n, low, 19);
    return n + 19;
}
