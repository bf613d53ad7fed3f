/* The line scan's number reader (csv_plain_number): the value is strtod's bit
 * for bit (strtoll's for integers), the length stops at the first byte that
 * is not part of the number, shapes it does not take give 0, and reading
 * sixteen bytes at a time never lets bytes past n or avail change the answer. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "read/csv.h"

#define S(lit) lit, sizeof(lit) - 1, sizeof(lit) - 1

/* Whether csv_plain_number must take the text: "[-]I[.F]" with 1..15 digits
 * in I, and with a fraction of 1 or more digits 15 characters after the sign. */
static bool takes(const char *text)
{
    const char *p = text + (text[0] == '-');
    size_t int_digits = strspn(p, "0123456789");
    if (int_digits == 0 || int_digits > 15)
        return false;
    if (p[int_digits] != '.')
        return p[int_digits] == '\0';
    size_t frac_digits = strspn(p + int_digits + 1, "0123456789");
    return frac_digits > 0 && p[int_digits + 1 + frac_digits] == '\0' && int_digits + 1 + frac_digits <= 15;
}

/* text followed by `tail` in the buffer (read only when avail allows). */
static void expect_number(const char *text, const char *tail, bool tail_readable)
{
    char buf[96];
    size_t n = strlen(text);
    snprintf(buf, sizeof buf, "%s%s", text, tail);
    size_t avail = tail_readable ? strlen(buf) : n;
    int64_t i = 0;
    double d = 0, want = strtod(text, NULL);
    enum csv_kind kind;
    size_t len = csv_plain_number(buf, n, avail, &i, &d, &kind);
    if (!takes(text)) { /* at most a number in front ("1" of "1e5"), never the whole text */
        if (n ? len >= n : len != 0)
            fail_msg("%s: took %zu bytes of a shape it must hand over", text, len);
        return;
    }
    if (len != n)
        fail_msg("%s (then \"%s\"): length %zu, not %zu", text, tail, len, n);
    if (strchr(text, '.')) {
        if (kind != CSV_FLOAT || memcmp(&d, &want, sizeof d) != 0)
            fail_msg("%s: %.17g, strtod %.17g", text, d, want);
    } else if (kind != CSV_INT || i != strtoll(text, NULL, 10)) {
        fail_msg("%s: %lld, strtoll %lld", text, (long long)i, strtoll(text, NULL, 10));
    }
}

/* Correctly rounded where a naive digit-by-digit sum is not, at the window's
 * edge (15 characters after the sign), signs and zeros. */
static void test_hard_cases(void **state)
{
    static const char *const cases[] = {
        "0.1", "0.3", "2.675", "1.005", "0.00390625", "4139.08203125", "290.94921875", "-0.0", "-0", "0", "007.50",
        "9007199254.740992", "9007199254.740993", "900719925474099.2", "900719925474099.3", "0.9007199254740992",
        "0.9007199254740993", "9007199254740992", "9007199254740993", "1234567890123456", "12345678901234567",
        "12345678", "123456789", "1234567.8", "12345678.9", "0.12345678", "0.123456789", "12345678.12345678",
        "1.0000000000000002", "0.0000000000000001", "1.7976931348623157", "2.2250738585072014", "4.35", "0.15",
        "1152921504.606846976", "123456789012345", "-999999999999999", "1234567.1234567", "1234567.12345678",
        "9999999999999.9", "0.1234567890123", "0.0000000000001", "0.00000000000001", "-0.9999999999999", "8.589973e9", "1.", ".5", "-", "-.5", "+1", "1e5", "0x10", "nan", ""};
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        expect_number(cases[k], "", false);
        expect_number(cases[k], ",77", true);
        expect_number(cases[k], "\r\n12345678", true);
    }
}

/* Random digit strings of every length either side of the window's edge. */
static void test_random_matches_strtod(void **state)
{
    static const char *const tails[] = {"", ",", ";99", "\n123456789012", "|x"};
    uint64_t seed = 7;
    char text[64];
    for (int n = 0; n < 200000; n++) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        uint64_t r = seed >> 11;
        size_t len = 0;
        if (r % 3 == 0)
            text[len++] = '-';
        size_t int_digits = 1 + (r >> 2) % 17, frac_digits = (r >> 7) % 17;
        for (size_t k = 0; k < int_digits + frac_digits; k++) {
            if (k == int_digits)
                text[len++] = '.';
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            text[len++] = (char)('0' + (seed >> 33) % 10);
        }
        text[len] = '\0';
        expect_number(text, tails[(r >> 12) % 5], (r >> 15) & 1);
    }
}

/* The length ends at the delimiter; digits past n are not read as the number's. */
static void test_lengths(void **state)
{
    int64_t i;
    double d;
    enum csv_kind kind;
    assert_int_equal(csv_plain_number(S("12.5,x"), &i, &d, &kind), 4);
    assert_true(kind == CSV_FLOAT && d == 12.5);
    assert_int_equal(csv_plain_number(S("-3;"), &i, &d, &kind), 2);
    assert_true(kind == CSV_INT && i == -3);
    assert_int_equal(csv_plain_number(S("12.x"), &i, &d, &kind), 0);
    assert_int_equal(csv_plain_number("123456", 3, 6, &i, &d, &kind), 0);
    assert_int_equal(csv_plain_number("1.2345", 4, 6, &i, &d, &kind), 0);
    assert_int_equal(csv_plain_number("1.2345", 6, 6, &i, &d, &kind), 6);
    assert_true(kind == CSV_FLOAT && d == 1.2345);
}

/* Multiples of 2^-j written with their j exact decimals (like the generator's
 * multiples of 1/256, and integers at j = 0): the reader's path without a
 * division must give strtod's bits too, for every fraction length and sign. */
static void test_dyadic_matches_strtod(void **state)
{
    uint64_t seed = 11;
    char text[64];
    for (int n = 0; n < 200000; n++) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        uint64_t r = seed >> 11;
        int int_digits = 1 + (int)(r % 6), j = (int)((r >> 4) % (uint64_t)(15 - int_digits)); /* <= 15 characters */
        uint64_t limit = 1;
        for (int k = 0; k < int_digits; k++)
            limit *= 10;
        double value = (double)((r >> 8) % limit) + (double)((r >> 30) & ((1u << j) - 1)) / (double)(1u << j);
        snprintf(text, sizeof text, "%s%.*f", (r >> 60) & 1 ? "-" : "", j, value);
        expect_number(text, ",5", true);
    }
}

/* A split line's numbers: only fields marked numeric are read, and only when
 * the whole field is a plain number. */
static void test_line_numbers(void **state)
{
    static const char line[] = "2024-01-01,7,0.25,x,12.5e3,-4.5";
    const struct csv_field fields[] = {{line, 10}, {line + 11, 1}, {line + 13, 4}, {line + 18, 1}, {line + 20, 6},
                                       {line + 27, 4}};
    const bool numeric[] = {false, true, true, true, true, true};
    struct csv_number out[6];
    csv_line_numbers(fields, 6, numeric, line + sizeof line - 1, out);
    assert_int_equal(out[0].kind, CSV_NOT_READ);
    assert_true(out[1].kind == CSV_INT && out[1].i64 == 7);
    assert_true(out[2].kind == CSV_FLOAT && out[2].f64 == 0.25);
    assert_int_equal(out[3].kind, CSV_NOT_READ);
    assert_int_equal(out[4].kind, CSV_NOT_READ);
    assert_true(out[5].kind == CSV_FLOAT && out[5].f64 == -4.5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hard_cases),
        cmocka_unit_test(test_random_matches_strtod),
        cmocka_unit_test(test_lengths),
        cmocka_unit_test(test_dyadic_matches_strtod),
        cmocka_unit_test(test_line_numbers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
