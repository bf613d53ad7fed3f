/* The CSV line scan's number reader: a whole field "[-]digits[.digits]" of up
 * to fifteen characters after the sign. The field's length is known from the
 * split, so the reader tests the shape of a known span rather than searching
 * for the number's end: the usual number in the two lanes of one vector
 * (read_short_number), the rest of the shape in one 16-byte window
 * (read_window), both with SSE2. */
#include "read/csv.h"

#include <string.h>

enum { WINDOW = 16, FIELD_BYTES = WINDOW + 1 }; /* the window after a sign */

#if defined(__SSE2__)
#include <emmintrin.h>

/* N / 10^k, as one correctly rounded division would give it. When 5^k
 * divides N (every short decimal that is a multiple of a power of two, like
 * the generator's multiples of 1/256, and every integer) the quotient is
 * (N / 5^k) * 2^-k, both factors exact, so a multiply and a compare replace
 * the division, whose latency was most of the window's chain. N * 5^-k mod 2^64
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

/* Two 8-digit integers from 16 digit values, the most significant first in
 * each half: the first in the low 32 bits. Multiply-adds of 16-bit lanes by
 * (10, 1), then (100, 1), then (10000, 1). */
static inline uint64_t eight_digit_pairs(__m128i values)
{
    __m128i zero = _mm_setzero_si128(), tens = _mm_set1_epi32(0x0001000a);
    __m128i pairs = _mm_packs_epi32(_mm_madd_epi16(_mm_unpacklo_epi8(values, zero), tens),
                                    _mm_madd_epi16(_mm_unpackhi_epi8(values, zero), tens));
    __m128i quads = _mm_madd_epi16(pairs, _mm_set1_epi32(0x00010064));
    __m128i octets = _mm_madd_epi16(_mm_packs_epi32(quads, quads), _mm_set1_epi32(0x00012710));
    uint64_t both;
    _mm_storel_epi64((__m128i *)&both, octets); /* one move on x86-64, and builds on 32-bit x86 */
    return both;
}

/* The usual number: "[-]I.F" with 1 to 7 bytes before the dot (the sign
 * included) and 1 to 8 digits after it, or an integer "[-]I" of up to 7 bytes,
 * read as if its dot stood just past its end. The first dot found (the sign is
 * among the 16 bytes read, so its load is not on the chain: it only picks
 * table rows), one vector holds the 8 bytes before the dot in its low lane, in
 * place, and the 8 bytes after it in its high lane, each masked to its
 * digits; the multiply-adds read both lanes at once, as I * 10^(8 - dot) and F
 * * 10^(8 - f). N = I * 10^8 + F * 10^(8 - f), the number times 10^8 and below
 * 10^15, is exact as a double, and one correctly rounded division by 1e8 is
 * strtod's value. About three quarters of the window's instructions. */

/* Bytes 0..k-1 of a word (none for k <= 0, all for k >= 8). */
#define LOW_BYTES(k) ((k) <= 0 ? 0 : (k) >= 8 ? ~0ull : (1ull << 8 * ((k) & 7)) - 1)
/* A table by field length, 0 to FIELD_BYTES - 1, of entries F(n). */
#define BY_FIELD_LENGTH(F)                                                                                    \
    {F(0), F(1), F(2), F(3), F(4), F(5), F(6), F(7), F(8), F(9), F(10), F(11), F(12), F(13), F(14), F(15), F(16)}

/* The digits of "[-]I.F" of n characters with its dot at byte d: bytes
 * sign..d-1 of the low lane, bytes 0..n-d-2 of the high lane. */
#define DIGIT_SIDES(sign, n, d) {LOW_BYTES(d) & ~LOW_BYTES(sign), LOW_BYTES((n) - 1 - (d))}
#define DIGIT_SIDES_BY_DOT(sign, n)                                                                           \
    {DIGIT_SIDES(sign, n, 0), DIGIT_SIDES(sign, n, 1), DIGIT_SIDES(sign, n, 2), DIGIT_SIDES(sign, n, 3),     \
     DIGIT_SIDES(sign, n, 4), DIGIT_SIDES(sign, n, 5), DIGIT_SIDES(sign, n, 6), DIGIT_SIDES(sign, n, 7)}
#define DIGIT_SIDES_BY_SIGN(n) {DIGIT_SIDES_BY_DOT(0, n), DIGIT_SIDES_BY_DOT(1, n)}

/* Bit d set where "[-]I.F" of n characters can have its dot at byte d: 1 to
 * 7 - sign digits before it (1 + sign <= d <= 7) and 1 to 8 after it (n - 9
 * <= d <= n - 2), 15 characters at most after the sign. An integer "[-]I" of
 * up to 7 bytes reads as a decimal with the dot just past its end, d = n. */
#define DOT_PLACE(sign, n, d)                                                                                 \
    ((unsigned)(1 + (sign) <= (d) && (d) <= 7 && (n) - (sign) <= 15 &&                                        \
                ((d) == (n) || ((n) - 9 <= (d) && (d) <= (n) - 2)))                                           \
     << (d))
#define DOT_PLACES(sign, n)                                                                                    \
    (DOT_PLACE(sign, n, 0) | DOT_PLACE(sign, n, 1) | DOT_PLACE(sign, n, 2) | DOT_PLACE(sign, n, 3) |          \
     DOT_PLACE(sign, n, 4) | DOT_PLACE(sign, n, 5) | DOT_PLACE(sign, n, 6) | DOT_PLACE(sign, n, 7))
#define DOT_PLACES_BY_SIGN(n) {DOT_PLACES(0, n), DOT_PLACES(1, n)}

/* `field` holds the n characters of the field and more, FIELD_BYTES in all.
 * *v is the value a float column takes ("-0" is 0 as an integer); *integer
 * whether the field has no dot. */
static inline __attribute__((always_inline)) bool read_short_number(const char *field, size_t n, size_t negative,
                                                                    double *v, bool *integer)
{
    static const uint8_t dot_places[FIELD_BYTES][2] = BY_FIELD_LENGTH(DOT_PLACES_BY_SIGN);
    static const uint64_t digit_sides[FIELD_BYTES][2][8][2] __attribute__((aligned(16))) =
        BY_FIELD_LENGTH(DIGIT_SIDES_BY_SIGN);
    static const uint64_t pow10[8] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000};
    if (n >= FIELD_BYTES)
        return false;
    __m128i text = _mm_loadu_si128((const __m128i *)field);
    size_t dot = (unsigned)__builtin_ctz((unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(text, _mm_set1_epi8('.'))) |
                                         1u << n); /* the first, or the end */
    if (!((dot_places[n][negative] >> dot) & 1))
        return false;
    __m128i sides = _mm_unpacklo_epi64(text, _mm_loadl_epi64((const __m128i *)(field + dot + 1)));
    __m128i values = _mm_and_si128(_mm_sub_epi8(sides, _mm_set1_epi8('0')),
                                   _mm_load_si128((const __m128i *)digit_sides[n][negative][dot]));
    if (_mm_movemask_epi8(_mm_adds_epu8(values, _mm_set1_epi8(0x76)))) /* a byte above 9 */
        return false;
    uint64_t sides_read = eight_digit_pairs(values);
    uint64_t n_times_1e8 = (uint32_t)sides_read * pow10[dot] + (sides_read >> 32);
    /* A division rounds as strtod; on this path it costs less than over_pow10's test. */
    double magnitude = (double)(int64_t)n_times_1e8 / 1e8;
    *integer = dot == n;
    /* Adding -0.0 changes nothing; adding 0.0 turns -0 into 0. (Taking the
     * zero from a table instead of a test: 4 % slower.) */
    *v = (negative ? -magnitude : magnitude) + (*integer ? 0.0 : -0.0);
    return true;
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
    uint64_t octets = eight_digit_pairs(x);
    double v = over_pow10((uint32_t)octets * 100000000ull + (octets >> 32), WINDOW - 1 - int_digits);
    v = negative ? -v : v;
    if (fraction) /* not both: callers may pass the two halves of one union */
        *dv = v;
    else
        *iv = (int64_t)v;
    *kind = fraction ? CSV_FLOAT : CSV_INT;
    return true;
}

#else

/* Without SSE2 the line scan hands every number to csv_classify. */
static inline bool read_short_number(const char *field, size_t n, size_t negative, double *v, bool *integer)
{
    (void)field, (void)n, (void)negative, (void)v, (void)integer;
    return false;
}

static inline bool read_window(const char *window, size_t m, bool negative, int64_t *iv, double *dv,
                               enum csv_kind *kind)
{
    (void)window, (void)m, (void)negative, (void)iv, (void)dv, (void)kind;
    return false;
}

#endif

/* The end of a buffer: the field's last bytes, then zeros (no digits). */
static const char *padded_field(char *padded, const char *p, size_t avail)
{
    memset(padded, 0, FIELD_BYTES);
    memcpy(padded, p, avail < FIELD_BYTES ? avail : FIELD_BYTES);
    return padded;
}

/* The shapes read_short_number does not take. */
static inline __attribute__((always_inline)) bool read_long_number(const char *field, size_t n, size_t negative,
                                                                   int64_t *iv, double *dv, enum csv_kind *kind)
{
    size_t m = n - negative;
    if (m - 1 >= WINDOW - 1) /* 1..15 characters after the sign */
        return false;
    return read_window(field + negative, m, negative, iv, dv, kind);
}

/* `field` holds the n characters and more, FIELD_BYTES in all. */
static inline __attribute__((always_inline)) bool plain_number(const char *field, size_t n, int64_t *iv, double *dv,
                                                               enum csv_kind *kind)
{
    size_t negative = field[0] == '-';
    double v;
    bool integer;
    if (!read_short_number(field, n, negative, &v, &integer))
        return read_long_number(field, n, negative, iv, dv, kind);
    if (integer) /* not both: callers may pass the two halves of one union */
        *iv = (int64_t)v;
    else
        *dv = v;
    *kind = integer ? CSV_INT : CSV_FLOAT;
    return true;
}

/* plain_number's value as a float column takes it. */
static inline __attribute__((always_inline)) bool plain_float(const char *field, size_t n, double *v)
{
    size_t negative = field[0] == '-';
    bool integer;
    if (read_short_number(field, n, negative, v, &integer))
        return true;
    int64_t iv;
    double dv;
    enum csv_kind kind;
    if (!read_long_number(field, n, negative, &iv, &dv, &kind))
        return false;
    *v = kind == CSV_INT ? (double)iv : dv; /* "-0" is 0 as an integer */
    return true;
}

bool csv_plain_number(const char *p, size_t n, size_t avail, int64_t *iv, double *dv, enum csv_kind *kind)
{
    char padded[FIELD_BYTES];
    return plain_number(avail < FIELD_BYTES ? padded_field(padded, p, avail) : p, n, iv, dv, kind);
}

/* Stores the number in `field` (FIELD_BYTES, n of them the number's) in its
 * column when the column already has the value's type. */
static inline __attribute__((always_inline)) bool store_number(struct spoor_column *col, size_t row, uint64_t bit,
                                                               const char *field, size_t n)
{
    if (!col->typed)
        return false;
    if (col->type == SPOOR_F64) {
        double v;
        if (!plain_float(field, n, &v))
            return false;
        col->f64[row] = v;
    } else {
        int64_t iv;
        double dv;
        enum csv_kind kind;
        if (col->type != SPOOR_I64 || !plain_number(field, n, &iv, &dv, &kind) || kind != CSV_INT)
            return false;
        col->i64[row] = iv;
    }
    col->valid[row / 64] |= bit;
    return true;
}

/* store_number at the end of a buffer: out of line, so the usual path makes
 * no call. */
static __attribute__((noinline)) bool store_number_padded(struct spoor_column *col, size_t row, uint64_t bit,
                                                          const char *p, size_t n, size_t avail)
{
    char padded[FIELD_BYTES];
    return store_number(col, row, bit, padded_field(padded, p, avail), n);
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
        size_t avail = (size_t)(buf_end - f->p);
        bool stored = avail < FIELD_BYTES ? store_number_padded(col, row, bit, f->p, f->n, avail)
                                          : store_number(col, row, bit, f->p, f->n);
        if (!stored)
            left[nleft++] = (uint32_t)i;
    }
    return nleft;
}
