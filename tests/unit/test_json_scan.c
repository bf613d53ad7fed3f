/* The tolerant JSON scanner: strict JSON read as cJSON reads it, the writers'
 * habits (raw quotes and backslashes, trailing commas, wide integers) read as
 * meant, and malformed objects reported instead of guessed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <cmocka.h>

#include "read/json_scan.h"

struct member {
    char key[64];
    struct spoor_json_tok val;
};

/* Scans a line into up to cap members; returns the count, or -1 if malformed. */
static int scan(const char *line, struct member *m, int cap)
{
    struct spoor_json_iter it;
    struct spoor_json_tok k, v;
    spoor_json_iter_init(&it, line, line + strlen(line));
    int n = 0, r;
    while ((r = spoor_json_next(&it, &k, &v)) == 1) {
        assert_true(n < cap);
        size_t len = spoor_json_unescape(k.p, k.n, m[n].key);
        m[n].key[len] = '\0';
        m[n].val = v;
        n++;
    }
    return r < 0 ? -1 : n;
}

static bool tok_is(const struct spoor_json_tok *t, const char *text)
{
    return t->n == strlen(text) && memcmp(t->p, text, t->n) == 0;
}

static void test_members_and_kinds(void **state)
{
    (void)state;
    struct member m[16];
    const char *line = "  {\"s\":\"x\", \"n\" : -12.5e3 ,\"o\":{\"a\":[1,{\"b\":\"}\"}]},\"a\":[],"
                       "\"t\":true,\"f\":false,\"z\":null}";
    assert_int_equal(scan(line, m, 16), 7);
    assert_string_equal(m[0].key, "s");
    assert_int_equal(m[0].val.kind, SPOOR_JSON_STRING);
    assert_true(tok_is(&m[0].val, "x"));
    assert_int_equal(m[1].val.kind, SPOOR_JSON_NUMBER);
    assert_true(tok_is(&m[1].val, "-12.5e3"));
    assert_int_equal(m[2].val.kind, SPOOR_JSON_OBJECT);
    assert_true(tok_is(&m[2].val, "{\"a\":[1,{\"b\":\"}\"}]}"));
    assert_int_equal(m[3].val.kind, SPOOR_JSON_ARRAY);
    assert_true(tok_is(&m[3].val, "[]"));
    assert_int_equal(m[4].val.kind, SPOOR_JSON_TRUE);
    assert_int_equal(m[5].val.kind, SPOOR_JSON_FALSE);
    assert_int_equal(m[6].val.kind, SPOOR_JSON_NULL);
    assert_int_equal(scan("{}", m, 16), 0);
    assert_int_equal(scan(" { } ", m, 16), 0);
}

static void test_tolerated_habits(void **state)
{
    (void)state;
    struct member m[16];
    /* trailing comma, Python's NaN/Infinity, a 128-bit integer */
    assert_int_equal(scan("{\"a\": 1, \"b\": NaN, \"c\": -Infinity, \"h\": 314828689199209182275661060106169083757,}",
                          m, 16), 4);
    assert_true(tok_is(&m[1].val, "NaN"));
    assert_true(tok_is(&m[2].val, "-Infinity"));
    assert_true(tok_is(&m[3].val, "314828689199209182275661060106169083757"));
    /* raw quotes inside a name (DataCrumbs C++ writer) */
    assert_int_equal(scan("{\"name\":\"say \"hi\" now\",\"cat\":\"x\"}", m, 16), 2);
    assert_true(tok_is(&m[0].val, "say \"hi\" now"));
    assert_false(m[0].val.has_escape);
    assert_true(tok_is(&m[1].val, "x"));
    /* a raw quote followed by a comma that cannot start a member */
    assert_int_equal(scan("{\"name\":\"a\", b\",\"cat\":\"x\"}", m, 16), 2);
    assert_true(tok_is(&m[0].val, "a\", b"));
    /* a raw backslash closing a string, mid-object and last */
    assert_int_equal(scan("{\"name\":\"C:\\dir\\\",\"cat\":\"x\"}", m, 16), 2);
    assert_true(tok_is(&m[0].val, "C:\\dir\\"));
    assert_true(tok_is(&m[1].val, "x"));
    assert_int_equal(scan("{\"cat\":\"x\",\"name\":\"end\\\"}", m, 16), 2);
    assert_true(tok_is(&m[1].val, "end\\"));
    /* while a strict escaped quote stays an escape */
    assert_int_equal(scan("{\"a\":\"q\\\",\\\"b\\\":1\"}", m, 16), 1);
    assert_true(tok_is(&m[0].val, "q\\\",\\\"b\\\":1"));
    assert_true(m[0].val.has_escape);
    /* control bytes and invalid UTF-8 pass through the scanner */
    assert_int_equal(scan("{\"a\":\"t\tab\xff\"}", m, 16), 1);
    assert_true(tok_is(&m[0].val, "t\tab\xff"));
}

static void test_malformed(void **state)
{
    (void)state;
    struct member m[16];
    const char *bad[] = {
        "",
        "[1,2]",
        "{",
        "{\"a\":1",                 /* truncated: never read as a shorter event */
        "{\"a\":12,\"b\":\"cut",
        "{\"a\" 1}",
        "{\"a\":}",
        "{\"a\":tru}",
        "{\"a\":[1,2}",
        "{\"a\":{\"b\":1]}",
        "{\"a\":1 \"b\":2}",
        "{a:1}",
        "{,\"a\":1}",
        "{\"a\":\"x\\",
        "{\"a\":@}",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        if (scan(bad[i], m, 16) != -1)
            fail_msg("accepted malformed line %zu: %s", i, bad[i]);
    }
    /* after a failure the iterator stays failed */
    struct spoor_json_iter it;
    struct spoor_json_tok k, v;
    static const char bad_key[] = "{x}";
    spoor_json_iter_init(&it, bad_key, bad_key + 3);
    assert_int_equal(spoor_json_next(&it, &k, &v), -1);
    assert_true(it.failed);
    assert_int_equal(spoor_json_next(&it, &k, &v), -1);
}

static void test_deep_nesting(void **state)
{
    (void)state;
    enum { DEPTH = 2000 };
    char *line = malloc(2 * DEPTH + 16);
    size_t n = 0;
    n += (size_t)sprintf(line, "{\"a\":");
    for (int i = 0; i < DEPTH; i++)
        line[n++] = '[';
    for (int i = 0; i < DEPTH; i++)
        line[n++] = ']';
    line[n++] = '}';
    line[n] = '\0';
    struct member m[4];
    assert_int_equal(scan(line, m, 4), -1); /* too deep: refused, not overflowed */
    free(line);
}

static void test_unescape(void **state)
{
    (void)state;
    char out[64];
    const char *in = "a\\\"b\\\\c\\/d\\n\\t\\u00e9\\u20AC\\ud83d\\ude00\\ud800x\\q\\";
    size_t n = spoor_json_unescape(in, strlen(in), out);
    const char *want = "a\"b\\c/d\n\t\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xef\xbf\xbdx\\q\\";
    assert_int_equal(n, strlen(want));
    assert_memory_equal(out, want, n);
    assert_true(n <= strlen(in));
    /* a \u with too few hex digits is copied through */
    n = spoor_json_unescape("\\u12", 4, out);
    assert_int_equal(n, 4);
    assert_memory_equal(out, "\\u12", 4);
}

static void test_numbers(void **state)
{
    (void)state;
    int64_t i;
    assert_true(spoor_json_int64("0", 1, &i) && i == 0);
    assert_true(spoor_json_int64("-42", 3, &i) && i == -42);
    assert_true(spoor_json_int64("9223372036854775807", 19, &i) && i == INT64_MAX);
    assert_true(spoor_json_int64("-9223372036854775808", 20, &i) && i == INT64_MIN);
    assert_false(spoor_json_int64("9223372036854775808", 19, &i));
    assert_false(spoor_json_int64("314828689199209182275661060106169083757", 39, &i));
    assert_false(spoor_json_int64("1.5", 3, &i));
    assert_false(spoor_json_int64("", 0, &i));
    assert_false(spoor_json_int64("-", 1, &i));
    assert_false(spoor_json_int64("12a", 3, &i));
    double d;
    assert_true(spoor_json_double("7.86e-07", 8, &d) && d == 7.86e-07);
    assert_true(spoor_json_double("-3", 2, &d) && d == -3);
    assert_true(spoor_json_double("NaN", 3, &d) && d != d);
    assert_true(spoor_json_double("-Infinity", 9, &d) && d < -1e308);
    assert_false(spoor_json_double("0x1p3", 5, &d));
    assert_false(spoor_json_double("inf", 3, &d));
    assert_false(spoor_json_double("1.2.3", 5, &d));
    assert_false(spoor_json_double("", 0, &d));
}

static struct spoor_json_tok tok(enum spoor_json_kind kind, const char *text)
{
    return (struct spoor_json_tok){kind, text, strlen(text), strchr(text, '\\') != NULL};
}

static void test_to_value(void **state)
{
    (void)state;
    struct spoor_table *t = spoor_table_new();
    struct spoor_value v;
    struct spoor_json_tok k = tok(SPOOR_JSON_NUMBER, "123");
    spoor_json_to_value(t, &k, false, NULL, &v);
    assert_int_equal(v.type, SPOOR_I64);
    assert_int_equal(v.i64, 123);
    k = tok(SPOOR_JSON_NUMBER, "1.2626e-05");
    spoor_json_to_value(t, &k, false, NULL, &v);
    assert_int_equal(v.type, SPOOR_F64);
    assert_true(v.f64 == 1.2626e-05);
    k = tok(SPOOR_JSON_NUMBER, "314828689199209182275661060106169083757");
    spoor_json_to_value(t, &k, false, NULL, &v);
    assert_int_equal(v.type, SPOOR_STR);
    assert_string_equal(spoor_table_str(t, v.str), "314828689199209182275661060106169083757");
    k = tok(SPOOR_JSON_STRING, "3276800");
    spoor_json_to_value(t, &k, false, NULL, &v);
    assert_int_equal(v.type, SPOOR_STR);
    spoor_json_to_value(t, &k, true, NULL, &v);
    assert_int_equal(v.type, SPOOR_I64);
    assert_int_equal(v.i64, 3276800);
    assert_true(v.text_len == 7 && memcmp(v.text, "3276800", 7) == 0);
    k = tok(SPOOR_JSON_STRING, "0.5");
    spoor_json_to_value(t, &k, true, NULL, &v);
    assert_int_equal(v.type, SPOOR_F64);
    k = tok(SPOOR_JSON_STRING, "a1b2");
    spoor_json_to_value(t, &k, true, NULL, &v);
    assert_int_equal(v.type, SPOOR_STR);
    assert_string_equal(spoor_table_str(t, v.str), "a1b2");
    k = tok(SPOOR_JSON_STRING, "tab\\there \\u00e9");
    spoor_json_to_value(t, &k, false, NULL, &v);
    assert_string_equal(spoor_table_str(t, v.str), "tab\there \xc3\xa9");
    /* invalid UTF-8: every bad byte becomes U+FFFD, valid text is kept */
    k = tok(SPOOR_JSON_STRING, "a\xff\xc3\xa9\xe2\x82z\xed\xa0\x80");
    spoor_json_to_value(t, &k, false, NULL, &v);
    assert_string_equal(spoor_table_str(t, v.str),
                        "a\xef\xbf\xbd\xc3\xa9\xef\xbf\xbd\xef\xbf\xbdz\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
    k = tok(SPOOR_JSON_TRUE, "true");
    spoor_json_to_value(t, &k, false, NULL, &v);
    assert_true(v.type == SPOOR_I64 && v.i64 == 1 && !v.is_null);
    k = tok(SPOOR_JSON_NULL, "null");
    spoor_json_to_value(t, &k, false, NULL, &v);
    assert_true(v.is_null);
    k = tok(SPOOR_JSON_ARRAY, "[1, 2]");
    spoor_json_to_value(t, &k, false, NULL, &v);
    assert_int_equal(v.type, SPOOR_STR);
    assert_string_equal(spoor_table_str(t, v.str), "[1, 2]");
    spoor_table_free(t);
}

/* ---- differential: random strict objects, printed by cJSON, scanned by us ---- */

static uint64_t rng = 88172645463325252ULL;
static uint64_t next_rand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static void random_text(char *s, size_t cap)
{
    static const char *pieces[] = {"a", "Z", "9", " ", "\"", "\\", "/", "\n", "\t", "\x01", "\xc3\xa9",
                                   "\xe2\x82\xac", "\xf0\x9f\x98\x80", "{", "}", "[", "]", ":", ","};
    size_t n = 0, k = next_rand() % 12;
    for (size_t i = 0; i < k; i++) {
        const char *p = pieces[next_rand() % (sizeof pieces / sizeof *pieces)];
        size_t len = strlen(p);
        if (n + len + 1 > cap)
            break;
        memcpy(s + n, p, len);
        n += len;
    }
    s[n] = '\0';
}

static cJSON *random_value(int depth)
{
    char buf[128];
    switch (next_rand() % (depth > 2 ? 5 : 7)) {
    case 0: random_text(buf, sizeof buf); return cJSON_CreateString(buf);
    case 1: return cJSON_CreateNumber((double)(int64_t)(next_rand() % 2000000) - 1000000);
    case 2: return cJSON_CreateNumber((double)(next_rand() % 100000) / 64.0);
    case 3: return next_rand() & 1 ? cJSON_CreateTrue() : cJSON_CreateFalse();
    case 4: return cJSON_CreateNull();
    case 5: {
        cJSON *a = cJSON_CreateArray();
        for (int i = (int)(next_rand() % 4); i > 0; i--)
            cJSON_AddItemToArray(a, random_value(depth + 1));
        return a;
    }
    default: {
        cJSON *o = cJSON_CreateObject();
        for (int i = (int)(next_rand() % 4); i > 0; i--) {
            random_text(buf, sizeof buf - 8);
            sprintf(buf + strlen(buf), "%d", i); /* unique keys: cJSON_Compare looks keys up */
            cJSON_AddItemToObject(o, buf, random_value(depth + 1));
        }
        return o;
    }
    }
}

/* The member value as our token says, compared with cJSON's parse of it. */
static void check_member(const struct spoor_json_tok *v, const cJSON *want)
{
    char *buf = malloc(v->n + 1);
    switch (v->kind) {
    case SPOOR_JSON_STRING: {
        assert_true(cJSON_IsString(want));
        size_t n = spoor_json_unescape(v->p, v->n, buf);
        buf[n] = '\0';
        assert_int_equal(n, strlen(want->valuestring));
        assert_memory_equal(buf, want->valuestring, n);
        break;
    }
    case SPOOR_JSON_NUMBER: {
        assert_true(cJSON_IsNumber(want));
        double d;
        assert_true(spoor_json_double(v->p, v->n, &d));
        assert_true(d == want->valuedouble);
        break;
    }
    case SPOOR_JSON_OBJECT:
    case SPOOR_JSON_ARRAY: {
        assert_true(v->kind == SPOOR_JSON_OBJECT ? cJSON_IsObject(want) : cJSON_IsArray(want));
        memcpy(buf, v->p, v->n);
        buf[v->n] = '\0';
        cJSON *again = cJSON_Parse(buf);
        assert_non_null(again);
        if (!cJSON_Compare(again, want, true))
            fail_msg("container differs: %s", buf);
        cJSON_Delete(again);
        break;
    }
    case SPOOR_JSON_TRUE: assert_true(cJSON_IsTrue(want)); break;
    case SPOOR_JSON_FALSE: assert_true(cJSON_IsFalse(want)); break;
    case SPOOR_JSON_NULL: assert_true(cJSON_IsNull(want)); break;
    }
    free(buf);
}

static void test_differential_cjson(void **state)
{
    (void)state;
    for (int round = 0; round < 3000; round++) {
        cJSON *obj = cJSON_CreateObject();
        char key[128];
        for (int i = (int)(next_rand() % 8); i > 0; i--) {
            random_text(key, sizeof key);
            cJSON_AddItemToObject(obj, key, random_value(0));
        }
        char *text = round & 1 ? cJSON_PrintUnformatted(obj) : cJSON_Print(obj);
        /* cJSON_Print spreads over lines; the scanner treats newlines as blanks */
        struct spoor_json_iter it;
        struct spoor_json_tok k, v;
        spoor_json_iter_init(&it, text, text + strlen(text));
        const cJSON *want = obj->child;
        int r;
        while ((r = spoor_json_next(&it, &k, &v)) == 1) {
            assert_non_null(want);
            char *kb = malloc(k.n + 1);
            size_t kn = spoor_json_unescape(k.p, k.n, kb);
            kb[kn] = '\0';
            assert_string_equal(kb, want->string);
            free(kb);
            check_member(&v, want);
            want = want->next;
        }
        if (r != 0)
            fail_msg("scanner refused cJSON's output: %s", text);
        assert_null(want);
        free(text);
        cJSON_Delete(obj);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_members_and_kinds),
        cmocka_unit_test(test_tolerated_habits),
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_deep_nesting),
        cmocka_unit_test(test_unescape),
        cmocka_unit_test(test_numbers),
        cmocka_unit_test(test_to_value),
        cmocka_unit_test(test_differential_cjson),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
