/* "%.6g" the short way for values from 1e-4 to below 1e6 (plain notation),
 * the usual table cells: six significant digits D = round(|v| * 10^(5-e)),
 * with e the decimal exponent, from one correctly rounded multiply by an
 * exact power of ten. That product is within 2^-33 of the exact one
 * (it is below 2^20), so D is the exact rounding unless the product lies
 * within 2^-30 of a half: then, as for every other value, snprintf decides.
 *
 * Kept because it pays for itself on whole commands (issue 19; paired
 * alternating runs, medians of 7, 2 busy cores, against the same binary with
 * every value through snprintf): `spoor series` on a 3 M-row, 64-node
 * `spoor gen --kind metrics` table (244 MB), table format, --group node
 * --show resample: --resample 1min (1.5 M rows, 7.5 M numbers) 1.84 -> 3.13 s
 * wall (+70 %), 1.12 -> 2.08 s CPU; --resample 15min (100 K rows) 0.93 ->
 * 1.08 s wall (+16 %), 0.31 -> 0.38 s CPU. Only the series table formats
 * through here: CSV, JSON and spoor export spell floats shortest-round-trip
 * (wbuf_f64), so events and export --to csv, and attribute's bandwidth, are
 * unaffected either way (on a 150 MB spoor gen trace, same runs: 0.51 /
 * 0.47 / 0.91 s wall with it, +2 %, +4 %, -1 % without, noise). */
#include "out/format_g.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

enum { DIGITS = 6, LOW_EXP = -4 };

/* floor(log10(2^b)) for a's binary exponent b (2^b <= a < 2^(b+1)): the
 * decimal exponent of a or one less, since that span is 0.30103 of a decade
 * (a multiply by 1233 / 2^12 ~ log10 2, exact for the b of 1e-4 to 1e6,
 * against counting a >= 10^k for each k: ~40 fewer instructions a number). */
static int decimal_exponent_below(double a)
{
    uint64_t bits;
    memcpy(&bits, &a, sizeof bits);
    int b = (int)(bits >> 52 & 0x7ff) - 1023;
    return (b * 1233 + 8 * 4096) / 4096 - 8; /* floor division for b >= -26 */
}

/* Six digits of |v| and its exponent e (10^e <= |v| < 10^(e+1) after
 * rounding), when they are certain and -4 <= e < 6. */
static bool six_digits(double a, unsigned *digits, int *exp10)
{
    static const double pow10[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9};
    static const double power[] = {1e-4, 1e-3, 1e-2, 1e-1, 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6}; /* 10^(k-4) */
    if (!(a >= 1e-4 && a < 1e6))
        return false;
    int e = decimal_exponent_below(a);
    e += a >= power[e + 1 - LOW_EXP]; /* the one step 2^b .. 2^(b+1) can cross */
    double scaled = a * pow10[DIGITS - 1 - e]; /* 10^0..10^9 */
    double whole = (double)(int64_t)scaled, frac = scaled - whole; /* floor: scaled > 0 */
    if (fabs(frac - 0.5) < 0x1p-30)
        return false;
    unsigned d = (unsigned)whole + (frac > 0.5);
    if (d == 1000000) { /* rounded up to the next power of ten */
        d = 100000;
        e++;
    } else if (d < 100000 || d > 999999) { /* e was off by one at a power of ten */
        return false;
    }
    if (e >= DIGITS)
        return false;
    *digits = d;
    *exp10 = e;
    return true;
}

/* The digit pair k (0 to 99) as text, the first digit in the low byte. */
static uint64_t pair_text(unsigned k)
{
    static const char pairs[] = /* "00" to "99" */
        "0001020304050607080910111213141516171819"
        "2021222324252627282930313233343536373839"
        "4041424344454647484950515253545556575859"
        "6061626364656667686970717273747576777879"
        "8081828384858687888990919293949596979899";
    const unsigned char *pair = (const unsigned char *)pairs + 2 * k;
    return (uint64_t)pair[0] | (uint64_t)pair[1] << 8;
}

/* The six digits of d (100000 to 999999) as text in a word, the first digit
 * in the lowest byte. Built in a register: stored as 2-byte pieces and read
 * back as 8 bytes, each number waited for the store buffer. */
static uint64_t digits_word(unsigned d)
{
    return pair_text(d / 10000) | pair_text(d / 100 % 100) << 16 | pair_text(d % 100) << 32;
}

/* The 8 bytes of w at p, the lowest first. */
static void put_word(char *p, uint64_t w)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    w = __builtin_bswap64(w);
#endif
    memcpy(p, &w, 8);
}

size_t spoor_format_g6(char *buf, size_t cap, double v)
{
    unsigned d;
    int e;
    if (!six_digits(fabs(v), &d, &e))
        return (size_t)snprintf(buf, cap, "%.6g", v);
    uint64_t digits = digits_word(d);
    /* %g drops trailing zeros: the digits up to the last byte that is not '0' */
    int used = (63 - __builtin_clzll(digits ^ 0x303030303030ull)) / 8 + 1;
    /* Pieces are written 8 bytes at a time (cap >= 32 leaves room), then the
     * end is moved to where the piece ends. */
    char *p = buf;
    *p = '-';
    p += v < 0;
    if (e < 0) { /* 0.000ddd */
        memcpy(p, "0.000000", 8);
        p += 1 - e;
        put_word(p, digits);
        p += used;
    } else if (used <= e + 1) { /* a whole number: its digits, then zeros */
        put_word(p, digits);
        p += used;
        memcpy(p, "00000000", 8);
        p += e + 1 - used;
    } else {
        put_word(p, digits);
        p += e + 1;
        *p++ = '.';
        put_word(p, digits >> (8 * (e + 1)));
        p += used - (e + 1);
    }
    *p = '\0';
    return (size_t)(p - buf);
}

size_t spoor_format_u64(char *buf, unsigned long long n)
{
    size_t len = 1;
    for (unsigned long long rest = n / 10; rest; rest /= 10)
        len++;
    for (size_t k = len; k-- > 0; n /= 10)
        buf[k] = (char)('0' + n % 10);
    return len;
}
