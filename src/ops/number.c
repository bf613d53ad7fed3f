/* Decimal text to numbers, and exact comparison across integer widths. */
#include "ops/number.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

/* Whether the magnitude (no leading zeros) fits int64 with the given sign. */
static bool fits_i64(const char *d, size_t n, bool neg)
{
    static const char max[] = "9223372036854775807", min[] = "9223372036854775808";
    if (n != 19)
        return n < 19;
    return memcmp(d, neg ? min : max, 19) <= 0;
}

static double to_double(const char *s, size_t len)
{
    char buf[352];
    if (len >= sizeof buf)
        len = sizeof buf - 1; /* the lost digits do not change a double */
    memcpy(buf, s, len);
    buf[len] = '\0';
    return strtod(buf, NULL);
}

bool num_parse(const char *s, size_t len, struct num *out)
{
    size_t i = 0;
    bool neg = false;
    if (i < len && (s[i] == '+' || s[i] == '-'))
        neg = s[i++] == '-';
    size_t int_start = i;
    while (i < len && is_digit(s[i]))
        i++;
    size_t int_end = i, frac_digits = 0;
    bool real = false;
    if (i < len && s[i] == '.') {
        real = true;
        i++;
        while (i < len && is_digit(s[i]))
            i++, frac_digits++;
    }
    if (int_end == int_start && frac_digits == 0)
        return false;
    if (i < len && (s[i] == 'e' || s[i] == 'E')) {
        real = true;
        i++;
        if (i < len && (s[i] == '+' || s[i] == '-'))
            i++;
        size_t exp_start = i;
        while (i < len && is_digit(s[i]))
            i++;
        if (i == exp_start)
            return false;
    }
    if (i != len)
        return false;
    if (real) {
        *out = num_real(to_double(s, len));
        return true;
    }
    const char *d = s + int_start;
    size_t n = int_end - int_start;
    while (n > 1 && d[0] == '0')
        d++, n--;
    if (fits_i64(d, n, neg)) {
        uint64_t mag = 0;
        for (size_t k = 0; k < n; k++)
            mag = mag * 10 + (uint64_t)(d[k] - '0');
        *out = num_int(neg ? (int64_t)(0 - mag) : (int64_t)mag);
        return true;
    }
    *out = (struct num){.kind = NUM_BIG, .f = to_double(s, len), .digits = d, .ndigits = n, .neg = neg};
    return true;
}

static int sign_of(int c) { return (c > 0) - (c < 0); }

/* Compares magnitudes given as digits without leading zeros. */
static int cmp_digits(const char *a, size_t na, const char *b, size_t nb)
{
    if (na != nb)
        return na < nb ? -1 : 1;
    return sign_of(memcmp(a, b, na));
}

int num_cmp(const struct num *a, const struct num *b)
{
    if (a->kind == NUM_INT && b->kind == NUM_INT)
        return (a->i > b->i) - (a->i < b->i);
    if (a->kind == NUM_REAL || b->kind == NUM_REAL)
        return (a->f > b->f) - (a->f < b->f);
    if (a->kind == NUM_BIG && b->kind == NUM_BIG) {
        if (a->neg != b->neg)
            return a->neg ? -1 : 1;
        int c = cmp_digits(a->digits, a->ndigits, b->digits, b->ndigits);
        return a->neg ? -c : c;
    }
    /* An integer beyond int64 is beyond every int64, on the side of its sign. */
    if (a->kind == NUM_BIG)
        return a->neg ? -1 : 1;
    return b->neg ? 1 : -1;
}

struct num num_neg(const struct num *a)
{
    static const char int64_min_digits[] = "9223372036854775808";
    switch (a->kind) {
    case NUM_INT:
        if (a->i == INT64_MIN)
            return (struct num){.kind = NUM_BIG, .f = -a->f, .digits = int64_min_digits, .ndigits = 19};
        return num_int(-a->i);
    case NUM_REAL:
        return num_real(-a->f);
    case NUM_BIG:
        if (!a->neg && a->ndigits == 19 && memcmp(a->digits, int64_min_digits, 19) == 0)
            return num_int(INT64_MIN);
        break;
    }
    struct num n = *a;
    n.neg = !a->neg;
    n.f = -a->f;
    return n;
}

bool num_arith_int(int op, int64_t a, int64_t b, int64_t *out)
{
    switch (op) {
    case '+': return !__builtin_add_overflow(a, b, out);
    case '-': return !__builtin_sub_overflow(a, b, out);
    case '*': return !__builtin_mul_overflow(a, b, out);
    case '/':
    case '%':
        if (b == 0 || (a == INT64_MIN && b == -1))
            return false;
        *out = op == '/' ? a / b : a % b;
        return true;
    }
    return false;
}

bool num_arith_real(int op, double a, double b, double *out)
{
    switch (op) {
    case '+': *out = a + b; break;
    case '-': *out = a - b; break;
    case '*': *out = a * b; break;
    case '/':
        if (b == 0)
            return false;
        *out = a / b;
        break;
    case '%':
        if (b == 0)
            return false;
        *out = fmod(a, b);
        break;
    default:
        return false;
    }
    return !isnan(*out);
}
