/* spoor_parse_duration, the one parser of duration options (windows --every,
 * series --resample, export --counter-every): decimals read exactly, every
 * unit, and each kind of bad text refused with its own message. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "spoor/report.h"

/* Texts and the ns each must read as. */
struct reading {
    const char *text;
    int64_t ns;
};

static void check_readings(const struct reading *r, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        int64_t ns = -1;
        const char *problem = spoor_parse_duration(r[i].text, &ns);
        if (problem)
            fail_msg("'%s': %s", r[i].text, problem);
        if (ns != r[i].ns)
            fail_msg("'%s' read as %lld ns, not %lld", r[i].text, (long long)ns, (long long)r[i].ns);
    }
}

/* The problem found in s, which must be refused (*ns left alone). */
static const char *refused(const char *s)
{
    int64_t ns = -7;
    const char *problem = spoor_parse_duration(s, &ns);
    if (!problem)
        fail_msg("'%s' read as %lld ns", s, (long long)ns);
    assert_int_equal(ns, -7);
    return problem;
}

static void test_units(void **state)
{
    (void)state;
    static const struct reading r[] = {
        {"7ns", 7},           {"10us", 10000},           {"10\xc2\xb5s", 10000}, {"250ms", 250000000},
        {"30s", 30000000000}, {"15min", 900000000000},   {"15m", 900000000000},  {"1h", 3600000000000},
        {"1d", 86400000000000},
    };
    check_readings(r, sizeof r / sizeof *r);
}

/* Decimals are exact where a double is not: 9,007,199,254,740,993 is no
 * double (strtod and a multiply would make it ...992), and the largest
 * value reads whole. */
static void test_decimals_exact(void **state)
{
    (void)state;
    static const struct reading r[] = {
        {"2.5s", 2500000000},
        {"1.5h", 5400000000000},
        {"0.1s", 100000000},
        {"0.3s", 300000000},
        {".5ms", 500000},
        {"1.s", 1000000000},
        {"0.000000001s", 1},
        {"1.000000000000000001d", 86400000000000},
        {"9007199.254740993s", 9007199254740993},
        {"9223372036854775807ns", INT64_MAX},
        {"9223372036.854775807s", INT64_MAX},
    };
    check_readings(r, sizeof r / sizeof *r);
}

/* Digits finer than 1 ns round to the nearest ns, halves up. */
static void test_sub_ns_rounds(void **state)
{
    (void)state;
    static const struct reading r[] = {{"1.4ns", 1}, {"1.5ns", 2}, {"0.5ns", 1}, {"0.0000000015s", 2}};
    check_readings(r, sizeof r / sizeof *r);
}

static void test_refused(void **state)
{
    (void)state;
    assert_string_equal(refused("30"), "a number needs a unit: ns, us, ms, s, min, h or d");
    assert_string_equal(refused("2.5"), "a number needs a unit: ns, us, ms, s, min, h or d");
    const char *no_number[] = {"", "s", ".s", "-1s", "+1s", " 1s", "abc"};
    for (size_t i = 0; i < sizeof no_number / sizeof *no_number; i++)
        assert_non_null(strstr(refused(no_number[i]), "not a duration"));
    const char *bad_unit[] = {"1x", "1 s", "1s ", "1e3ms", "1S", "1sec", "1.5.5s", "1hh"};
    for (size_t i = 0; i < sizeof bad_unit / sizeof *bad_unit; i++)
        assert_string_equal(refused(bad_unit[i]), "unknown unit: ns, us, ms, s, min, h or d");
    assert_string_equal(refused("0s"), "rounds to 0 ns");
    assert_string_equal(refused("0.4ns"), "rounds to 0 ns");
    assert_string_equal(refused("0.0000000004s"), "rounds to 0 ns");
    assert_non_null(strstr(refused("9223372036854775808ns"), "too long"));
    assert_non_null(strstr(refused("9223372036.854775808s"), "too long"));
    assert_non_null(strstr(refused("106752d"), "too long"));
    assert_non_null(strstr(refused("99999999999999999999999999d"), "too long"));
    assert_string_equal(refused("1.0000000000000000001s"), "more than 18 decimals");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_units),
        cmocka_unit_test(test_decimals_exact),
        cmocka_unit_test(test_sub_ns_rounds),
        cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
