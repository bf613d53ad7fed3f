/* The line scan's number reader (csv_plain_number): the value is strtod's bit
 * for bit (strtoll's for integers), only a whole field of its shape is taken,
 * and reading sixteen bytes at a time never lets bytes past n or avail change
 * the answer; csv_store_numbers stores what it reads as the general path would. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <math.h>
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
    bool took = csv_plain_number(buf, n, avail, &i, &d, &kind);
    if (took != takes(text))
        fail_msg("%s (then \"%s\"): %s", text, tail, took ? "took a shape it must hand over" : "not taken");
    if (!took)
        return;
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

/* Every shape around the two-lane path's edges ("[-]I.F" with up to 7 bytes
 * before the dot and 8 digits after it, "[-]I" of up to 7 bytes): 0 to 10
 * digits either side, with and without sign and dot, each character in turn
 * replaced by a byte just outside the digits or another sign or dot, the field
 * at a buffer's end or followed by digits and dots it must not read. */
static void test_every_shape(void **state)
{
    static const char *const tails[] = {"", "9.5", ".", "12345678.12345678", ",-1"};
    static const char others[] = {'/', ':', '.', '-', '+', ' ', 'e', '\0', (char)0x80, (char)0xb9};
    uint64_t seed = 3;
    char text[64];
    for (int sign = 0; sign < 2; sign++)
        for (int int_digits = 0; int_digits <= 10; int_digits++)
            for (int dot = 0; dot < 2; dot++)
                for (int frac_digits = 0; frac_digits <= (dot ? 10 : 0); frac_digits++) {
                    size_t len = 0;
                    if (sign)
                        text[len++] = '-';
                    for (int k = 0; k < int_digits + dot + frac_digits; k++) {
                        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
                        text[len++] = dot && k == int_digits ? '.' : (char)('0' + (seed >> 33) % 10);
                    }
                    text[len] = '\0';
                    for (size_t t = 0; t < sizeof tails / sizeof *tails; t++)
                        expect_number(text, tails[t], t > 0);
                    for (size_t at = 0; at < len; at++)
                        for (size_t o = 0; o < sizeof others; o++) {
                            char changed[64];
                            memcpy(changed, text, len + 1);
                            changed[at] = others[o];
                            if (others[o] != '\0') /* else the text ends there: the shorter field is tried too */
                                expect_number(changed, ",7", true);
                        }
                }
}

/* Zeros and signs as strtod and strtoll give them: "-0" is an integer 0, and
 * "-0.0" the float -0. */
static void test_signed_zeros(void **state)
{
    static const char *const cases[] = {"0", "-0", "00", "-0000000", "0.0", "-0.0", "-0.00000000", "-0000000.0",
                                        "-000000.00000000", "0.00000001", "-0.00000001", "-1", "-1.5"};
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        expect_number(cases[k], "", false);
        expect_number(cases[k], ";3.25", true);
    }
}

/* Only the whole field: a number followed by more of the field is not taken,
 * and digits past n are not read as the number's. */
static void test_whole_field(void **state)
{
    int64_t i;
    double d;
    enum csv_kind kind;
    assert_false(csv_plain_number(S("12.5,x"), &i, &d, &kind));
    assert_true(csv_plain_number("12.5,x", 4, 6, &i, &d, &kind));
    assert_true(kind == CSV_FLOAT && d == 12.5);
    assert_true(csv_plain_number("-3;", 2, 3, &i, &d, &kind));
    assert_true(kind == CSV_INT && i == -3);
    assert_false(csv_plain_number(S("12.x"), &i, &d, &kind));
    assert_true(csv_plain_number("123456", 3, 6, &i, &d, &kind));
    assert_true(kind == CSV_INT && i == 123);
    assert_false(csv_plain_number("1.2345", 2, 6, &i, &d, &kind));
    assert_true(csv_plain_number("1.2345", 4, 6, &i, &d, &kind));
    assert_true(kind == CSV_FLOAT && d == 1.23);
    assert_false(csv_plain_number("1.2.3", 5, 5, &i, &d, &kind));
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

/* A split line's numbers go to columns of their type (an integer to a float
 * column as a float, "-0" as 0); what does not fit, or is not the plain shape,
 * is left for the general path, and untyped columns are left too. */
static void test_store_numbers(void **state)
{
    static const char line[] = "7,0.25,x,12.5e3,-4.5,-0,3.5,9";
    const struct csv_field fields[] = {{line, 1},      {line + 2, 4},  {line + 7, 1},  {line + 9, 6},
                                       {line + 16, 4}, {line + 21, 2}, {line + 24, 3}, {line + 28, 1}};
    struct spoor_table *t = spoor_table_new();
    struct spoor_column *f = spoor_table_column(t, spoor_table_intern(t, "f", 1));
    struct spoor_column *i = spoor_table_column(t, spoor_table_intern(t, "i", 1));
    struct spoor_column *u = spoor_table_column(t, spoor_table_intern(t, "u", 1));
    size_t row = spoor_table_add_row(t);
    spoor_table_set(t, f, row, &(struct spoor_value){.type = SPOOR_F64, .f64 = 1});
    spoor_table_set(t, i, row, &(struct spoor_value){.type = SPOOR_I64, .i64 = 1});
    row = spoor_table_add_row(t);
    uint32_t fc = (uint32_t)(f - t->cols), ic = (uint32_t)(i - t->cols), uc = (uint32_t)(u - t->cols);
    const struct csv_number_field list[] = {{0, fc}, {1, fc}, {2, fc}, {3, fc}, {4, fc}, {5, fc}, {6, ic}, {7, ic}, {7, uc}};
    uint32_t left[9];
    size_t nleft = csv_store_numbers(t, row, list, 9, fields, line + sizeof line - 1, left);
    assert_int_equal(nleft, 4);
    assert_int_equal(left[0], 2); /* x */
    assert_int_equal(left[1], 3); /* 12.5e3: not the plain shape */
    assert_int_equal(left[2], 6); /* 3.5 to an integer column */
    assert_int_equal(left[3], 8); /* untyped column */
    assert_true(f->f64[row] == -0.0 && !signbit(f->f64[row])); /* the last float stored: "-0" */
    assert_true(i->i64[row] == 9);
    assert_true((f->valid[0] >> row) & 1 && (i->valid[0] >> row) & 1 && !((u->valid[0] >> row) & 1));
    spoor_table_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hard_cases),
        cmocka_unit_test(test_random_matches_strtod),
        cmocka_unit_test(test_every_shape),
        cmocka_unit_test(test_signed_zeros),
        cmocka_unit_test(test_whole_field),
        cmocka_unit_test(test_dyadic_matches_strtod),
        cmocka_unit_test(test_store_numbers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
