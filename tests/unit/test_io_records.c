/* Records other than lines (docs/perf-notes.md, "Records"): JSON lines whose
 * strings hold raw newlines are never cut between their lines, at any chunk
 * size, by a plain file's parts or a gzip stream; a JSON events document is
 * cut after events only and rewritten one event per line, the same at any
 * chunk size. */
#include "test_io_kit.h"
#include "io/input.h"

/* Reads every part of path with records; fills the bytes delivered and the
 * offsets where chunks start. */
static size_t read_records(const char *path, size_t chunk_size, enum spoor_records records, char *out,
                           uint64_t *starts, size_t max_starts)
{
    struct spoor_input_opts opts = {.chunk_size = chunk_size, .no_index = true};
    struct spoor_input *in;
    struct spoor_error err;
    assert_int_equal(spoor_input_open(path, &opts, &in, &err), SPOOR_OK);
    spoor_input_set_records(in, records);
    struct spoor_chunk chunk = {0};
    size_t len = 0, n = 0;
    for (size_t p = 0; p < spoor_input_plan(in, 2); p++) {
        struct spoor_cursor *c;
        assert_int_equal(spoor_cursor_open(in, p, &c, &err), SPOOR_OK);
        int got;
        while ((got = spoor_cursor_next(c, &chunk, &err)) > 0) {
            assert_int_equal(chunk.offset, len);
            assert_true(n < max_starts);
            starts[n++] = chunk.offset;
            memcpy(out + len, chunk.data, chunk.len);
            len += chunk.len;
        }
        assert_int_equal(got, 0);
        spoor_cursor_close(c);
    }
    spoor_chunk_release(&chunk);
    spoor_input_close(in);
    return len;
}

/* DFTracer 2023 lines, every third with a raw newline in its file name. */
static char *raw_newline_lines(size_t *len)
{
    char *text = malloc(64 * 1024);
    size_t n = (size_t)sprintf(text, "[\n");
    for (int i = 0; i < 200; i++)
        n += (size_t)sprintf(text + n,
                             "{\"id\":\"%d\",\"name\":\"open\",\"ph\":\"X\",\"args\":{\"fname\":\"/p/%.*s%s\"}}\n",
                             i, i % 7, "abcdefg", i % 3 == 0 ? "\n/rest" : "");
    *len = n;
    return text;
}

static void test_raw_newlines_stay_together(void **state)
{
    (void)state;
    size_t len;
    char *text = raw_newline_lines(&len);
    size_t gz_len;
    unsigned char *gz = kit_gzip(text, len, 6, 0, &gz_len);
    const char *paths[] = {testutil_write("raw.pfw", text, len), testutil_write("raw.pfw.gz", (char *)gz, gz_len)};
    char *out = malloc(len);
    uint64_t starts[4096];
    for (size_t k = 0; k < 2; k++)
        for (size_t chunk = 8; chunk <= 300; chunk += 7) {
            size_t n = read_records(paths[k], chunk, SPOOR_RECORDS_JSON_LINES, out, starts, 4096);
            assert_int_equal(n, len);
            assert_memory_equal(out, text, len);
            for (size_t i = 1; i < 4096 && starts[i]; i++) {
                /* a chunk starts after a newline that ends a record */
                const char *nl = text + starts[i] - 1;
                assert_int_equal(*nl, '\n');
                assert_true(strncmp(nl + 1, "/rest", 5) != 0);
            }
            memset(starts, 0, sizeof starts);
        }
    /* lines mode still cuts at every newline */
    size_t n = read_records(paths[0], 8, SPOOR_RECORDS_LINES, out, starts, 4096);
    assert_int_equal(n, len);
    bool cut_inside = false;
    for (size_t i = 1; i < 4096 && starts[i]; i++)
        cut_inside |= strncmp(text + starts[i], "/rest", 5) == 0;
    assert_true(cut_inside);
    free(out);
    free(text);
    free(gz);
}

static void test_line_joins(void **state)
{
    (void)state;
    const char *cases[][3] = {
        /* line, next, joins */
        {"{\"a\":\"/p/x", "y\"}", "1"},
        {"{\"a\":1}", "{\"a\":2}", "0"},
        {"{\"a\":1},  ", "x", "0"},
        {"[", "{", "0"},
        {"{\"a\":\"x", "{\"b\":1}", "0"},   /* the next line starts an event */
        {"{\"a\":\"x", "  ", "-1"},           /* not known yet */
        {"   ", "y", "0"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *l = cases[i][0], *nx = cases[i][1];
        assert_int_equal(spoor_json_line_joins(l, l + strlen(l), nx, nx + strlen(nx)), atoi(cases[i][2]));
    }
}

/* A one-line document: events with brackets, commas and quotes in strings,
 * nested arrays of objects, members before and after the events. */
static const char DOC[] =
    "{\"schemaVersion\":1,\"deviceProperties\":[{\"id\":0},{\"id\":1}],\"traceEvents\":["
    "{\"name\":\"a},{\\\"\",\"ph\":\"X\",\"args\":{\"l\":[{\"x\":1},{\"y\":\"],[\"}]}},"
    "\n{\"name\":\"b\",\n \"ph\":\"B\"} , {\"name\":\"c\",\"ph\":\"E\"}"
    "],\"displayTimeUnit\":\"ns\",\"metadata\":{\"k\":[1,2]}}\n";
static const char REWRITTEN[] =
    ",\"schemaVersion\":1,\"deviceProperties\":[{\"id\":0},{\"id\":1}],\"traceEvents\":\n"
    "{\"name\":\"a},{\\\"\",\"ph\":\"X\",\"args\":{\"l\":[{\"x\":1},{\"y\":\"],[\"}]}}\n"
    " {\"name\":\"b\",  \"ph\":\"B\"} \n {\"name\":\"c\",\"ph\":\"E\"}"
    "\n,\"displayTimeUnit\":\"ns\",\"metadata\":{\"k\":[1,2]}} ";

static void test_events_document(void **state)
{
    (void)state;
    size_t len = sizeof DOC - 1, gz_len;
    assert_int_equal(len, sizeof REWRITTEN - 1);
    unsigned char *gz = kit_gzip(DOC, len, 6, 0, &gz_len);
    const char *paths[] = {testutil_write("doc.json", DOC, len), testutil_write("doc.json.gz", (char *)gz, gz_len)};
    char out[sizeof DOC];
    uint64_t starts[64];
    for (size_t k = 0; k < 2; k++)
        for (size_t chunk = 1; chunk <= len + 1; chunk++) {
            memset(starts, 0, sizeof starts);
            size_t n = read_records(paths[k], chunk, SPOOR_RECORDS_JSON_EVENTS, out, starts, 64);
            assert_int_equal(n, len);
            assert_memory_equal(out, REWRITTEN, len);
            for (size_t i = 1; i < 64 && starts[i]; i++) /* cut after an event (or the array) */
                assert_int_equal(out[starts[i] - 1], '\n');
        }
    /* a bare array */
    const char arr[] = "[{\"a\":\"[\"},{\"b\":2}]";
    const char *path = testutil_write("arr.json", arr, sizeof arr - 1);
    size_t n = read_records(path, 4, SPOOR_RECORDS_JSON_EVENTS, out, starts, 64);
    assert_int_equal(n, sizeof arr - 1);
    assert_memory_equal(out, " {\"a\":\"[\"}\n{\"b\":2}\n", n);
    free(gz);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_line_joins),
        cmocka_unit_test(test_raw_newlines_stay_together),
        cmocka_unit_test(test_events_document),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
