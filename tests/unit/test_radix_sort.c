/* The radix sort (util/radix_sort.h) agrees with qsort by (key, row) on
 * every path it takes: keys of 16 bits or less counted once, one word per
 * row, (key, row) pairs a byte a pass with bytes every key shares skipped,
 * keys already in order, a second sort of rows given in another order (or
 * only some rows); and for 0 and 1 rows. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "util/radix_sort.h"

static const uint64_t *sort_keys;
static int by_key_then_row(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    if (sort_keys[x] != sort_keys[y])
        return sort_keys[x] < sort_keys[y] ? -1 : 1;
    return (x > y) - (x < y);
}

static uint64_t next(uint64_t *seed)
{
    *seed = *seed * 6364136223846793005u + 1442695040888963407u;
    return *seed >> 11;
}

/* The keys of one case: 0..1, 977 values above a million, 64-bit spans,
 * 50 values, in order, in order but the last, 37 bits, 100000 values,
 * bytes 1-4 shared by every key, all equal, rank pairs (cat << 32 | name),
 * the top bit (a flipped null) beside 15 bits, 64 bits in four runs. */
enum { CASES = 13 };
static uint64_t key_of(int kind, uint32_t i, uint32_t n, uint64_t r)
{
    switch (kind) {
    case 0: return r % 2;
    case 1: return 1000000 + r % 977;
    case 2: return r << 11 ^ (r & 3);
    case 3: return r % 50;
    case 4: return 10 + i / 3;
    case 5: return i == n - 1 ? 0 : 10 + i / 3;
    case 6: return r % (UINT64_C(1) << 37);
    case 7: return r % 100000;
    case 8: return (r << 40) | UINT64_C(0xabcdef12) << 8 | (r & 0xff);
    case 9: return 42;
    case 10: return (r % 5) << 32 | (r % 300);
    case 11: return i % 7 ? UINT64_C(1) << 63 | (r % 20000) : 0;
    default: return r % 3 << 62 | (r & 0xffff) << 40 | (r & 0xffff) << 20 | (r & 0xffff);
    }
}

/* rows sorted by key, checked against qsort by (key, row), with the sorted
 * keys asked for and without. */
static void check_sort(const uint64_t *key, uint32_t n)
{
    uint64_t *given = malloc((n + 1) * sizeof *given), *spare = malloc((n + 1) * sizeof *spare);
    uint64_t *sorted = malloc((n + 1) * sizeof *sorted);
    uint32_t *rows = malloc((n + 1) * sizeof *rows), *want = malloc((n + 1) * sizeof *want);
    struct spoor_key_span span = spoor_key_span_start();
    for (uint32_t i = 0; i < n; i++) {
        spoor_key_span_add(&span, key[i]);
        want[i] = i;
    }
    sort_keys = key;
    qsort(want, n, sizeof *want, by_key_then_row);
    /* No keys back; keys into their own array; into the keys (and no spare). */
    for (int mode = 0; mode < 3; mode++) {
        memcpy(given, key, n * sizeof *key); /* the sort may overwrite its keys */
        uint64_t *back = mode == 0 ? NULL : mode == 1 ? sorted : given;
        spoor_radix_sort_rows(rows, back, n, given, mode == 2 ? NULL : spare, &span);
        for (uint32_t i = 0; i < n; i++) {
            assert_int_equal(rows[i], want[i]);
            if (back)
                assert_true(back[i] == key[want[i]]);
        }
    }
    free(given);
    free(spare);
    free(sorted);
    free(rows);
    free(want);
}

static void sorts_rows_stably(void **state)
{
    enum { N = 5000 };
    uint64_t *key = malloc(N * sizeof *key), seed = 7;
    for (int kind = 0; kind < CASES; kind++) {
        for (uint32_t i = 0; i < N; i++)
            key[i] = key_of(kind, i, N, next(&seed));
        check_sort(key, N);
    }
    free(key);
    (void)state;
}

static void sorts_zero_and_one_row(void **state)
{
    uint64_t key = 5;
    check_sort(&key, 0);
    check_sort(&key, 1);
    uint32_t row = 0;
    spoor_radix_sort_rows_again(&row, 0, &key);
    spoor_radix_sort_rows_again(&row, 1, &key);
    assert_int_equal(row, 0);
    (void)state;
}

/* A second sort keeps ties in the order the rows are given: here reversed,
 * and only the even rows. */
static void sorts_again_keeping_given_order(void **state)
{
    enum { N = 4000 };
    uint64_t *key = malloc(N * sizeof *key), seed = 11;
    uint32_t *rows = malloc(N * sizeof *rows);
    for (int kind = 0; kind < CASES; kind++) {
        for (uint32_t i = 0; i < N; i++)
            key[i] = key_of(kind, i, N, next(&seed));
        uint32_t n = 0;
        for (uint32_t i = N; i-- > 0;)
            if (i % 2 == 0)
                rows[n++] = i;
        spoor_radix_sort_rows_again(rows, n, key);
        for (uint32_t i = 0; i < n; i++)
            assert_int_equal(rows[i] % 2, 0);
        for (uint32_t i = 1; i < n; i++) {
            assert_true(key[rows[i - 1]] <= key[rows[i]]);
            if (key[rows[i - 1]] == key[rows[i]])
                assert_true(rows[i - 1] > rows[i]);
        }
    }
    free(key);
    free(rows);
    (void)state;
}

static void signed_keys_keep_their_order(void **state)
{
    const int64_t v[] = {INT64_MIN, -5, -1, 0, 1, 7, INT64_MAX};
    for (size_t i = 1; i < sizeof v / sizeof *v; i++)
        assert_true(spoor_radix_signed_key(v[i - 1]) < spoor_radix_signed_key(v[i]));
    (void)state;
}

/* Integer keys keep the values' order, null first, as narrow as they go,
 * and read back: multiples of 1000, other offsets, a 64-bit span. */
static void int_keys_keep_order_and_read_back(void **state)
{
    const int64_t null = INT64_MIN;
    const int64_t sets[][5] = {
        {5000, null, 3000, 9000, 3000},
        {7, -2, null, 7, 100},
        {INT64_MAX, null, -5, INT64_MIN + 1, 0},
    };
    const uint64_t widest[] = {7, 103, UINT64_MAX};
    for (size_t s = 0; s < sizeof sets / sizeof *sets; s++) {
        uint64_t key[5];
        struct spoor_int_keys m = spoor_int_keys(key, sets[s], 5, null);
        assert_true(m.span.max <= widest[s]);
        for (int i = 0; i < 5; i++) {
            assert_true(spoor_int_of_key(&m, key[i]) == sets[s][i]);
            for (int j = 0; j < 5; j++)
                assert_int_equal(key[i] < key[j], sets[s][i] < sets[s][j]);
        }
    }
    int64_t min, max;
    spoor_int_span(sets[0], 5, null, &min, &max);
    assert_true(min == 3000 && max == 9000);
    (void)state;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sorts_rows_stably),
        cmocka_unit_test(sorts_zero_and_one_row),
        cmocka_unit_test(sorts_again_keeping_given_order),
        cmocka_unit_test(signed_keys_keep_their_order),
        cmocka_unit_test(int_keys_keep_order_and_read_back),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
