/* util's id map hands out ids 0, 1, 2... by first sight, the same id for a
 * key seen again (right after, or much later, across growth), and finds
 * only keys it has given ids, for one-word keys and keys of several words;
 * clearing forgets the ids. util's grow zeroes what it adds, and grows
 * parallel arrays together keeping their contents. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
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

/* Keys of `words` words that differ only in one word, or only by the order of
 * two, so a map mixing up words or comparing too few would merge them. */
static void word_key(uint64_t *key, size_t words, uint32_t i)
{
    for (size_t w = 0; w < words; w++)
        key[w] = 7;
    key[i % words] = i / words;
    if (i % 3 == 0)
        key[words - 1] = UINT64_MAX - i;
}

static void words_ids_by_first_sight(size_t words)
{
    enum { N = 3000 };
    struct spoor_id_map m;
    spoor_id_map_init(&m, words);
    uint64_t key[4];
    word_key(key, words, 0);
    assert_int_equal(spoor_id_map_find_words(&m, key), SPOOR_ID_NONE);
    uint32_t *id = malloc(N * sizeof *id);
    uint32_t n = 0;
    for (uint32_t i = 0; i < N; i++) {
        word_key(key, words, i);
        uint32_t found = spoor_id_map_find_words(&m, key);
        uint32_t got = spoor_id_map_id_words(&m, key);
        if (found == SPOOR_ID_NONE)
            assert_int_equal(got, n++); /* new keys take the next id */
        else
            assert_int_equal(got, found);
        id[i] = got;
        assert_int_equal(spoor_id_map_id_words(&m, key), got); /* the last key again */
        assert_memory_equal(spoor_id_map_key(&m, got), key, words * sizeof *key);
    }
    assert_int_equal(m.n, n);
    assert_true(n > N / 2);
    for (uint32_t i = 0; i < N; i++) { /* across all the growth */
        word_key(key, words, i);
        assert_int_equal(spoor_id_map_find_words(&m, key), id[i]);
        assert_int_equal(spoor_id_map_id_words(&m, key), id[i]);
    }
    key[0] = 12345;
    key[words - 1] = 54321;
    assert_int_equal(spoor_id_map_find_words(&m, key), SPOOR_ID_NONE);
    spoor_id_map_clear(&m);
    assert_int_equal(m.n, 0);
    word_key(key, words, 5);
    assert_int_equal(spoor_id_map_find_words(&m, key), SPOOR_ID_NONE);
    assert_int_equal(spoor_id_map_id_words(&m, key), 0);
    spoor_id_map_free(&m);
    assert_int_equal(m.words, words);
    free(id);
}

static void pairs_ids_by_first_sight(void **state)
{
    words_ids_by_first_sight(2);
    (void)state;
}

static void longer_keys_ids_by_first_sight(void **state)
{
    words_ids_by_first_sight(3);
    words_ids_by_first_sight(4);
    (void)state;
}

/* A one-word map asked through the word entry points gives the same ids. */
static void one_word_entry_points_agree(void **state)
{
    struct spoor_id_map m = {0};
    for (uint64_t k = 0; k < 100; k++)
        assert_int_equal(spoor_id_map_id(&m, k * 977), k);
    uint64_t key[2] = {0, 1}; /* room for a pair, as the compiler sees one branch; one word is read */
    for (uint64_t k = 0; k < 100; k++) {
        key[0] = k * 977;
        assert_int_equal(spoor_id_map_find_words(&m, key), k);
    }
    key[0] = 978;
    assert_int_equal(spoor_id_map_find_words(&m, key), SPOOR_ID_NONE);
    spoor_id_map_free(&m);
    (void)state;
}

static void lanes_grow_together(void **state)
{
    int *a = NULL;
    double *b = NULL;
    char *c = NULL;
    size_t cap = 0;
    for (size_t n = 0; n < 5000; n++) {
        struct spoor_lane lanes[] = {SPOOR_LANE(a), SPOOR_LANE(b), {(void **)&c, 3}};
        spoor_reserve_lanes(&cap, n + 1, lanes, 3);
        assert_true(cap > n);
        a[n] = (int)n;
        b[n] = (double)n / 2;
        memcpy(c + 3 * n, "xyz", 3);
    }
    assert_true(cap < 2 * 5000);
    for (size_t n = 0; n < 5000; n++) {
        assert_int_equal(a[n], (int)n);
        assert_true(b[n] == (double)n / 2);
        assert_memory_equal(c + 3 * n, "xyz", 3);
    }
    free(a);
    free(b);
    free(c);
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
        cmocka_unit_test(pairs_ids_by_first_sight),
        cmocka_unit_test(longer_keys_ids_by_first_sight),
        cmocka_unit_test(one_word_entry_points_agree),
        cmocka_unit_test(grow_zeroes_the_new_part),
        cmocka_unit_test(lanes_grow_together),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
