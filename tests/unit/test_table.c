/* The event table: interning, dynamic columns and type promotion, lookups,
 * and the ordered merge that makes output independent of thread count. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "spoor/table.h"

static void test_strpool_interns_and_finds(void **state)
{
    struct spoor_strpool *p = spoor_strpool_new();
    assert_int_equal(spoor_strpool_intern(p, "", 0), 0);
    uint32_t a = spoor_strpool_intern(p, "read", 4);
    uint32_t b = spoor_strpool_intern(p, "write", 5);
    assert_int_not_equal(a, b);
    assert_int_equal(spoor_strpool_intern(p, "read", 4), a);
    assert_int_equal(spoor_strpool_find(p, "write", 5), b);
    assert_int_equal(spoor_strpool_find(p, "open", 4), UINT32_MAX);
    assert_int_equal(spoor_strpool_hash(p, b), (uint32_t)spoor_hash_bytes("write", 5));
    /* Many strings force the table to grow; ids and bytes must survive. */
    char buf[32];
    for (int i = 0; i < 100000; i++) {
        int n = snprintf(buf, sizeof buf, "s%d", i);
        assert_int_equal(spoor_strpool_intern(p, buf, (size_t)n), (uint32_t)i + 3);
    }
    size_t len;
    assert_string_equal(spoor_strpool_get(p, a, &len), "read");
    assert_int_equal(len, 4);
    assert_string_equal(spoor_strpool_get(p, 99999 + 3, NULL), "s99999");
    /* Strings with NUL bytes inside are distinct keys. */
    assert_int_not_equal(spoor_strpool_intern(p, "a\0b", 3), spoor_strpool_intern(p, "a\0c", 3));
    spoor_strpool_clear(p);
    assert_int_equal(spoor_strpool_count(p), 1);
    assert_int_equal(spoor_strpool_find(p, "read", 4), UINT32_MAX);
    spoor_strpool_free(p);
}

static struct spoor_value int_value(int64_t v) { return (struct spoor_value){.type = SPOOR_I64, .i64 = v}; }

static void test_column_promotion(void **state)
{
    struct spoor_table *t = spoor_table_new();
    struct spoor_column *c = spoor_table_column(t, spoor_table_intern(t, "size", 4));
    size_t r0 = spoor_table_add_row(t);
    struct spoor_value v = int_value(4096);
    spoor_table_set(t, c, r0, &v);
    assert_int_equal(c->type, SPOOR_I64);
    size_t r1 = spoor_table_add_row(t);
    v = (struct spoor_value){.type = SPOOR_F64, .f64 = 0.5};
    spoor_table_set(t, c, r1, &v);
    assert_int_equal(c->type, SPOOR_F64);
    assert_true(c->f64[r0] == 4096.0);
    size_t r2 = spoor_table_add_row(t); /* left null */
    size_t r3 = spoor_table_add_row(t);
    v = (struct spoor_value){.type = SPOOR_STR, .str = spoor_table_intern(t, "big", 3)};
    spoor_table_set(t, c, r3, &v);
    assert_int_equal(c->type, SPOOR_STR);
    assert_string_equal(spoor_table_str(t, c->str[r0]), "4096");
    assert_string_equal(spoor_table_str(t, c->str[r1]), "0.5");
    assert_false(spoor_column_valid(c, r2));
    assert_string_equal(spoor_table_str(t, c->str[r3]), "big");
    /* A number into a string column keeps its source spelling. */
    size_t r4 = spoor_table_add_row(t);
    v = (struct spoor_value){.type = SPOOR_I64, .i64 = 7, .text = "0x7", .text_len = 3};
    spoor_table_set(t, c, r4, &v);
    assert_string_equal(spoor_table_str(t, c->str[r4]), "0x7");
    assert_ptr_equal(spoor_table_find_column(t, "size"), c);
    assert_null(spoor_table_find_column(t, "nope"));
    spoor_table_free(t);
}

/* A key means what its own input defined at or before the line asked about. */
static void test_lookup_per_input_and_line(void **state)
{
    struct spoor_table *t = spoor_table_new();
    struct spoor_lookup *l = &t->lookups[SPOOR_LOOKUP_FILE];
    uint32_t h = spoor_table_intern(t, "123", 3), a = spoor_table_intern(t, "/a", 2), b = spoor_table_intern(t, "/b", 2);
    uint32_t c = spoor_table_intern(t, "/c", 2);
    spoor_lookup_put(l, 0, h, a, 10);
    spoor_lookup_put(l, 0, h, a, 20);           /* a repeat: dropped */
    spoor_lookup_put(l, 0, h, b, 50);           /* a redefinition */
    spoor_lookup_put(l, 1, h, c, 5);            /* another input's hash */
    assert_int_equal(l->n, 3);
    assert_int_equal(spoor_lookup_redefinitions(l), 1);
    uint64_t from, to;
    assert_int_equal(spoor_lookup_get(l, 0, h, 9, &from, &to), 0);     /* before the first definition */
    assert_true(from == 0 && to == 10);
    assert_int_equal(spoor_lookup_get(l, 0, h, 10, &from, &to), a);
    assert_true(from == 10 && to == 50);
    assert_int_equal(spoor_lookup_get(l, 0, h, 49, NULL, NULL), a);
    assert_int_equal(spoor_lookup_get(l, 0, h, 50, &from, &to), b);
    assert_true(from == 50 && to == UINT64_MAX);
    assert_int_equal(spoor_lookup_get(l, 1, h, 6, NULL, NULL), c);
    assert_int_equal(spoor_lookup_get(l, 1, h, 4, NULL, NULL), 0);
    assert_int_equal(spoor_lookup_get(l, 2, h, 100, NULL, NULL), 0);  /* an input that defined nothing */
    /* Out of line order (workers merging): the same answers. */
    spoor_lookup_put(l, 3, h, b, 50);
    spoor_lookup_put(l, 3, h, a, 10);
    assert_int_equal(spoor_lookup_get(l, 3, h, 30, NULL, NULL), a);
    assert_int_equal(spoor_lookup_get(l, 3, h, 60, NULL, NULL), b);
    assert_int_equal(spoor_lookup_redefinitions(l), 2);
    /* Growing keeps every chain. */
    for (int i = 0; i < 1000; i++) {
        char k[16];
        int n = snprintf(k, sizeof k, "k%d", i);
        spoor_lookup_put(l, 0, spoor_table_intern(t, k, (size_t)n), h, 1);
    }
    assert_int_equal(spoor_lookup_get(l, 0, spoor_table_intern(t, "k999", 4), 1, NULL, NULL), h);
    assert_int_equal(spoor_lookup_get(l, 0, h, 49, NULL, NULL), a);
    assert_int_equal(spoor_lookup_get(l, 3, h, 60, NULL, NULL), b);
    spoor_lookup_shift_lines(l, 100);
    assert_int_equal(spoor_lookup_get(l, 0, h, 149, NULL, NULL), a);
    assert_int_equal(spoor_lookup_get(l, 0, h, 109, NULL, NULL), 0);
    spoor_table_free(t);
}

/* A batch with its own pool, as a reader thread would make it. */
static struct spoor_table *batch(const char *source, int first, int n)
{
    struct spoor_table *t = spoor_table_new();
    spoor_table_add_source(t, source);
    char buf[32];
    for (int i = first; i < first + n; i++) {
        size_t r = spoor_table_add_row(t);
        t->ts[r] = i * 10;
        t->dur[r] = i;
        int len = snprintf(buf, sizeof buf, "name%d", i % 7);
        t->name[r] = spoor_table_intern(t, buf, (size_t)len);
        t->cat[r] = spoor_table_intern(t, i % 2 ? "odd" : "even", i % 2 ? 3 : 4);
        t->line[r] = (uint64_t)i + 1;
        t->ph[r] = 'X';
        if (i % 3 == 0) {
            struct spoor_column *c = spoor_table_column(t, spoor_table_intern(t, "fname", 5));
            len = snprintf(buf, sizeof buf, "/f%d", i % 5);
            struct spoor_value v = {.type = SPOOR_STR, .str = spoor_table_intern(t, buf, (size_t)len)};
            spoor_table_set(t, c, r, &v);
        }
    }
    spoor_lookup_put(&t->lookups[SPOOR_LOOKUP_HOST], 0, spoor_table_intern(t, "h1", 2),
                     spoor_table_intern(t, source, strlen(source)), (uint64_t)first + 1);
    return t;
}

static void assert_same_rows(const struct spoor_table *a, const struct spoor_table *b)
{
    assert_int_equal(a->nrows, b->nrows);
    const struct spoor_column *ca = spoor_table_find_column(a, "fname");
    const struct spoor_column *cb = spoor_table_find_column(b, "fname");
    for (size_t r = 0; r < a->nrows; r++) {
        assert_int_equal(a->ts[r], b->ts[r]);
        assert_int_equal(a->name[r], b->name[r]); /* ids, not only strings */
        assert_string_equal(spoor_table_str(a, a->cat[r]), spoor_table_str(b, b->cat[r]));
        assert_int_equal(spoor_column_valid(ca, r), spoor_column_valid(cb, r));
        if (spoor_column_valid(ca, r))
            assert_int_equal(ca->str[r], cb->str[r]);
    }
}

static void test_append_is_independent_of_batching(void **state)
{
    /* The same 300 rows merged from 1 batch or from 3 must give identical tables. */
    struct spoor_table *whole = spoor_table_new(), *split = spoor_table_new();
    struct spoor_table *one = batch("t.pfw", 0, 300);
    spoor_table_append(whole, one);
    for (int k = 0; k < 3; k++) {
        struct spoor_table *b = batch("t.pfw", k * 100, 100);
        spoor_table_append(split, b);
        spoor_table_free(b);
    }
    assert_same_rows(whole, split);
    assert_int_equal(split->nsources, 1);
    assert_int_equal(split->lookups[SPOOR_LOOKUP_HOST].n, 1);
    const struct spoor_column *c = spoor_table_find_column(split, "fname");
    assert_string_equal(spoor_table_str(split, c->str[3]), "/f3");
    assert_false(spoor_column_valid(c, 1));
    spoor_table_free(one);
    spoor_table_free(whole);
    spoor_table_free(split);
}

static void test_clear_keeps_table_usable(void **state)
{
    struct spoor_table *t = batch("a", 0, 50);
    spoor_table_clear(t, true);
    assert_int_equal(t->nrows, 0);
    assert_int_equal(t->ncols, 0);
    assert_null(spoor_table_find_column(t, "fname"));
    size_t r = spoor_table_add_row(t);
    assert_int_equal(t->ts[r], SPOOR_NULL);
    assert_int_equal(t->name[r], 0);
    spoor_table_drop_last_row(t);
    assert_int_equal(t->nrows, 0);
    spoor_table_free(t);
}

/* A row dropped after its cells were set comes back absent in every column
 * when the next row takes its place, and so do rows past a growth. */
static void test_new_rows_start_absent(void **state)
{
    struct spoor_table *t = spoor_table_new();
    struct spoor_column *c = spoor_table_column(t, spoor_table_intern(t, "x", 1));
    for (int k = 0; k < 5000; k++) {
        size_t r = spoor_table_add_row(t);
        assert_false(spoor_column_valid(c, r));
        spoor_table_set(t, c, r, &(struct spoor_value){.type = SPOOR_I64, .i64 = k});
        if (k % 3 == 0) {
            spoor_table_drop_last_row(t);
            r = spoor_table_add_row(t);
            assert_false(spoor_column_valid(c, r));
        }
    }
    spoor_table_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_strpool_interns_and_finds),
        cmocka_unit_test(test_column_promotion),
        cmocka_unit_test(test_lookup_per_input_and_line),
        cmocka_unit_test(test_append_is_independent_of_batching),
        cmocka_unit_test(test_clear_keeps_table_usable),
        cmocka_unit_test(test_new_rows_start_absent),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
