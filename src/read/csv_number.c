/* The CSV line scan's number reader: a whole field "[-]digits[.digits]" of up
 * to fifteen characters after the sign, read in one 16-byte SSE2 window with
 * one branch on its shape and none on its length. The field's length is known
 * from the split, so the shape is a test of three bit masks (where the digits,
 * the dot and the field are) rather than a search for the number's end. */
#include "read/csv.h"

#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>

enum { WINDOW = 16 };

/* N / 10^k, as one correctly rounded division would give it. When 5^k
 * divides N (every short decimal that is a multiple of a power of two, like
 * the generator's multiples of 1/256, and every integer) the quotient is
 * (N / 5^k) * 2^-k, both factors exact, so a multiply and a compare replace
 * the division, whose latency was most of a number's cost. N * 5^-k mod 2^64
 * is N / 5^k exactly when it is at most (2^64 - 1) / 5^k, else 5^k does not
 * divide N. */
static inline __attribute__((always_inline)) double over_pow10(uint64_t n, unsigned k)
{
    static const double pow10[] = {1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                   1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
    static const double pow2_neg[] = {0x1p-0, 0x1p-1, 0x1p-2,  0x1p-3,  0x1p-4,  0x1p-5,  0x1p-6,  0x1p-7,
                                      0x1p-8, 0x1p-9, 0x1p-10, 0x1p-11, 0x1p-12, 0x1p-13, 0x1p-14, 0x1p-15};
    /* 5^-k mod 2^64 and (2^64 - 1) / 5^k */
    static const uint64_t inverse_pow5[] = {
        0x1,                0xcccccccccccccccd, 0x8f5c28f5c28f5c29, 0x1cac083126e978d5,
        0xd288ce703afb7e91, 0x5d4e8fb00bcbe61d, 0x790fb65668c26139, 0xe5032477ae8d46a5,
        0xc767074b22e90e21, 0x8e47ce423a2e9c6d, 0x4fa7f60d3ed61f49, 0x0fee64690c913975,
        0x3662e0e1cf503eb1, 0xa47a2cf9f6433fbd, 0x54186f653140a659, 0x7738164770402145};
    static const uint64_t max_quotient_pow5[] = {
        18446744073709551615u, 3689348814741910323u, 737869762948382064u, 147573952589676412u,
        29514790517935282u,    5902958103587056u,    1180591620717411u,   236118324143482u,
        47223664828696u,       9444732965739u,       1888946593147u,      377789318629u,
        75557863725u,          15111572745u,         3022314549u,         604462909u};
    uint64_t q = n * inverse_pow5[k];
    if (q <= max_quotient_pow5[k])
        return (double)(int64_t)q * pow2_neg[k]; /* q < 2^53 here: a signed convert is exact and shorter */
    return (double)(int64_t)n / pow10[k];
}

/* How it works: with m characters after the sign, the bytes that are digits
 * give a 16-bit mask, and the field's other bytes must be none, or one dot
 * that is neither first nor last. The digits before the dot (all of them when
 * there is none) move one byte right, so the digits stand together from byte
 * 1, bytes past them are zeroed, and the window reads as a 16-digit integer
 * N; pairs, quads and octets of it come from three multiply-adds. With i
 * digits before the dot, N is the number times 10^(15 - i): an integer below
 * 10^15 (exact as a double) divided by an exact power of ten, which one
 * correctly rounded division (over_pow10) turns into strtod's value.
 * `window` holds the 16 bytes after the sign. */
static inline __attribute__((always_inline)) bool read_window(const char *window, size_t m, bool negative,
                                                              int64_t *iv, double *dv, enum csv_kind *kind)
{
    /* 16 bytes at ramp + WINDOW - k: k bytes of all ones, then zeros. */
    static const char ramp[2 * WINDOW] = {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1};
    __m128i raw = _mm_loadu_si128((const __m128i *)window);
    __m128i d = _mm_sub_epi8(raw, _mm_set1_epi8('0'));
    unsigned digits = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(d, _mm_set1_epi8(9)), d));
    unsigned dots = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(raw, _mm_set1_epi8('.')));
    unsigned field = (1u << m) - 1, edges = 1u | (1u << (m - 1));
    unsigned others = field & ~digits; /* no bit, or the dot's */
    if ((others & ~dots) | (others & (others - 1)) | (others & edges))
        return false;
    bool fraction = others != 0;
    unsigned int_digits = (unsigned)__builtin_ctz(others | (1u << m)), kept = (unsigned)m + !fraction;
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
    double v = over_pow10(high * 100000000 + low, WINDOW - 1 - int_digits);
    v = negative ? -v : v;
    if (fraction) /* not both: callers may pass the two halves of one union */
        *dv = v;
    else
        *iv = (int64_t)v;
    *kind = fraction ? CSV_FLOAT : CSV_INT;
    return true;
}

/* The end of a buffer: the window is its last bytes, then zeros (no digits).
 * Out of line and given only the bytes, so the usual path makes no call and
 * its results stay in registers. */
static __attribute__((noinline)) const char *padded_window(char *padded, const char *p, size_t avail)
{
    memset(padded, 0, WINDOW);
    memcpy(padded, p, avail < WINDOW ? avail : WINDOW);
    return padded;
}

static inline __attribute__((always_inline)) bool plain_number(const char *p, size_t n, size_t avail, int64_t *iv,
                                                               double *dv, enum csv_kind *kind)
{
    bool negative = n > 0 && p[0] == '-';
    size_t m = n - negative;
    if (m - 1 >= WINDOW - 1) /* 1..15 characters after the sign */
        return false;
    char padded[WINDOW];
    const char *window = avail - negative < WINDOW ? padded_window(padded, p + negative, avail - negative)
                                                   : p + negative;
    return read_window(window, m, negative, iv, dv, kind);
}

#else

/* Without SSE2 the line scan hands every number to csv_classify. */
static bool plain_number(const char *p, size_t n, size_t avail, int64_t *iv, double *dv, enum csv_kind *kind)
{
    (void)p, (void)n, (void)avail, (void)iv, (void)dv, (void)kind;
    return false;
}

#endif

bool csv_plain_number(const char *p, size_t n, size_t avail, int64_t *iv, double *dv, enum csv_kind *kind)
{
    return plain_number(p, n, avail, iv, dv, kind);
}

/* Here rather than in the chunk parser: a call within this file lets the
 * compiler see which registers the reader uses, so the loop keeps its values
 * in registers across it (a call to another file cost ~4 % of series' time). */
size_t csv_store_numbers(struct spoor_table *t, size_t row, const struct csv_number_field *list, size_t n,
                         const struct csv_field *fields, const char *buf_end, uint32_t *left)
{
    size_t nleft = 0;
    uint64_t bit = 1ULL << (row % 64);
    for (size_t i = 0; i < n; i++) {
        const struct csv_field *f = &fields[list[i].field];
        struct spoor_column *col = &t->cols[list[i].column];
        int64_t iv;
        double dv;
        enum csv_kind kind;
        if (col->typed && plain_number(f->p, f->n, (size_t)(buf_end - f->p), &iv, &dv, &kind)) {
            if (col->type == SPOOR_F64) {
                col->f64[row] = kind == CSV_INT ? (double)iv : dv; /* "-0" is 0 as an integer */
                col->valid[row / 64] |= bit;
                continue;
            }
            if (col->type == SPOOR_I64 && kind == CSV_INT) {
                col->i64[row] = iv;
                col->valid[row / 64] |= bit;
                continue;
            }
        }
        left[nleft++] = (uint32_t)i;
    }
    return nleft;
}
