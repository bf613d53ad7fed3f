/* Arrays on huge pages keep their content as they grow from malloc's size
 * to mapped ones, from one mapping to a larger one, and as they shrink
 * back; every byte of each size can be written. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "util/huge_array.h"

static uint8_t byte_at(size_t i)
{
    return (uint8_t)(i * 2654435761u >> 13);
}

static void fill(uint8_t *p, size_t from, size_t to)
{
    for (size_t i = from; i < to; i++)
        p[i] = byte_at(i);
}

static void check(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != byte_at(i))
            fail_msg("byte %zu of %zu changed", i, n);
}

static void grows_and_shrinks_keeping_content(void **state)
{
    static const size_t sizes[] = {1000, (2 << 20) - 1, 2 << 20, (5 << 20) + 3, 40 << 20, 3 << 20, 4096};
    size_t n = sizes[0];
    uint8_t *p = spoor_huge_alloc(n);
    fill(p, 0, n);
    for (size_t k = 1; k < sizeof sizes / sizeof sizes[0]; k++) {
        size_t m = sizes[k];
        p = spoor_huge_realloc(p, n, m);
        check(p, n < m ? n : m);
        fill(p, n < m ? n : m, m);
        n = m;
    }
    check(p, n);
    spoor_huge_free(p, n);
    spoor_huge_free(NULL, 40 << 20);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(grows_and_shrinks_keeping_content),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
