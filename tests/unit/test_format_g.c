/* spoor_format_g6 writes what snprintf's "%.6g" writes, byte for byte (and
 * returns its length): at powers of ten and the plain/exponent border, at
 * powers of two, at exact halves (dyadic values such as 2^-10 = 0.0009765625,
 * whose seventh digit is a tie), for random values of every magnitude and
 * sign, and for zeros, infinities and NaN. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "out/format_g.h"

static void expect_like_printf(double v)
{
    char want[64], got[64];
    snprintf(want, sizeof want, "%.6g", v);
    size_t n = spoor_format_g6(got, sizeof got, v);
    if (strcmp(want, got) != 0)
        fail_msg("%.17g: \"%s\", printf \"%s\"", v, got, want);
    if (n != strlen(got))
        fail_msg("%.17g: length %zu, not %zu", v, n, strlen(got));
}

static void test_edges(void **state)
{
    (void)state;
    static const double values[] = {0.0, -0.0, 1.0, -1.0, 0.5, 123456.5, 123457.5, 999999.5, 999999.4999, 99999.95,
                                    0.0001, 0.00099999995, 0.0009765625, 0.00048828125, 1.5, 2.5, 0.125, 4139.08203125,
                                    290.94921875, 1e6, 999999.0, 100000.0, 1e-5, 12345678.0, INFINITY, -INFINITY};
    for (size_t i = 0; i < sizeof values / sizeof *values; i++)
        expect_like_printf(values[i]);
    expect_like_printf(NAN);
    for (int e = -6; e <= 7; e++) { /* around every power of ten */
        double p = pow(10, e);
        double v = p;
        for (int k = 0; k < 4; k++, v = nextafter(v, 0))
            expect_like_printf(v);
        v = p;
        for (int k = 0; k < 4; k++, v = nextafter(v, INFINITY))
            expect_like_printf(v);
    }
}

/* At and around every power of two of the short range (1e-4 to 1e6) and a
 * little past it: the decimal exponent is read from the binary one, and a
 * power of two starts each binary exponent's span. */
static void test_binary_exponents(void **state)
{
    (void)state;
    for (int b = -16; b <= 21; b++) {
        double p = ldexp(1.0, b);
        double below = p, above = p;
        for (int k = 0; k < 4; k++, below = nextafter(below, 0), above = nextafter(above, INFINITY)) {
            expect_like_printf(below);
            expect_like_printf(-above);
        }
        expect_like_printf(p * 1.9999999);
    }
}

/* Sums of few powers of two: many of them end in an exact half at digit seven. */
static void test_dyadic(void **state)
{
    (void)state;
    for (int shift = 0; shift <= 40; shift++)
        for (uint64_t m = 1; m < 5000; m += 7) {
            double v = ldexp((double)m, -shift);
            expect_like_printf(v);
            expect_like_printf(-v);
            expect_like_printf(v * 1000003);
        }
}

static void test_random(void **state)
{
    (void)state;
    uint64_t seed = 11;
    for (int n = 0; n < 300000; n++) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        double mantissa = (double)(seed >> 11) / 9007199254740992.0; /* [0, 1) */
        int e = (int)((seed >> 3) % 16) - 7;
        double v = (mantissa + 0.05) * pow(10, e);
        expect_like_printf(seed & 4 ? -v : v);
        expect_like_printf(round(v * 1e6) / 1e6); /* short decimals */
    }
}

/* spoor_format_u64 writes what "%llu" writes: at every power of ten and its
 * neighbours, and at the largest value. */
static void test_u64(void **state)
{
    (void)state;
    unsigned long long p = 1;
    for (int e = 0; e <= 19; e++, p *= 10)
        for (unsigned long long v = p > 1 ? p - 1 : 0; v <= p + 1; v++) {
            char want[32], got[32];
            snprintf(want, sizeof want, "%llu", v);
            size_t n = spoor_format_u64(got, v);
            got[n] = '\0';
            assert_string_equal(got, want);
        }
    char got[32];
    got[spoor_format_u64(got, ~0ULL)] = '\0';
    assert_string_equal(got, "18446744073709551615");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_edges),
        cmocka_unit_test(test_binary_exponents),
        cmocka_unit_test(test_dyadic),
        cmocka_unit_test(test_random),
        cmocka_unit_test(test_u64),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
