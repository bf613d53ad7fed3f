/* The report renderers on a made-up report: every cell type and unit in each
 * format, CSV quoting and JSON escaping, null and absent cells, an empty
 * sheet, properties (as members, as an object, as a cell), sheets shown in
 * some formats only, --format parsing, a large sheet rendered on threads
 * giving the same bytes as on one, and the HTML page. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spoor/report.h"

/* The report rendered in a format, as a string (the caller frees it). */
static char *render(const struct spoor_report *r, enum spoor_output_format f, int threads)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    assert_non_null(out);
    assert_int_equal(spoor_report_write(out, r, f, threads, NULL), 0);
    assert_int_equal(fclose(out), 0);
    return text;
}

static void expect_render(const struct spoor_report *r, enum spoor_output_format f, const char *want)
{
    char *got = render(r, f, 1);
    if (strcmp(got, want) != 0)
        fail_msg("%s:\n--- got\n%s--- want\n%s", spoor_format_name(f), got, want);
    free(got);
}

/* One row of every cell type, a row of nulls and absents, and an empty sheet. */
static struct spoor_report *made_up(void)
{
    struct spoor_report *r = spoor_report_new("made up");
    struct spoor_sheet *head = spoor_report_props(r, NULL, SPOOR_FORMATS_ALL);
    spoor_sheet_prop(head, "events", SPOOR_CU_COUNT, 0);
    spoor_sheet_count(head, 1234567);
    spoor_sheet_note(head, "+ %d metadata", 5);
    spoor_sheet_prop(head, "span", SPOOR_CU_NS, 0);
    spoor_sheet_int(head, 2500000);
    spoor_sheet_prop(head, "why", SPOOR_CU_NONE, 0);
    spoor_sheet_null(head);
    spoor_sheet_note(head, "nothing to say");

    struct spoor_sheet *s = spoor_report_rows(r, "cells", 10, SPOOR_FORMATS_ALL);
    spoor_sheet_title(s, "every cell type");
    static const struct {
        const char *name;
        enum spoor_cell_unit unit;
        int digits;
    } cols[] = {{"text", SPOOR_CU_NONE, 0},  {"name", SPOOR_CU_NONE, 0},       {"time", SPOOR_CU_NONE, 0},
                {"int", SPOOR_CU_BYTES, 0},  {"count", SPOOR_CU_COUNT, 0},     {"ns", SPOOR_CU_NS, 3},
                {"share", SPOOR_CU_SHARE, 6}, {"g", SPOOR_CU_NONE, SPOOR_DIGITS_SHORTEST},
                {"flag", SPOOR_CU_NONE, 0},  {"per", SPOOR_CU_NONE, 0}};
    for (size_t c = 0; c < 10; c++)
        spoor_sheet_column(s, c, cols[c].name, cols[c].unit, cols[c].digits, SPOOR_HINT_NONE);
    spoor_sheet_text(s, "a,\"b\"\n\x01");
    spoor_sheet_name(s, "plain");
    spoor_sheet_time(s, 1700000000123000000LL);
    spoor_sheet_int(s, -42);
    spoor_sheet_count(s, 18446744073709551615ULL);
    spoor_sheet_float(s, 1500.25);
    spoor_sheet_float(s, 0.125);
    spoor_sheet_float(s, 0.1);
    spoor_sheet_bool(s, true);
    struct spoor_sheet *per = spoor_sheet_props_new();
    spoor_sheet_prop(per, "bad line", SPOOR_CU_COUNT, 0);
    spoor_sheet_count(per, 3);
    spoor_sheet_sheet(s, per);
    /* the second row: nothing known */
    spoor_sheet_text(s, "");
    spoor_sheet_null(s);
    spoor_sheet_absent(s);
    spoor_sheet_absent(s);
    spoor_sheet_null(s);
    spoor_sheet_float(s, NAN);
    spoor_sheet_float(s, INFINITY);
    spoor_sheet_null(s);
    spoor_sheet_bool(s, false);
    spoor_sheet_sheet(s, spoor_sheet_props_new());

    struct spoor_sheet *empty = spoor_report_rows(r, "empty", 2, SPOOR_FORMATS_ALL);
    spoor_sheet_column(empty, 0, "a", SPOOR_CU_NONE, 0, SPOOR_HINT_CATEGORY);
    spoor_sheet_column(empty, 1, "b", SPOOR_CU_COUNT, 0, SPOOR_HINT_SERIES);
    struct spoor_sheet *obj = spoor_report_props(r, "object", SPOOR_FORMAT_BIT(SPOOR_FORMAT_JSON));
    spoor_sheet_prop(obj, "ratio", SPOOR_CU_RATIO, 2);
    spoor_sheet_float(obj, 2.0 / 3);
    return r;
}

static void test_table(void **state)
{
    (void)state;
    struct spoor_report *r = made_up();
    expect_render(r, SPOOR_FORMAT_TABLE,
                  "events      1,234,567 (+ 5 metadata)\n"
                  "span        2.50 ms\n"
                  "why         - (nothing to say)\n"
                  "\n"
                  "every cell type\n"
                  "text     name   time                            int                       count       ns  share    g  "
                  "flag   per\n"
                  "a,\"b\"\n"
                  "\x01  plain  2023-11-14T22:13:20.123000000Z  -42  18,446,744,073,709,551,615  1.50 us  12.5%  0.1  "
                  "true   -\n"
                  /* absent cells blank, null ones "-" */
                  "(none)   -                                                                    -        -      -    -  "
                  "false  -\n"
                  "\n"
                  "a  b\n");
    spoor_report_free(r);
}

static void test_csv(void **state)
{
    (void)state;
    struct spoor_report *r = made_up();
    expect_render(r, SPOOR_FORMAT_CSV,
                  "# \n"
                  "key,value\n"
                  "events,1234567\n"
                  "span,2500000\n"
                  "why,\n"
                  "\n"
                  "# cells\n"
                  "text,name,time,int,count,ns,share,g,flag,per\n"
                  "\"a,\"\"b\"\"\n\x01\",plain,2023-11-14T22:13:20.123000000Z,-42,18446744073709551615,1500.250,"
                  "0.125000,0.1,true,\n"
                  "\"\",,,,,,,,false,\n"
                  "\n"
                  "# empty\n"
                  "a,b\n");
    spoor_report_free(r);
}

static void test_json(void **state)
{
    (void)state;
    struct spoor_report *r = made_up();
    expect_render(r, SPOOR_FORMAT_JSON,
                  "{\n"
                  "  \"events\": 1234567,\n"
                  "  \"span\": 2500000,\n"
                  "  \"why\": null,\n"
                  "  \"cells\": [\n"
                  "    {\"text\": \"a,\\\"b\\\"\\n\\u0001\", \"name\": \"plain\", \"time\": "
                  "\"2023-11-14T22:13:20.123000000Z\", \"int\": -42, \"count\": 18446744073709551615, \"ns\": 1500.250, "
                  "\"share\": 0.125000, \"g\": 0.1, \"flag\": true, \"per\": {\"bad line\": 3}},\n"
                  "    {\"text\": \"\", \"name\": null, \"count\": null, \"ns\": null, \"share\": null, \"g\": null, "
                  "\"flag\": false, \"per\": {}}\n"
                  "  ],\n"
                  "  \"empty\": [\n"
                  "  ],\n"
                  "  \"object\": {\"ratio\": 0.67}\n"
                  "}\n");
    expect_render(r, SPOOR_FORMAT_JSONL,
                  "{\"text\":\"a,\\\"b\\\"\\n\\u0001\",\"name\":\"plain\",\"time\":\"2023-11-14T22:13:20.123000000Z\","
                  "\"int\":-42,\"count\":18446744073709551615,\"ns\":1500.250,\"share\":0.125000,\"g\":0.1,"
                  "\"flag\":true,\"per\":{\"bad line\":3}}\n"
                  "{\"text\":\"\",\"name\":null,\"count\":null,\"ns\":null,\"share\":null,\"g\":null,\"flag\":false,"
                  "\"per\":{}}\n");
    spoor_report_free(r);
}

/* A sheet meant for one format is left out of the others; a CSV of one sheet has no "# key" line. */
static void test_formats_shown(void **state)
{
    (void)state;
    struct spoor_report *r = spoor_report_new("shown");
    struct spoor_sheet *t = spoor_report_rows(r, "t", 1, SPOOR_FORMAT_BIT(SPOOR_FORMAT_TABLE));
    spoor_sheet_column(t, 0, "for a reader", SPOOR_CU_NS, 0, SPOOR_HINT_NONE);
    spoor_sheet_int(t, 1500);
    struct spoor_sheet *c = spoor_report_rows(r, "c", 1, SPOOR_FORMAT_BIT(SPOOR_FORMAT_CSV));
    spoor_sheet_column(c, 0, "ns", SPOOR_CU_NS, 0, SPOOR_HINT_NONE);
    spoor_sheet_int(c, 1500);
    expect_render(r, SPOOR_FORMAT_TABLE, "for a reader\n     1.50 us\n");
    expect_render(r, SPOOR_FORMAT_CSV, "ns\n1500\n");
    expect_render(r, SPOOR_FORMAT_JSON, "{\n}\n");
    spoor_report_free(r);
}

static void test_reading_back(void **state)
{
    (void)state;
    struct spoor_report *r = made_up();
    assert_int_equal(spoor_report_nsheets(r), 4);
    const struct spoor_sheet *s = spoor_report_sheet(r, 1);
    assert_int_equal(spoor_sheet_kind(s), SPOOR_SHEET_ROWS);
    assert_int_equal(spoor_sheet_nrows(s), 2);
    assert_int_equal(spoor_sheet_ncols(s), 10);
    assert_string_equal(spoor_sheet_header(s, 5), "ns");
    assert_int_equal(spoor_sheet_cell_type(s, 0, 2), SPOOR_CELL_TIME);
    assert_int_equal(spoor_sheet_cell_unit(s, 0, 5), SPOOR_CU_NS);
    assert_int_equal(spoor_sheet_cell_type(s, 1, 3), SPOOR_CELL_ABSENT);
    assert_int_equal(spoor_sheet_hint(spoor_report_sheet(r, 2), 1), SPOOR_HINT_SERIES);
    const struct spoor_sheet *head = spoor_report_sheet(r, 0);
    assert_int_equal(spoor_sheet_kind(head), SPOOR_SHEET_PROPS);
    assert_int_equal(spoor_sheet_nrows(head), 3);
    assert_int_equal(spoor_sheet_cell_unit(head, 1, 1), SPOOR_CU_NS);
    spoor_report_free(r);
}

static void test_format_parse(void **state)
{
    (void)state;
    enum spoor_output_format f = SPOOR_FORMAT_TABLE;
    assert_true(spoor_format_parse("csv", spoor_report_formats, 3, &f));
    assert_int_equal(f, SPOOR_FORMAT_CSV);
    assert_true(spoor_format_parse("json", spoor_report_formats, 3, &f));
    assert_int_equal(f, SPOOR_FORMAT_JSON);
    assert_false(spoor_format_parse("jsonl", spoor_report_formats, 3, &f));
    assert_false(spoor_format_parse("", spoor_report_formats, 3, &f));
    assert_int_equal(f, SPOOR_FORMAT_JSON);
}

/* 50,000 rows: formatted in parts on 4 threads, the same bytes as on one. */
static void test_threads(void **state)
{
    (void)state;
    struct spoor_report *r = spoor_report_new("large");
    struct spoor_sheet *s = spoor_report_rows(r, "rows", 3, SPOOR_FORMATS_ALL);
    spoor_sheet_column(s, 0, "start", SPOOR_CU_NONE, 0, SPOOR_HINT_TIME);
    spoor_sheet_column(s, 1, "group", SPOOR_CU_NONE, 0, SPOOR_HINT_CATEGORY);
    spoor_sheet_column(s, 2, "mean", SPOOR_CU_NONE, SPOOR_DIGITS_SHORTEST, SPOOR_HINT_SERIES);
    spoor_sheet_reserve(s, 50000);
    for (int i = 0; i < 50000; i++) {
        spoor_sheet_time(s, (int64_t)i * 3600000000000LL);
        spoor_sheet_textf(s, "node%d", i % 7);
        spoor_sheet_float(s, i % 11 ? i / 3.0 : NAN);
    }
    for (enum spoor_output_format f = SPOOR_FORMAT_TABLE; f <= SPOOR_FORMAT_JSON; f++) {
        char *one = render(r, f, 1), *four = render(r, f, 4);
        assert_true(strlen(one) > 50000 * 10);
        assert_string_equal(one, four);
        free(one);
        free(four);
    }
    spoor_report_free(r);
}

/* Row i of a made-up dataset: an id, a name (padded to ctx's width if any),
 * a row of kernel ns (null where SPOOR_NULL-like -1), a float that is
 * sometimes NaN. */
static void fill_row(void *ctx, struct spoor_sheet *s, size_t i)
{
    spoor_sheet_int(s, (int64_t)i);
    spoor_sheet_textf(s, "call,%*zu", ctx ? *(const int *)ctx : 0, i % 3);
    int64_t ns[3] = {(int64_t)i * 10, i % 4 ? (int64_t)i : -1, 7};
    spoor_sheet_ints(s, ns, 3, -1);
    spoor_sheet_float(s, i % 5 ? (double)i / 8 : NAN);
}

/* The same N rows of fill_row (of width *pad or more; pad may be NULL) twice:
 * held in `held`, made while rendered in `made`. */
enum { N_SOURCE = 5000 };
static void held_and_made(int *pad, struct spoor_report **held, struct spoor_report **made)
{
    static const struct spoor_sheet_col cols[] = {{"id", SPOOR_CU_NONE, 0, SPOOR_HINT_NONE},
                                                  {"name", SPOOR_CU_NONE, 0, SPOOR_HINT_CATEGORY},
                                                  {"a", SPOOR_CU_NS, 0, SPOOR_HINT_STACKED},
                                                  {"b", SPOOR_CU_NS, 0, SPOOR_HINT_STACKED},
                                                  {"c", SPOOR_CU_NS, 0, SPOOR_HINT_STACKED},
                                                  {"x", SPOOR_CU_NONE, SPOOR_DIGITS_SHORTEST, SPOOR_HINT_SERIES}};
    *held = spoor_report_new("rows");
    *made = spoor_report_new("rows");
    struct spoor_sheet *h = spoor_report_rows(*held, "rows", 6, SPOOR_FORMATS_ALL);
    struct spoor_sheet *m = spoor_report_rows_source(*made, "rows", 6, SPOOR_FORMATS_ALL, N_SOURCE, fill_row, pad);
    for (size_t c = 0; c < 6; c++) {
        spoor_sheet_column(h, c, cols[c].name, cols[c].unit, cols[c].digits, cols[c].hint);
        spoor_sheet_column(m, c, cols[c].name, cols[c].unit, cols[c].digits, cols[c].hint);
    }
    for (size_t i = 0; i < N_SOURCE; i++)
        fill_row(pad, h, i);
}

/* A source sheet (rows made while rendered, on threads) spells the same bytes
 * as the same rows held, in every format, across many blocks; rows of width
 * `pad` or more, so that with a large pad a block's text goes to the stream
 * whole (wbuf_write) rather than through the buffer. */
static void check_source_sheet(int pad)
{
    struct spoor_report *held, *made;
    held_and_made(&pad, &held, &made);
    for (enum spoor_output_format f = SPOOR_FORMAT_TABLE; f <= SPOOR_FORMAT_JSONL; f++) {
        char *want = render(held, f, 1), *one = render(made, f, 1), *two = render(made, f, 2);
        assert_true(strlen(want) > (size_t)N_SOURCE * (size_t)pad);
        assert_string_equal(one, want);
        assert_string_equal(two, want);
        free(want);
        free(one);
        free(two);
    }
    spoor_report_free(held);
    spoor_report_free(made);
}

static void test_source_sheet(void **state)
{
    (void)state;
    check_source_sheet(0);
    check_source_sheet(200);
    struct spoor_report *r = spoor_report_new("made");
    struct spoor_sheet *m = spoor_report_rows_source(r, "rows", 6, SPOOR_FORMATS_ALL, 2, fill_row, NULL);
    const char *names[] = {"id", "name", "a", "b", "c", "x"};
    for (size_t c = 0; c < 6; c++)
        spoor_sheet_column(m, c, names[c], SPOOR_CU_NONE, SPOOR_DIGITS_SHORTEST, SPOOR_HINT_NONE);
    char *csv = render(r, SPOOR_FORMAT_CSV, 2);
    assert_string_equal(csv, "id,name,a,b,c,x\n0,\"call,0\",0,,7,\n1,\"call,1\",10,1,7,0.125\n");
    free(csv);
    spoor_report_free(r);
}

static size_t count_of(const char *text, const char *what)
{
    size_t n = 0;
    for (const char *p = text; (p = strstr(p, what)); p += strlen(what))
        n++;
    return n;
}

/* The HTML page: no text closes its script elements or opens a tag; the
 * sheets of JSON and of HTML shown, a table's not; a sheet of 5,000 rows
 * sampled to one in three, the same from a source sheet as held, a timeline
 * sheet of as many whole; no script loaded from elsewhere. */
static void test_html(void **state)
{
    (void)state;
    struct spoor_report *r = spoor_report_new("<b>made</b> & up");
    struct spoor_sheet *t = spoor_report_rows(r, "texts", 1, SPOOR_FORMATS_ALL);
    spoor_sheet_column(t, 0, "text", SPOOR_CU_NONE, 0, SPOOR_HINT_CATEGORY);
    spoor_sheet_text(t, "</script><script>alert(1)</script>");
    spoor_sheet_title(spoor_report_rows(r, "table only", 0, SPOOR_FORMAT_BIT(SPOOR_FORMAT_TABLE)), "TABLE-ONLY");
    struct spoor_sheet *h = spoor_report_rows(r, NULL, 1, SPOOR_FORMAT_BIT(SPOOR_FORMAT_HTML));
    spoor_sheet_title(h, "HTML-ONLY");
    spoor_sheet_column(h, 0, "n", SPOOR_CU_BYTES, 0, SPOOR_HINT_SERIES);
    spoor_sheet_int(h, 7);
    char *page = render(r, SPOOR_FORMAT_HTML, 1);
    assert_int_equal(count_of(page, "</script>"), 4); /* the data's, ECharts', the timeline view's, the report's */
    assert_non_null(strstr(page, "\\u003c/script>\\u003cscript>alert(1)\\u003c/script>"));
    assert_non_null(strstr(page, "<title>&lt;b&gt;made&lt;/b&gt; &amp; up</title>"));
    assert_null(strstr(page, "TABLE-ONLY"));
    assert_non_null(strstr(page, "\"title\":\"HTML-ONLY\""));
    assert_non_null(strstr(page, "{\"name\":\"n\",\"unit\":\"bytes\",\"hint\":\"series\"}"));
    assert_null(strstr(page, "<script src"));
    assert_true(strlen(page) > 1000000); /* ECharts inline */
    free(page);
    spoor_report_free(r);

    struct spoor_report *held, *made;
    held_and_made(NULL, &held, &made);
    char *want = render(held, SPOOR_FORMAT_HTML, 1), *got = render(made, SPOOR_FORMAT_HTML, 2);
    assert_string_equal(got, want);
    assert_non_null(strstr(got, "\"rows\":5000,\"every\":3,\"data\":[{\"id\":0,\"name\":\"call,0\",\"a\":0,\"b\":null,"));
    assert_non_null(strstr(got, ",{\"id\":3,\"name\":\"call,0\",\"a\":30,\"b\":3,\"c\":7,\"x\":0.375},"));
    assert_non_null(strstr(got, "{\"id\":4998,"));
    assert_null(strstr(got, "{\"id\":1,"));
    assert_null(strstr(got, "{\"id\":4999,"));
    free(want);
    free(got);
    spoor_report_free(held);
    spoor_report_free(made);

    r = spoor_report_new("timeline");
    t = spoor_report_rows(r, "timeline_tiles", 1, SPOOR_FORMAT_BIT(SPOOR_FORMAT_JSON));
    spoor_sheet_column(t, 0, "lane", SPOOR_CU_NONE, 0, SPOOR_HINT_TIMELINE);
    for (int i = 0; i < 5000; i++)
        spoor_sheet_int(t, i);
    page = render(r, SPOOR_FORMAT_HTML, 1);
    assert_non_null(strstr(page, "\"rows\":5000,\"every\":1,\"data\":[{\"lane\":0},{\"lane\":1},"));
    assert_non_null(strstr(page, "{\"lane\":4999}]"));
    free(page);
    spoor_report_free(r);
}

/* A sheet's footer, a list in a cell, a signed change and a title-only sheet. */
static void test_lines_and_lists(void **state)
{
    (void)state;
    struct spoor_report *r = spoor_report_new("lines");
    struct spoor_sheet *t = spoor_report_rows(r, "t", 2, SPOOR_FORMATS_ALL);
    spoor_sheet_column(t, 0, "k", SPOOR_CU_NONE, 0, SPOOR_HINT_CATEGORY);
    spoor_sheet_column(t, 1, "change", SPOOR_CU_CHANGE, 3, SPOOR_HINT_SERIES);
    spoor_sheet_text(t, "up");
    spoor_sheet_float(t, 0.125);
    spoor_sheet_text(t, "down");
    spoor_sheet_float(t, -0.5);
    spoor_sheet_footer(t, "(%d more)", 3);
    spoor_sheet_title(spoor_report_rows(r, "line", 0, SPOOR_FORMAT_BIT(SPOOR_FORMAT_TABLE)), "just a line");
    struct spoor_sheet *p = spoor_report_props(r, NULL, SPOOR_FORMAT_BIT(SPOOR_FORMAT_JSON));
    struct spoor_sheet *list = spoor_sheet_list_new(SPOOR_CU_NONE, SPOOR_DIGITS_SIG(3));
    spoor_sheet_float(list, 2.0 / 3);
    spoor_sheet_text(list, "x");
    spoor_sheet_prop(p, "list", SPOOR_CU_NONE, 0);
    spoor_sheet_sheet(p, list);
    expect_render(r, SPOOR_FORMAT_TABLE, "k     change\nup    +12.5%\ndown  -50.0%\n(3 more)\n\njust a line\n");
    expect_render(r, SPOOR_FORMAT_JSON,
                  "{\n  \"t\": [\n    {\"k\": \"up\", \"change\": 0.125}"
                  ",\n    {\"k\": \"down\", \"change\": -0.500}\n  ],\n  \"list\": [0.667, \"x\"]\n}\n");
    spoor_report_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table),        cmocka_unit_test(test_csv),         cmocka_unit_test(test_json),
        cmocka_unit_test(test_formats_shown), cmocka_unit_test(test_reading_back), cmocka_unit_test(test_format_parse),
        cmocka_unit_test(test_threads),      cmocka_unit_test(test_source_sheet), cmocka_unit_test(test_lines_and_lists),
        cmocka_unit_test(test_html),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
