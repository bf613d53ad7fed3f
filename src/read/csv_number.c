/* The CSV line scan's number reader: "[-]digits[.digits]" of up to fifteen
 * characters after the sign, read in one 16-byte SSE2 window with no loop and
 * no branch on the number's length (digit loops paid for their unpredictable
 * exits more than for the digits). */
#include "read/csv.h"

#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>

enum { WINDOW = 16 };

/* How it works: the bytes that are digits give a 16-bit mask, whose first
 * zero is the end of the integer digits and, after a dot, the next zero the
 * end of the fraction. The integer digits then move one byte right over the
 * dot, so the digits stand together from byte 1, bytes past them are zeroed,
 * and the window reads as a 16-digit integer N; pairs, quads and octets of it
 * come from three multiply-adds. With i integer digits, N is the number times
 * 10^(15 - i): an integer below 10^15 (exact as a double) divided by an exact
 * power of ten, which one correctly rounded division turns into strtod's value
 * (for an integer, the integer itself). `window` holds the 16 bytes after the
 * sign (n and the sign counted from the number's start). */
static inline __attribute__((always_inline)) size_t read_window(const char *window, size_t n, size_t negative,
                                                                int64_t *iv, double *dv, enum csv_kind *kind)
{
    static const double pow10[] = {1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                   1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
    /* 16 bytes at ramp + WINDOW - k: k bytes of all ones, then zeros. */
    static const char ramp[2 * WINDOW] = {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1};
    __m128i d = _mm_sub_epi8(_mm_loadu_si128((const __m128i *)window), _mm_set1_epi8('0'));
    unsigned digits = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(d, _mm_set1_epi8(9)), d));
    unsigned int_digits = (unsigned)__builtin_ctz(~digits);
    if (int_digits == 0 || int_digits == WINDOW)
        return 0;
    unsigned end = int_digits, kept = int_digits + 1; /* kept: window bytes that hold digits once moved */
    bool fraction = window[int_digits] == '.';
    if (fraction) {
        end = kept = (unsigned)__builtin_ctz(~digits & ~((2u << int_digits) - 1));
        if (end == int_digits + 1 || end == WINDOW)
            return 0;
    }
    if (negative + end > n)
        return 0;
    __m128i moved = _mm_loadu_si128((const __m128i *)(ramp + WINDOW - (int_digits + 1)));
    __m128i x = _mm_or_si128(_mm_and_si128(moved, _mm_slli_si128(d, 1)), _mm_andnot_si128(moved, d));
    x = _mm_and_si128(x, _mm_loadu_si128((const __m128i *)(ramp + WINDOW - kept)));
    /* Multiply-adds of 16-bit lanes by (10, 1), then (100, 1), then (10000, 1). */
    __m128i zero = _mm_setzero_si128(), tens = _mm_set1_epi32(0x0001000a);
    __m128i pairs = _mm_packs_epi32(_mm_madd_epi16(_mm_unpacklo_epi8(x, zero), tens),
                                    _mm_madd_epi16(_mm_unpackhi_epi8(x, zero), tens));
    __m128i quads = _mm_madd_epi16(pairs, _mm_set1_epi32(0x00010064));
    __m128i octets = _mm_madd_epi16(_mm_packs_epi32(quads, quads), _mm_set1_epi32(0x00012710));
    uint64_t high = (uint32_t)_mm_cvtsi128_si32(octets), low = (uint32_t)_mm_cvtsi128_si32(_mm_srli_si128(octets, 4));
    double v = (double)(high * 100000000 + low) / pow10[WINDOW - 1 - int_digits];
    if (negative)
        v = -v;
    if (fraction) {
        *dv = v;
        *kind = CSV_FLOAT;
    } else {
        *iv = (int64_t)v;
        *kind = CSV_INT;
    }
    return negative + end;
}

/* The end of a buffer: the window is its last bytes, then zeros (no digits).
 * Out of line, so the usual path makes no call and saves no registers. */
static __attribute__((noinline)) size_t read_padded(const char *p, size_t n, size_t avail, int64_t *iv, double *dv,
                                                    enum csv_kind *kind)
{
    size_t negative = n > 0 && p[0] == '-';
    char padded[WINDOW] = {0};
    memcpy(padded, p + negative, avail - negative);
    return read_window(padded, n, negative, iv, dv, kind);
}

size_t csv_plain_number(const char *p, size_t n, size_t avail, int64_t *iv, double *dv, enum csv_kind *kind)
{
    size_t negative = n > 0 && p[0] == '-';
    if (avail - negative < WINDOW)
        return read_padded(p, n, avail, iv, dv, kind);
    return read_window(p + negative, n, negative, iv, dv, kind);
}

#else

/* Without SSE2 the line scan hands every number to csv_classify. */
size_t csv_plain_number(const char *p, size_t n, size_t avail, int64_t *iv, double *dv, enum csv_kind *kind)
{
    (void)p, (void)n, (void)avail, (void)iv, (void)dv, (void)kind;
    return 0;
}

#endif
