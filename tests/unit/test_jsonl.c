/* The JSON lines reader: field mapping, ISO and epoch times, unit detection,
 * nested values, quoted numbers, garbage lines, strict mode, sniffing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "read/time_text.h"
#include "read_harness.h"
#include "testutil.h"

#include <stdlib.h>

#define S(lit) lit, sizeof(lit) - 1

static const struct spoor_read_opts plain_opts = {0};

static int load(const char *text, size_t len, const struct spoor_read_opts *opts, struct harness *h)
{
    return harness_load(&spoor_format_jsonl, text, len, len, 0, opts, h);
}

static enum spoor_type col_type(const struct harness *h, const char *name)
{
    const struct spoor_column *c = spoor_table_find_column(h->table, name);
    assert_non_null(c);
    return c->type;
}

/* A scheduler log: times in epoch ns under "at", names and categories under
 * other keys; the mapped keys stay as columns under their own names. */
static void test_field_mapping(void **state)
{
    const char text[] =
        "{\"entity\":\"job1\",\"action\":\"start\",\"worker\":\"w3\",\"host\":\"h1\",\"mode\":\"batch\",\"at\":1709642096000000001}\n"
        "{\"entity\":\"job1\",\"action\":\"stop\",\"worker\":\"w3\",\"host\":\"h1\",\"mode\":\"batch\",\"at\":1709642097000000000,\"rank\":4}\n";
    struct spoor_read_opts opts = {.field_ts = "at", .field_name = "action", .field_cat = "mode", .field_pid = "rank"};
    struct harness h;
    assert_int_equal(load(text, sizeof text - 1, &opts, &h), SPOOR_OK);
    struct spoor_table *t = h.table;
    assert_int_equal(t->nrows, 2);
    assert_int_equal(h.dialect.ts_unit, SPOOR_UNIT_NS);
    assert_non_null(strstr(h.dialect.assumed, "'at' in ns"));
    assert_true(t->ts[0] == 1709642096000000001LL);
    assert_true(t->ts[1] == 1709642097000000000LL);
    assert_string_equal(spoor_table_str(t, t->name[0]), "start");
    assert_string_equal(spoor_table_str(t, t->cat[1]), "batch");
    assert_true(t->pid[0] == SPOOR_NULL);
    assert_int_equal(t->pid[1], 4);
    assert_int_equal(t->ph[0], 'i');
    assert_int_equal(t->line[1], 2);
    assert_int_equal(t->ncols, 7);
    assert_string_equal(harness_cell(&h, "worker", 1), "w3");
    assert_string_equal(harness_cell(&h, "action", 1), "stop");
    assert_int_equal(col_type(&h, "at"), SPOOR_I64);
    assert_string_equal(harness_cell(&h, "at", 0), "1709642096000000001");
    assert_false(spoor_column_valid(spoor_table_find_column(t, "rank"), 0));
    harness_free(&h);

    opts = (struct spoor_read_opts){.field_ts = "when"};
    assert_int_equal(load(text, sizeof text - 1, &opts, &h), SPOOR_EUSAGE);
    assert_non_null(strstr(h.err.msg, "no field 'when' (--ts) in the first 2 JSON objects"));
    harness_free(&h);
}

static void test_iso_times(void **state)
{
    struct harness h;
    assert_int_equal(load(S("{\"ts\":\"2024-03-05T12:34:56.789Z\",\"dur\":0.25,\"v\":1}\n"
                            "{\"ts\":\"2024-03-05 13:34:56+01:00\",\"v\":2}\n"
                            "{\"ts\":\"yesterday\",\"v\":3}\n"
                            "{\"ts\":null,\"v\":4}\n"), &plain_opts, &h), SPOOR_OK);
    struct spoor_table *t = h.table;
    assert_int_equal(t->nrows, 3);
    assert_true(t->ts[0] == 1709642096789000000LL);
    assert_true(t->ts[1] == 1709642096000000000LL);
    assert_true(t->ts[2] == SPOOR_NULL);
    /* ISO ts: durations are taken as seconds. */
    assert_int_equal(h.dialect.dur_unit, SPOOR_UNIT_S);
    assert_true(t->dur[0] == 250000000LL);
    assert_int_equal(t->ph[0], 'X');
    assert_null(spoor_table_find_column(t, "ts"));
    assert_null(spoor_table_find_column(t, "dur"));
    assert_int_equal(h.skips.total, 1);
    assert_string_equal(h.skips.reason[0], "ts is not a number or an ISO-8601 time");
    assert_int_equal(h.skips.sample[0].line, 3);
    assert_string_equal(h.skips.sample[0].detail, "{\"ts\":\"yesterday\",\"v\":3}");
    harness_free(&h);
}

/* A negative dur is skipped, never summed; a negative ts may be a relative
 * time and is kept. */
static void test_negative_times(void **state)
{
    struct harness h;
    assert_int_equal(load(S("{\"ts\":10,\"dur\":5,\"v\":1}\n"
                            "{\"ts\":11,\"dur\":-5,\"v\":2}\n"
                            "{\"ts\":-12,\"dur\":0,\"v\":3}\n"), &plain_opts, &h), SPOOR_OK);
    assert_int_equal(h.table->nrows, 2);
    assert_true(h.table->ts[1] < 0);
    assert_int_equal(h.skips.total, 1);
    assert_string_equal(h.skips.reason[0], "negative dur");
    assert_int_equal(h.skips.sample[0].line, 2);
    harness_free(&h);

    struct spoor_read_opts strict = plain_opts;
    strict.strict = true;
    assert_int_equal(load(S("{\"ts\":11,\"dur\":-5}\n"), &strict, &h), SPOOR_ESTRICT);
    assert_non_null(strstr(h.err.msg, "negative dur"));
    harness_free(&h);
}

static void test_epoch_units(void **state)
{
    struct harness h;
    assert_int_equal(load(S("{\"ts\":1709642096.5,\"dur\":0.25}\n"), &plain_opts, &h), SPOOR_OK);
    assert_int_equal(h.dialect.ts_unit, SPOOR_UNIT_S);
    assert_true(h.table->ts[0] == 1709642096500000000LL);
    assert_true(h.table->dur[0] == 250000000LL);
    harness_free(&h);

    /* Quoted numbers: times and ids are parsed, other fields stay strings. */
    assert_int_equal(load(S("{\"ts\":\"1709642096789123\",\"dur\":\"5\",\"pid\":\"12\",\"tid\":7,\"id\":\"42\"}\n"),
                          &plain_opts, &h), SPOOR_OK);
    assert_int_equal(h.dialect.ts_unit, SPOOR_UNIT_US);
    assert_true(h.table->ts[0] == 1709642096789123000LL);
    assert_true(h.table->dur[0] == 5000LL);
    assert_int_equal(h.table->pid[0], 12);
    assert_int_equal(h.table->tid[0], 7);
    assert_int_equal(col_type(&h, "id"), SPOOR_STR);
    assert_string_equal(harness_cell(&h, "id", 0), "42");
    harness_free(&h);

    assert_int_equal(load(S("{\"ts\":1709642096789}\n{\"ts\":1709642096790}\n"), &plain_opts, &h), SPOOR_OK);
    assert_int_equal(h.dialect.ts_unit, SPOOR_UNIT_MS);
    assert_true(h.table->ts[1] == 1709642096790000000LL);
    harness_free(&h);

    struct spoor_read_opts opts = {.ts_unit = SPOOR_UNIT_NS, .dur_unit = SPOOR_UNIT_US};
    assert_int_equal(load(S("{\"ts\":12,\"dur\":3}\n"), &opts, &h), SPOOR_OK);
    assert_true(h.table->ts[0] == 12);
    assert_true(h.table->dur[0] == 3000);
    assert_string_equal(h.dialect.assumed, "");
    harness_free(&h);
}

static void test_values(void **state)
{
    struct harness h;
    assert_int_equal(load(S("{\"a\":{\"b\":[1,2]},\"c\":[1,{\"d\":2}],\"t\":true,\"f\":false,\"n\":null,"
                            "\"x\":1.5,\"big\":340282366920938463463374607431768211455,\"m\":1}\n"
                            "{\"m\":\"text\",\"x\":2}\n"), &plain_opts, &h), SPOOR_OK);
    assert_int_equal(h.table->nrows, 2);
    assert_int_equal(col_type(&h, "a"), SPOOR_STR);
    assert_string_equal(harness_cell(&h, "a", 0), "{\"b\":[1,2]}");
    assert_string_equal(harness_cell(&h, "c", 0), "[1,{\"d\":2}]");
    assert_string_equal(harness_cell(&h, "t", 0), "1");
    assert_string_equal(harness_cell(&h, "f", 0), "0");
    assert_false(spoor_column_valid(spoor_table_find_column(h.table, "n"), 0));
    assert_int_equal(col_type(&h, "x"), SPOOR_F64);
    assert_string_equal(harness_cell(&h, "x", 1), "2");
    assert_int_equal(col_type(&h, "big"), SPOOR_STR);
    assert_string_equal(harness_cell(&h, "big", 0), "340282366920938463463374607431768211455");
    /* An integer column that meets a string becomes a string column. */
    assert_int_equal(col_type(&h, "m"), SPOOR_STR);
    assert_string_equal(harness_cell(&h, "m", 0), "1");
    assert_string_equal(harness_cell(&h, "m", 1), "text");
    assert_false(spoor_column_valid(spoor_table_find_column(h.table, "a"), 1));
    harness_free(&h);
}

static void test_escapes(void **state)
{
    struct harness h;
    assert_int_equal(load(S("{\"name\":\"a\\\"b\",\"k\\u0065y\":\"x\\ny\",\"cat\":\"c\"}\n"
                            "{\"name\":\"plain\",\"key\":\"z\",\"cat\":\"c\"}\n"), &plain_opts, &h), SPOOR_OK);
    struct spoor_table *t = h.table;
    assert_string_equal(spoor_table_str(t, t->name[0]), "a\"b");
    assert_string_equal(spoor_table_str(t, t->name[1]), "plain");
    assert_int_equal(t->cat[0], t->cat[1]);
    /* Escaped and plain spellings of a key share one column. */
    assert_int_equal(t->ncols, 1);
    assert_string_equal(harness_cell(&h, "key", 0), "x\ny");
    assert_string_equal(harness_cell(&h, "key", 1), "z");
    harness_free(&h);

    /* A key holding a NUL byte is not the field named by its first bytes. */
    struct spoor_read_opts opts = {.field_pid = "rank"};
    assert_int_equal(load(S("{\"rank\0x\":7,\"rank\":3}\n{\"rank\0\":8}\n"), &opts, &h), SPOOR_OK);
    assert_int_equal(h.table->nrows, 2);
    assert_int_equal(h.table->pid[0], 3);
    assert_true(h.table->pid[1] == SPOOR_NULL);
    harness_free(&h);
}

static void test_garbage_lines(void **state)
{
    struct harness h;
    assert_int_equal(load(S("\xEF\xBB\xBF{\"a\":1}\r\n"
                            "[\n"
                            "\n"
                            "   \n"
                            "not json\n"
                            "{\"a\":\n"
                            "{\"pid\":1.5}\n"
                            "  {\"a\":2},\n"
                            "]"), &plain_opts, &h), SPOOR_OK);
    assert_int_equal(h.lines, 9);
    assert_int_equal(h.table->nrows, 2);
    assert_string_equal(harness_cell(&h, "a", 0), "1");
    assert_string_equal(harness_cell(&h, "a", 1), "2");
    assert_int_equal(h.table->line[1], 8);
    assert_int_equal(h.skips.total, 5);
    assert_int_equal(h.skips.sample[0].line, 2);
    assert_string_equal(h.skips.sample[0].reason, "not a JSON object");
    assert_int_equal(h.skips.sample[1].line, 5);
    assert_string_equal(h.skips.sample[1].detail, "not json");
    assert_int_equal(h.skips.sample[2].line, 6);
    assert_string_equal(h.skips.sample[2].reason, "malformed JSON object");
    assert_int_equal(h.skips.sample[3].line, 7);
    assert_string_equal(h.skips.sample[3].reason, "pid is not a 64-bit integer");
    assert_int_equal(h.skips.sample[4].line, 9);
    harness_free(&h);
}

static void test_strict(void **state)
{
    struct spoor_read_opts opts = {.strict = true};
    struct harness h;
    assert_int_equal(load(S("{\"a\":1}\n{\"a\":2}\ngarbage\n{\"a\":3}\n"), &opts, &h), SPOOR_ESTRICT);
    assert_int_equal(h.skips.total, 1);
    assert_int_equal(h.skips.sample[0].line, 3);
    assert_non_null(strstr(h.err.msg, "not a JSON object"));
    harness_free(&h);
}

static void test_args_modes(void **state)
{
    struct spoor_read_opts opts = {.args = SPOOR_ARGS_NONE, .field_ts = "at"};
    struct harness h;
    assert_int_equal(load(S("{\"at\":1,\"a\":2,\"b\":3}\n"), &opts, &h), SPOOR_OK);
    assert_int_equal(h.table->ncols, 0);
    assert_true(h.table->ts[0] == 1000000000LL);
    harness_free(&h);

    const char *keys[] = {"b"};
    opts = (struct spoor_read_opts){.args = SPOOR_ARGS_LISTED, .arg_keys = keys, .n_arg_keys = 1};
    assert_int_equal(load(S("{\"a\":2,\"b\":3}\n"), &opts, &h), SPOOR_OK);
    assert_int_equal(h.table->ncols, 1);
    assert_string_equal(harness_cell(&h, "b", 0), "3");
    harness_free(&h);
}

/* Chunks parsed apart, and a head that sees only the first line, give the same table. */
static void test_chunking(void **state)
{
    char text[64 * 1024];
    size_t len = 0;
    for (int i = 0; i < 500; i++)
        len += (size_t)snprintf(text + len, sizeof text - len,
                                "{\"ts\":%lld,\"name\":\"op%d\",\"cat\":\"io\",\"k%d\":%d,\"s\":%s}\n",
                                1709642096000LL + i, i % 7, i % 3, i, i == 400 ? "\"late\"" : "1");
    struct harness whole, chunked;
    assert_int_equal(harness_load(&spoor_format_jsonl, text, len, len, 0, &plain_opts, &whole), SPOOR_OK);
    assert_int_equal(harness_load(&spoor_format_jsonl, text, len, 70, 300, &plain_opts, &chunked), SPOOR_OK);
    assert_int_equal(whole.table->nrows, 500);
    assert_int_equal(chunked.table->nrows, 500);
    assert_int_equal(chunked.table->ncols, whole.table->ncols);
    assert_int_equal(col_type(&chunked, "s"), SPOOR_STR);
    for (size_t r = 0; r < 500; r++) {
        assert_true(chunked.table->ts[r] == whole.table->ts[r]);
        assert_int_equal(chunked.table->line[r], r + 1);
        assert_string_equal(spoor_table_str(chunked.table, chunked.table->name[r]),
                            spoor_table_str(whole.table, whole.table->name[r]));
    }
    assert_true(whole.table->ts[499] == 1709642096499000000LL);
    harness_free(&whole);
    harness_free(&chunked);
}

/* Integer times take a shortcut (eight digits a word at a time); it must agree
 * with a plain digit loop for every length, reject a neighbour of '0'..'9' in
 * any position, and leave overflow to the general parse. */
static void test_integer_times(void **state)
{
    int64_t ns;
    srand(7);
    for (int len = 1; len <= 18; len++)
        for (int trial = 0; trial < 200; trial++) {
            char text[20];
            int64_t want = 0;
            for (int i = 0; i < len; i++) {
                text[i] = (char)('0' + rand() % 10);
                want = want * 10 + (text[i] - '0');
            }
            assert_true(spoor_time_parse_decimal(text, (size_t)len, 1, &ns));
            assert_true(ns == want);
            for (int bad = 0; bad < len; bad++) {
                char saved = text[bad];
                text[bad] = trial % 2 ? '/' : ':';
                assert_false(spoor_time_parse_decimal(text, (size_t)len, 1, &ns));
                text[bad] = saved;
            }
        }
    assert_true(spoor_time_parse_decimal(S("999999999999999999"), 1, &ns) && ns == 999999999999999999LL);
    assert_true(spoor_time_parse_decimal(S("9223372036854775807"), 1, &ns) && ns == INT64_MAX);
    assert_false(spoor_time_parse_decimal(S("9223372036854775808"), 1, &ns));
    assert_false(spoor_time_parse_decimal(S("999999999999999999"), 1000, &ns));
    assert_true(spoor_time_parse_decimal(S("1700000000123"), 1000000, &ns) && ns == 1700000000123000000LL);
    assert_true(spoor_time_parse_decimal(S("0000000000000042"), 1, &ns) && ns == 42);
}

static void test_sniff(void **state)
{
    int plain = spoor_format_jsonl.sniff(S("{\"entity\":\"job1\",\"at\":1}\n"));
    int chrome = spoor_format_jsonl.sniff(S("{\"name\":\"read\",\"ph\":\"X\",\"ts\":1,\"dur\":2}\n"));
    assert_true(plain >= 50);
    assert_true(chrome < plain);
    assert_true(spoor_format_jsonl.sniff(S("[\n{\"name\":\"read\"}\n")) < chrome);
    assert_int_equal(spoor_format_jsonl.sniff(S("a,b\n1,2\n")), 0);
    assert_int_equal(spoor_format_jsonl.sniff("", 0), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_field_mapping),
        cmocka_unit_test(test_iso_times),
        cmocka_unit_test(test_negative_times),
        cmocka_unit_test(test_epoch_units),
        cmocka_unit_test(test_values),
        cmocka_unit_test(test_escapes),
        cmocka_unit_test(test_garbage_lines),
        cmocka_unit_test(test_strict),
        cmocka_unit_test(test_args_modes),
        cmocka_unit_test(test_chunking),
        cmocka_unit_test(test_integer_times),
        cmocka_unit_test(test_sniff),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
