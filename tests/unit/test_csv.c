/* The CSV reader: RFC 4180 quoting, line ends, BOM, type inference and
 * promotion, skips, field mapping, time parsing, and the shared iopattern
 * dataset. Also the text-time parsers both generic readers use. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "read/csv.h"
#include "read/time_text.h"
#include "read_harness.h"
#include "testutil.h"

#define S(lit) lit, sizeof(lit) - 1

static const struct spoor_read_opts plain_opts = {0};

static int load(const char *text, size_t len, const struct spoor_read_opts *opts, struct harness *h)
{
    return harness_load(&spoor_format_csv, text, len, len, 0, opts, h);
}

static const char *col_name(const struct harness *h, size_t i)
{
    return spoor_table_str(h->table, h->table->cols[i].name);
}

static void test_basic_types(void **state)
{
    struct harness h;
    assert_int_equal(load(S("a,b,c\n1,x,2.5\n2,y,3\n"), &plain_opts, &h), SPOOR_OK);
    assert_int_equal(h.table->nrows, 2);
    assert_int_equal(h.table->ncols, 3);
    assert_string_equal(col_name(&h, 0), "a");
    assert_string_equal(col_name(&h, 2), "c");
    assert_int_equal(spoor_table_find_column(h.table, "a")->type, SPOOR_I64);
    assert_int_equal(spoor_table_find_column(h.table, "b")->type, SPOOR_STR);
    /* The head saw 2.5, so the later 3 is stored as a float too. */
    assert_int_equal(spoor_table_find_column(h.table, "c")->type, SPOOR_F64);
    assert_string_equal(harness_cell(&h, "b", 1), "y");
    assert_string_equal(harness_cell(&h, "c", 1), "3");
    assert_int_equal(h.table->line[0], 2);
    assert_int_equal(h.table->line[1], 3);
    assert_int_equal(h.lines, 3);
    assert_int_equal(h.skips.total, 0);
    /* No ts/dur/name: fixed columns are absent, rows are instants. */
    assert_true(h.table->ts[0] == SPOOR_NULL);
    assert_int_equal(h.table->name[0], 0);
    assert_int_equal(h.table->ph[0], 'i');
    harness_free(&h);
}

static void test_quotes(void **state)
{
    struct harness h;
    assert_int_equal(load(S("name,v,note\n\"hello, world\",1,a\n\"say \"\"hi\"\"\",2,\"x\"y\n\"\",3,\"\"\"\"\n"),
                          &plain_opts, &h), SPOOR_OK);
    assert_int_equal(h.table->nrows, 3);
    assert_string_equal(spoor_table_str(h.table, h.table->name[0]), "hello, world");
    assert_string_equal(spoor_table_str(h.table, h.table->name[1]), "say \"hi\"");
    assert_string_equal(spoor_table_str(h.table, h.table->name[2]), "");
    /* Text after a closing quote is kept; "" alone is one quote. */
    assert_string_equal(harness_cell(&h, "note", 1), "xy");
    assert_string_equal(harness_cell(&h, "note", 2), "\"");
    /* The field filling the fixed name column is not repeated as a column. */
    assert_null(spoor_table_find_column(h.table, "name"));
    assert_int_equal(h.table->ncols, 2);
    harness_free(&h);
}

static void test_crlf_and_bom(void **state)
{
    struct harness h;
    assert_int_equal(load(S("\xEF\xBB\xBFid,v\r\n1,2\r\n3,4\r\n"), &plain_opts, &h), SPOOR_OK);
    assert_int_equal(h.table->nrows, 2);
    assert_string_equal(col_name(&h, 0), "id");
    assert_int_equal(spoor_table_find_column(h.table, "v")->type, SPOOR_I64);
    assert_string_equal(harness_cell(&h, "v", 1), "4");
    assert_int_equal(h.skips.total, 0);
    harness_free(&h);
}

static void test_empty_fields(void **state)
{
    struct harness h;
    assert_int_equal(load(S("a,b,c\n1,,3\n,,\n4,5,\n"), &plain_opts, &h), SPOOR_OK);
    assert_int_equal(h.table->nrows, 3);
    const struct spoor_column *b = spoor_table_find_column(h.table, "b");
    assert_false(spoor_column_valid(b, 0));
    assert_false(spoor_column_valid(b, 1));
    assert_true(spoor_column_valid(b, 2));
    assert_false(spoor_column_valid(spoor_table_find_column(h.table, "a"), 1));
    assert_false(spoor_column_valid(spoor_table_find_column(h.table, "c"), 2));
    harness_free(&h);
}

/* The head shows ints; values after it are floats or text and promote the column. */
static void test_promotion_after_head(void **state)
{
    const char text[] = "n,f,z\n1,1,abc\n2,2,def\n3,2.5,007\nx,4,9\n";
    struct harness h;
    assert_int_equal(harness_load(&spoor_format_csv, text, sizeof text - 1, 22, 6, &plain_opts, &h), SPOOR_OK);
    assert_int_equal(h.table->nrows, 4);
    assert_int_equal(spoor_table_find_column(h.table, "n")->type, SPOOR_STR);
    assert_string_equal(harness_cell(&h, "n", 0), "1");
    assert_string_equal(harness_cell(&h, "n", 3), "x");
    assert_int_equal(spoor_table_find_column(h.table, "f")->type, SPOOR_F64);
    assert_string_equal(harness_cell(&h, "f", 2), "2.5");
    /* A text column keeps number-looking values as written. */
    assert_int_equal(spoor_table_find_column(h.table, "z")->type, SPOOR_STR);
    assert_string_equal(harness_cell(&h, "z", 2), "007");
    harness_free(&h);
}

static void test_wide_integers_are_text(void **state)
{
    struct harness h;
    assert_int_equal(load(S("hash,v\n340282366920938463463374607431768211455,1\n7,2\n"), &plain_opts, &h), SPOOR_OK);
    assert_int_equal(spoor_table_find_column(h.table, "hash")->type, SPOOR_STR);
    assert_string_equal(harness_cell(&h, "hash", 0), "340282366920938463463374607431768211455");
    assert_string_equal(harness_cell(&h, "hash", 1), "7");
    harness_free(&h);
}

static void test_wrong_field_count(void **state)
{
    struct harness h;
    assert_int_equal(load(S("a,b\n1,2\n1,2,3\n4\n5,6\n"), &plain_opts, &h), SPOOR_OK);
    assert_int_equal(h.table->nrows, 2);
    assert_int_equal(h.skips.total, 2);
    assert_string_equal(h.skips.reason[0], "wrong number of fields");
    assert_int_equal(h.skips.sample[0].line, 3);
    assert_string_equal(h.skips.sample[0].detail, "expected 2 fields, found 3: 1,2,3");
    assert_int_equal(h.skips.sample[1].line, 4);
    assert_string_equal(h.skips.sample[1].detail, "expected 2 fields, found 1: 4");
    assert_int_equal(h.table->line[1], 5);
    harness_free(&h);
}

static void test_strict(void **state)
{
    struct spoor_read_opts opts = {.strict = true};
    struct harness h;
    assert_int_equal(load(S("a,b\n1,2\n1,2,3\n5,6\n"), &opts, &h), SPOOR_ESTRICT);
    assert_int_equal(h.skips.total, 1);
    assert_int_equal(h.skips.sample[0].line, 3);
    assert_non_null(strstr(h.err.msg, "wrong number of fields"));
    harness_free(&h);
}

static void test_header_only_and_empty(void **state)
{
    struct harness h;
    assert_int_equal(load(S("a,b,c\n"), &plain_opts, &h), SPOOR_OK);
    assert_int_equal(h.table->nrows, 0);
    assert_int_equal(h.lines, 1);
    assert_int_equal(h.skips.total, 0);
    harness_free(&h);

    assert_int_equal(load("", 0, &plain_opts, &h), SPOOR_OK);
    assert_int_equal(h.table->nrows, 0);
    assert_int_equal(h.lines, 0);
    harness_free(&h);

    assert_int_equal(load(S("\n1,2\n"), &plain_opts, &h), SPOOR_EFORMAT);
    assert_non_null(strstr(h.err.msg, "header"));
    harness_free(&h);
}

static void test_quoted_line_break(void **state)
{
    struct harness h;
    assert_int_equal(load(S("a,b\n1,\"x\ny,z\"\n2,3\n"), &plain_opts, &h), SPOOR_OK);
    assert_int_equal(h.table->nrows, 1);
    assert_string_equal(harness_cell(&h, "a", 0), "2");
    assert_int_equal(h.skips.total, 2);
    assert_int_equal(h.skips.sample[0].line, 2);
    assert_string_equal(h.skips.sample[0].reason, "quoted field with a line break (unsupported)");
    /* "y,z\"" has two fields but must not become a row. */
    assert_int_equal(h.skips.sample[1].line, 3);
    assert_string_equal(h.skips.sample[1].reason, "continues a quoted field with a line break (unsupported)");
    harness_free(&h);
}

static void test_delimiters(void **state)
{
    struct harness h;
    assert_int_equal(load(S("a;b;c\n1;2,5;x\n3;4;y\n"), &plain_opts, &h), SPOOR_OK);
    assert_int_equal(h.table->ncols, 3);
    assert_string_equal(harness_cell(&h, "b", 0), "2,5");
    assert_non_null(strstr(h.dialect.assumed, "delimiter ';'"));
    harness_free(&h);

    assert_int_equal(load(S("a\tb\n1\t2\n"), &plain_opts, &h), SPOOR_OK);
    assert_int_equal(h.table->ncols, 2);
    assert_string_equal(harness_cell(&h, "b", 0), "2");
    harness_free(&h);

    struct spoor_read_opts opts = {.csv_delim = '|'};
    assert_int_equal(load(S("a|b,c\n1|2,3\n"), &opts, &h), SPOOR_OK);
    assert_string_equal(harness_cell(&h, "b,c", 0), "2,3");
    harness_free(&h);

    opts.csv_delim = '"';
    assert_int_equal(load(S("a\"b\n"), &opts, &h), SPOOR_EUSAGE);
    harness_free(&h);
}

static void test_header_names(void **state)
{
    struct harness h;
    assert_int_equal(load(S(" x ,x,,x.1\n1,2,3,4\n"), &plain_opts, &h), SPOOR_OK);
    assert_int_equal(h.table->ncols, 4);
    assert_string_equal(col_name(&h, 0), "x");
    assert_string_equal(col_name(&h, 1), "x.1");
    assert_string_equal(col_name(&h, 2), "column_3");
    assert_string_equal(col_name(&h, 3), "x.1.1");
    harness_free(&h);
}

static void test_field_mapping(void **state)
{
    struct spoor_read_opts opts = {.field_ts = "at", .field_name = "who", .field_dur = "took",
                                   .field_pid = "rank", .dur_unit = SPOOR_UNIT_MS};
    struct harness h;
    assert_int_equal(load(S("at,who,took,rank,ts\n1709642096.5,alice,250,3,q\n1709642097,bob,,4,r\n"), &opts, &h),
                     SPOOR_OK);
    assert_int_equal(h.table->nrows, 2);
    assert_true(h.table->ts[0] == 1709642096500000000LL);
    assert_true(h.table->ts[1] == 1709642097000000000LL);
    assert_true(h.table->dur[0] == 250000000LL);
    assert_true(h.table->dur[1] == SPOOR_NULL);
    assert_int_equal(h.table->pid[1], 4);
    assert_int_equal(h.table->ph[0], 'X');
    assert_int_equal(h.table->ph[1], 'i');
    assert_string_equal(spoor_table_str(h.table, h.table->name[1]), "bob");
    assert_int_equal(h.dialect.ts_unit, SPOOR_UNIT_S);
    /* Mapped fields keep their own columns; "ts" is just another field here. */
    assert_int_equal(h.table->ncols, 5);
    assert_string_equal(harness_cell(&h, "at", 0), "1.70964e+09");
    assert_string_equal(harness_cell(&h, "who", 0), "alice");
    assert_string_equal(harness_cell(&h, "ts", 1), "r");
    harness_free(&h);

    opts = (struct spoor_read_opts){.field_ts = "when"};
    assert_int_equal(load(S("at,v\n1,2\n"), &opts, &h), SPOOR_EUSAGE);
    assert_non_null(strstr(h.err.msg, "no column 'when' (--ts)"));
    assert_non_null(strstr(h.err.msg, "at, v"));
    harness_free(&h);
}

static void test_iso_and_bad_times(void **state)
{
    struct harness h;
    assert_int_equal(load(S("ts,v\n2024-03-05T12:34:56.789Z,1\n2024-03-05 13:34:56+01:00,2\nsoon,3\n,4\n"),
                          &plain_opts, &h), SPOOR_OK);
    assert_int_equal(h.table->nrows, 3);
    assert_true(h.table->ts[0] == 1709642096789000000LL);
    assert_true(h.table->ts[1] == 1709642096000000000LL);
    assert_true(h.table->ts[2] == SPOOR_NULL);
    assert_null(spoor_table_find_column(h.table, "ts"));
    assert_int_equal(h.skips.total, 1);
    assert_string_equal(h.skips.reason[0], "ts is not a number or an ISO-8601 time");
    assert_int_equal(h.skips.sample[0].line, 4);
    assert_non_null(strstr(h.dialect.assumed, "ISO-8601"));
    harness_free(&h);

    assert_int_equal(load(S("pid,tid\n12,7\n12,x\n"), &plain_opts, &h), SPOOR_OK);
    assert_int_equal(h.table->nrows, 1);
    assert_int_equal(h.table->tid[0], 7);
    assert_string_equal(h.skips.reason[0], "tid is not a 64-bit integer");
    harness_free(&h);
}

static void test_unit_guess(void **state)
{
    struct harness h;
    assert_int_equal(load(S("ts,dur\n1709642096789,5\n1709642096790,6\n"), &plain_opts, &h), SPOOR_OK);
    assert_int_equal(h.dialect.ts_unit, SPOOR_UNIT_MS);
    assert_int_equal(h.dialect.dur_unit, SPOOR_UNIT_MS);
    assert_true(h.table->ts[0] == 1709642096789000000LL);
    assert_true(h.table->dur[1] == 6000000LL);
    assert_non_null(strstr(h.dialect.assumed, "in ms"));
    harness_free(&h);

    const struct { const char *text; enum spoor_unit unit; } cases[] = {
        {"ts\n1709642096\n", SPOOR_UNIT_S},
        {"ts\n1709642096789123\n", SPOOR_UNIT_US},
        {"ts\n1709642096789123456\n", SPOOR_UNIT_NS},
        {"ts\n0.5\n12.25\n", SPOOR_UNIT_S},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        assert_int_equal(load(cases[i].text, strlen(cases[i].text), &plain_opts, &h), SPOOR_OK);
        assert_int_equal(h.dialect.ts_unit, cases[i].unit);
        harness_free(&h);
    }
    struct spoor_read_opts opts = {.ts_unit = SPOOR_UNIT_US};
    assert_int_equal(load(S("ts\n1709642096\n"), &opts, &h), SPOOR_OK);
    assert_true(h.table->ts[0] == 1709642096000LL);
    harness_free(&h);
}

static void test_args_modes(void **state)
{
    struct spoor_read_opts opts = {.args = SPOOR_ARGS_NONE};
    struct harness h;
    assert_int_equal(load(S("ts,a,b\n1,2,3\n"), &opts, &h), SPOOR_OK);
    assert_int_equal(h.table->ncols, 0);
    assert_int_equal(h.table->nrows, 1);
    harness_free(&h);

    const char *keys[] = {"b"};
    opts = (struct spoor_read_opts){.args = SPOOR_ARGS_LISTED, .arg_keys = keys, .n_arg_keys = 1};
    assert_int_equal(load(S("ts,a,b\n1,2,3\n"), &opts, &h), SPOOR_OK);
    assert_int_equal(h.table->ncols, 1);
    assert_string_equal(harness_cell(&h, "b", 0), "3");
    harness_free(&h);
}

static void test_sniff(void **state)
{
    assert_true(spoor_format_csv.sniff(S("a,b,c\n1,2,3\n4,5,6\n")) >= 50);
    assert_int_equal(spoor_format_csv.sniff(S("{\"a\":1}\n")), 0);
    assert_int_equal(spoor_format_csv.sniff(S("[\n{\"a\":1}\n")), 0);
    assert_int_equal(spoor_format_csv.sniff("", 0), 0);
    assert_int_equal(spoor_format_csv.sniff(S("just some text\nmore\n")), 0);
}

/* A delimiter must be used consistently across the first lines, and the
 * first line must name columns: text tables, logs and garbage are no CSV. */
static void test_sniff_needs_a_table(void **state)
{
    /* bpftrace output: aligned with blanks, no header */
    assert_int_equal(spoor_format_csv.sniff(S("1802565964177173  12:04:36  863      jbd2/sda1-8    0  sda  R 4096\n"
                                              "1802565964297796  12:04:36  863      jbd2/sda1-8    0  sda  W 45056\n")),
                     0);
    /* ps aux rows */
    assert_int_equal(spoor_format_csv.sniff(S("root  1001  0.0  0.0  31952 18508 ?  Ss  Mar10  0:00 /usr/bin/python3 x\n"
                                              "root  1480  0.0  0.0 110504 21140 ?  Ssl Mar10  0:00 /usr/bin/python3 y\n")),
                     0);
    /* mpstat: tabs in the banner only */
    assert_int_equal(spoor_format_csv.sniff(S("Linux 5.4.0 (host) \t03/31/2022 \t_x86_64_\t(36 CPU)\n\n"
                                              "12:04:31 PM  CPU    %usr   %nice\n12:04:32 PM  all    2.70    0.00\n")),
                     0);
    /* a log whose time has one comma on every line; a headerless numeric table */
    assert_int_equal(spoor_format_csv.sniff(S("2022-03-31 12:05:09,054:INFO: Creating dataloader objects\n"
                                              "2022-03-31 12:05:10,463:INFO: Dataloader objects created\n"
                                              "2022-03-31 12:05:10,463:INFO: next_layer: 1\n")),
                     0);
    assert_int_equal(spoor_format_csv.sniff(S("1,2.5,3\n4,5,6\n")), 0);
    /* a comma in one line of prose */
    assert_int_equal(spoor_format_csv.sniff(S("hello, world\nno comma here\nnor here\n")), 0);

    /* real tables still are: other delimiters, quotes, a ragged row, a
     * header alone, dates naming columns of numbers, one named column */
    assert_true(spoor_format_csv.sniff(S("a;b\n1;2\n3;4\n")) >= 50);
    assert_true(spoor_format_csv.sniff(S("a\tb\n1\t2\n")) >= 50);
    assert_true(spoor_format_csv.sniff(S("name,path\nr,\"/a, b\"\nw,\"/c\"\n")) >= 50);
    assert_true(spoor_format_csv.sniff(S("a,b,c\n1,2,3\n4,5\n6,7,8\n")) > 0);
    assert_true(spoor_format_csv.sniff(S("a,b,c\n")) > 0);
    assert_true(spoor_format_csv.sniff(S("id,note\n1,\"two\nlines\"\n2,x\n")) >= 50);
    assert_true(spoor_format_csv.sniff(S("host,2024-01-01,2024-01-02\nx,5,6\ny,7,8\n")) >= 50);
    assert_true(spoor_format_csv.sniff(S("ts,at\n1,2024-01-01 10:00:00\n2,2024-01-01 10:00:01\n")) >= 50);
    assert_true(spoor_format_csv.sniff(S("ts\n1709642096\n1709642097\n")) > 0);
    assert_true(spoor_format_csv.sniff(S("ts\n2024-03-05T12:34:56Z\n\"2024-03-05 12:34:57\"\n")) > 0);
    assert_int_equal(spoor_format_csv.sniff(S("ts\n12 34\n")), 0);
    assert_int_equal(spoor_format_csv.sniff(S("two words\n1\n")), 0);
}

/* Text no reader knows fails detection with one line; an empty input is
 * still a trace with no events. */
static void test_detect_unknown_text(void **state)
{
    struct spoor_dialect d;
    struct spoor_error err;
    struct spoor_read_opts opts = {0};
    assert_int_equal(spoor_detect(S("root  1001  0.0  0.0 ?  Ss  Mar10  0:00 /usr/bin/python3\n"), &opts, &d, &err),
                     SPOOR_EFORMAT);
    assert_string_equal(err.msg, "could not detect the format (use --input-format)");
    opts.field_ts = "ts";
    assert_int_equal(spoor_detect(S("garbage here\nand there\n"), &opts, &d, &err), SPOOR_EFORMAT);
    opts = (struct spoor_read_opts){.format = "csv"};
    assert_int_equal(spoor_detect(S("garbage here\nand there\n"), &opts, &d, &err), SPOOR_OK);
    spoor_dialect_release(&d);
    opts = (struct spoor_read_opts){0};
    assert_int_equal(spoor_detect(S(" \n\n"), &opts, &d, &err), SPOOR_OK);
    spoor_dialect_release(&d);
    assert_int_equal(spoor_detect(S("ts\n5\n"), &opts, &d, &err), SPOOR_OK);
    assert_string_equal(d.name, "csv");
    spoor_dialect_release(&d);
}

static void test_classify(void **state)
{
    int64_t i;
    double d;
    assert_int_equal(csv_classify(S("12"), &i, &d), CSV_INT);
    assert_int_equal(i, 12);
    assert_int_equal(csv_classify(S(" -7 "), &i, &d), CSV_INT);
    assert_int_equal(i, -7);
    assert_int_equal(csv_classify(S("-9223372036854775808"), &i, &d), CSV_INT);
    assert_int_equal(csv_classify(S("9223372036854775808"), &i, &d), CSV_TEXT);
    assert_int_equal(csv_classify(S("-3.5e2"), &i, &d), CSV_FLOAT);
    assert_true(d == -350.0);
    assert_int_equal(csv_classify(S("0.1"), &i, &d), CSV_FLOAT);
    assert_true(d == 0.1);
    assert_int_equal(csv_classify(S("3.14159265358979323846"), &i, &d), CSV_FLOAT);
    assert_true(d == 3.14159265358979323846);
    assert_int_equal(csv_classify(S(".5"), &i, &d), CSV_FLOAT);
    assert_int_equal(csv_classify(S("1."), &i, &d), CSV_FLOAT);
    assert_int_equal(csv_classify(S("1.2.3"), &i, &d), CSV_TEXT);
    assert_int_equal(csv_classify(S("1e"), &i, &d), CSV_TEXT);
    assert_int_equal(csv_classify(S("."), &i, &d), CSV_TEXT);
    assert_int_equal(csv_classify(S("nan"), &i, &d), CSV_TEXT);
    assert_int_equal(csv_classify(S("0x10"), &i, &d), CSV_TEXT);
    assert_int_equal(csv_classify(S("  "), &i, &d), CSV_EMPTY);
}

/* csv_classify's double is strtod's, bit for bit; its integer strtoll's. */
static void expect_like_strtod(const char *text)
{
    int64_t i;
    double d, want = strtod(text, NULL);
    enum csv_kind kind = csv_classify(text, strlen(text), &i, &d);
    if (kind == CSV_INT)
        assert_true(i == strtoll(text, NULL, 10));
    else if (kind == CSV_FLOAT && memcmp(&d, &want, sizeof d) != 0)
        fail_msg("%s: %.17g, strtod %.17g", text, d, want);
}

/* Random numbers of every shape the fast paths see or must hand over. */
static void test_classify_matches_strtod(void **state)
{
    static const char *const edges[] = {"-0.0", "-0", "+1.5", "007.50", "0.000000000000001", "999999999999999.9",
                                        "123456789012345", "1234567890123456", "0.1234567890123456",
                                        "9007199254740993", "9007199254740993.0", "1e308", "1e309", "1e-320",
                                        "2.2250738585072011e-308", "4.9e-324", "-1.7976931348623157e308",
                                        "123456789012345678901234567890", "5e-1", "1.e5"};
    for (size_t k = 0; k < sizeof edges / sizeof *edges; k++)
        expect_like_strtod(edges[k]);
    uint64_t seed = 42;
    char text[64];
    for (int n = 0; n < 20000; n++) {
        size_t len = 0;
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        uint64_t r = seed >> 16;
        if (r % 4 == 0)
            text[len++] = r % 8 == 0 ? '-' : '+';
        size_t digits = 1 + (r >> 3) % 22, dot = (r >> 8) % (digits + 1);
        for (size_t k = 0; k < digits; k++) {
            if (k == dot && k > 0)
                text[len++] = '.';
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            text[len++] = (char)('0' + (seed >> 33) % 10);
        }
        if ((r >> 16) % 5 == 0)
            len += (size_t)snprintf(text + len, sizeof text - len, "e%d", (int)((r >> 20) % 700) - 350);
        text[len] = '\0';
        expect_like_strtod(text);
    }
}

/* Lines taking the one-scan path and those handed to the general splitter
 * give the same values: signs, zeros, exponents, blanks, quotes, inf and nan. */
static void test_numbers_in_lines(void **state)
{
    struct harness h;
    assert_int_equal(load(S("a,b\n1.5,2\n-0.0,\"3\"\n+2.25, 4 \n1e3,007\ninf,nan\n0.1,-0\n"), &plain_opts, &h),
                     SPOOR_OK);
    assert_int_equal(h.table->nrows, 6);
    const struct spoor_column *a = spoor_table_find_column(h.table, "a");
    assert_int_equal(a->type, SPOOR_STR); /* inf in the head makes it text */
    const struct spoor_column *b = spoor_table_find_column(h.table, "b");
    assert_int_equal(b->type, SPOOR_STR);
    assert_string_equal(harness_cell(&h, "a", 1), "-0.0");
    harness_free(&h);
    assert_int_equal(load(S("a,b\n1.5,2\n-0.0,\"3\"\n+2.25, 4 \n1e3,007\n0.1,-0\n"), &plain_opts, &h), SPOOR_OK);
    a = spoor_table_find_column(h.table, "a");
    b = spoor_table_find_column(h.table, "b");
    assert_int_equal(a->type, SPOOR_F64);
    assert_int_equal(b->type, SPOOR_I64);
    assert_true(a->f64[0] == 1.5 && a->f64[1] == 0.0 && signbit(a->f64[1]));
    assert_true(a->f64[2] == 2.25 && a->f64[3] == 1000.0 && a->f64[4] == 0.1);
    assert_true(b->i64[0] == 2 && b->i64[1] == 3 && b->i64[2] == 4 && b->i64[3] == 7 && b->i64[4] == 0);
    harness_free(&h);
}

/* The string memo gives each string its own id whatever its length, and the
 * same id when it comes back: strings that differ only in their first byte,
 * their last byte or their length never share one. */
static void test_string_memo(void **state)
{
    struct spoor_table *t = spoor_table_new();
    struct spoor_string_memo memo = {0};
    char text[2][64];
    for (size_t n = 0; n < 24; n++) {
        for (int v = 0; v < 2; v++) {
            memset(text[v], 'a', n);
            if (n)
                text[v][v ? n - 1 : 0] = 'b';
        }
        for (int round = 0; round < 2; round++)
            for (int v = 0; v < 2; v++) {
                uint32_t id = spoor_memo_intern(&memo, t, text[v], n);
                assert_int_equal(id, spoor_table_intern(t, text[v], n));
                assert_int_equal(id, spoor_memo_intern(&memo, t, text[v], n)); /* the remembered way */
            }
        if (n)
            assert_int_equal(spoor_memo_intern(&memo, t, text[0], n - 1), spoor_table_intern(t, text[0], n - 1));
    }
    spoor_table_free(t);
}

static void test_iso_parser(void **state)
{
    int64_t ns;
    assert_true(spoor_time_parse_iso(S("1970-01-01T00:00:00Z"), &ns) && ns == 0);
    assert_true(spoor_time_parse_iso(S("2024-03-05T12:34:56.789Z"), &ns) && ns == 1709642096789000000LL);
    assert_true(spoor_time_parse_iso(S("2024-03-05 12:34:56"), &ns) && ns == 1709642096000000000LL);
    assert_true(spoor_time_parse_iso(S("2024-03-05t12:34:56,5"), &ns) && ns == 1709642096500000000LL);
    assert_true(spoor_time_parse_iso(S("2024-03-05T18:04:56.789+05:30"), &ns) && ns == 1709642096789000000LL);
    assert_true(spoor_time_parse_iso(S("2024-03-05T07:34:56-0500"), &ns) && ns == 1709642096000000000LL);
    assert_true(spoor_time_parse_iso(S("2024-03-05T14:34:56+02"), &ns) && ns == 1709642096000000000LL);
    assert_true(spoor_time_parse_iso(S("2024-03-05T12:34Z"), &ns) && ns == 1709642040000000000LL);
    assert_true(spoor_time_parse_iso(S("2024-03-05"), &ns) && ns == 1709596800000000000LL);
    assert_true(spoor_time_parse_iso(S("2024-02-29"), &ns));
    assert_true(spoor_time_parse_iso(S("2000-02-29"), &ns) && ns == 951782400000000000LL);
    assert_true(spoor_time_parse_iso(S("1969-12-31T23:59:59.999999999Z"), &ns) && ns == -1);
    /* Nanoseconds are kept; digits past the ninth are cut. */
    assert_true(spoor_time_parse_iso(S("2024-03-05T12:34:56.1234567899Z"), &ns) && ns == 1709642096123456789LL);
    assert_false(spoor_time_parse_iso(S("2023-02-29"), &ns));
    assert_false(spoor_time_parse_iso(S("1900-02-29"), &ns));
    assert_false(spoor_time_parse_iso(S("2024-13-01"), &ns));
    assert_false(spoor_time_parse_iso(S("2024-03-05T25:00:00"), &ns));
    assert_false(spoor_time_parse_iso(S("2024-03-05T12:60:00"), &ns));
    assert_false(spoor_time_parse_iso(S("2024-03-05T12:34:56."), &ns));
    assert_false(spoor_time_parse_iso(S("2024-03-05T12:34:56 junk"), &ns));
    assert_false(spoor_time_parse_iso(S("2024-3-5"), &ns));
    assert_false(spoor_time_parse_iso(S("9999-12-31"), &ns)); /* beyond int64 ns */
    assert_false(spoor_time_parse_iso(S("1709642096"), &ns));
}

static void test_decimal_parser(void **state)
{
    int64_t ns;
    assert_true(spoor_time_parse_decimal(S("1.5"), 1000000000, &ns) && ns == 1500000000LL);
    assert_true(spoor_time_parse_decimal(S("1709642096.123456789"), 1000000000, &ns) && ns == 1709642096123456789LL);
    assert_true(spoor_time_parse_decimal(S("-0.5"), 1000000, &ns) && ns == -500000);
    assert_true(spoor_time_parse_decimal(S("+12"), 1000, &ns) && ns == 12000);
    assert_true(spoor_time_parse_decimal(S("0.0000000005"), 1000000000, &ns) && ns == 1);
    assert_true(spoor_time_parse_decimal(S("0.0000000004"), 1000000000, &ns) && ns == 0);
    assert_true(spoor_time_parse_decimal(S("2.5e3"), 1000, &ns) && ns == 2500000);
    assert_true(spoor_time_parse_decimal(S("7."), 1, &ns) && ns == 7);
    assert_false(spoor_time_parse_decimal(S("9300000000"), 1000000000, &ns));
    assert_false(spoor_time_parse_decimal(S("abc"), 1, &ns));
    assert_false(spoor_time_parse_decimal(S("."), 1, &ns));
    assert_false(spoor_time_parse_decimal(S("1.2.3"), 1, &ns));
    assert_false(spoor_time_parse_decimal(S(""), 1, &ns));
}

/* The I/O-pattern dataset: 864 rows x 38 columns, three balanced labels. */
static void test_iopattern_dataset(void **state)
{
    const char *path = testutil_data("iopattern/consolidated_dataset.csv");
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    static char text[1 << 20];
    size_t len = fread(text, 1, sizeof text, f);
    fclose(f);
    assert_true(len > 0 && len < sizeof text);
    assert_true(spoor_format_csv.sniff(text, len) >= 50);

    struct harness whole, chunked;
    assert_int_equal(harness_load(&spoor_format_csv, text, len, 64 * 1024, 0, &plain_opts, &whole), SPOOR_OK);
    assert_int_equal(harness_load(&spoor_format_csv, text, len, 64 * 1024, 4096, &plain_opts, &chunked), SPOOR_OK);
    struct spoor_table *t = whole.table;
    assert_int_equal(t->nrows, 864);
    assert_int_equal(t->ncols, 38);
    assert_int_equal(whole.skips.total, 0);
    assert_int_equal(whole.lines, 865);
    assert_string_equal(col_name(&whole, 0), "run_id");
    assert_string_equal(col_name(&whole, 1), "pattern");
    assert_string_equal(col_name(&whole, 37), "label");
    assert_string_equal(harness_cell(&whole, "run_id", 0), "sequential_1_cold");
    assert_string_equal(harness_cell(&whole, "timestamp_end", 0), "2.5");
    assert_int_equal(spoor_table_find_column(t, "window_id")->type, SPOOR_I64);
    assert_int_equal(spoor_table_find_column(t, "iops_mean")->type, SPOOR_F64);
    assert_int_equal(spoor_table_find_column(t, "trace_avg_request_size_kb")->type, SPOOR_I64);
    assert_string_equal(harness_cell(&whole, "label", 863), "mixed");
    size_t per_label[3] = {0};
    const char *labels[3] = {"sequential", "random", "mixed"};
    const struct spoor_column *label = spoor_table_find_column(t, "label");
    for (size_t r = 0; r < t->nrows; r++)
        for (int k = 0; k < 3; k++)
            per_label[k] += strcmp(spoor_table_str(t, label->str[r]), labels[k]) == 0;
    for (int k = 0; k < 3; k++)
        assert_int_equal(per_label[k], 288);
    assert_string_equal(whole.dialect.assumed, "no field 'ts', so no ts (use --ts FIELD)");

    /* Chunks parsed apart give the same table. */
    assert_int_equal(chunked.table->nrows, 864);
    assert_int_equal(chunked.table->ncols, 38);
    for (size_t c = 0; c < 38; c++) {
        assert_int_equal(chunked.table->cols[c].type, t->cols[c].type);
        for (size_t r = 0; r < t->nrows; r += 97)
            assert_string_equal(harness_cell(&chunked, col_name(&whole, c), r),
                                harness_cell(&whole, col_name(&whole, c), r));
    }
    assert_int_equal(chunked.table->line[863], 865);
    harness_free(&whole);
    harness_free(&chunked);

    struct spoor_read_opts opts = {.field_ts = "timestamp_start", .field_name = "pattern"};
    struct harness h;
    assert_int_equal(harness_load(&spoor_format_csv, text, len, 64 * 1024, 0, &opts, &h), SPOOR_OK);
    assert_int_equal(h.dialect.ts_unit, SPOOR_UNIT_S);
    assert_true(h.table->ts[1] == 2500000000LL);
    assert_string_equal(spoor_table_str(h.table, h.table->name[0]), "sequential");
    assert_int_equal(h.table->ncols, 38);
    harness_free(&h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_basic_types),
        cmocka_unit_test(test_quotes),
        cmocka_unit_test(test_crlf_and_bom),
        cmocka_unit_test(test_empty_fields),
        cmocka_unit_test(test_promotion_after_head),
        cmocka_unit_test(test_wide_integers_are_text),
        cmocka_unit_test(test_wrong_field_count),
        cmocka_unit_test(test_strict),
        cmocka_unit_test(test_header_only_and_empty),
        cmocka_unit_test(test_quoted_line_break),
        cmocka_unit_test(test_delimiters),
        cmocka_unit_test(test_header_names),
        cmocka_unit_test(test_field_mapping),
        cmocka_unit_test(test_iso_and_bad_times),
        cmocka_unit_test(test_unit_guess),
        cmocka_unit_test(test_args_modes),
        cmocka_unit_test(test_sniff),
        cmocka_unit_test(test_sniff_needs_a_table),
        cmocka_unit_test(test_detect_unknown_text),
        cmocka_unit_test(test_classify),
        cmocka_unit_test(test_classify_matches_strtod),
        cmocka_unit_test(test_numbers_in_lines),
        cmocka_unit_test(test_string_memo),
        cmocka_unit_test(test_iso_parser),
        cmocka_unit_test(test_decimal_parser),
        cmocka_unit_test(test_iopattern_dataset),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
