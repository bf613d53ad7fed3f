/* util's id map hands out ids 0, 1, 2... by first sight, the same id for a
 * key seen again (right after, or much later, across growth), and finds
 * only keys it has given ids; util's grow zeroes what it adds. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "util/grow.h"
#include "util/id_map.h"

static uint64_t key_of(uint32_t i) { return i == 0 ? 0 : i == 1 ? UINT64_MAX : (uint64_t)i * 0x100000001ull; }

static void ids_by_first_sight(void **state)
{
    enum { N = 5000 };
    struct spoor_id_map m = {0};
    assert_int_equal(spoor_id_map_find(&m, 7), SPOOR_ID_NONE);
    for (uint32_t i = 0; i < N; i++) {
        assert_int_equal(spoor_id_map_id(&m, key_of(i)), i);
        assert_int_equal(spoor_id_map_id(&m, key_of(i)), i);      /* the last key again */
        assert_int_equal(spoor_id_map_id(&m, key_of(i / 2)), i / 2);
    }
    assert_int_equal(m.n, N);
    for (uint32_t i = 0; i < N; i++) {
        assert_int_equal(spoor_id_map_find(&m, key_of(i)), i);
        assert_true(m.keys[i] == key_of(i));
    }
    assert_int_equal(spoor_id_map_find(&m, 3), SPOOR_ID_NONE);
    spoor_id_map_free(&m);
    assert_int_equal(m.n, 0);
    (void)state;
}

static void grow_zeroes_the_new_part(void **state)
{
    int *v = NULL;
    size_t cap = 0;
    spoor_grow((void **)&v, &cap, 0, sizeof *v);
    assert_true(cap > 0);
    v[0] = 5;
    spoor_grow((void **)&v, &cap, 1000, sizeof *v);
    assert_true(cap > 1000);
    assert_int_equal(v[0], 5);
    for (size_t i = 1; i < cap; i++)
        assert_int_equal(v[i], 0);
    free(v);
    (void)state;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ids_by_first_sight),
        cmocka_unit_test(grow_zeroes_the_new_part),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
